import { createFetchAllowList } from '../tools/early.js';

/** The entries of `--fetch-allow`, or the one-line reason they are wrong. */
export type FetchAllowArg =
  | { readonly ok: true; readonly entries: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Reads the values of a repeatable `--fetch-allow LIST` option: each a comma-separated list
 * of IP addresses, CIDR ranges and host names that `web_fetch` may reach although they are
 * private (see `fetchAllow` of the workspace tools).
 */
export function fetchAllowArg(values: unknown): FetchAllowArg {
  const given: unknown[] = values === undefined ? [] : Array.isArray(values) ? values : [values];
  const entries = given
    .flatMap((value) => String(value).split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (given.length > 0 && entries.length === 0) {
    return {
      ok: false,
      message: '--fetch-allow needs a value, e.g. --fetch-allow 127.0.0.1,10.0.0.0/8.',
    };
  }
  try {
    createFetchAllowList(entries);
  } catch (error) {
    return { ok: false, message: `--fetch-allow: ${(error as Error).message}` };
  }
  return { ok: true, entries };
}
