import { realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { OpaquePart } from '../tool/index.js';
import { baseName, programKey } from './program-key.js';
import { isWithin, resolveLoosely } from './resolve-in-workspace.js';
import { OPAQUE_RUNNERS, OTHER_SHELLS, READ_SHELLS, RUNNERS } from './shell-runners.js';
import type { ExpandedCommand, ExpandedLine, Redirect, ShellWord } from './shell-syntax.js';

/** Keys of a command line, with the parts of it that are not fully understood. */
export interface CommandKeys {
  /** The approval keys: per command, its program and subcommand; per written file, `> file`. */
  readonly keys: readonly string[];
  /** Why the line is not fully understood; empty when it is. */
  readonly opaque: readonly OpaquePart[];
}

const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
/** Programs whose arguments are operands, not subcommands: `xargs rm` names what it runs. */
const NO_SUBCOMMAND = new Set(
  'ls cat echo printf rm rmdir mkdir cp mv ln touch chmod chown chgrp grep egrep fgrep rg head tail wc sort uniq cut tr sed awk diff stat du file basename dirname realpath readlink kill tee xxd od strings jq'.split(
    ' ',
  ),
);

/** Programs whose arguments the expansion reads itself (and reports on): runners and shells. */
const READ_ELSEWHERE = new Set([
  ...RUNNERS.keys(),
  ...OPAQUE_RUNNERS,
  ...READ_SHELLS,
  ...OTHER_SHELLS,
  'xargs',
  'parallel',
  'find',
  'fd',
  'fdfind',
  'eval',
  'source',
  '.',
  'trap',
]);

/** True when a redirection writes a file (`> f`, `>> f`, `&> f`, `>& f`, `<> f`). */
const writes = (redirect: Redirect): boolean => {
  const target = redirect.target;
  if (target === undefined) return false;
  if (target.value !== undefined && HARMLESS_TARGETS.has(target.value)) return false;
  if (WRITES.has(redirect.op)) return true;
  return redirect.op === '>&' && !/^(\d+|-)$/.test(target.value ?? '');
};

/**
 * The key of a redirection target: `> file:<path>` for a file of the workspace (resolved
 * like the file tools' keys), `> /abs/path` outside it, the target as written when its
 * place depends on the shell (`> ~/.bashrc`, `> $OUT`) or on a `cd` earlier in the line.
 */
const redirectKey = (word: ShellWord, root: string | undefined, moved: boolean): string => {
  const target = word.value;
  if (target === undefined) return `> ${word.source}`;
  if (target === '') return '> (no target)';
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

/** The keys of one command, and what about it is not understood. */
const commandKeys = (command: ExpandedCommand, keys: Set<string>, opaque: OpaquePart[]): void => {
  const { prefix, program, args } = command;
  if (program === '') {
    for (const assignment of command.assignments) keys.add(`${assignment.name}=`);
    return;
  }
  const name = baseName(program);
  const key = programKey(program, args);
  const tail = command.key === undefined ? key.tail : [];
  const own = command.key ?? program;
  keys.add([...prefix, own, ...tail].join(' '));
  if (prefix.length > 0) keys.add([own, ...tail].join(' '));
  // Err wide for deny rules: a program run by its absolute path is keyed by its name too.
  if (command.key === undefined && name !== program && program.startsWith('/')) {
    keys.add([name, ...tail].join(' '));
  }
  if (/^git-[a-z][a-z-]*$/.test(name)) keys.add(['git', name.slice(4), ...tail].join(' '));
  if (name === 'find' && args.some((word) => word.value === '-delete')) keys.add('find -delete');
  if (command.key === undefined && key.unknown !== undefined && !READ_ELSEWHERE.has(name)) {
    opaque.push({ reason: `cannot tell what ${name} runs: ${key.unknown}`, hidesCommand: true });
  }
  for (const reason of key.risky) opaque.push({ reason });
  if (
    command.argsFrom !== undefined &&
    command.key === undefined &&
    tail.length === 0 &&
    !NO_SUBCOMMAND.has(name)
  ) {
    opaque.push({
      reason: `${command.argsFrom} adds arguments to ${name}, so what it runs cannot be named`,
      hidesCommand: true,
    });
  }
  for (const word of args) if (word.opaque !== undefined) opaque.push({ reason: word.opaque });
};

/**
 * Approval keys of an expanded command line (see `commandApprovalKeys`), and the reasons it
 * is not fully understood: those the parser and expansion found, the arguments the shell
 * decides, options that change what a keyed program does, redirections to files the shell
 * decides. `workspace` (a real path is taken) resolves redirection targets.
 */
export function keysOfLine(line: ExpandedLine, workspace?: string): CommandKeys {
  const root = workspace === undefined ? undefined : realRoot(workspace);
  const moved = line.commands.some((c) => DIRECTORY_CHANGERS.has(c.program) || c.chdir);
  const keys = new Set<string>();
  const opaque: OpaquePart[] = [...line.opaque];
  const redirects = [...line.redirects];
  for (const command of line.commands) {
    commandKeys(command, keys, opaque);
    redirects.push(...command.redirects);
  }
  for (const redirect of redirects) {
    const target = redirect.target;
    if (target?.opaque !== undefined) opaque.push({ reason: `redirection to ${target.opaque}` });
    if (redirect.input?.opaque !== undefined)
      opaque.push({ reason: `input ${redirect.input.opaque}` });
    if (target !== undefined && writes(redirect)) keys.add(redirectKey(target, root, moved));
  }
  const seen = new Set<string>();
  const unique = opaque.filter((part) => {
    const id = `${part.hidesCommand === true}:${part.reason}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  // A part that hides a command is listed once, as such, even if it also asks.
  const hiding = new Set(unique.filter((p) => p.hidesCommand === true).map((p) => p.reason));
  return {
    keys: keys.size === 0 ? ['(no command)'] : [...keys],
    opaque: unique.filter((p) => p.hidesCommand === true || !hiding.has(p.reason)),
  };
}
