import type { ShellWord } from './shell-syntax.js';

/** The options a program takes, for {@link scanOptions}. */
export interface OptionSpec {
  /** Options without a value, short (`-n`) and long (`--null`). */
  readonly flags?: readonly string[];
  /** Options that take a value: the next word, or attached (`-uroot`, `--user=root`). */
  readonly values?: readonly string[];
  /** Options whose value may only be attached (`-i{}`, `--preserve-env=PATH`). */
  readonly optional?: readonly string[];
  /** A word like `-10` is an option (nice). */
  readonly numeric?: boolean;
  /** A lone `-` is an option (env). */
  readonly dash?: boolean;
}

/** One option found, with its value when it takes one. */
export interface FoundOption {
  readonly name: string;
  readonly value?: ShellWord;
}

/** What {@link scanOptions} found. */
export interface ScannedOptions {
  /** The options, in order. */
  readonly options: readonly FoundOption[];
  /** Index of the first operand (past a `--`). */
  readonly next: number;
  /** Set when the options cannot be read for sure: an unknown option or an expanded word. */
  readonly problem?: string;
}

const literal = (text: string): ShellWord => ({ source: text, value: text });

/**
 * Reads the options at the start of `words` the way getopt does: short options may be
 * grouped (`-nk`), a short option's value may be attached (`-uroot`), a long one's given with
 * `=`; `--` ends the options, and so does the first word not starting with `-`. An option
 * not in `spec`, or a word the shell decides, stops the scan with a `problem`: then what
 * follows cannot be told apart from option values.
 */
export function scanOptions(
  words: readonly ShellWord[],
  spec: OptionSpec,
  start = 0,
): ScannedOptions {
  const flags = new Set(spec.flags ?? []);
  const values = new Set(spec.values ?? []);
  const optional = new Set(spec.optional ?? []);
  const options: FoundOption[] = [];
  let i = start;
  const stop = (problem?: string): ScannedOptions => ({
    options,
    next: i,
    ...(problem === undefined ? {} : { problem }),
  });
  while (i < words.length) {
    const word = words[i] as ShellWord;
    const text = word.value;
    if (text === undefined) {
      return stop(`${word.opaque ?? word.source} stands where an option or the command may be`);
    }
    if (text === '--') {
      i += 1;
      return stop();
    }
    if (text === '-' && spec.dash === true) {
      options.push({ name: '-' });
      i += 1;
      continue;
    }
    if (!text.startsWith('-') || text === '-') return stop();
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = equals === -1 ? text : text.slice(0, equals);
      const attached = equals === -1 ? undefined : literal(text.slice(equals + 1));
      if (values.has(name)) {
        const value = attached ?? words[i + 1];
        if (value === undefined) return stop(`${name} has no value`);
        options.push({ name, value });
        i += attached === undefined ? 2 : 1;
      } else if (flags.has(name) && attached === undefined) {
        options.push({ name });
        i += 1;
      } else if (optional.has(name)) {
        options.push(attached === undefined ? { name } : { name, value: attached });
        i += 1;
      } else {
        return stop(`unknown option ${name}`);
      }
      continue;
    }
    if (spec.numeric === true && /^-\d+$/.test(text)) {
      options.push({ name: '-', value: literal(text.slice(1)) });
      i += 1;
      continue;
    }
    let consumed = 1;
    for (let j = 1; j < text.length; j += 1) {
      const name = `-${text[j]}`;
      const rest = text.slice(j + 1);
      if (values.has(name)) {
        const value = rest === '' ? words[i + 1] : literal(rest);
        if (value === undefined) return stop(`${name} has no value`);
        options.push({ name, value });
        if (rest === '') consumed = 2;
        break;
      }
      if (optional.has(name)) {
        options.push(rest === '' ? { name } : { name, value: literal(rest) });
        break;
      }
      if (!flags.has(name)) return stop(`unknown option ${name} in ${text}`);
      options.push({ name });
    }
    i += consumed;
  }
  return stop();
}
