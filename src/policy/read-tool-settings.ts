import type {
  ConfigPath,
  ConfigPosition,
  ConfigProblem,
  ConfigSource,
} from '../config-problems/index.js';
import type { ToolConfig } from '../registry/index.js';
import { HINT_NAMES, isPlainObject, isTimerMs, TOOL_NAME_PATTERN } from '../tool/index.js';

/**
 * `tools:` of a policy file or of `hintgate.yaml`: configuration of tools by name, for any
 * tool of any layer (built-in, global, project), and where each entry was written.
 */
export interface ToolSettings {
  /** Configuration by tool name: `enabled`, `timeoutMs`, `annotations`, `scopes`. */
  readonly byName: Readonly<Record<string, ToolConfig>>;
  /** The file they were read from, when they come from one (for messages). */
  readonly file?: string;
  /** Where each entry is in that file, when known (for messages). */
  readonly positions: Readonly<Record<string, ConfigPosition>>;
}

/** Annotations a `tools.<name>` entry may state, with the type of each. */
const ANNOTATION_KEYS = ['title', ...HINT_NAMES] as const;

/**
 * Reads a `tools:` mapping (of a policy file or `hintgate.yaml`) checked against the schema
 * (or whose schema problems are reported with these): normalises each entry and adds to
 * `problems` (paths under `path`) what a schema cannot say, `enabled` and `disabled` that
 * contradict each other. Names and values of the wrong kind are left out, for the schema to
 * report. `source` locates each entry for later messages (an unknown tool name is only
 * known once the tools are loaded). Absent or `null`: undefined.
 */
export function readToolSettings(
  value: unknown,
  path: ConfigPath,
  problems: ConfigProblem[],
  source?: ConfigSource,
): ToolSettings | undefined {
  if (value === undefined || value === null || !isPlainObject(value)) return undefined;
  const byName: Record<string, ToolConfig> = Object.create(null);
  const positions: Record<string, ConfigPosition> = Object.create(null);
  for (const [name, entry] of Object.entries(value)) {
    if (!TOOL_NAME_PATTERN.test(name)) continue;
    const at = [...path, name];
    const config = readEntry(entry, at, problems);
    if (config === undefined) continue;
    byName[name] = config;
    const position = locate(source, at);
    if (position !== undefined) positions[name] = position;
  }
  return {
    byName,
    ...(source?.file === undefined ? {} : { file: source.file }),
    positions,
  };
}

const locate = (source: ConfigSource | undefined, path: ConfigPath) => {
  try {
    return source?.locate?.(path);
  } catch {
    return undefined;
  }
};

function readEntry(
  value: unknown,
  path: ConfigPath,
  problems: ConfigProblem[],
): ToolConfig | undefined {
  if (value === null) return {};
  if (!isPlainObject(value)) return undefined;
  const { enabled, disabled, timeoutMs, annotations, scopes } = value;
  if (typeof enabled === 'boolean' && typeof disabled === 'boolean' && enabled === disabled) {
    problems.push({
      path: [...path, 'enabled'],
      text: `is ${enabled} while disabled is ${disabled}; keep one of them.`,
    });
    return undefined;
  }
  const hints: Record<string, unknown> = {};
  if (isPlainObject(annotations)) {
    for (const key of ANNOTATION_KEYS) {
      const hint = annotations[key];
      if (typeof hint === (key === 'title' ? 'string' : 'boolean')) hints[key] = hint;
    }
  }
  const on =
    typeof enabled === 'boolean' ? enabled : typeof disabled === 'boolean' ? !disabled : undefined;
  return Object.freeze({
    ...(on === undefined ? {} : { enabled: on }),
    ...(isTimerMs(timeoutMs) ? { timeoutMs } : {}),
    ...(Array.isArray(scopes)
      ? { scopes: Object.freeze(scopes.filter((scope) => typeof scope === 'string')) }
      : {}),
    ...(Object.keys(hints).length === 0 ? {} : { annotations: Object.freeze(hints) }),
  });
}
