import { describe, type ConfigPath as PolicyPath } from '../../config-problems/index.js';
import type { RateLimit } from '../../tool/index.js';
import {
  compileResources,
  HINT_NAMES,
  isTimerMs,
  MAX_TIMER_MS,
  nullRecord,
  TOOL_NAME_PATTERN,
  type ToolAnnotations,
} from '../../tool/index.js';
import type { LoadedToolOverride } from './gateway-config.js';
import {
  checkKeys,
  type KeySet,
  type ReadContext,
  readBoolean,
  readInteger,
  readMapping,
  report,
} from './read-config-value.js';

const OVERRIDE_KEYS: KeySet = {
  keys: ['annotations', 'resources', 'rateLimit', 'timeoutMs', 'disabled', 'enabled', 'scopes'],
  what: 'a tool override key',
  synonyms: { hints: 'annotations', timeout: 'timeoutMs', limit: 'rateLimit', keys: 'resources' },
  advice: {
    ...Object.fromEntries(
      HINT_NAMES.map((hint) => [
        hint,
        `is not a tool override key; put hints under "annotations", as in annotations: { ${hint}: true }.`,
      ]),
    ),
  },
};

const ANNOTATION_KEYS: KeySet = {
  keys: ['title', ...HINT_NAMES],
  what: 'an MCP annotation',
};

const RATE_LIMIT_KEYS: KeySet = {
  keys: ['max', 'windowMs', 'maxWaitMs'],
  what: 'a rateLimit key',
  synonyms: { window: 'windowMs', limit: 'max', calls: 'max', maxWait: 'maxWaitMs' },
};

const MS_RULE = `milliseconds, a number in (0, ${MAX_TIMER_MS}]`;

/** Reads a server's `tools`: overrides keyed by the tool's name on that server. */
export function readToolOverrides(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): Record<string, LoadedToolOverride> {
  const map = readMapping(value, path, '{ search: { timeoutMs: 30000 } }', context);
  if (map === undefined) return nullRecord();
  const entries: [string, LoadedToolOverride][] = [];
  for (const [name, raw] of Object.entries(map)) {
    const at = [...path, name];
    if (!TOOL_NAME_PATTERN.test(name)) {
      report(
        context,
        at,
        'is not a tool name; use the name the server gives the tool (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
      );
      continue;
    }
    const override = readOverride(raw, at, context);
    if (override !== undefined) entries.push([name, override]);
  }
  return nullRecord(entries);
}

function readOverride(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): LoadedToolOverride | undefined {
  const map = readMapping(value, path, '{ timeoutMs: 30000, disabled: false }', context);
  if (map === undefined) return value === null ? {} : undefined;
  checkKeys(map, path, OVERRIDE_KEYS, context);
  const annotations = readAnnotations(map.annotations, [...path, 'annotations'], context);
  const resources = readResources(map.resources, [...path, 'resources'], context);
  const rateLimit = readRateLimit(map.rateLimit, [...path, 'rateLimit'], context);
  let timeoutMs: number | undefined;
  if (map.timeoutMs !== undefined) {
    if (isTimerMs(map.timeoutMs)) timeoutMs = map.timeoutMs;
    else
      report(
        context,
        [...path, 'timeoutMs'],
        `is ${describe(map.timeoutMs)}; use ${MS_RULE}, such as 30000.`,
      );
  }
  let disabled = readBoolean(map.disabled, [...path, 'disabled'], context);
  // `enabled` is the name every tool configuration takes; `disabled` says the same inverted.
  const enabled = readBoolean(map.enabled, [...path, 'enabled'], context);
  if (enabled !== undefined) {
    if (disabled !== undefined && disabled === enabled) {
      report(
        context,
        [...path, 'enabled'],
        `is ${enabled} while disabled is ${disabled}; keep one of them.`,
      );
    }
    disabled ??= !enabled;
  }
  const scopes = readScopes(map.scopes, [...path, 'scopes'], context);
  return {
    ...(scopes === undefined ? {} : { scopes }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(resources === undefined ? {} : { resources }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(disabled === undefined ? {} : { disabled }),
  };
}

function readAnnotations(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): ToolAnnotations | undefined {
  const map = readMapping(value, path, '{ readOnlyHint: true }', context);
  if (map === undefined) return undefined;
  checkKeys(map, path, ANNOTATION_KEYS, context);
  const out: Record<string, string | boolean> = {};
  if (map.title !== undefined) {
    if (typeof map.title === 'string') out.title = map.title;
    else report(context, [...path, 'title'], `is ${describe(map.title)}; use a string.`);
  }
  for (const hint of HINT_NAMES) {
    const flag = readBoolean(map[hint], [...path, hint], context);
    if (flag !== undefined) out[hint] = flag;
  }
  return out as ToolAnnotations;
}

function readResources(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    const hint = typeof value === 'string' ? `, as in ["${value}"]` : ', such as ["file:{path}"]';
    report(context, path, `is ${describe(value)}; use a list of resource key templates${hint}.`);
    return undefined;
  }
  const templates: string[] = [];
  value.forEach((template: unknown, index) => {
    const at = [...path, index];
    if (typeof template !== 'string' || template === '') {
      report(context, at, `is ${describe(template)}; use a template string such as "file:{path}".`);
      return;
    }
    // The server's input schema is not known yet: accept every argument the template names,
    // so that only the template's own syntax is checked here.
    const named = new Set([...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? ''));
    try {
      compileResources([template], named, 'template');
      templates.push(template);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^template: /, '') : '';
      report(context, at, `is not a valid template: ${reason}`);
    }
  });
  return templates.length === value.length ? templates : undefined;
}

export function readRateLimit(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): RateLimit | undefined {
  const map = readMapping(value, path, '{ max: 5, windowMs: 60000 }', context);
  if (map === undefined) return undefined;
  checkKeys(map, path, RATE_LIMIT_KEYS, context);
  const before = context.problems.length;
  for (const key of ['max', 'windowMs'] as const) {
    if (map[key] === undefined) {
      report(context, path, `has no "${key}"; write both, as in { max: 5, windowMs: 60000 }.`);
    }
  }
  const max = readInteger(
    map.max,
    [...path, 'max'],
    {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      rule: 'a positive integer, the calls allowed per window',
    },
    context,
  );
  const { windowMs, maxWaitMs } = map;
  if (windowMs !== undefined && !isTimerMs(windowMs)) {
    report(
      context,
      [...path, 'windowMs'],
      `is ${describe(windowMs)}; use ${MS_RULE}, such as 60000.`,
    );
  }
  if (maxWaitMs !== undefined && !(maxWaitMs === 0 || isTimerMs(maxWaitMs))) {
    report(
      context,
      [...path, 'maxWaitMs'],
      `is ${describe(maxWaitMs)}; use milliseconds from 0 to ${MAX_TIMER_MS} (0: never wait).`,
    );
  }
  if (context.problems.length > before || max === undefined || !isTimerMs(windowMs))
    return undefined;
  return { max, windowMs, ...(typeof maxWaitMs === 'number' ? { maxWaitMs } : {}) };
}

/** A list of scope names, or a problem reported. */
export function readScopes(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string' && s !== '')) {
    report(
      context,
      path,
      `is ${describe(value)}; write a list of scope names, such as [records.read].`,
    );
    return undefined;
  }
  return [...value];
}
