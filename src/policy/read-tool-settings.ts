import {
  type ConfigPath,
  type ConfigPosition,
  type ConfigProblem,
  type ConfigSource,
  closest,
  describe,
} from '../config-problems/index.js';
import type { ToolConfig } from '../registry/index.js';
import {
  HINT_NAMES,
  isPlainObject,
  isTimerMs,
  MAX_TIMER_MS,
  TOOL_NAME_PATTERN,
} from '../tool/index.js';

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

/** Keys a `tools.<name>` entry takes, as `servers.<server>.tools.<name>` does. */
const KEYS = ['enabled', 'disabled', 'timeoutMs', 'annotations', 'scopes'] as const;

const ADVICE: Readonly<Record<string, string>> = {
  rateLimit:
    'is not a key of a tool here: a local tool states its rateLimit in defineTool, an upstream tool gets one under servers.<server>.tools.<name>.',
  resources:
    'is not a key of a tool here: a local tool states its resources in defineTool, an upstream tool gets them under servers.<server>.tools.<name>.',
  timeout: 'is not a key of a tool; did you mean "timeoutMs"?',
  hints: 'is not a key of a tool; did you mean "annotations"?',
  ...Object.fromEntries(
    HINT_NAMES.map((hint) => [
      hint,
      `is not a key of a tool; put hints under "annotations", as in annotations: { ${hint}: true }.`,
    ]),
  ),
};

const ANNOTATION_KEYS = ['title', ...HINT_NAMES] as const;

/**
 * Reads a `tools:` mapping (of a policy file or `hintgate.yaml`), adding what is wrong to
 * `problems` (paths under `path`). `source` locates each entry for later messages (an
 * unknown tool name is only known once the tools are loaded). Absent or `null`: undefined.
 */
export function readToolSettings(
  value: unknown,
  path: ConfigPath,
  problems: ConfigProblem[],
  source?: ConfigSource,
): ToolSettings | undefined {
  if (value === undefined || value === null) return undefined;
  const report = (at: ConfigPath, text: string): void => {
    problems.push({ path: at, text });
  };
  if (!isPlainObject(value)) {
    report(
      path,
      `is ${describe(value)}; write a mapping of tool names, such as { run_command: { timeoutMs: 120000 } }.`,
    );
    return undefined;
  }
  const byName: Record<string, ToolConfig> = Object.create(null);
  const positions: Record<string, ConfigPosition> = Object.create(null);
  for (const [name, entry] of Object.entries(value)) {
    const at = [...path, name];
    if (!TOOL_NAME_PATTERN.test(name)) {
      report(
        at,
        'is not a tool name; use the name the tool is listed under (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
      );
      continue;
    }
    const config = readEntry(entry, at, report);
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
  report: (at: ConfigPath, text: string) => void,
): ToolConfig | undefined {
  if (value === null) return {};
  if (!isPlainObject(value)) {
    report(
      path,
      `is ${describe(value)}; write a mapping such as { enabled: false } or { timeoutMs: 30000 }.`,
    );
    return undefined;
  }
  let ok = true;
  const bad = (at: ConfigPath, text: string): void => {
    ok = false;
    report(at, text);
  };
  for (const key of Object.keys(value)) {
    if ((KEYS as readonly string[]).includes(key)) continue;
    const guess = closest(key, KEYS);
    bad(
      [...path, key],
      ADVICE[key] ??
        (guess === undefined
          ? `is not a key of a tool; use ${KEYS.join(', ')}.`
          : `is not a key of a tool; did you mean "${guess}"?`),
    );
  }
  const { enabled, disabled, timeoutMs, annotations, scopes } = value;
  for (const [key, flag] of [
    ['enabled', enabled],
    ['disabled', disabled],
  ] as const) {
    if (flag !== undefined && typeof flag !== 'boolean') {
      bad([...path, key], `is ${describe(flag)}; use true or false.`);
    }
  }
  if (typeof enabled === 'boolean' && typeof disabled === 'boolean' && enabled === disabled) {
    bad([...path, 'enabled'], `is ${enabled} while disabled is ${disabled}; keep one of them.`);
  }
  if (timeoutMs !== undefined && !isTimerMs(timeoutMs)) {
    bad(
      [...path, 'timeoutMs'],
      `is ${describe(timeoutMs)}; use milliseconds, a number in (0, ${MAX_TIMER_MS}], such as 30000.`,
    );
  }
  if (
    scopes !== undefined &&
    scopes !== null &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string' && s !== ''))
  ) {
    bad(
      [...path, 'scopes'],
      `is ${describe(scopes)}; write a list of scope names, such as [records.read].`,
    );
  }
  const hints: Record<string, unknown> = {};
  if (annotations !== undefined && annotations !== null) {
    if (!isPlainObject(annotations)) {
      bad(
        [...path, 'annotations'],
        `is ${describe(annotations)}; write a mapping such as { readOnlyHint: true }.`,
      );
    } else {
      for (const [key, hint] of Object.entries(annotations)) {
        const at = [...path, 'annotations', key];
        if (!(ANNOTATION_KEYS as readonly string[]).includes(key)) {
          const guess = closest(key, ANNOTATION_KEYS);
          bad(
            at,
            `is not an MCP annotation; ${guess === undefined ? `use ${ANNOTATION_KEYS.join(', ')}` : `did you mean "${guess}"?`}`,
          );
        } else if (key === 'title' ? typeof hint !== 'string' : typeof hint !== 'boolean') {
          bad(at, `is ${describe(hint)}; use ${key === 'title' ? 'a string' : 'true or false'}.`);
        } else hints[key] = hint;
      }
    }
  }
  if (!ok) return undefined;
  const on =
    typeof enabled === 'boolean' ? enabled : typeof disabled === 'boolean' ? !disabled : undefined;
  return Object.freeze({
    ...(on === undefined ? {} : { enabled: on }),
    ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
    ...(Array.isArray(scopes) ? { scopes: Object.freeze([...(scopes as string[])]) } : {}),
    ...(Object.keys(hints).length === 0 ? {} : { annotations: Object.freeze(hints) }),
  });
}
