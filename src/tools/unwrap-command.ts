import { ownValue } from '../tool/own-value.js';

/** A simple command with its wrappers (`sudo`, `env`, `timeout 10`, ...) taken apart. */
export interface UnwrappedCommand {
  /** Wrappers that change what runs and so stay in approval keys: `sudo`, `doas`, `xargs`. */
  readonly prefix: readonly string[];
  /** The wrapped program and its arguments (empty for a bare assignment or keyword). */
  readonly words: readonly string[];
  /** True when a wrapper runs it in another directory (`env -C dir`, `sudo -D dir`). */
  readonly chdir: boolean;
}

/** Options of wrappers that change the directory the wrapped command runs in. */
const CHDIR_FLAGS: Readonly<Record<string, readonly string[]>> = {
  env: ['-C', '--chdir'],
  sudo: ['-D', '--chdir'],
  doas: ['-C'],
};

const KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'then',
  'do',
  'else',
  'elif',
  'if',
  'while',
  'until',
  'fi',
  'done',
  'esac',
]);
const ASSIGNMENT = /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/;
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//;

/** Wrappers that run their argument as a command, with options that take a value. */
const TRANSPARENT: Readonly<Record<string, readonly string[]>> = {
  nohup: [],
  time: ['-f', '--format', '-o', '--output'],
  command: [],
  exec: ['-a'],
  builtin: [],
  nice: ['-n', '--adjustment'],
  env: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
  timeout: ['-s', '--signal', '-k', '--kill-after'],
  stdbuf: ['-i', '-o', '-e', '--input', '--output', '--error'],
  ionice: ['-c', '-n', '-p', '--class', '--classdata'],
};

/** Wrappers that keep their name in the key because they change who or how often. */
const PREFIXES: Readonly<Record<string, readonly string[]>> = {
  sudo: [
    '-u',
    '--user',
    '-g',
    '--group',
    '-C',
    '-D',
    '--chdir',
    '-h',
    '--host',
    '-p',
    '--prompt',
    '-r',
    '-t',
    '-U',
  ],
  doas: ['-u', '-C'],
  xargs: [
    '-I',
    '-i',
    '-n',
    '-P',
    '-L',
    '-l',
    '-d',
    '-E',
    '-e',
    '-s',
    '-a',
    '--max-args',
    '--max-procs',
    '--delimiter',
    '--arg-file',
  ],
};

/**
 * The program as a key spells it: a standard system location (`/usr/bin/git`) is reduced
 * to the name, so rules about `git` also cover it; any other path stays as written.
 */
export function programName(word: string): string {
  return SYSTEM_BIN.test(word) ? word.slice(word.lastIndexOf('/') + 1) : word;
}

/**
 * Index of the first operand after the options from `start`: words starting with `-` are
 * options, those in `valueFlags` also take the next word, and `--` ends the options.
 */
export function skipOptions(
  words: readonly string[],
  start: number,
  valueFlags: readonly string[],
): number {
  let i = start;
  while (i < words.length) {
    const word = words[i] as string;
    if (word === '--') return i + 1;
    if (!word.startsWith('-') || word === '-') return i;
    i += valueFlags.includes(word) ? 2 : 1;
  }
  return i;
}

/**
 * Strips leading variable assignments and shell keywords (`FOO=1`, `then`, `!`) and
 * unwraps wrappers: `env`, `nohup`, `nice`, `time`, `timeout 10` and the like disappear,
 * `sudo` and `xargs` are kept as a prefix. `sudo -u root env A=1 rm -rf x` gives prefix
 * `sudo` and words `rm -rf x`.
 */
export function unwrapCommand(words: readonly string[]): UnwrappedCommand {
  const prefix: string[] = [];
  let chdir = false;
  let i = 0;
  for (;;) {
    while (
      i < words.length &&
      (KEYWORDS.has(words[i] as string) || ASSIGNMENT.test(words[i] as string))
    ) {
      i += 1;
    }
    const name = programName(words[i] ?? '');
    // Own entries only: a program named `constructor` or `toString` is no wrapper.
    const transparent = ownValue(TRANSPARENT, name);
    const kept = ownValue(PREFIXES, name);
    const chdirFlags = ownValue(CHDIR_FLAGS, name);
    if (chdirFlags !== undefined) {
      const end = skipOptions(words, i + 1, transparent ?? kept ?? []);
      for (const word of words.slice(i + 1, end)) {
        if (chdirFlags.some((flag) => word === flag || word.startsWith(`${flag}=`))) chdir = true;
      }
    }
    if (transparent !== undefined) {
      i = skipOptions(words, i + 1, transparent);
      if (name === 'timeout' && i < words.length) i += 1; // the duration
    } else if (kept !== undefined) {
      prefix.push(name);
      i = skipOptions(words, i + 1, kept);
    } else {
      return { prefix, words: words.slice(i), chdir };
    }
  }
}
