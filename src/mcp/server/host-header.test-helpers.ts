import fc from 'fast-check';

/** The names a loopback server accepts, as `allowedHostnames('127.0.0.1')` gives them. */
export const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * The oracle of the Host fuzz tests, written independently of the parser: true when
 * `host` is one of the local names (any case) with nothing after it but an optional `:` and
 * a port of at most 5 digits up to 65535.
 */
export const isLocalhostHeader = (host: string): boolean => {
  const lower = host.toLowerCase();
  return LOCAL_NAMES.some((name) => {
    if (lower === name) return true;
    if (!lower.startsWith(`${name}:`)) return false;
    const port = lower.slice(name.length + 1);
    return /^\d{0,5}$/.test(port) && Number(port) <= 65_535;
  });
};

const PIECES = [
  'localhost',
  'LocalHost',
  '127.0.0.1',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[0:0:0:0:0:0:0:1]',
  '[fe80::1%25lo]',
  '[v1.x]',
  '::1',
  '127.1',
  '0x7f.1',
  '2130706433',
  'localhost.',
  'evil.com',
  'evil.com@',
  'user:pass@',
  '@',
  ':',
  ':80',
  ':3000',
  ':65535',
  ':65536',
  ':99999',
  ':123456',
  ':-1',
  ':0x50',
  '[',
  ']',
  '%',
  '%6c',
  '%2e',
  '/',
  '/mcp',
  '?',
  '#',
  '\\',
  ' ',
  '\t',
  '.',
  '*',
  ',',
  ';',
  '"',
  '<',
  'é',
  '\u00a0',
];

/** Host header values worth trying: random text, and random joins of tricky pieces. */
export const hostHeaderValues = (options: { readonly printable: boolean }) => {
  const text = options.printable
    ? fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
    : fc.string({ unit: 'grapheme' });
  return fc.oneof(
    text,
    fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((p) => p.join('')),
    fc
      .tuple(fc.constantFrom(...LOCAL_NAMES, ...PIECES), text)
      .map(([head, tail]) => `${head}${tail}`),
  );
};
