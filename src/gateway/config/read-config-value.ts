import { isAbsolute, resolve } from 'node:path';
import type {
  ConfigPath as PolicyPath,
  ConfigSource as PolicySource,
  ConfigProblem as Problem,
} from '../../config-problems/index.js';
import { isPlainObject } from '../../tool/index.js';
import { type EnvironmentVariables, expandEnv } from './expand-env.js';

// The shipped schema reports every value of the wrong type, every unknown key and every
// missing one before the readers' problems are looked at; the readers take what is there
// as it is, and report only what a schema cannot see (what `${VAR}` expands to, values
// that depend on each other).

/** What the readers of a configuration share while they walk it. */
export interface ReadContext {
  /** Every problem found so far; readers add to it and never throw. */
  readonly problems: Problem[];
  /** Where `${VAR}` references are looked up. */
  readonly env: EnvironmentVariables;
  /** Absolute directory that relative paths are resolved against. */
  readonly directory: string;
  /** Position of the value at a path in the file, to keep file order where objects lose it. */
  readonly locate?: PolicySource['locate'];
}

/** Adds a problem. */
export function report(context: ReadContext, path: PolicyPath, text: string): void {
  context.problems.push({ path, text });
}

/** The value if it is a mapping (absent and `null` are not); the schema reports the rest. */
export function asMapping(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** The value if it is a boolean. */
export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** The value if it is an integer. */
export function asInteger(value: unknown): number | undefined {
  return Number.isInteger(value) ? (value as number) : undefined;
}

/** The value if it is one of `choices`. */
export function asChoice<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
  return choices.find((choice) => choice === value);
}

/** The value if it is a string, with its `${VAR}` references replaced. */
export function readExpanded(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const expanded = expandEnv(value, context.env);
  if (expanded.ok) return expanded.value;
  report(context, path, expanded.problem);
  return undefined;
}

/** Reads a mapping of names to strings with `${VAR}` references replaced (env, headers). */
export function readStringMap(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): Record<string, string> | undefined {
  const map = asMapping(value);
  if (map === undefined) return undefined;
  const entries: [string, string][] = [];
  for (const [name, raw] of Object.entries(map)) {
    const at = [...path, name];
    const text = readExpanded(raw, at, context);
    if (text === undefined) continue;
    if (/[\r\n\0]/.test(text)) {
      report(context, at, 'holds a line break or NUL character; remove it.');
      continue;
    }
    entries.push([name, text]);
  }
  return Object.fromEntries(entries);
}

/** A non-empty string as a path made absolute against the configuration's directory. */
export function readPath(value: unknown, context: ReadContext): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return isAbsolute(value) ? resolve(value) : resolve(context.directory, value);
}
