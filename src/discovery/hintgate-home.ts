import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';

/** Environment variable that moves hintgate's per-user folder (default `~/.hintgate`). */
export const HINTGATE_HOME_ENV = 'HINTGATE_HOME';

/**
 * hintgate's per-user folder: `$HINTGATE_HOME` when set, else `~/.hintgate`. It holds the
 * global tools layer (`tools/`) and the trusted project folders (`trusted-projects.json`).
 *
 * @throws HintgateError `invalid_option` when `HINTGATE_HOME` is set to a relative path.
 */
export function hintgateHome(env: Readonly<Record<string, string | undefined>>): string {
  const set = env[HINTGATE_HOME_ENV];
  if (set === undefined || set === '') return join(homedir(), '.hintgate');
  if (!isAbsolute(set)) {
    throw new HintgateError(
      'invalid_option',
      `${HINTGATE_HOME_ENV} is "${set}", a relative path; set it to an absolute path such as ${join(homedir(), '.hintgate')}.`,
    );
  }
  return resolve(set);
}
