import { isAbsolute, resolve } from 'node:path';
import {
  closest,
  describe,
  listOf,
  type ConfigPath as PolicyPath,
  type ConfigSource as PolicySource,
  type ConfigProblem as Problem,
} from '../../config-problems/index.js';
import { isPlainObject } from '../../tool/index.js';
import { type EnvironmentVariables, expandEnv } from './expand-env.js';

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

/** How to name unknown keys of one kind of mapping, and what to suggest for them. */
export interface KeySet {
  /** The keys it accepts. */
  readonly keys: readonly string[];
  /** Ends "is not ...", e.g. "a server key". */
  readonly what: string;
  /** Words people reach for, mapped to the key they mean. */
  readonly synonyms?: Readonly<Record<string, string>>;
  /** Keys that need more than a suggestion, mapped to the whole text after the key's path. */
  readonly advice?: Readonly<Record<string, string>>;
}

/** Adds a problem. */
export function report(context: ReadContext, path: PolicyPath, text: string): void {
  context.problems.push({ path, text });
}

/** Reports every key of `value` outside `set`, with a near-miss suggestion where one fits. */
export function checkKeys(
  value: Record<string, unknown>,
  path: PolicyPath,
  set: KeySet,
  context: ReadContext,
): void {
  for (const key of Object.keys(value)) {
    if (set.keys.includes(key)) continue;
    const advice = set.advice !== undefined && Object.hasOwn(set.advice, key) && set.advice[key];
    const synonym = set.synonyms !== undefined && Object.hasOwn(set.synonyms, key);
    const guess = synonym ? set.synonyms?.[key] : closest(key, set.keys);
    const text =
      typeof advice === 'string'
        ? advice
        : guess === undefined
          ? `is not ${set.what}; use ${listOf(set.keys, 'or')}.`
          : `is not ${set.what}; did you mean "${guess}"?`;
    report(context, [...path, key], text);
  }
}

/**
 * Reads an optional mapping: `undefined` for absent and `null` (a YAML key with nothing
 * under it), the mapping itself, or `undefined` after reporting anything else.
 */
export function readMapping(
  value: unknown,
  path: PolicyPath,
  example: string,
  context: ReadContext,
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (isPlainObject(value)) return value;
  report(context, path, `is ${describe(value)}; write a mapping, as in ${example}.`);
  return undefined;
}

/** Reads a boolean; the strings "true" and "false" get a hint to drop the quotes. */
export function readBoolean(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const quoted = value === 'true' || value === 'false' ? ' without quotes' : '';
  report(context, path, `is ${describe(value)}; use true or false${quoted}.`);
  return undefined;
}

/** Reads a non-empty string. */
export function readText(
  value: unknown,
  path: PolicyPath,
  example: string,
  context: ReadContext,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  report(context, path, `is ${describe(value)}; use a non-empty string such as ${example}.`);
  return undefined;
}

/** Reads a string and replaces its `${VAR}` references. */
export function readExpanded(
  value: unknown,
  path: PolicyPath,
  example: string,
  context: ReadContext,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    const hint =
      typeof value === 'number' || typeof value === 'boolean' ? ` (quoted: "${value}")` : '';
    report(context, path, `is ${describe(value)}; use a string such as ${example}${hint}.`);
    return undefined;
  }
  const expanded = expandEnv(value, context.env);
  if (expanded.ok) return expanded.value;
  report(context, path, expanded.problem);
  return undefined;
}

/** Reads a mapping of names to strings with `${VAR}` references replaced (env, headers). */
export function readStringMap(
  value: unknown,
  path: PolicyPath,
  entry: { readonly example: string; readonly name: RegExp; readonly nameRule: string },
  context: ReadContext,
): Record<string, string> | undefined {
  const map = readMapping(value, path, entry.example, context);
  if (map === undefined) return undefined;
  const entries: [string, string][] = [];
  for (const [name, raw] of Object.entries(map)) {
    const at = [...path, name];
    if (!entry.name.test(name)) {
      report(context, at, `is not a usable name; ${entry.nameRule}.`);
      continue;
    }
    const text = readExpanded(raw ?? null, at, '"value"', context);
    if (text === undefined) continue;
    if (/[\r\n\0]/.test(text)) {
      report(context, at, 'holds a line break or NUL character; remove it.');
      continue;
    }
    entries.push([name, text]);
  }
  return Object.fromEntries(entries);
}

/** Reads a path and makes it absolute against the configuration's directory. */
export function readPath(
  value: unknown,
  path: PolicyPath,
  example: string,
  context: ReadContext,
): string | undefined {
  const text = readText(value, path, example, context);
  if (text === undefined) return undefined;
  return isAbsolute(text) ? resolve(text) : resolve(context.directory, text);
}

/** Reads an integer in `[min, max]`. */
export function readInteger(
  value: unknown,
  path: PolicyPath,
  range: { readonly min: number; readonly max: number; readonly rule: string },
  context: ReadContext,
): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max)
    return value as number;
  const quoted = typeof value === 'string' && /^\d+$/.test(value) ? ' without quotes' : '';
  report(context, path, `is ${describe(value)}; use ${range.rule}${quoted}.`);
  return undefined;
}
