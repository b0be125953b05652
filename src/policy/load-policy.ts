import { readTextFile } from '../fs/index.js';
import { parsePolicyText } from './parse-policy-text.js';
import type { Policy } from './policy-types.js';

/** Options of {@link loadPolicy}. */
export interface LoadPolicyOptions {
  /**
   * Reads a file as UTF-8 text, given its absolute path. Default: `fs.promises.readFile`.
   * Rejecting with an error whose `code` is `ENOENT` reports the file as missing.
   */
  readonly readFile?: ((path: string) => Promise<string>) | undefined;
}

/**
 * Reads a policy file and checks it as {@link parsePolicyText} does: against
 * `schema/hintgate-policy.schema.json` first, then what a schema cannot say. `.yaml` and `.yml` files are read as YAML, `.json`
 * files as strict JSON; for any other extension, text that starts with `{` is read as JSON
 * and anything else as YAML.
 *
 * @param path Path of the file, absolute or relative to the working directory. Messages
 *   name the file as given here.
 * @throws HintgateError `invalid_option` when `path` is not a non-empty string, and
 *   `invalid_policy` when the file is missing, unreadable, empty, not valid YAML or JSON,
 *   not a mapping, or breaks a rule of {@link checkPolicy}; every problem is one line,
 *   starting with `file:line:column:` when the position is known.
 */
export async function loadPolicy(path: string, options: LoadPolicyOptions = {}): Promise<Policy> {
  const { text } = await readTextFile(path, {
    caller: 'loadPolicy',
    what: 'policy',
    readName: 'policy file',
    notFound: 'Policy file not found',
    howToCreate: 'for example with "mode: ask"',
    expected: 'a .yaml or .json file',
    code: 'invalid_policy',
    readFile: options.readFile,
  });
  return parsePolicyText(text, path);
}
