import { type ExpandedCommand, expandCommands } from './expand-commands.js';

/** Top-level directories of a system whose recursive deletion or chmod ruins it. */
const SYSTEM_DIRS = new Set(
  (
    '/ /bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var ' +
    '/Applications /Library /System /Users /Volumes /private'
  ).split(' '),
);
/** Targets that mean "everything here" or "the home directory". */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template.
const EVERYTHING = new Set(['~', '$HOME', '${HOME}', '*', '.', '..', '.*', '/*']);
const DISK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|dm-|mem$|kmem$|port$)/;
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh']);
const RUNS_STDIN = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const FORK_BOMB = /([\w:.]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*&?\s*\1\s*&/;
const RUN_DOWNLOAD =
  /\b(sh|bash|zsh|dash|ksh|source|eval|python3?|perl|ruby|node)\b[^;&|]*(\$\(|`|<\()\s*(curl|wget)\b/;

/** `~/x/..` and `/usr/` mean `~` and `/usr`; `$HOME/*` means `$HOME`. */
const normalizeTarget = (target: string): string => {
  let path = target.replace(/\/\*$/, '').replace(/\/+$/, '');
  if (path === '') path = '/';
  if (path === '~' || path.startsWith('~/')) path = path.replace(/^~\/?$/, '~');
  return path;
};

const isSystemOrEverything = (target: string): boolean => {
  const path = normalizeTarget(target);
  return SYSTEM_DIRS.has(path) || EVERYTHING.has(path) || EVERYTHING.has(target);
};

const hasShortFlag = (args: readonly string[], letters: string): boolean =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && [...letters].some((l) => a.includes(l)));

const operands = (args: readonly string[]): string[] => args.filter((a) => !a.startsWith('-'));

/** `find PLACE -delete` with no test that picks files, PLACE being `/`, `~`, `.` or the like. */
const deletesAll = (args: readonly string[]): boolean => {
  const start = args[0] === undefined || args[0].startsWith('-') ? '.' : args[0];
  if (!isSystemOrEverything(start)) return false;
  const rest = args.slice(start === args[0] ? 1 : 0);
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] as string;
    if (arg === '-maxdepth' || arg === '-mindepth') i += 1;
    else if (!['-delete', '-depth', '-xdev', '-mount', '-P', '-H', '-L'].includes(arg))
      return false;
  }
  return true;
};

/** Why one command is plainly dangerous, or undefined. */
const judge = (command: ExpandedCommand): string | undefined => {
  const { program, args } = command;
  const recursive = hasShortFlag(args, 'rR') || args.includes('--recursive');
  if (program === 'rm') {
    if (args.includes('--no-preserve-root')) return 'it deletes the whole file system';
    const target = operands(args).find(isSystemOrEverything);
    if (recursive && target !== undefined) {
      return `it recursively deletes "${target}" (the file system, a system directory, the home directory or everything here)`;
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
    const target = operands(args).slice(1).find(isSystemOrEverything);
    if (target !== undefined && (recursive || normalizeTarget(target) === '/')) {
      return `it changes the ownership or permissions of "${target}" and everything under it`;
    }
  }
  if (
    program === 'mv' &&
    operands(args)
      .slice(0, -1)
      .some((a) => ['/', '~', '$HOME'].includes(normalizeTarget(a)))
  ) {
    return 'it moves the root or home directory away';
  }
  if (program === 'find' && args.includes('-delete') && deletesAll(args)) {
    return `it deletes everything under "${args[0] ?? '.'}"`;
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

/**
 * The command safety gate of `run_command`: says why a command is plainly dangerous, or
 * returns undefined. It refuses recursive deletion of `/`, `~`, `*`, `.` or a system
 * directory (`rm -rf`, `find -delete`), formatting disks (`mkfs`, `wipefs`), raw writes to
 * devices (`dd of=/dev/sda`, `> /dev/sda`), shutdown and reboot, recursive `chmod`/`chown`
 * of such places, fork bombs, downloads piped or substituted into a shell
 * (`curl ... | sh`, `bash -c "$(wget ...)"`), and `kill -9 -1`, wherever they appear in
 * the command line: after `&&` or `;`, in a pipeline, a substitution, `sh -c`, `eval`,
 * `find -exec`, behind `sudo`, `env` or `xargs`. A deny list is not a sandbox: it catches
 * plain accidents, and policy rules and approvals do the rest.
 */
export function checkCommandSafety(command: string): string | undefined {
  if (FORK_BOMB.test(command)) return 'it is a fork bomb';
  if (RUN_DOWNLOAD.test(command)) return 'it runs code downloaded from the network';
  const commands = expandCommands(command);
  for (const one of commands) {
    const reason = judge(one);
    if (reason !== undefined) return reason;
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
