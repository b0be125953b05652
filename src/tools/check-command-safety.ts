import { posix } from 'node:path';
import { HintgateError } from '../errors/index.js';
import {
  dangerOf,
  isRooted,
  type PlaceContext,
  placeContext,
  placeOf,
  within,
} from './dangerous-places.js';
import { expandCommands } from './expand-commands.js';
import { type BashGrammar, loadBashGrammar } from './load-bash-grammar.js';
import { commandTooLong } from './max-command-length.js';
import { baseName } from './program-key.js';
import { OTHER_SHELLS, READ_SHELLS } from './shell-runners.js';
import type { ExpandedCommand, ExpandedLine, ShellWord } from './shell-syntax.js';

const DISK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|dm-|mem$|kmem$|port$)/;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** Programs that run code they are given: from a file, a substitution or their input. */
const RUNS_CODE = new Set([
  ...READ_SHELLS,
  ...OTHER_SHELLS,
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'php',
  'deno',
  'bun',
  'tsx',
  'source',
  '.',
  'eval',
]);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh']);
const DELETERS = new Set(['rm', 'unlink', 'shred', 'rmdir']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
/** `find` options that select nothing: with only these, `-delete` deletes everything. */
const FIND_NEUTRAL = new Set(['-delete', '-depth', '-xdev', '-mount', '-P', '-H', '-L']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** fd patterns that match every name. */
const MATCH_ALL = new Set(['', '.', '^', '.*', '$']);

/** Options of {@link checkCommandSafety}. */
export interface CommandSafetyOptions {
  /**
   * The directory the command starts in, the workspace. Given, relative targets are judged
   * where they lead from it, and recursive deletion outside it (except under a temporary
   * directory) is refused; without it, only the places listed in the docs are.
   */
  readonly workspace?: string;
  /** The home directory `~` and `$HOME` stand for. Default `$HOME`, else `os.homedir()`. */
  readonly home?: string;
}

/** A word as the gate judges it: its value, or as written without quotes when the shell decides. */
const text = (word: ShellWord | undefined): string =>
  word === undefined ? '' : (word.value ?? word.source.replaceAll('"', '').replaceAll("'", ''));

const hasShortFlag = (args: readonly string[], letters: string): boolean =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l)));

/** Operands: words that are not options, and every word after `--`. */
const operands = (args: readonly string[]): string[] => {
  const end = args.indexOf('--');
  const before = (end === -1 ? args : args.slice(0, end)).filter((a) => !a.startsWith('-'));
  return end === -1 ? before : [...before, ...args.slice(end + 1)];
};

/**
 * `find PLACE ACTION` where nothing selects files and ACTION deletes (`-delete`, or `-exec`
 * of `rm`, `shred`, ...), PLACE being dangerous: it deletes everything under PLACE.
 */
const findDeletesAll = (args: readonly string[], context: PlaceContext): string | undefined => {
  const start = args[0] === undefined || args[0].startsWith('-') ? '.' : args[0];
  const danger = dangerOf(start, context);
  if (danger === undefined) return undefined;
  const rest = args.slice(start === args[0] ? 1 : 0);
  let deletes = false;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '-maxdepth' || arg === '-mindepth') i += 1;
    else if (arg === '-delete') deletes = true;
    else if (FIND_EXEC.has(arg)) {
      if (DELETERS.has(baseName(rest[i + 1] ?? ''))) deletes = true;
      while (i < rest.length && rest[i] !== ';' && rest[i] !== '+') i += 1;
    } else if (!FIND_NEUTRAL.has(arg)) return undefined;
  }
  return deletes ? danger : undefined;
};

/** `fd MATCH-ALL PLACE -x rm ...`: deletes everything under PLACE. */
const fdDeletesAll = (args: readonly string[], context: PlaceContext): string | undefined => {
  const exec = args.findIndex((a) => ['-x', '--exec', '-X', '--exec-batch'].includes(a));
  if (exec === -1 || !DELETERS.has(baseName(args[exec + 1] ?? ''))) return undefined;
  const [pattern, ...paths] = operands(args.slice(0, exec));
  if (pattern !== undefined && !MATCH_ALL.has(pattern)) return undefined;
  for (const path of paths.length === 0 ? ['.'] : paths) {
    const danger = dangerOf(path, context);
    if (danger !== undefined) return danger;
  }
  return undefined;
};

/** Why one command is plainly dangerous, or undefined. */
const judge = (command: ExpandedCommand, context: PlaceContext): string | undefined => {
  const program = baseName(command.program);
  const args = command.args.map(text);
  const recursive = hasShortFlag(args, 'rR') || args.includes('--recursive');
  if (program === 'rm') {
    if (args.includes('--no-preserve-root')) return 'it deletes the whole file system';
    if (recursive) {
      for (const target of operands(args)) {
        const danger = dangerOf(target, context);
        if (danger !== undefined) return `it recursively deletes "${target}" (${danger})`;
      }
    }
  }
  if (/^mkfs(\.|$)/.test(program) || ['mke2fs', 'mkswap', 'wipefs'].includes(program)) {
    return 'it formats or wipes a disk';
  }
  if (program === 'dd') {
    const out = args.find((a) => a.startsWith('of=/dev/') && a !== 'of=/dev/null');
    if (out !== undefined) return `it writes raw data to the device ${out.slice(3)}`;
  }
  if (program === 'shred' && operands(args).some((a) => a.startsWith('/dev/'))) {
    return 'it overwrites a device';
  }
  if (POWER.has(program)) return `it would ${program} the machine`;
  if (['init', 'telinit'].includes(program) && ['0', '6'].includes(args[0] ?? '')) {
    return 'it would halt or restart the machine';
  }
  if (
    program === 'systemctl' &&
    ['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate'].includes(
      operands(args)[0] ?? '',
    )
  ) {
    return 'it would stop or restart the machine';
  }
  if (['chmod', 'chown', 'chgrp'].includes(program)) {
    for (const target of operands(args).slice(1)) {
      const danger = dangerOf(target, context);
      if (danger === undefined) continue;
      if (recursive || danger === 'the whole file system') {
        return `it changes the ownership or permissions of "${target}" and everything under it (${danger})`;
      }
    }
  }
  if (program === 'mv') {
    for (const source of operands(args).slice(0, -1)) {
      const place = placeOf(source, context.cwds[0], context);
      if (place === undefined || !posix.isAbsolute(place.path)) continue;
      if (place.path === '/' || within(place.path, context.home)) {
        return `it moves "${source}" away (the root or the home directory)`;
      }
    }
  }
  if (program === 'find') {
    const danger = findDeletesAll(args, context);
    if (danger !== undefined) return `it deletes everything under "${args[0] ?? '.'}" (${danger})`;
  }
  if (program === 'fd' || program === 'fdfind') {
    const danger = fdDeletesAll(args, context);
    if (danger !== undefined) return `it deletes everything it finds (${danger})`;
  }
  if (program === 'kill' && args.length >= 2 && args.at(-1) === '-1') {
    return 'it kills every process of the user';
  }
  for (const redirect of command.redirects) {
    const target = text(redirect.target);
    if (WRITE_REDIRECTS.has(redirect.op) && DISK_DEVICE.test(target)) {
      return `it writes to the device ${target}`;
    }
  }
  return undefined;
};

/** Follows `cd`, `pushd` and `popd`: adds the directories the rest may run in. */
const changeDirectory = (command: ExpandedCommand, context: PlaceContext): void => {
  const add = (dir: string | undefined, start = false): void => {
    if (!context.cwds.some((c) => c.dir === dir && c.start === start)) {
      context.cwds.push({ dir, start });
    }
  };
  const program = baseName(command.program);
  if (command.chdir || program === 'popd') add(undefined);
  if (program !== 'cd' && program !== 'pushd') return;
  const target = operands(command.args.map(text))[0];
  if (target === undefined) {
    add(program === 'cd' ? context.home : undefined);
    return;
  }
  if (target === '-') {
    add(undefined);
    return;
  }
  for (const cwd of isRooted(target) ? [undefined] : [...context.cwds]) {
    const place = placeOf(target, cwd, context);
    if (place === undefined || !posix.isAbsolute(place.path)) add(undefined);
    else add(place.path, cwd?.start === true);
  }
};

/** Why the line runs code it downloads, or undefined. */
const runsDownload = (line: ExpandedLine): string | undefined => {
  const downloads = new Set<number>();
  /** Per pipeline, its first stage that downloads, and the downloader. */
  const firstDownload = new Map<number, { stage: number; name: string }>();
  for (const command of line.commands) {
    const name = baseName(command.program);
    if (!DOWNLOADERS.has(name)) continue;
    for (const id of command.within) downloads.add(id);
    const known = firstDownload.get(command.pipeline);
    if (known === undefined || command.stage < known.stage) {
      firstDownload.set(command.pipeline, { stage: command.stage, name });
    }
  }
  for (const runner of line.commands) {
    const name = baseName(runner.program);
    if (!RUNS_CODE.has(name)) continue;
    const words = [
      ...runner.args,
      ...runner.redirects.flatMap((r) => [r.target, r.input]).filter((w) => w !== undefined),
    ];
    if (words.some((word) => word.substitutions?.some((id) => downloads.has(id)))) {
      return `it runs code downloaded from the network (${name} runs the output of a download)`;
    }
    const source = firstDownload.get(runner.pipeline);
    if (source !== undefined && source.stage < runner.stage) {
      return `it pipes a download (${source.name}) into ${name}, running code from the network`;
    }
  }
  return undefined;
};

/** Why a line read by the grammar is plainly dangerous, or undefined (see {@link checkCommandSafety}). */
export function judgeCommandLine(
  line: ExpandedLine,
  options: CommandSafetyOptions = {},
): string | undefined {
  for (const fn of line.functions) {
    const recursive = line.commands.some(
      (c) => c.inFunction === fn.name && baseName(c.program) === fn.name,
    );
    if (fn.forks && recursive) return 'it is a fork bomb';
  }
  const download = runsDownload(line);
  if (download !== undefined) return download;
  const context = placeContext(options);
  for (const redirect of line.redirects) {
    const target = text(redirect.target);
    if (WRITE_REDIRECTS.has(redirect.op) && DISK_DEVICE.test(target)) {
      return `it writes to the device ${target}`;
    }
  }
  for (const command of line.commands) {
    if (command.chdir) changeDirectory(command, context);
    const reason = judge(command, context);
    if (reason !== undefined) return reason;
    changeDirectory(command, context);
  }
  return undefined;
}

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `checkCommandSafety: ${message}`);
};

/** {@link checkCommandSafety} with the grammar at hand, synchronous. */
export function checkCommandSafetyWith(
  grammar: BashGrammar,
  command: string,
  options: CommandSafetyOptions = {},
): string | undefined {
  const tooLong = commandTooLong(command);
  if (tooLong !== undefined) return tooLong;
  return judgeCommandLine(expandCommands(grammar, command), options);
}

/**
 * The command safety gate of `run_command`: says why a command is plainly dangerous, or
 * resolves to undefined. It refuses recursive deletion (`rm -r`, `find -delete` or `find
 * -exec rm` with no test, `fd . DIR -x rm`, recursive `chmod`/`chown`/`chgrp`) of a dangerous
 * place: `/`, a top-level system directory, the home directory or one above it, the workspace
 * or one above it, everything in the current directory (`.`, `*`, `$PWD`) or a place above
 * it (`..`), and, when the workspace is given, anything outside it but under a temporary
 * directory (targets are normalized first: `/./etc`, `//etc`, `/tmp/../home`, `~/.`). It
 * also refuses formatting disks (`mkfs`, `wipefs`), raw writes to devices (`dd of=/dev/sda`,
 * `> /dev/sda`), shutdown and reboot, moving `/` or `~` away, fork bombs (a function that
 * calls itself in a pipeline or in the background), code downloaded and run (`curl ... | sh`,
 * `bash -c "$(wget ...)"`, `. <(curl ...)`, `python <(curl ...)`), and `kill -9 -1`,
 * wherever they are in the line, as the bash grammar reads it: after `&&` or `;`, in a
 * pipeline, a substitution, `sh -c`, `eval`, `env -S`, `find -exec`, behind `sudo`, `env`,
 * `xargs` and the other runners `run_command` sees through, and after `cd` (a relative target
 * is judged from every directory the line may be in). A line over `MAX_COMMAND_LENGTH` is
 * refused unread. A deny list is not a sandbox: it catches plain accidents, and policy rules
 * and approvals do the rest.
 *
 * @param command The command line.
 * @param options The workspace the command starts in and the home directory.
 * @throws HintgateError `invalid_option` (at once, not as a rejection) when `command` is not
 * a string or an option is not a path.
 */
export function checkCommandSafety(
  command: string,
  options: CommandSafetyOptions = {},
): Promise<string | undefined> {
  if (typeof command !== 'string') invalid('command must be a string.');
  if (typeof options !== 'object' || options === null) {
    invalid('options must be an object such as { workspace: "/path/to/workspace" }.');
  }
  for (const key of ['workspace', 'home'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || !posix.isAbsolute(value))) {
      invalid(`${key} must be an absolute path when given.`);
    }
  }
  return loadBashGrammar().then((grammar) => checkCommandSafetyWith(grammar, command, options));
}
