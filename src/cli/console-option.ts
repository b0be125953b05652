/** `--console [PORT]` taken out of the arguments, or why it is wrong. */
export type ConsoleOption =
  | {
      readonly ok: true;
      /** The arguments without `--console` and its port. */
      readonly argv: readonly string[];
      /** Present when `--console` was given; `port` when it named one. */
      readonly console?: { readonly port?: number };
    }
  | { readonly ok: false; readonly message: string };

const PORT = /^\d{1,5}$/;

/**
 * Takes `--console`, `--console PORT` and `--console=PORT` out of `argv` (an option with an
 * optional value, which `parseArgs` cannot express). A following argument is its port only
 * when it is all digits.
 */
export function takeConsoleOption(argv: readonly string[]): ConsoleOption {
  const rest: string[] = [];
  let found: { port?: number } | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (arg !== '--console' && !arg.startsWith('--console=')) {
      rest.push(arg);
      continue;
    }
    if (found !== undefined) return { ok: false, message: '--console is given twice.' };
    let text: string | undefined;
    if (arg.startsWith('--console=')) text = arg.slice('--console='.length);
    else if (PORT.test(argv[index + 1] ?? '')) {
      text = argv[index + 1];
      index += 1;
    }
    if (text === undefined) {
      found = {};
      continue;
    }
    const port = PORT.test(text) ? Number(text) : Number.NaN;
    if (!(port >= 0 && port <= 65_535)) {
      return {
        ok: false,
        message: `--console "${text}" is not a port; use an integer from 0 to 65535 (0 or none picks a free one).`,
      };
    }
    found = { port };
  }
  return { ok: true, argv: rest, ...(found === undefined ? {} : { console: found }) };
}
