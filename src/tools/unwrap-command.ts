import { assignmentOf } from './assignment-word.js';
import { scanOptions } from './scan-options.js';
import type { RunnerSpec } from './shell-runners.js';
import type { Assignment, ShellWord } from './shell-syntax.js';

/** What a runner (`sudo`, `env`, `timeout 10`, `su -c`, ...) runs, as {@link unwrapCommand} reads it. */
export type RunnerStep =
  | {
      /** It runs `words` as a command (the program first). */
      readonly kind: 'target';
      readonly words: readonly ShellWord[];
      /** Variables it sets for the command (`env A=1 cmd`, `sudo A=1 cmd`). */
      readonly assignments: readonly Assignment[];
      /** True when the command runs in another directory (`env -C dir`). */
      readonly chdir: boolean;
      /** Set when the way it takes the command always needs a person (`env -S`). */
      readonly asks?: string;
    }
  | {
      /** It runs `code` with a shell (`su -c CODE`, `watch 'a | b'`, `sudo -s cmd`). */
      readonly kind: 'code';
      readonly code: ShellWord;
      readonly chdir: boolean;
    }
  /** It runs no command (`command -v git`, `sudo -l`, `exec 3>file`). */
  | { readonly kind: 'none' }
  /** It runs something that cannot be named; `reason` says why. */
  | { readonly kind: 'hidden'; readonly reason: string };

const MAX_SPLIT_WORDS = 10_000;

/** The words of `rest` joined with spaces, as a shell gets them from `watch` or `sudo -s`. */
const joined = (name: string, rest: readonly ShellWord[]): RunnerStep => {
  const hidden = rest.find((word) => word.value === undefined);
  if (hidden !== undefined) {
    return {
      kind: 'hidden',
      reason: `${name} runs its arguments as shell code, and ${hidden.opaque ?? hidden.source} is decided by the shell`,
    };
  }
  const source = rest.map((word) => word.source).join(' ');
  return {
    kind: 'code',
    code: { source, value: rest.map((word) => word.value).join(' ') },
    chdir: false,
  };
};

/** Splits the string of `env -S` into words; undefined when it holds anything but plain words. */
export type SplitWords = (text: string) => readonly ShellWord[] | string;

/**
 * Reads what the runner `name` (with its `spec` from `RUNNERS`) runs from its arguments:
 * its options (each one known: an option it does not know could take the next word as a
 * value, so the command cannot be told), `NAME=VALUE` words, operands before the command
 * (timeout's duration), code options (`su -c`), and `env -S`, whose string `split` reads.
 */
export function unwrapCommand(
  name: string,
  spec: RunnerSpec,
  args: readonly ShellWord[],
  split: SplitWords,
): RunnerStep {
  const scan = scanOptions(args, spec);
  if (scan.problem !== undefined) {
    return { kind: 'hidden', reason: `cannot tell what ${name} runs: ${scan.problem}` };
  }
  const options = [...scan.options];
  let next = scan.next;
  if (name === 'su' || name === 'runuser' || name === 'flock') {
    // These read options after their operand too: `su root -c CODE`, `flock FILE -c CODE`.
    while (next < args.length && !(name === 'runuser' && options.some((o) => o.name === '-u'))) {
      const more = scanOptions(args, spec, next + 1);
      if (more.problem !== undefined) {
        return { kind: 'hidden', reason: `cannot tell what ${name} runs: ${more.problem}` };
      }
      if (more.options.length === 0) break;
      options.push(...more.options);
      next = more.next;
    }
  }
  const has = (list: readonly string[] | undefined): boolean =>
    list !== undefined && options.some((option) => list.includes(option.name));
  if (has(spec.none)) return { kind: 'none' };
  const chdir = has(spec.chdir);
  const code = options.find((option) => spec.code?.includes(option.name));
  if (code?.value !== undefined) return { kind: 'code', code: code.value, chdir };
  if (name === 'script') {
    // Its operand is the file it records to; without -c it starts a shell.
    return {
      kind: 'hidden',
      reason: 'script without -c starts a shell that reads commands from its input',
    };
  }
  const splitString = options.find(
    (option) => option.name === '-S' || option.name === '--split-string',
  );
  if (name === 'env' && splitString?.value !== undefined) {
    const text = splitString.value.value;
    const words = text === undefined ? (splitString.value.opaque ?? 'an expansion') : split(text);
    if (typeof words === 'string') {
      return {
        kind: 'hidden',
        reason: `env -S runs the string ${splitString.value.source}, and ${words}`,
      };
    }
    if (words.length > MAX_SPLIT_WORDS) return { kind: 'hidden', reason: 'env -S string too long' };
    // The split words stand where -S was; env reads them like its own arguments again.
    const rest = args.slice(scan.next);
    return {
      kind: 'target',
      words: [{ source: 'env', value: 'env' }, ...words, ...rest],
      assignments: [],
      chdir,
      asks: `env -S splits the string ${splitString.value.source} into a command`,
    };
  }
  let i = next;
  const assignments: Assignment[] = [];
  if (spec.assigns === true) {
    for (; i < args.length; i += 1) {
      const assignment = assignmentOf(args[i] as ShellWord, 'value');
      if (assignment === undefined) break;
      assignments.push(assignment);
    }
  }
  if (name === 'su' || name === 'runuser') {
    // `su [user] [args]` without -c starts the user's shell; `runuser -u user cmd` runs cmd.
    const user = options.some((option) => option.name === '-u' || option.name === '--user');
    if (name === 'runuser' && user && i < args.length) {
      return { kind: 'target', words: args.slice(i), assignments, chdir };
    }
    return {
      kind: 'hidden',
      reason: `${name} without -c starts a shell that reads commands from its input`,
    };
  }
  const operands = spec.operands ?? 0;
  if (args.length - i < operands) return { kind: 'none' };
  i += operands;
  const rest = args.slice(i);
  if (rest.length === 0 && has(spec.shell)) {
    return { kind: 'hidden', reason: `${name} starts a shell that reads commands from its input` };
  }
  if (rest.length === 0) {
    return spec.shellWithout === true
      ? { kind: 'hidden', reason: `${name} starts a shell that reads commands from its input` }
      : { kind: 'none' };
  }
  if (name === 'coproc' && rest.some((word) => ['{', '}', '(', ')'].includes(word.value ?? ''))) {
    return { kind: 'hidden', reason: 'coproc with a compound command is not read' };
  }
  if (has(spec.shell) || (spec.joins === true && !has(spec.argv))) {
    const step = joined(name, rest);
    return step.kind === 'code' ? { ...step, chdir } : step;
  }
  return { kind: 'target', words: rest, assignments, chdir };
}
