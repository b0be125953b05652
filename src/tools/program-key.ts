import { ownValue } from '../tool/index.js';
import type { ShellWord } from './shell-syntax.js';

/** Programs whose first argument is an operand (a file, a pattern), not a subcommand. */
const OPERAND_PROGRAMS = new Set(
  (
    'ls cat echo printf rm rmdir mkdir cp mv ln touch chmod chown chgrp find grep egrep fgrep rg ag ' +
    'head tail less more wc sort uniq cut tr sed awk diff cmp pwd cd which whereis type file stat du df ' +
    'tree basename dirname realpath readlink date sleep true false test [ [[ tee xxd hexdump od ' +
    'strings jq yq curl wget tar zip unzip gzip gunzip zcat kill pkill killall ps export set unset ' +
    'read exit return shift wait ssh scp rsync ping dig nslookup host whoami id uname hostname ' +
    'printenv dd shred open xdg-open for case select declare typeset local readonly : cd pushd popd ' +
    'umask ulimit getopts mapfile readarray shopt fd fdfind parallel xargs'
  ).split(' '),
);

/** Interpreters: the key names the flag that runs inline code, the module or the script. */
const INTERPRETERS = new Set(
  'python python2 python3 node ruby perl php bash sh zsh dash ksh fish pwsh tsx ts-node deno bun'.split(
    ' ',
  ),
);
const INLINE_CODE_FLAGS = new Set(['-c', '-e', '-E', '--eval', '-p', '--print', '-r']);

/** Global options that take a value, per program, so `git -C dir status` keys as `git status`. */
const VALUE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path'],
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
  make: ['-C', '--directory', '-f', '--file', '-I', '-o', '-W', '-E', '--eval'],
  go: ['-C'],
  cargo: ['-C', '--config', '-Z'],
  gh: ['-R', '--repo'],
};

/**
 * Short options that change what a keyed program runs or where it writes: another config,
 * another directory or repository, inline code, an output file.
 */
const RISKY_SHORT: Readonly<Record<string, readonly string[]>> = {
  git: ['-c', '-C', '-O'],
  npm: ['-C', '-c'],
  pnpm: ['-C', '-c'],
  make: ['-f', '-C', '-I', '-E', '-e'],
  go: ['-C', '-o'],
  cargo: ['-C', '-Z'],
  docker: ['-H', '-c'],
  podman: ['-H', '-c'],
  kubectl: ['-s'],
  gh: ['-R'],
  node: ['-r'],
};

/**
 * Words in a long option's name that mark it as changing what the program runs, reads as
 * configuration or writes: `--output=FILE`, `--config`, `--exec`, `--upload-pack`,
 * `--script-shell`, `--node-options`, `--git-dir`, `--require`, ...
 */
const RISKY_WORDS = new Set(
  (
    'output out config conf exec execute command cmd shell pager editor prefix dir directory cwd ' +
    'root chdir file path hook hooks plugin plugins require import loader preload script template ' +
    'upload receive ext textconv kubeconfig context host server registry userconfig globalconfig ' +
    'node options eval toolexec manifest modfile overlay rcfile init open namespace repo env socket ' +
    'proxy helper program tool interpreter launcher wrapper confcutdir rootdir basetemp ' +
    'cachedir workdir outdir outfile logfile reporter reporters setup environment transform ' +
    'transformer resolver runner preset dotenv'
  ).split(' '),
);

/** Programs whose options are single-dash words (`go test -exec=x`). */
const SINGLE_DASH_LONG = new Set(['go']);

/** Global options of git that change nothing about what runs or where. */
const GIT_SAFE_GLOBALS = new Set([
  '--no-pager',
  '-P',
  '-p',
  '--paginate',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-advice',
  '--version',
  '--help',
]);

/** Subcommands that run a named script or package, which becomes part of the key. */
const SCRIPT_RUNNERS = new Set(['run', 'run-script', 'exec', 'dlx', 'x']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const SUBCOMMAND = /^[A-Za-z][\w:.-]*$/;
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//;

/**
 * The program as a key spells it: a standard system location (`/usr/bin/git`) is reduced
 * to the name, so rules about `git` also cover it; any other path stays as written.
 */
export function programName(word: string): string {
  return SYSTEM_BIN.test(word) ? word.slice(word.lastIndexOf('/') + 1) : word;
}

/** The last part of a program path: `git` of `/opt/git/bin/git`. */
export function baseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

/** What a program's key says beyond its name, and what makes it uncertain. */
export interface ProgramKey {
  /** Words after the program in the key: the subcommand, the script, `-m module`. */
  readonly tail: readonly string[];
  /** Set when the key cannot be told: an expanded word where the subcommand may be. */
  readonly unknown?: string;
  /** Options that may make the program run, read or write something else, as reasons. */
  readonly risky: readonly string[];
}

/** The words of an option name: split at `-` and `_` and where a capital starts a word. */
const nameWords = (name: string): string[] => {
  const words: string[] = [];
  let word = '';
  for (const c of name) {
    if (c === '-' || c === '_' || c === '.') {
      words.push(word);
      word = '';
    } else if (c >= 'A' && c <= 'Z' && word !== '') {
      words.push(word);
      word = c.toLowerCase();
    } else word += c.toLowerCase();
  }
  words.push(word);
  return words;
};

const riskyLong = (text: string): boolean => {
  const equals = text.indexOf('=');
  const name = (equals === -1 ? text : text.slice(0, equals)).replace(/^-+/, '');
  return (
    RISKY_WORDS.has(name.toLowerCase()) || nameWords(name).some((part) => RISKY_WORDS.has(part))
  );
};

/** Options of `args` that may change what a keyed program runs or writes. */
const riskyOptions = (name: string, args: readonly ShellWord[], subcommandAt: number): string[] => {
  const short = ownValue(RISKY_SHORT, name) ?? [];
  const found: string[] = [];
  args.forEach((word, index) => {
    const text = word.value;
    if (text === undefined || !text.startsWith('-') || text === '-' || text === '--') return;
    const long = text.startsWith('--') || (SINGLE_DASH_LONG.has(name) && text.length > 2);
    if (name === 'git' && index < subcommandAt) {
      const option = text.includes('=') ? text.slice(0, text.indexOf('=')) : text;
      if (!GIT_SAFE_GLOBALS.has(option)) found.push(text);
      return;
    }
    if (long ? riskyLong(text) : short.some((flag) => text.startsWith(flag))) found.push(text);
  });
  return found.map(
    (text) => `option ${text} of ${name}, which may make it run, read or write something else`,
  );
};

/** Index of the first operand from `start`, options and their values skipped. */
const firstOperand = (
  args: readonly ShellWord[],
  start: number,
  valueFlags: readonly string[],
): { at: number; unknown?: string } => {
  let i = start;
  while (i < args.length) {
    const word = args[i] as ShellWord;
    if (word.value === undefined) {
      return { at: i, unknown: `${word.opaque ?? word.source} stands where the subcommand may be` };
    }
    if (word.value === '--') return { at: i + 1 };
    if (!word.value.startsWith('-') || word.value === '-') return { at: i };
    i += valueFlags.includes(word.value) ? 2 : 1;
  }
  return { at: i };
};

const keyOf = (
  name: string,
  args: readonly ShellWord[],
): { tail: string[]; at: number; unknown?: string } => {
  if (OPERAND_PROGRAMS.has(name)) return { tail: [], at: 0 };
  if (name === 'source' || name === '.') {
    // The file it runs is what is approved, as for `bash script.sh`.
    const file = args[0];
    if (file === undefined) return { tail: [], at: 0 };
    if (file.value === undefined)
      return { tail: [], at: 0, unknown: `${file.opaque} stands where the file is` };
    return { tail: [file.value], at: 0 };
  }
  if (INTERPRETERS.has(name)) {
    for (let i = 0; i < args.length; i += 1) {
      const word = args[i] as ShellWord;
      const arg = word.value;
      if (arg === undefined)
        return { tail: [], at: i, unknown: `${word.opaque} stands where the script may be` };
      if (INLINE_CODE_FLAGS.has(arg)) return { tail: [arg], at: i };
      if (arg === '-m') {
        const module = args[i + 1];
        if (module === undefined) return { tail: [arg], at: i };
        if (module.value === undefined) {
          return { tail: [arg], at: i, unknown: `${module.opaque} stands where the module is` };
        }
        return { tail: [arg, module.value], at: i + 1 };
      }
      if (!arg.startsWith('-')) return { tail: [arg], at: i };
    }
    return { tail: [], at: args.length };
  }
  const first = firstOperand(args, 0, ownValue(VALUE_FLAGS, name) ?? []);
  if (first.unknown !== undefined) return { tail: [], at: first.at, unknown: first.unknown };
  const word = args[first.at]?.value;
  if (word === undefined) return { tail: [], at: first.at };
  if (PACKAGE_RUNNERS.has(name)) return { tail: [word], at: first.at };
  if (!SUBCOMMAND.test(word)) return { tail: [], at: first.at };
  if (SCRIPT_RUNNERS.has(word) && ['npm', 'pnpm', 'yarn', 'bun'].includes(name)) {
    const script = firstOperand(args, first.at + 1, []);
    if (script.unknown !== undefined)
      return { tail: [word], at: script.at, unknown: script.unknown };
    const value = args[script.at]?.value;
    return { tail: value === undefined ? [word] : [word, value], at: first.at };
  }
  return { tail: [word], at: first.at };
};

/**
 * The key of one program with its arguments: the program, then its subcommand as a person
 * would approve it (`git status` for `git -C x status`, `npm run build`, `python -m pytest`,
 * `node -e`), nothing for programs whose arguments are operands (`ls`, `rm`, `cat`). For a
 * keyed program (one with a subcommand), options that may change what it runs or writes
 * (`-c`, `--output`, `--config`, `--exec`, git's global options other than `--no-pager` and
 * the like) are returned as `risky`.
 */
export function programKey(program: string, args: readonly ShellWord[]): ProgramKey {
  const name = baseName(program);
  const { tail, at, unknown } = keyOf(name, args);
  const keyed =
    tail.length > 0 ||
    ownValue(VALUE_FLAGS, name) !== undefined ||
    ownValue(RISKY_SHORT, name) !== undefined;
  return {
    tail,
    ...(unknown === undefined ? {} : { unknown }),
    risky: keyed ? riskyOptions(name, args, at) : [],
  };
}
