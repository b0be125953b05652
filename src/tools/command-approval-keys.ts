import { realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { HintgateError } from '../errors/hintgate-error.js';
import { ownValue } from '../tool/own-value.js';
import { expandCommands, SHELLS, shellInlineCode } from './expand-commands.js';
import type { Redirect } from './parse-shell-command.js';
import { isWithin, resolveLoosely } from './resolve-in-workspace.js';
import { programName, skipOptions } from './unwrap-command.js';

/** Programs whose first argument is an operand (a file, a pattern), not a subcommand. */
const OPERAND_PROGRAMS = new Set(
  (
    'ls cat echo printf rm rmdir mkdir cp mv ln touch chmod chown chgrp find grep egrep fgrep rg ag ' +
    'head tail less more wc sort uniq cut tr sed awk diff cmp pwd cd which whereis type file stat du df ' +
    'tree basename dirname realpath readlink date sleep true false test [ tee xxd hexdump od strings jq ' +
    'yq curl wget tar zip unzip gzip gunzip zcat kill pkill killall ps export source . set unset alias ' +
    'read exit return shift trap wait ssh scp rsync ping dig nslookup host whoami id uname hostname ' +
    'printenv dd shred open xdg-open for case select'
  ).split(' '),
);

/** Interpreters: the key names the flag that runs inline code, the module or the script. */
const INTERPRETERS = new Set(
  'python python2 python3 node ruby perl php bash sh zsh dash ksh fish pwsh tsx ts-node'.split(' '),
);
const INLINE_CODE_FLAGS = new Set(['-c', '-e', '-E', '--eval', '-p', '--print', '-r']);

/** Global options that take a value, per program, so `git -C dir status` keys as `git status`. */
const VALUE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'],
  npm: ['--prefix', '-C', '-w', '--workspace'],
  pnpm: ['-C', '--dir', '-F', '--filter', '-w'],
  yarn: ['--cwd'],
  bun: ['--cwd', '-F', '--filter'],
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'],
  podman: ['-H', '--host', '-c', '--connection', '--root'],
  kubectl: [
    '-n',
    '--namespace',
    '--context',
    '--kubeconfig',
    '--cluster',
    '--user',
    '-s',
    '--server',
  ],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig'],
  make: ['-C', '--directory', '-f', '--file', '-I', '-o', '-W'],
  go: ['-C'],
  cargo: ['-C', '--config', '-Z'],
  gh: ['-R', '--repo'],
};

/** Subcommands that run a named script or package, which becomes part of the key. */
const RUNNERS = new Set(['run', 'run-script', 'exec', 'dlx', 'x']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const SUBCOMMAND = /^[A-Za-z][\w:.-]*$/;
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** The key part after the program: a subcommand, a script or nothing. */
const tail = (program: string, args: readonly string[]): string[] => {
  const name = programName(program);
  if (OPERAND_PROGRAMS.has(name)) return [];
  if (SHELLS.has(name) && shellInlineCode(args) !== undefined) return ['-c'];
  if (INTERPRETERS.has(name)) {
    for (let i = 0; i < args.length; i += 1) {
      const arg = args[i] as string;
      if (INLINE_CODE_FLAGS.has(arg)) return [arg];
      if (arg === '-m') return args[i + 1] === undefined ? [arg] : [arg, args[i + 1] as string];
      if (!arg.startsWith('-')) return [arg];
    }
    return [];
  }
  const at = skipOptions(args, 0, ownValue(VALUE_FLAGS, name) ?? []);
  const first = args[at];
  if (first === undefined) return [];
  if (PACKAGE_RUNNERS.has(name)) return [first];
  if (!SUBCOMMAND.test(first)) return [];
  if (RUNNERS.has(first) && ['npm', 'pnpm', 'yarn', 'bun'].includes(name)) {
    const script = args[skipOptions(args, at + 1, [])];
    return script === undefined ? [first] : [first, script];
  }
  return [first];
};

/** Files a command's redirections write to. */
const writtenFiles = (redirects: readonly Redirect[]): string[] =>
  redirects
    .filter(
      (r) =>
        (WRITES.has(r.op) && !HARMLESS_TARGETS.has(r.target)) ||
        (r.op === '>&' && !/^(\d+|-)$/.test(r.target) && !HARMLESS_TARGETS.has(r.target)),
    )
    .map((r) => r.target);

const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
/** Characters that make a target's place unknown until the shell expands it. */
const EXPANDS = /[$`*?[]/;

/**
 * The key of a redirection target: `> file:<path>` for a file of the workspace (resolved
 * like the file tools' keys: relative to the workspace root, links followed), `> /abs/path`
 * for a file outside it, and the target as written when its place depends on the shell
 * (`> ~/.bashrc`, `> $OUT`) or on a `cd` earlier in the line (`> out.txt (after cd)`).
 */
const redirectKey = (target: string, root: string | undefined, moved: boolean): string => {
  if (target === '') return '> (no target)';
  if (target.startsWith('~') || EXPANDS.test(target)) return `> ${target}`;
  if (!isAbsolute(target) && moved) return `> ${target} (after cd)`;
  if (root === undefined) {
    const path = posix.normalize(target);
    if (isAbsolute(path) || path === '..' || path.startsWith('../')) return `> ${path}`;
    return `> file:${path}`;
  }
  const real = resolveLoosely(resolve(root, target));
  if (!isWithin(root, real)) return `> ${real}`;
  const rel = relative(root, real).split(sep).join('/');
  return `> file:${rel === '' ? '.' : rel}`;
};

const realRoot = (workspace: string): string => {
  try {
    return realpathSync.native(resolve(workspace));
  } catch {
    return resolve(workspace);
  }
};

/**
 * Approval keys of a shell command: per simple command, the program and its subcommand as a
 * person would approve them (`npm test`, `git status` for `git -C x status`, `npm run build`,
 * `ls` for `ls -la src`, `python -m pytest`, `sudo rm`), never the raw string, so that one
 * approval covers the same command with other files or flags. A compound command
 * (`a && b`, `a | b`, `a; b`, substitutions `$(c)`, `sh -c "d"`, `find -exec e`) gives one key
 * per part, so it is pre-approved only when every part is. An output redirection to a file
 * adds a key naming the file, so each target is approved on its own: `> file:out.log` for a
 * file of the workspace (relative to its root, links resolved), `> /abs/path` outside it,
 * the target as written when the shell decides where it is (`> ~/.bashrc`, `> $F`), and
 * `> out.log (after cd)` for a relative target when the line changes directory. Wrappers such
 * as `env`, `nohup`, `timeout 10` and variable assignments are left out of the key (and never
 * their values).
 *
 * @param command The command line, as `run_command` gets it.
 * @param workspace Where the command runs; without it, relative targets are keyed as
 * normalized paths (`> file:out.log`) and links are not resolved.
 * @throws HintgateError `invalid_option` when `command` is not a string or `workspace` is
 * given but not a path.
 */
export function commandApprovalKeys(command: string, workspace?: string): string[] {
  if (typeof command !== 'string') {
    throw new HintgateError('invalid_option', 'commandApprovalKeys: command must be a string.');
  }
  if (workspace !== undefined && (typeof workspace !== 'string' || workspace === '')) {
    throw new HintgateError(
      'invalid_option',
      'commandApprovalKeys: workspace must be the path of a directory when given.',
    );
  }
  const root = workspace === undefined ? undefined : realRoot(workspace);
  const commands = expandCommands(command);
  const moved = commands.some((c) => DIRECTORY_CHANGERS.has(c.program) || c.chdir);
  const keys = new Set<string>();
  for (const { prefix, program, args, redirects } of commands) {
    if (program !== '') keys.add([...prefix, program, ...tail(program, args)].join(' '));
    else if (prefix.length > 0) keys.add(prefix.join(' '));
    if (program === 'find' && args.includes('-delete')) keys.add('find -delete');
    for (const target of writtenFiles(redirects)) keys.add(redirectKey(target, root, moved));
  }
  return keys.size === 0 ? ['(no command)'] : [...keys];
}
