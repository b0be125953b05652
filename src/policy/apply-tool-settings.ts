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
   * `onWarning`, not refused. A function is asked again at every later check (see
   * {@link onLaterProblem}), since a project may be trusted meanwhile.
   */
  readonly someHeldBack?: boolean | (() => boolean);
  /** Told a name no loaded tool has while {@link someHeldBack}. */
  readonly onWarning?: (message: string) => void;
  /**
   * Given, the names are checked again whenever the registry's tools change (a tool module
   * reloaded or trusted, an upstream server's list changed or reached late), and each entry
   * that then names no tool, or names an upstream server's tool, is told here, one line
   * each, once when it starts to hold or its text changes (not per call). The entries keep
   * applying by name meanwhile, to whatever tool has the name when it appears, except a
   * tool of an origin added with `configuredByName: false` (a gateway's upstream servers).
   * Stop with the function `applyToolSettings` returns.
   */
  readonly onLaterProblem?: (message: string) => void;
  /** Code of the error for an unknown name. Default `invalid_policy`. */
  readonly code?: HintgateErrorCode;
}

/** The problems of `names` against the registry's tools now. */
function settingsProblems(
  registry: ToolRegistry,
  names: readonly string[],
  others: ReadonlySet<string>,
  later: { readonly heldBack: boolean } | undefined,
): ConfigProblem[] {
  const known: string[] = [];
  const upstream = new Map<string, { origin: string; nameOnOrigin: string; reached: boolean }>();
  for (const described of registry.describe()) {
    if (!others.has(described.origin)) known.push(described.name);
    else {
      const tool = registry.resolve(described.name)?.tool;
      upstream.set(described.name, {
        origin: described.origin,
        nameOnOrigin: tool?.nameOnOrigin ?? described.name,
        reached: registry.origin(described.origin)?.configuredByName !== false,
      });
    }
  }
  const knownSet = new Set(known);
  const problems: ConfigProblem[] = [];
  for (const name of names) {
    if (knownSet.has(name)) continue;
    const server = upstream.get(name);
    const guess = closest(name, known);
    const text =
      server === undefined
        ? `names no tool${later === undefined ? '' : ' now'}${guess === undefined ? '.' : `; did you mean "${guess}"?`}${toolList(known)}${others.size > 0 ? ' A tool of an upstream server is configured under servers.<server>.tools.<name>.' : ''}${later?.heldBack === true ? HELD_BACK : ''}`
        : later !== undefined
          ? `is now the name of a tool of server "${server.origin}", ${server.reached ? 'and applies to it' : 'and does not apply to it (an entry here is for local tools)'}; configure that tool under servers.${server.origin}.tools.${server.nameOnOrigin} instead.`
          : `is a tool of server "${server.origin}"; configure it under servers.${server.origin}.tools.${server.nameOnOrigin}.`;
    problems.push({ path: ['tools', name], text });
  }
  return problems;
}

/** The lines `throwProblems` would throw for `problems`, each with its file and line. */
function problemLines(
  problems: readonly ConfigProblem[],
  settings: ToolSettings,
  code: HintgateErrorCode | undefined,
): string[] {
  try {
    throwProblems(problems, {
      source: sourceOf(settings),
      ...(code === undefined ? {} : { code }),
    });
  } catch (error) {
    return (error as Error).message.split('\n');
  }
  return [];
}

const sourceOf = (settings: ToolSettings) => ({
  ...(settings.file === undefined ? {} : { file: settings.file }),
  locate: (path: (string | number)[]) =>
    path.length === 2 ? settings.positions[String(path[1])] : undefined,
});

const HELD_BACK = ' (it may be a tool of the project, held back until the project is trusted)';

const heldBack = (option: ApplyToolSettingsOptions['someHeldBack']): boolean =>
  typeof option === 'function' ? option() : option === true;

/**
 * Configures the registry's tools by name from `tools:` of a policy file or `hintgate.yaml`
 * (the configuration holds for whatever layer's tool wins the name, also after a reload,
 * and for a tool that appears later; never for a tool of an origin added with
 * `configuredByName: false`, such as a gateway's upstream server). Then checks every name against the tools loaded now,
 * and with `onLaterProblem`, again after every change of the tools.
 *
 * @returns A function that stops the later checks (nothing to stop without `onLaterProblem`).
 * @throws HintgateError (`code`, default `invalid_policy`) naming each entry no loaded tool
 *   has, with its file and line and the name it most likely means, unless
 *   `someHeldBack`; nothing is configured then.
 */
export function applyToolSettings(
  registry: ToolRegistry,
  settings: ToolSettings | undefined,
  options: ApplyToolSettingsOptions = {},
): () => void {
  const stop = (): void => {};
  if (settings === undefined) return stop;
  const names = Object.keys(settings.byName);
  if (names.length === 0) return stop;
  const others = options.otherOrigins ?? new Set<string>();
  const first = settingsProblems(registry, names, others, undefined);
  if (first.length > 0 && heldBack(options.someHeldBack)) {
    const lines = problemLines(first, settings, options.code);
    options.onWarning?.(`${lines.join('; ')}${HELD_BACK}`);
  } else {
    throwProblems(first, {
      source: sourceOf(settings),
      ...(options.code === undefined ? {} : { code: options.code }),
    });
  }
  for (const name of names) {
    registry.configure(name, settings.byName[name]);
  }
  const { onLaterProblem } = options;
  if (onLaterProblem === undefined) return stop;
  const laterLines = (): string[] =>
    problemLines(
      settingsProblems(registry, names, others, { heldBack: heldBack(options.someHeldBack) }),
      settings,
      options.code,
    );
  // Lines told while they hold: a change that leaves a line as it is (another server's
  // list, a tool updated) does not tell it again; one that changes its text does.
  let told = new Set(laterLines());
  let queued = false;
  // One mutation of the tools (an upstream's new list, a reload) may be several changes of
  // the registry: the check runs once they are all made.
  const check = (): void => {
    queued = false;
    const lines = new Set(laterLines());
    for (const line of lines) {
      if (told.has(line)) continue;
      try {
        onLaterProblem(line);
      } catch {
        // Telling must not break the registry's other listeners.
      }
    }
    told = lines;
  };
  return registry.onChange(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(check);
  });
}
