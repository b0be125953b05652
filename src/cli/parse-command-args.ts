import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Option definitions as `node:util` `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** The values parsed, or the one-line reason the arguments are wrong. */
export type ParsedCommandArgs =
  | { readonly ok: true; readonly values: Record<string, string | boolean | undefined> }
  | { readonly ok: false; readonly message: string };

/**
 * Parses the options of `hintgate <command>` (no positional arguments), turning
 * `parseArgs`' own errors into one line that names the option and ends with where to find
 * the usage. An empty string value counts as a missing value.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  options: CommandOptions,
): ParsedCommandArgs {
  const seeHelp = `Run "hintgate ${command} --help" for usage.`;
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const option = /'(-[^' ]*)/.exec(message ?? '')?.[1] ?? '';
    switch (code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
        return { ok: false, message: `unknown option "${option}". ${seeHelp}` };
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
        const boolean = options[option.replace(/^--?/, '')]?.type === 'boolean';
        return {
          ok: false,
          message: `option "${option}" ${boolean ? 'takes no value' : 'needs a value'}. ${seeHelp}`,
        };
      }
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
        const argument = /'([^']*)'/.exec(message ?? '')?.[1] ?? '';
        return {
          ok: false,
          message: `unexpected argument "${argument}"; ${command} takes only options. ${seeHelp}`,
        };
      }
      default:
        return { ok: false, message: `${message ?? String(error)} ${seeHelp}` };
    }
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === '') return { ok: false, message: `option "--${name}" needs a value. ${seeHelp}` };
  }
  return { ok: true, values: values as Record<string, string | boolean | undefined> };
}
