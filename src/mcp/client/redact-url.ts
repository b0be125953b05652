/**
 * `url` as it may be shown in messages and logs: without user name and password, each query
 * value and the fragment replaced by `…` (the query's names stay, to tell URLs apart). A
 * server's URL often carries a secret (an API key expanded from the environment), and
 * messages end up in terminals, logs and bug reports.
 */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return '(an invalid URL)';
  }
  const query = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=')[0]}=…`)
    .join('&');
  const base = parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  return `${base}${parsed.pathname}${query === '' ? '' : `?${query}`}${parsed.hash === '' ? '' : '#…'}`;
}

/**
 * `text` with `url` and the secrets it may carry (password, query values, fragment)
 * replaced as in {@link redactUrl}: for messages of other code that quote the URL.
 */
export function redactUrlIn(text: string, url: URL): string {
  const secrets = [
    url.password,
    decodeURIComponent(url.password),
    ...[...url.searchParams.values()],
    url.hash.slice(1),
  ].filter((secret) => secret.length >= 4);
  let redacted = text.replaceAll(url.href, redactUrl(url));
  for (const secret of secrets) redacted = redacted.replaceAll(secret, '…');
  return redacted;
}
