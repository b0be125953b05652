import { type ConfigProblem, closest, throwProblems } from '../config-problems/index.js';
import type { HintgateErrorCode } from '../errors/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { ToolSettings } from './read-tool-settings.js';

const MAX_LISTED = 20;

const toolList = (known: readonly string[]): string => {
  if (known.length === 0) return ' No tool is loaded.';
  const sorted = [...known].sort();
  const more = sorted.length - MAX_LISTED;
  return more > 0
    ? ` Tools: ${sorted.slice(0, MAX_LISTED).join(', ')} and ${more} more (see "hintgate tools").`
    : ` Tools: ${sorted.join(', ')}.`;
};

/** Options of {@link applyToolSettings}. */
export interface ApplyToolSettingsOptions {
  /**
   * Origins whose tools are not configured by these settings (a gateway's upstream servers,
   * which have `servers.<server>.tools`): a name only they offer counts as unknown, and
   * the message says where its configuration goes.
   */
  readonly otherOrigins?: ReadonlySet<string>;
  /**
   * Whether some tools are not loaded yet (a project's tools held back until it is
   * trusted): then a name no loaded tool has may be one of them, and is only told to
   * `onWarning`, not refused.
   */
  readonly someHeldBack?: boolean;
  /** Told a name no loaded tool has while {@link someHeldBack}. */
  readonly onWarning?: (message: string) => void;
  /** Code of the error for an unknown name. Default `invalid_policy`. */
  readonly code?: HintgateErrorCode;
}

/**
 * Configures the registry's tools by name from `tools:` of a policy file or `hintgate.yaml`
 * (the configuration holds for whatever layer's tool wins the name, also after a reload).
 * Then checks every name against the tools loaded now.
 *
 * @throws HintgateError (`code`, default `invalid_policy`) naming each entry no loaded tool
 *   has, with its file and line and the name it most likely means, unless
 *   `someHeldBack`; nothing is configured then.
 */
export function applyToolSettings(
  registry: ToolRegistry,
  settings: ToolSettings | undefined,
  options: ApplyToolSettingsOptions = {},
): void {
  if (settings === undefined) return;
  const names = Object.keys(settings.byName);
  if (names.length === 0) return;
  const others = options.otherOrigins ?? new Set<string>();
  const known: string[] = [];
  const upstream = new Map<string, string>();
  for (const described of registry.describe()) {
    if (!others.has(described.origin)) known.push(described.name);
    else upstream.set(described.name, described.origin);
  }
  const knownSet = new Set(known);
  const problems: ConfigProblem[] = [];
  for (const name of names) {
    if (knownSet.has(name)) continue;
    const server = upstream.get(name);
    const guess = closest(name, known);
    const text =
      server !== undefined
        ? `is a tool of server "${server}"; configure it under servers.${server}.tools.${name}.`
        : `names no tool${guess === undefined ? '.' : `; did you mean "${guess}"?`}${toolList(known)}${others.size > 0 ? ' A tool of an upstream server is configured under servers.<server>.tools.<name>.' : ''}`;
    problems.push({ path: ['tools', name], text });
  }
  const source = {
    ...(settings.file === undefined ? {} : { file: settings.file }),
    locate: (path: (string | number)[]) =>
      path.length === 2 ? settings.positions[String(path[1])] : undefined,
  };
  if (problems.length > 0 && options.someHeldBack === true) {
    try {
      throwProblems(problems, {
        source,
        ...(options.code === undefined ? {} : { code: options.code }),
      });
    } catch (error) {
      options.onWarning?.(
        `${(error as Error).message.split('\n').join('; ')} (it may be a tool of the project, held back until the project is trusted)`,
      );
    }
  } else {
    throwProblems(problems, {
      source,
      ...(options.code === undefined ? {} : { code: options.code }),
    });
  }
  for (const name of names) {
    registry.configure(name, settings.byName[name]);
  }
}
