import type { ConfigPath as PolicyPath } from '../../config-problems/index.js';
import type { RateLimit } from '../../tool/index.js';
import {
  compileResources,
  HINT_NAMES,
  isTimerMs,
  nullRecord,
  type ToolAnnotations,
} from '../../tool/index.js';
import type { LoadedToolOverride } from './gateway-config.js';
import { asBoolean, asInteger, asMapping, type ReadContext, report } from './read-config-value.js';

/**
 * Reads a server's `tools`: overrides keyed by the tool's name on that server. The schema
 * has checked names, keys and types; this checks the syntax of resource templates and that
 * `enabled` and `disabled` agree.
 */
export function readToolOverrides(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): Record<string, LoadedToolOverride> {
  const map = asMapping(value);
  if (map === undefined) return nullRecord();
  const entries: [string, LoadedToolOverride][] = [];
  for (const [name, raw] of Object.entries(map)) {
    entries.push([name, readOverride(raw, [...path, name], context)]);
  }
  return nullRecord(entries);
}

function readOverride(value: unknown, path: PolicyPath, context: ReadContext): LoadedToolOverride {
  const map = asMapping(value) ?? {};
  const annotations = readAnnotations(map.annotations);
  const resources = readResources(map.resources, [...path, 'resources'], context);
  const rateLimit = readRateLimit(map.rateLimit);
  const timeoutMs = isTimerMs(map.timeoutMs) ? map.timeoutMs : undefined;
  let disabled = asBoolean(map.disabled);
  // `enabled` is the name every tool configuration takes; `disabled` says the same inverted.
  const enabled = asBoolean(map.enabled);
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
  const scopes = Array.isArray(map.scopes) ? (map.scopes as string[]) : undefined;
  return {
    ...(scopes === undefined ? {} : { scopes: [...scopes] }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(resources === undefined ? {} : { resources }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(disabled === undefined ? {} : { disabled }),
  };
}

function readAnnotations(value: unknown): ToolAnnotations | undefined {
  const map = asMapping(value);
  if (map === undefined) return undefined;
  const out: Record<string, string | boolean> = {};
  if (typeof map.title === 'string') out.title = map.title;
  for (const hint of HINT_NAMES) {
    const flag = asBoolean(map[hint]);
    if (flag !== undefined) out[hint] = flag;
  }
  return out as ToolAnnotations;
}

function readResources(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): readonly string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const templates: string[] = [];
  value.forEach((template: unknown, index) => {
    if (typeof template !== 'string') return;
    // The server's input schema is not known yet: accept every argument the template names,
    // so that only the template's own syntax is checked here.
    const named = new Set([...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? ''));
    try {
      compileResources([template], named, 'template');
      templates.push(template);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^template: /, '') : '';
      report(context, [...path, index], `is not a valid template: ${reason}`);
    }
  });
  return templates.length === value.length ? templates : undefined;
}

/** A `rateLimit` mapping as the schema describes it, or `undefined`. */
export function readRateLimit(value: unknown): RateLimit | undefined {
  const map = asMapping(value);
  const max = asInteger(map?.max);
  const windowMs = map?.windowMs;
  if (map === undefined || max === undefined || !isTimerMs(windowMs)) return undefined;
  const { maxWaitMs } = map;
  return { max, windowMs, ...(typeof maxWaitMs === 'number' ? { maxWaitMs } : {}) };
}
