import { parseShellCommand, type Redirect } from './parse-shell-command.js';
import { programName, unwrapCommand } from './unwrap-command.js';

/** One command a shell command line runs, wrappers taken apart. */
export interface ExpandedCommand {
  /** Wrappers kept because they change what runs: `sudo`, `doas`, `xargs`. */
  readonly prefix: readonly string[];
  /** The program, a standard system path reduced to its name; '' for a bare redirection. */
  readonly program: string;
  /** Its arguments after quote removal. */
  readonly args: readonly string[];
  /** Its redirections (none for the commands of `find -exec`). */
  readonly redirects: readonly Redirect[];
  /** Pipeline number, unique across the whole command line. */
  readonly pipeline: number;
  /** Position in the pipeline, 0 for the first stage. */
  readonly stage: number;
  /** True when a wrapper runs it in another directory (`env -C dir`, `sudo -D dir`). */
  readonly chdir: boolean;
}

/** Shells that run `-c CODE`. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'fish',
  'csh',
  'tcsh',
]);
/** Shell options that take a value: `-o pipefail`, `+O extglob`, `--rcfile FILE`. */
const SHELL_VALUE_OPTIONS = new Set(['--rcfile', '--init-file']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const MAX_DEPTH = 4;

/**
 * The code a shell runs with `-c`: the first operand after the options when one of them
 * is `-c`, alone or combined (`-ec`, `-lc`, `-euxc`), `--` and `-` ending the options and
 * `-o`/`+o`/`-O`/`+O` (also at the end of a group, `-eo`) and `--rcfile` taking a value.
 * Undefined for a shell that runs a script file or reads stdin.
 */
export function shellInlineCode(args: readonly string[]): string | undefined {
  let inline = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--' || arg === '-') return inline ? args[i + 1] : undefined;
    if (arg.startsWith('--')) {
      if (SHELL_VALUE_OPTIONS.has(arg)) i += 1;
    } else if (/^[-+][A-Za-z]+$/.test(arg)) {
      if (arg.startsWith('-') && arg.includes('c')) inline = true;
      if (/[oO]$/.test(arg)) i += 1;
    } else {
      return inline ? arg : undefined;
    }
  }
  return undefined;
}

/** Shell code a command runs itself: `sh -c CODE` (any spelling of `-c`), `eval CODE`. */
const innerCode = (program: string, args: readonly string[]): string | undefined => {
  if (program === 'eval') return args.join(' ');
  return SHELLS.has(program) ? shellInlineCode(args) : undefined;
};

/** Commands `find` runs per file: the words after `-exec` up to `;` or `+`. */
const findExecs = (args: readonly string[]): string[][] => {
  const runs: string[][] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (!FIND_EXEC.has(args[i] as string)) continue;
    let end = i + 1;
    while (end < args.length && args[end] !== ';' && args[end] !== '+') end += 1;
    runs.push(args.slice(i + 1, end));
    i = end;
  }
  return runs;
};

/**
 * Every command a shell command line runs, as far as can be told without running it: the
 * simple commands of {@link parseShellCommand} (substitutions included), unwrapped
 * (`sudo env A=1 rm x` is `rm` with prefix `sudo`), plus the code of `sh -c`, `bash -c`
 * and `eval` and the commands of `find -exec`, read the same way (four levels deep).
 */
export function expandCommands(command: string): ExpandedCommand[] {
  const out: ExpandedCommand[] = [];
  let offset = 0;
  const visit = (line: string, depth: number): void => {
    const base = offset;
    const commands = parseShellCommand(line);
    offset += commands.reduce((most, c) => Math.max(most, c.pipeline + 1), 0);
    for (const command of commands) {
      const place = { pipeline: base + command.pipeline, stage: command.stage };
      const add = (words: readonly string[], redirects: readonly Redirect[], level: number) => {
        const unwrapped = unwrapCommand(words);
        const program = programName(unwrapped.words[0] ?? '');
        const args = unwrapped.words.slice(1);
        out.push({
          prefix: unwrapped.prefix,
          program,
          args,
          redirects,
          ...place,
          chdir: unwrapped.chdir,
        });
        if (level >= MAX_DEPTH) return;
        const code = innerCode(program, args);
        if (code !== undefined) visit(code, level + 1);
        if (program === 'find') for (const run of findExecs(args)) add(run, [], level + 1);
      };
      add(command.words, command.redirects, depth);
    }
  };
  visit(command, 0);
  return out;
}
