import type { OptionSpec } from './scan-options.js';

/** How a program that runs another command takes that command. */
export interface RunnerSpec extends OptionSpec {
  /**
   * Kept in approval keys as a prefix, because it changes who runs the command or how often
   * (`sudo git push` keys as `sudo git push` and `git push`). Other runners disappear.
   */
  readonly kept?: boolean;
  /** Options whose value is shell code it runs: `su -c CODE`, `flock -c CODE`. */
  readonly code?: readonly string[];
  /** Options that run the command in another directory: `env -C DIR`. */
  readonly chdir?: readonly string[];
  /** Options after which it runs no command: `command -v`, `sudo -l`. */
  readonly none?: readonly string[];
  /** Options after which the command words are run by a shell: `sudo -s CMD`. */
  readonly shell?: readonly string[];
  /** Operands before the command: timeout's duration, flock's lock file, chroot's root. */
  readonly operands?: number;
  /** The command words are joined with spaces and run by a shell: `watch git status`. */
  readonly joins?: boolean;
  /** Options that make `joins` run the words as they are instead: `watch -x`. */
  readonly argv?: readonly string[];
  /** `NAME=VALUE` words before the command set its environment: `env A=1 cmd`. */
  readonly assigns?: boolean;
  /** Without a command it starts a shell that reads commands from its input: `su`, `chroot`. */
  readonly shellWithout?: boolean;
}

const SUDO_VALUES = [
  '-u',
  '--user',
  '-g',
  '--group',
  '-C',
  '--close-from',
  '-D',
  '--chdir',
  '-h',
  '--host',
  '-p',
  '--prompt',
  '-r',
  '--role',
  '-t',
  '--type',
  '-U',
  '--other-user',
  '-T',
  '--command-timeout',
  '-R',
  '--chroot',
];
const SUDO_FLAGS = [
  '-A',
  '--askpass',
  '-b',
  '--background',
  '-E',
  '-H',
  '--set-home',
  '-n',
  '--non-interactive',
  '-P',
  '--preserve-groups',
  '-S',
  '--stdin',
  '-k',
  '--reset-timestamp',
  '-B',
  '--bell',
  '-N',
  '--no-update',
];
const SUDO_NONE = [
  '-l',
  '--list',
  '-v',
  '--validate',
  '-K',
  '--remove-timestamp',
  '-V',
  '--version',
  '-e',
  '--edit',
];
const SU_SPEC: RunnerSpec = {
  kept: true,
  flags: [
    '-',
    '-l',
    '--login',
    '-m',
    '-p',
    '--preserve-environment',
    '-f',
    '--fast',
    '-P',
    '--pty',
  ],
  values: [
    '-c',
    '--command',
    '-C',
    '--session-command',
    '-s',
    '--shell',
    '-g',
    '--group',
    '-G',
    '--supp-group',
    '-w',
    '--whitelist-environment',
    '-u',
    '--user',
  ],
  code: ['-c', '--command', '-C', '--session-command'],
  dash: true,
  shellWithout: true,
};

/**
 * Programs that run a command given in their arguments, and how: the wrappers and runners
 * hintgate sees through. Their targets are keyed, matched by deny rules and judged by the
 * safety gate like commands of their own.
 */
export const RUNNERS: ReadonlyMap<string, RunnerSpec> = new Map<string, RunnerSpec>([
  [
    'env',
    {
      flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug'],
      values: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
      optional: ['--block-signal', '--default-signal', '--ignore-signal', '--list-signal-handling'],
      chdir: ['-C', '--chdir'],
      dash: true,
      assigns: true,
    },
  ],
  ['nohup', {}],
  ['setsid', { flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'] }],
  ['nice', { values: ['-n', '--adjustment'], numeric: true }],
  [
    'ionice',
    {
      flags: ['-t', '--ignore'],
      values: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'],
      none: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'],
    },
  ],
  [
    'time',
    {
      flags: ['-p', '--portability', '-v', '--verbose', '-a', '--append', '-q', '--quiet'],
      values: ['-f', '--format', '-o', '--output'],
    },
  ],
  [
    'timeout',
    {
      flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
      values: ['-s', '--signal', '-k', '--kill-after'],
      operands: 1,
    },
  ],
  ['stdbuf', { values: ['-i', '--input', '-o', '--output', '-e', '--error'] }],
  ['command', { flags: ['-p', '-v', '-V'], none: ['-v', '-V'] }],
  ['builtin', {}],
  ['exec', { flags: ['-c', '-l'], values: ['-a'] }],
  ['coproc', {}],
  [
    'busybox',
    {
      flags: ['--list', '--list-full', '--install', '-s'],
      none: ['--list', '--list-full', '--install'],
    },
  ],
  ['unbuffer', { flags: ['-p'] }],
  [
    'flock',
    {
      flags: [
        '-s',
        '--shared',
        '-x',
        '-e',
        '--exclusive',
        '-u',
        '--unlock',
        '-n',
        '--nb',
        '--nonblock',
        '-o',
        '--close',
        '-F',
        '--no-fork',
        '--verbose',
      ],
      values: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code', '-c', '--command'],
      code: ['-c', '--command'],
      operands: 1,
    },
  ],
  [
    'taskset',
    {
      flags: ['-a', '--all-tasks', '-c', '--cpu-list', '-p', '--pid'],
      none: ['-p', '--pid'],
      operands: 1,
    },
  ],
  [
    'chrt',
    {
      flags: [
        '-b',
        '--batch',
        '-d',
        '--deadline',
        '-f',
        '--fifo',
        '-i',
        '--idle',
        '-o',
        '--other',
        '-r',
        '--rr',
        '-R',
        '--reset-on-fork',
        '-a',
        '--all-tasks',
        '-v',
        '--verbose',
        '-m',
        '--max',
        '-p',
        '--pid',
      ],
      values: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'],
      none: ['-p', '--pid', '-m', '--max'],
      operands: 1,
    },
  ],
  [
    'sudo',
    {
      kept: true,
      flags: [...SUDO_FLAGS, ...SUDO_NONE, '-s', '--shell', '-i', '--login'],
      values: SUDO_VALUES,
      optional: ['--preserve-env'],
      chdir: ['-D', '--chdir', '-R', '--chroot'],
      none: SUDO_NONE,
      shell: ['-s', '--shell', '-i', '--login'],
      assigns: true,
    },
  ],
  [
    'doas',
    {
      kept: true,
      flags: ['-n', '-s', '-L'],
      values: ['-u', '-C', '-a'],
      none: ['-C', '-L'],
      shell: ['-s'],
    },
  ],
  ['su', SU_SPEC],
  ['runuser', SU_SPEC],
  [
    'pkexec',
    { kept: true, flags: ['--keep-cwd', '--disable-internal-agent'], values: ['--user', '-u'] },
  ],
  [
    'chroot',
    {
      kept: true,
      flags: ['--skip-chdir'],
      values: ['--userspec', '--groups'],
      operands: 1,
      chdir: ['--skip-chdir'],
      shellWithout: true,
    },
  ],
  [
    'watch',
    {
      kept: true,
      flags: [
        '-b',
        '--beep',
        '-c',
        '--color',
        '-C',
        '--no-color',
        '-e',
        '--errexit',
        '-g',
        '--chgexit',
        '-p',
        '--precise',
        '-t',
        '--no-title',
        '-w',
        '--no-wrap',
        '-r',
        '--no-rerun',
        '-f',
        '--follow',
        '-x',
        '--exec',
      ],
      values: ['-n', '--interval', '-q', '--equexit', '-s', '--shotsdir'],
      optional: ['-d', '--differences'],
      joins: true,
      argv: ['-x', '--exec'],
    },
  ],
  [
    'script',
    {
      kept: true,
      flags: ['-a', '--append', '-e', '--return', '-f', '--flush', '--force', '-q', '--quiet'],
      values: [
        '-c',
        '--command',
        '-E',
        '--echo',
        '-I',
        '--log-in',
        '-O',
        '--log-out',
        '-B',
        '--log-io',
        '-T',
        '--log-timing',
        '-m',
        '--logging-format',
        '-o',
        '--output-limit',
      ],
      optional: ['-t', '--timing'],
      code: ['-c', '--command'],
      shellWithout: true,
    },
  ],
]);

/**
 * Programs known to run commands in ways hintgate does not read (terminal multiplexers,
 * tracers, sandboxes, schedulers, task runners that take command strings). A call that uses
 * one is never allowed by a rule on keys, and deny rules on keys refuse it.
 */
export const OPAQUE_RUNNERS: ReadonlySet<string> = new Set(
  (
    'at batch tmux screen strace ltrace gdb lldb valgrind unshare nsenter systemd-run run0 ' +
    'firejail bwrap proxychains proxychains4 torsocks faketime expect dbus-run-session ' +
    'ssh-agent nix-shell direnv dotenv cross-env env-cmd gosu su-exec setpriv runcon chpst cgexec ' +
    'numactl prlimit entr nodemon watchexec concurrently npm-run-all run-s run-p sem ' +
    'daemonize start-stop-daemon rlwrap chronic caffeinate sg newgrp hyperfine xvfb-run ' +
    'catchsegv eatmydata fakeroot flatpak-spawn sandbox-exec rush xe sshpass alias enable ' +
    'hash let fc tclsh osascript'
  ).split(' '),
);

/**
 * Programs whose subcommand runs a command given after it (`poetry run pytest`): the words
 * after the subcommand are the command. Options between them are not read (a call with
 * some cannot name its command).
 */
export const SUBCOMMAND_RUNNERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['poetry', ['run']],
  ['pipenv', ['run']],
  ['uv', ['run']],
  ['pdm', ['run']],
  ['hatch', ['run']],
  ['conda', ['run']],
  ['bundle', ['exec']],
  ['mise', ['exec', 'x']],
  ['asdf', ['exec']],
  ['pnpm', ['exec']],
  ['yarn', ['exec']],
  ['npm', ['exec', 'x']],
]);

/** Shells whose `-c` code hintgate reads with the bash grammar. */
export const READ_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'ash']);

/** Other shells: what they run with `-c` or from their input is not read. */
export const OTHER_SHELLS: ReadonlySet<string> = new Set(
  'zsh ksh ksh93 mksh oksh loksh yash fish csh tcsh pwsh powershell rc es nu elvish xonsh'.split(
    ' ',
  ),
);
