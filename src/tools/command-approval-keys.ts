import { HintgateError } from '../errors/index.js';
import { expandCommands } from './expand-commands.js';
import { type CommandKeys, keysOfLine } from './keys-of-line.js';
import { type BashGrammar, loadBashGrammar } from './load-bash-grammar.js';
import { commandTooLong } from './max-command-length.js';

/** The key of a command line over `MAX_COMMAND_LENGTH`. */
export const TOO_LONG_KEY = '(command too long)';

/**
 * {@link commandApprovalKeys} with the grammar at hand, synchronous: what `run_command`'s
 * approval-key function uses once the grammar has loaded.
 */
export function approvalKeysWith(
  grammar: BashGrammar,
  command: string,
  workspace?: string,
): CommandKeys {
  const tooLong = commandTooLong(command);
  if (tooLong !== undefined) {
    return { keys: [TOO_LONG_KEY], opaque: [{ reason: tooLong, hidesCommand: true }] };
  }
  return keysOfLine(expandCommands(grammar, command), workspace);
}

/**
 * Approval keys of a shell command line, read with the bash grammar: per command it runs,
 * the program and its subcommand as a person would approve them (`npm test`, `git status`
 * for `git -C x status`, `npm run build`, `ls` for `ls -la src`, `python -m pytest`), never
 * the raw string, so that one approval covers the same command with other files or flags;
 * the commands of substitutions, `sh -c`, `eval`, `find -exec`, `xargs` and the runners it
 * sees through (`sudo`, `env`, `timeout`, `watch`, `su -c`, ...; `sudo git push` keys as
 * `sudo git push` and `git push`); `> file:<path>` per file written by a redirection; `NAME=`
 * for a bare assignment. Beside the keys, `opaque` lists what is not fully understood
 * (substitutions, expansions, globs, assignments outside the safe set, options such as
 * `git -c` or `--output`, runners whose command cannot be named), each with its reason; a
 * call with any is never matched by an allow rule on keys or a remembered approval.
 *
 * @param command The command line, as `run_command` gets it.
 * @param workspace Where the command runs; without it, relative targets are keyed as
 * normalized paths (`> file:out.log`) and links are not resolved.
 * @throws HintgateError `invalid_option` (at once, not as a rejection) when `command` is not a
 * string or `workspace` is given but not a path.
 */
export function commandApprovalKeys(command: string, workspace?: string): Promise<CommandKeys> {
  if (typeof command !== 'string') {
    throw new HintgateError('invalid_option', 'commandApprovalKeys: command must be a string.');
  }
  if (workspace !== undefined && (typeof workspace !== 'string' || workspace === '')) {
    throw new HintgateError(
      'invalid_option',
      'commandApprovalKeys: workspace must be the path of a directory when given.',
    );
  }
  return loadBashGrammar().then((grammar) => approvalKeysWith(grammar, command, workspace));
}
