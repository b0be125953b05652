import { canonicalJson } from '../../audit/index.js';
import {
  isPlainObject,
  type JsonSchemaObject,
  nullRecord,
  ownValue,
  toolSchema,
} from '../../tool/index.js';

/** What argument synthesis may point path-like arguments at. */
export interface SynthesisContext {
  /** An existing file (absolute path) for `path`, `file` and similar properties. */
  readonly sampleFile: string;
  /** An existing directory (absolute path) for `directory`, `dir`, `root` and similar. */
  readonly sampleDir: string;
  /** The tool's name and description: a tool that lists or walks gets directories first. */
  readonly toolName?: string;
  readonly description?: string;
}

/** Outcome of {@link synthesizeArguments}. */
export type SynthesisOutcome =
  | {
      readonly ok: true;
      /** Argument objects that pass the schema, the likeliest first (at most two). */
      readonly candidates: readonly Record<string, unknown>[];
      /** Set when the schema could not be compiled, so the candidates were not checked. */
      readonly unchecked?: string;
    }
  | { readonly ok: false; readonly reason: string };

/** Outcome of {@link checkArguments}. */
export type ArgumentCheck =
  | { readonly ok: true; readonly unchecked?: string }
  | { readonly ok: false; readonly message: string };

const NOPE: unique symbol = Symbol('no value');
type Maybe = unknown | typeof NOPE;
type PathMode = 'file' | 'dir';

const DIR_KEY =
  /^(dir|dirs|directory|directories|folder|folders|root|roots|cwd)$|(Dir|_dir|Directory|_directory|Folder|Root|_root)$/;
const FILE_KEY = /^(file|files|filename|filenames)$|(File|_file|FileName|Filename|_filename)$/;
const PATH_KEY = /^(path|paths|filepath|file_path|source)$|(Path|_path|Paths|_paths)$/;
const LISTS_DIRECTORIES = /director|folder|\blist|_list|list_|tree|\bls\b|walk|search|find|glob/i;
const MAX_DEPTH = 12;
const FORMAT_VALUES: Readonly<Record<string, string>> = {
  'date-time': '2000-01-01T00:00:00Z',
  date: '2000-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'probe@example.com',
  'idn-email': 'probe@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  regex: '.*',
  'json-pointer': '',
  'relative-json-pointer': '0',
};

const pathKind = (key: string | undefined): PathMode | 'either' | undefined => {
  if (key === undefined) return undefined;
  if (DIR_KEY.test(key)) return 'dir';
  if (FILE_KEY.test(key)) return 'file';
  if (PATH_KEY.test(key)) return 'either';
  return undefined;
};

const resolveRef = (ref: string, root: JsonSchemaObject): unknown => {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isPlainObject(node) ? ownValue(node, part) : undefined;
  }
  return node;
};

const mergeAllOf = (schema: Record<string, unknown>): Record<string, unknown> => {
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter(isPlainObject) : [];
  const { allOf: _allOf, ...rest } = schema;
  // No prototype: a schema's keys (`__proto__`, `constructor`) are only data here.
  const merged = nullRecord(Object.entries(rest));
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isPlainObject(value) && isPlainObject(merged.properties)) {
        merged.properties = { ...merged.properties, ...value };
      } else if (key === 'required' && Array.isArray(value) && Array.isArray(merged.required)) {
        merged.required = [...merged.required, ...value];
      } else if (!Object.hasOwn(merged, key)) {
        merged[key] = value;
      }
    }
  }
  return merged;
};

const typeOf = (schema: Record<string, unknown>): string | undefined => {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((t): t is string => typeof t === 'string');
    return named.find((t) => t !== 'null') ?? named[0];
  }
  if (isPlainObject(schema.properties) || Array.isArray(schema.required)) return 'object';
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return 'array';
  return undefined;
};

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const numberFor = (schema: Record<string, unknown>, integer: boolean): number => {
  const minimum = num(schema.minimum);
  const exclusiveMinimum = num(schema.exclusiveMinimum);
  const maximum = num(schema.maximum);
  const exclusiveMaximum = num(schema.exclusiveMaximum);
  const step = num(schema.multipleOf);
  let value = 1;
  if (minimum !== undefined) value = Math.max(value, minimum);
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) {
    value = integer ? Math.floor(exclusiveMinimum) + 1 : exclusiveMinimum + 1;
  }
  const upper = maximum ?? (exclusiveMaximum === undefined ? undefined : exclusiveMaximum - 1e-9);
  if (upper !== undefined && value > upper) {
    value = minimum ?? (exclusiveMinimum === undefined ? upper : (exclusiveMinimum + upper) / 2);
  }
  if (integer) value = Math.ceil(value);
  if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
  return value;
};

const stringFor = (schema: Record<string, unknown>): string => {
  const format =
    typeof schema.format === 'string' ? ownValue(FORMAT_VALUES, schema.format) : undefined;
  if (format !== undefined) return format;
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? Number.POSITIVE_INFINITY;
  let value = 'probe';
  if (value.length < min) value = value.padEnd(min, 'x');
  if (value.length > max) value = value.slice(0, Math.max(max, 0));
  return value;
};

interface Generation {
  readonly root: JsonSchemaObject;
  readonly mode: PathMode;
  readonly context: SynthesisContext;
}

const pathFor = (kind: PathMode | 'either', g: Generation): string => {
  const mode = kind === 'either' ? g.mode : kind;
  return mode === 'dir' ? g.context.sampleDir : g.context.sampleFile;
};

function valueFor(schema: unknown, key: string | undefined, g: Generation, depth: number): Maybe {
  if (depth > MAX_DEPTH || schema === false) return NOPE;
  const kind = pathKind(key);
  if (!isPlainObject(schema)) return kind === undefined ? 'probe' : pathFor(kind, g);
  let s: Record<string, unknown> = schema;
  if (typeof s.$ref === 'string') {
    const target = resolveRef(s.$ref, g.root);
    if (!isPlainObject(target)) return NOPE;
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  if (Array.isArray(s.allOf)) s = mergeAllOf(s);
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.length > 0 ? s.enum[0] : NOPE;
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const branches = s[combinator];
    if (!Array.isArray(branches)) continue;
    const { [combinator]: _branches, ...base } = s;
    for (const branch of branches) {
      const merged = isPlainObject(branch) ? { ...base, ...branch } : branch;
      const value = valueFor(merged, key, g, depth + 1);
      if (value !== NOPE) return value;
    }
    return NOPE;
  }
  switch (typeOf(s)) {
    case 'string':
      return kind === undefined ? stringFor(s) : pathFor(kind, g);
    case 'integer':
      return numberFor(s, true);
    case 'number':
      return numberFor(s, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return arrayFor(s, key, g, depth);
    case 'object':
      return objectFor(s, g, depth);
    default:
      return kind === undefined ? 'probe' : pathFor(kind, g);
  }
}

function arrayFor(
  s: Record<string, unknown>,
  key: string | undefined,
  g: Generation,
  depth: number,
): Maybe {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const min = Math.max(num(s.minItems) ?? 0, 0);
  const items: unknown[] = [];
  for (let i = 0; i < min; i += 1) {
    const itemSchema = i < prefix.length ? prefix[i] : (s.items ?? true);
    const value = valueFor(itemSchema, key, g, depth + 1);
    if (value === NOPE) return NOPE;
    items.push(value);
  }
  return items;
}

function objectFor(s: Record<string, unknown>, g: Generation, depth: number): Maybe {
  const properties = isPlainObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required)
    ? [...new Set(s.required.filter((k): k is string => typeof k === 'string'))]
    : [];
  const minProperties = num(s.minProperties) ?? 0;
  const keys = [...required];
  for (const key of Object.keys(properties)) {
    if (keys.length >= minProperties) break;
    if (!keys.includes(key)) keys.push(key);
  }
  // Property names come from the server: `__proto__` must be an argument like any other.
  const out = nullRecord<unknown>();
  for (const key of keys) {
    const value = valueFor(ownValue(properties, key) ?? true, key, g, depth + 1);
    if (value === NOPE) return NOPE;
    out[key] = value;
  }
  return out;
}

const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';

const compile = (schema: JsonSchemaObject) => {
  try {
    return toolSchema(schema, 'input', 'input schema');
  } catch (error) {
    // Tool schemas mean the same in draft-07 and 2020-12; set another dialect aside.
    if (typeof schema.$schema === 'string' && schema.$schema !== DIALECT_2020) {
      const { $schema: _dialect, ...rest } = schema;
      try {
        return toolSchema(rest, 'input', 'input schema');
      } catch {
        // Fall through to the first error.
      }
    }
    return error instanceof Error ? error.message : String(error);
  }
};

/**
 * Checks arguments against a tool's input schema (JSON Schema 2020-12, draft-07 read as
 * 2020-12). A schema that cannot be compiled passes everything, with `unchecked` saying why.
 */
export async function checkArguments(schema: unknown, value: unknown): Promise<ArgumentCheck> {
  if (!isPlainObject(schema)) return { ok: true, unchecked: 'the input schema is not an object' };
  const compiled = compile(schema);
  if (typeof compiled === 'string') return { ok: true, unchecked: compiled };
  const outcome = await compiled.validate(value);
  return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
}

/**
 * Makes arguments for a tool from its input schema: `default`, then `examples[0]`, `const`,
 * `enum[0]`, else a minimal valid value of the type (strings honour `minLength`, `maxLength`
 * and common `format`s; numbers `minimum`, `exclusiveMinimum`, `maximum`, `multipleOf`;
 * arrays `minItems`; objects get their required properties only). `oneOf`/`anyOf` take the
 * first branch that yields a value; `allOf` is merged; local `$ref`s are followed. Properties
 * named like paths (`path`, `file`, `directory`, `root`, `...Path`) get a seeded file or
 * directory of the sandbox; for `path` both are offered, directory first for tools that list
 * or walk. Every candidate is checked against the schema.
 */
export async function synthesizeArguments(
  schema: unknown,
  context: SynthesisContext,
): Promise<SynthesisOutcome> {
  const root: JsonSchemaObject = isPlainObject(schema) ? schema : { type: 'object' };
  const lists = LISTS_DIRECTORIES.test(`${context.toolName ?? ''} ${context.description ?? ''}`);
  const modes: PathMode[] = lists ? ['dir', 'file'] : ['file', 'dir'];
  const seen = new Set<string>();
  const candidates: Record<string, unknown>[] = [];
  let problem: string | undefined;
  let unchecked: string | undefined;
  for (const mode of modes) {
    const value = valueFor(root, undefined, { root, mode, context }, 0);
    if (value === NOPE || !isPlainObject(value)) {
      problem ??= 'the schema allows no object the probe can build';
      continue;
    }
    const key = canonicalJson(value);
    if (seen.has(key)) continue;
    seen.add(key);
    const check = await checkArguments(root, value);
    if (!check.ok) {
      problem ??= `${JSON.stringify(value)} does not pass the input schema (${check.message})`;
      continue;
    }
    if (check.unchecked !== undefined) unchecked = check.unchecked;
    candidates.push(value);
  }
  if (candidates.length === 0) {
    return { ok: false, reason: `no valid arguments could be made: ${problem ?? 'unknown'}` };
  }
  return { ok: true, candidates, ...(unchecked === undefined ? {} : { unchecked }) };
}
