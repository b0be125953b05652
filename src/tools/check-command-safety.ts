import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { posix, resolve } from 'node:path';
import { HintgateError } from '../errors/hintgate-error.js';
import { type ExpandedCommand, expandCommands, SHELLS } from './expand-commands.js';

/** Top-level directories of a system whose recursive deletion or chmod ruins it. */
const SYSTEM_DIRS = new Set(
  (
    '/ /bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var ' +
    '/Applications /Library /System /Users /Volumes /private'
  ).split(' '),
);
const DISK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|dm-|mem$|kmem$|port$)/;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const RUNS_STDIN = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const FORK_BOMB = /([\w:.]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*&?\s*\1\s*&/;
const RUN_DOWNLOAD =
  /\b(sh|bash|zsh|dash|ksh|source|eval|python3?|perl|ruby|node)\b[^;&|]*(\$\(|`|<\()\s*(curl|wget)\b/;
const GLOB = /[*?[]/;
const HOME_PREFIX = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/;
const PWD_PREFIX = /^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`|~\+)(?=\/|$)/;

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

interface Context {
  /** The workspace as given and as its real path, when known. */
  readonly workspaces: readonly string[];
  readonly home: string;
  readonly temps: readonly string[];
  /** Directories the command may be in: the start and each `cd` target. */
  readonly cwds: Directory[];
}

/** A directory a command may run in. */
interface Directory {
  /** Absolute path; undefined when unknown (`cd "$X"`, `cd -`, `env -C`). */
  readonly dir: string | undefined;
  /** True for the workspace and places reached from it by relative `cd`s (`cd ..`). */
  readonly start: boolean;
}

/** Where a target word leads, or undefined when the shell decides (variables, odd globs). */
interface Place {
  /** Absolute, normalized; or relative and normalized when the directory is unknown. */
  readonly path: string;
  /** How it was written: from `/`, from `~`, or relative to the current directory. */
  readonly from: 'root' | 'home' | 'cwd';
  /** For `from: 'cwd'`: whether that directory was reached from the workspace by relative steps. */
  readonly start: boolean;
}

const within = (root: string, path: string): boolean => {
  const rel = posix.relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !posix.isAbsolute(rel));
};

/**
 * The place a target word names, the current directory being `cwd`: `~`, `$HOME`, `$PWD`,
 * `` `pwd` `` expanded; `/./etc`, `//etc`, `/etc/.`, `/tmp/../home` normalized; a trailing
 * `/*` (or a bare `*`) standing for the directory itself and a glob in the last part for
 * some entry of its directory. Undefined when the shell decides where it is.
 */
const placeOf = (word: string, cwd: Directory | undefined, context: Context): Place | undefined => {
  let text = word;
  let from: Place['from'] = 'cwd';
  if (HOME_PREFIX.test(text)) {
    text = text.replace(HOME_PREFIX, context.home);
    from = 'home';
  } else if (PWD_PREFIX.test(text)) {
    text = text.replace(PWD_PREFIX, '.');
  } else if (/^~[^/]/.test(text)) {
    // Another user's home directory: ~alice is as much a home as ~.
    return /^~[\w.-]+\/?$/.test(text)
      ? { path: context.home, from: 'home', start: false }
      : undefined;
  }
  if (/[$`]/.test(text)) return undefined;
  if (text.length > 1) text = text.replace(/(.)\/+$/, '$1');
  // "Everything in it" is the directory itself: *, .*, dir/*, dir/.*, /*.
  text = text.replace(/(^|\/)\.?\*+$/, '$1.');
  const parts = text.split('/');
  const last = parts.length - 1;
  if (parts.some((part, index) => GLOB.test(part) && index !== last)) return undefined;
  if (GLOB.test(parts[last] as string)) parts[last] = 'entry';
  text = parts.join('/');
  if (text.startsWith('/')) from = from === 'home' ? 'home' : 'root';
  let path: string;
  if (posix.isAbsolute(text)) path = posix.normalize(text);
  else if (cwd?.dir !== undefined) path = posix.resolve(cwd.dir, text);
  else path = posix.normalize(text);
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return { path, from, start: from === 'cwd' && cwd?.dir !== undefined && cwd.start };
};

/** Why deleting (or chmod-ing) `place` and all under it is dangerous, or undefined. */
const dangerOfPlace = (place: Place, context: Context): string | undefined => {
  const { path } = place;
  if (!posix.isAbsolute(path)) {
    // The directory is unknown: only what is plainly "here" or "above" can be told.
    if (path === '.') return 'everything in the current directory';
    if (path === '..' || path.startsWith('../')) return 'a place above the current directory';
    return undefined;
  }
  if (path === '/') return 'the whole file system';
  if (SYSTEM_DIRS.has(path)) return 'a system directory';
  if (within(path, context.home)) return 'the home directory or a directory above it';
  const workspaces = context.workspaces;
  if (workspaces.some((workspace) => within(path, workspace))) {
    return 'the workspace or a directory above it';
  }
  if (workspaces.length === 0 || workspaces.some((workspace) => within(workspace, path))) {
    return undefined;
  }
  // Outside the workspace: allowed under a temporary directory, when written as such.
  const deliberate = !(place.from === 'cwd' && place.start);
  if (deliberate && context.temps.some((temp) => path !== temp && within(temp, path))) {
    return undefined;
  }
  return 'a place outside the workspace';
};

/** The danger of a target word wherever the command may be, or undefined. */
const dangerOf = (word: string, context: Context): string | undefined => {
  const cwds = word.startsWith('/') || HOME_PREFIX.test(word) ? [undefined] : context.cwds;
  for (const cwd of cwds) {
    const place = placeOf(word, cwd, context);
    const danger = place === undefined ? undefined : dangerOfPlace(place, context);
    if (danger !== undefined) return danger;
  }
  return undefined;
};

const hasShortFlag = (args: readonly string[], letters: string): boolean =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l)));

/** Operands: words that are not options, and every word after `--`. */
const operands = (args: readonly string[]): string[] => {
  const end = args.indexOf('--');
  const before = (end === -1 ? args : args.slice(0, end)).filter((a) => !a.startsWith('-'));
  return end === -1 ? before : [...before, ...args.slice(end + 1)];
};

/** `find PLACE -delete` with no test that picks files, PLACE being dangerous. */
const deletesAll = (args: readonly string[], context: Context): string | undefined => {
  const start = args[0] === undefined || args[0].startsWith('-') ? '.' : args[0];
  const danger = dangerOf(start, context);
  if (danger === undefined) return undefined;
  const rest = args.slice(start === args[0] ? 1 : 0);
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '-maxdepth' || arg === '-mindepth') i += 1;
    else if (!['-delete', '-depth', '-xdev', '-mount', '-P', '-H', '-L'].includes(arg))
      return undefined;
  }
  return danger;
};

/** Why one command is plainly dangerous, or undefined. */
const judge = (command: ExpandedCommand, context: Context): string | undefined => {
  const { program, args } = command;
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
    /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(operands(args)[0] ?? '')
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
  if (program === 'find' && args.includes('-delete')) {
    const danger = deletesAll(args, context);
    if (danger !== undefined) return `it deletes everything under "${args[0] ?? '.'}" (${danger})`;
  }
  if (program === 'kill' && args.length >= 2 && args.at(-1) === '-1') {
    return 'it kills every process of the user';
  }
  for (const redirect of command.redirects) {
    if (WRITE_REDIRECTS.has(redirect.op) && DISK_DEVICE.test(redirect.target)) {
      return `it writes to the device ${redirect.target}`;
    }
  }
  return undefined;
};

/** Follows `cd`, `pushd` and `popd`: adds the directories the rest may run in. */
const changeDirectory = (command: ExpandedCommand, context: Context): void => {
  const add = (dir: string | undefined, start = false): void => {
    if (!context.cwds.some((c) => c.dir === dir && c.start === start)) {
      context.cwds.push({ dir, start });
    }
  };
  if (command.chdir || command.program === 'popd') add(undefined);
  if (command.program !== 'cd' && command.program !== 'pushd') return;
  const target = operands(command.args)[0];
  if (target === undefined) {
    add(command.program === 'cd' ? context.home : undefined);
    return;
  }
  if (target === '-') {
    add(undefined);
    return;
  }
  const absolute = target.startsWith('/') || HOME_PREFIX.test(target);
  for (const cwd of absolute ? [undefined] : [...context.cwds]) {
    const place = placeOf(target, cwd, context);
    if (place === undefined || !posix.isAbsolute(place.path)) add(undefined);
    else add(place.path, cwd?.start === true);
  }
};

const realOrSame = (path: string): string => {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
};

const makeContext = (options: CommandSafetyOptions): Context => {
  const workspace = options.workspace === undefined ? undefined : resolve(options.workspace);
  const workspaces =
    workspace === undefined ? [] : [...new Set([workspace, realOrSame(workspace)])];
  const home = posix.normalize(options.home ?? process.env.HOME ?? homedir());
  const temps = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', tmpdir()];
  if (process.env.TMPDIR !== undefined && posix.isAbsolute(process.env.TMPDIR)) {
    temps.push(process.env.TMPDIR);
  }
  return {
    workspaces,
    home: home.length > 1 ? home.replace(/\/+$/, '') : home,
    temps: [...new Set(temps.map((t) => posix.normalize(t).replace(/(.)\/+$/, '$1')))],
    cwds: [{ dir: workspaces.at(-1), start: workspaces.length > 0 }],
  };
};

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `checkCommandSafety: ${message}`);
};

/**
 * The command safety gate of `run_command`: says why a command is plainly dangerous, or
 * returns undefined. It refuses recursive deletion (`rm -r`, `find -delete` with no test,
 * recursive `chmod`/`chown`/`chgrp`) of a dangerous place: `/`, a top-level system
 * directory, the home directory or one above it, the workspace or one above it, everything in
 * the current directory (`.`, `*`, `$PWD`) or a place above it (`..`), and, when the
 * workspace is given, anything outside it but under a temporary directory (targets are
 * normalized first: `/./etc`, `//etc`, `/tmp/../home`, `~/.`). It also refuses formatting
 * disks (`mkfs`, `wipefs`), raw writes to devices (`dd of=/dev/sda`, `> /dev/sda`), shutdown
 * and reboot, moving `/` or `~` away, fork bombs, downloads piped or substituted into a shell
 * (`curl ... | sh`, `bash -c "$(wget ...)"`), and `kill -9 -1`, wherever they appear in the
 * command line: after `&&` or `;`, in a pipeline, a substitution, `sh -c` (also `sh -ec`,
 * `bash -lc`, `bash -c --`), `eval`, `find -exec`, behind `sudo`, `env` or `xargs`, and after
 * `cd` (a relative target is judged from every directory the line may be in). A deny list is
 * not a sandbox: it catches plain accidents, and policy rules and approvals do the rest.
 *
 * @param command The command line.
 * @param options The workspace the command starts in and the home directory.
 * @throws HintgateError `invalid_option` when `command` is not a string or an option is not
 * a path.
 */
export function checkCommandSafety(
  command: string,
  options: CommandSafetyOptions = {},
): string | undefined {
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
  if (FORK_BOMB.test(command)) return 'it is a fork bomb';
  if (RUN_DOWNLOAD.test(command)) return 'it runs code downloaded from the network';
  const commands = expandCommands(command);
  const context = makeContext(options);
  for (const one of commands) {
    if (one.chdir) changeDirectory(one, context);
    const reason = judge(one, context);
    if (reason !== undefined) return reason;
    changeDirectory(one, context);
  }
  for (const sink of commands) {
    if (!RUNS_STDIN.has(sink.program) || sink.stage === 0) continue;
    const source = commands.find(
      (c) => c.pipeline === sink.pipeline && c.stage < sink.stage && DOWNLOADERS.has(c.program),
    );
    if (source !== undefined) {
      return `it pipes a download (${source.program}) into ${sink.program}, running code from the network`;
    }
  }
  return undefined;
}
