import { HintgateError } from '../errors/index.js';
import { isPlainObject, type Tool } from '../tool/index.js';

import { compareNames, diffTools } from './diff-tools.js';
import { type Env, readDisabledEnv } from './env-disabled.js';
import { originInfo } from './origin-info.js';
import {
  type CheckedOrigin,
  checkOriginOptions,
  checkTools,
  type OriginInfo,
  type OriginOptions,
} from './origin-options.js';
import type { RegisteredTool, ToolChange, ToolDescription } from './registered-tool.js';
import { originConfigKey, type ResolvedTools, resolveTools } from './resolve-tools.js';
import { checkToolConfig, type ToolConfig } from './tool-config.js';
import { TOOL_LAYERS } from './tool-layer.js';
import { TurnGate } from './turn-gate.js';

/**
 * Fills origins of a registry from outside the program, such as the tool modules of
 * `tools/` folders (`createToolDiscovery`): attached with {@link ToolRegistry.attach}, it is
 * reloaded by {@link ToolRegistry.reload} and closed by {@link ToolRegistry.close}.
 */
export interface RegistryLoader {
  /** Reads its sources again and applies the changes to the registry between turns. */
  reload(): Promise<void>;
  /** Releases what it holds (a module's `dispose`); called once. */
  close(): Promise<void>;
}

/** Options of {@link createRegistry}. */
export interface RegistryOptions {
  /**
   * Environment read for `TOOL_<NAME>_DISABLED` when the registry is created and on
   * `reloadEnv()`. Default `process.env`.
   */
  readonly env?: Env;
  /** Configuration by tool name (enable/disable, scopes, trusted annotation overrides). */
  readonly tools?: Readonly<Record<string, ToolConfig>>;
  /**
   * Called when a change listener throws; the registry and the other listeners carry on.
   * Default: rethrow in a microtask, so the error surfaces as an uncaught exception without
   * corrupting the registry.
   */
  readonly onListenerError?: (error: unknown) => void;
}

/** Options of {@link ToolRegistry.resolve} and {@link ToolRegistry.list}. */
export interface VisibilityOptions {
  /** Scopes the caller holds. Default none: tools that require any scope stay hidden. */
  readonly scopes?: readonly string[];
}

/** Receives the changes of one mutation, sorted by name; never an empty list. */
export type ToolChangeListener = (changes: readonly ToolChange[]) => void;

const holdsScopes = (required: readonly string[], held: readonly string[] | undefined): boolean =>
  required.length === 0 || (held !== undefined && required.every((s) => held.includes(s)));

/**
 * The caller's scopes from visibility options, checked: a string instead of a list would
 * match scopes by substring.
 */
const scopesOf = (options: VisibilityOptions | undefined): readonly string[] | undefined => {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    throw new HintgateError(
      'invalid_option',
      'Visibility options must be an object { scopes?: string[] }.',
    );
  }
  const { scopes } = options;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  ) {
    throw new HintgateError(
      'invalid_option',
      `scopes must be a list of scope names such as ["customers.read"], not ${JSON.stringify(scopes)}.`,
    );
  }
  return scopes;
};

const rethrowLater = (error: unknown): void => {
  queueMicrotask(() => {
    throw error;
  });
};

/**
 * The set of tools: origins in layers (bundled < global < project) with shadowing by name,
 * enable/disable by configuration and `TOOL_<NAME>_DISABLED`, scopes, deterministic listing
 * and change events. Every mutation checks first and changes nothing when it throws;
 * lookups read state computed once per mutation.
 */
export class ToolRegistry {
  #origins: ReadonlyMap<string, CheckedOrigin> = new Map();
  #configs: ReadonlyMap<string, ToolConfig>;
  /** Configuration of one origin's tool, by `originConfigKey(origin, name)`. */
  #originConfigs: ReadonlyMap<string, ToolConfig> = new Map();
  readonly #listeners = new Set<{ readonly listener: ToolChangeListener }>();
  readonly #onListenerError: (error: unknown) => void;
  #env: Env;
  #envDisabled: ReadonlySet<string>;
  #state: ResolvedTools;
  readonly #turns = new TurnGate();
  readonly #loaders = new Set<RegistryLoader>();
  #closing: Promise<void> | undefined;

  /** Prefer {@link createRegistry}. */
  constructor(options: RegistryOptions = {}) {
    const raw: unknown = options;
    if (!isPlainObject(raw)) {
      throw new HintgateError('invalid_option', 'createRegistry expects one options object.');
    }
    if (raw.env !== undefined && (typeof raw.env !== 'object' || raw.env === null)) {
      throw new HintgateError('invalid_option', 'env must be an object such as process.env.');
    }
    if (options.onListenerError !== undefined && typeof options.onListenerError !== 'function') {
      throw new HintgateError(
        'invalid_option',
        'onListenerError must be a function (error) => void.',
      );
    }
    if (raw.tools !== undefined && !isPlainObject(raw.tools)) {
      throw new HintgateError('invalid_option', 'tools must be an object of tool name -> config.');
    }
    this.#configs = new Map(
      Object.entries(options.tools ?? {}).map(([name, config]) => [
        name,
        checkToolConfig(name, config),
      ]),
    );
    this.#onListenerError = options.onListenerError ?? rethrowLater;
    this.#env = options.env ?? process.env;
    this.#envDisabled = readDisabledEnv(this.#env);
    this.#state = resolveTools({
      origins: [],
      configs: this.#configs,
      envDisabled: this.#envDisabled,
    });
  }

  /**
   * Adds an origin and its tools.
   *
   * @throws HintgateError `invalid_option`, `invalid_tool`, `duplicate_origin`, or
   * `duplicate_tool` when a tool name is already defined in the origin's layer.
   */
  addOrigin(origin: OriginOptions): void {
    const checked = checkOriginOptions(origin);
    if (this.#origins.has(checked.name)) {
      throw new HintgateError(
        'duplicate_origin',
        `Origin "${checked.name}" is already registered; give the new one another name, or use setTools("${checked.name}", tools) to replace its tools.`,
      );
    }
    this.#commit(new Map(this.#origins).set(checked.name, checked), this.#configs);
  }

  /**
   * Replaces the tools of an origin, for example after an MCP `tools/list_changed`.
   *
   * @throws HintgateError `unknown_origin`, `invalid_tool` or `duplicate_tool`.
   */
  setTools(originName: string, tools: readonly Tool[]): void {
    const origin = this.#origin(originName);
    const checked = checkTools(tools, `origin "${originName}"`);
    this.#commit(
      new Map(this.#origins).set(originName, { ...origin, tools: checked }),
      this.#configs,
    );
  }

  /**
   * Removes an origin and its tools; tools it shadowed become visible again.
   *
   * @throws HintgateError `unknown_origin`.
   */
  removeOrigin(originName: string): void {
    this.#origin(originName);
    const origins = new Map(this.#origins);
    origins.delete(originName);
    const prefix = originConfigKey(originName, '');
    const originConfigs = new Map(
      [...this.#originConfigs].filter(([key]) => !key.startsWith(prefix)),
    );
    this.#commit(origins, this.#configs, this.#envDisabled, originConfigs);
  }

  /**
   * Trusts an origin's annotations, or stops trusting them.
   *
   * @throws HintgateError `unknown_origin`, or `invalid_option` when `trusted` is not a boolean.
   */
  setTrusted(originName: string, trusted: boolean): void {
    const origin = this.#origin(originName);
    if (typeof trusted !== 'boolean') {
      throw new HintgateError(
        'invalid_option',
        `setTrusted("${originName}", trusted): trusted must be true or false.`,
      );
    }
    this.#commit(new Map(this.#origins).set(originName, { ...origin, trusted }), this.#configs);
  }

  /**
   * Sets an origin's concurrency cap (a positive integer or `Infinity`), or with
   * `undefined` removes it, so that the runtime's default applies. Calls admitted from now
   * on see it.
   *
   * @throws HintgateError `unknown_origin`, or `invalid_option` for another value.
   */
  setConcurrency(originName: string, concurrency: number | undefined): void {
    const origin = this.#origin(originName);
    if (concurrency === undefined) {
      const { concurrency: _removed, ...rest } = origin;
      this.#commit(new Map(this.#origins).set(originName, rest), this.#configs);
      return;
    }
    const checked = checkOriginOptions({ ...origin, concurrency });
    this.#commit(new Map(this.#origins).set(originName, checked), this.#configs);
  }

  /** The configuration of one tool name, if any. */
  config(name: string): ToolConfig | undefined {
    return this.#configs.get(name);
  }

  /**
   * Sets the configuration of one tool name, replacing any earlier one; `undefined` clears it.
   *
   * @throws HintgateError `invalid_option` for a malformed name or configuration.
   */
  configure(name: string, config: ToolConfig | undefined): void {
    const configs = new Map(this.#configs);
    if (config === undefined) configs.delete(name);
    else configs.set(name, checkToolConfig(name, config));
    this.#commit(this.#origins, configs);
  }

  /** The configuration of the tool `name` of one origin, if any (see {@link configureOrigin}). */
  originConfig(originName: string, name: string): ToolConfig | undefined {
    return this.#originConfigs.get(originConfigKey(originName, name));
  }

  /**
   * Sets the configuration of the tool `name` of one origin, replacing any earlier one;
   * `undefined` clears it. It applies only while the visible tool of that name comes from
   * that origin: a tool of another origin (say, one of a later layer that shadows it) never
   * gets it, whatever its name. Over the configuration of the name (`configure`) its keys
   * win, annotations merged key by key. It goes with the origin when the origin is removed.
   *
   * @throws HintgateError `unknown_origin`, or `invalid_option` for a malformed name or
   * configuration.
   */
  configureOrigin(originName: string, name: string, config: ToolConfig | undefined): void {
    this.configureOriginTools(originName, new Map([[name, config]]));
  }

  /**
   * Sets the configuration of several tools of one origin at once, as
   * {@link configureOrigin} does for each (`undefined` clears one), with one change of the
   * registry: the tools are resolved and the listeners told once, whatever the number of
   * tools (a server of thousands of tools configured one by one would resolve thousands of
   * tools thousands of times). Nothing changes when one configuration is malformed.
   *
   * @throws HintgateError `unknown_origin`, or `invalid_option` for a malformed name or
   * configuration.
   */
  configureOriginTools(
    originName: string,
    configs: ReadonlyMap<string, ToolConfig | undefined>,
  ): void {
    this.#origin(originName);
    if (!(configs instanceof Map)) {
      throw new HintgateError(
        'invalid_option',
        `configureOriginTools("${originName}", configs): configs must be a Map of tool name -> configuration (or undefined to clear it).`,
      );
    }
    if (configs.size === 0) return;
    const originConfigs = new Map(this.#originConfigs);
    for (const [name, config] of configs) {
      const key = originConfigKey(originName, name);
      if (config === undefined) originConfigs.delete(key);
      else originConfigs.set(key, checkToolConfig(name, config));
    }
    this.#commit(this.#origins, this.#configs, this.#envDisabled, originConfigs);
  }

  /**
   * Reads `TOOL_<NAME>_DISABLED` again, from `env` when given (it then replaces the
   * registry's environment), else from the environment the registry was created with.
   */
  reloadEnv(env?: Env): void {
    const source = env ?? this.#env;
    this.#commit(this.#origins, this.#configs, readDisabledEnv(source));
    this.#env = source;
  }

  /**
   * Marks a turn as under way until the returned function is called; the runtime does so
   * for every `execute` batch and every `turn()` until its `end()`. Loaders apply reloads
   * only when no turn is under way ({@link ToolRegistry.whenIdle}), so a turn keeps the
   * tools it started with and the new set applies to the next turn.
   */
  holdTurn(): () => void {
    return this.#turns.enter();
  }

  /** Number of turns under way (see {@link ToolRegistry.holdTurn}). */
  get turnsUnderWay(): number {
    return this.#turns.active;
  }

  /** Resolves once no turn is under way (see {@link ToolRegistry.holdTurn}). */
  whenIdle(): Promise<void> {
    return this.#turns.whenIdle();
  }

  /**
   * Attaches a loader: {@link ToolRegistry.reload} reloads it, {@link ToolRegistry.close}
   * closes it. Returns a function that detaches it (without closing it).
   *
   * @throws HintgateError `invalid_option` for something that is not a loader, or
   * `registry_closed` once the registry is closed.
   */
  attach(loader: RegistryLoader): () => void {
    if (
      typeof loader !== 'object' ||
      loader === null ||
      typeof loader.reload !== 'function' ||
      typeof loader.close !== 'function'
    ) {
      throw new HintgateError(
        'invalid_option',
        'attach expects a loader { reload(): Promise<void>; close(): Promise<void> }, such as createToolDiscovery() makes.',
      );
    }
    if (this.#closing !== undefined) {
      throw new HintgateError(
        'registry_closed',
        'attach: this registry is closed; attach loaders to a new one.',
      );
    }
    this.#loaders.add(loader);
    return () => {
      this.#loaders.delete(loader);
    };
  }

  /**
   * Reads `TOOL_<NAME>_DISABLED` again and reloads every attached loader (tool modules whose
   * files changed are loaded anew). Tool modules are swapped between turns only: a turn
   * under way keeps its tools, the next turn gets the new set.
   */
  async reload(): Promise<void> {
    this.reloadEnv();
    for (const loader of [...this.#loaders]) await loader.reload();
  }

  /**
   * Closes every attached loader once (tool modules' `dispose`); `createRuntime`'s `close`
   * calls it. Later calls return the same promise.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const failures: unknown[] = [];
      for (const loader of [...this.#loaders]) {
        try {
          await loader.close();
        } catch (error) {
          failures.push(error);
        }
      }
      this.#loaders.clear();
      for (const failure of failures) this.#report(failure);
    })();
    return this.#closing;
  }

  /**
   * The visible tool of a name: the winner across layers, if its name is enabled and the
   * caller holds every scope it requires; else `undefined`.
   */
  resolve(name: string, options?: VisibilityOptions): RegisteredTool | undefined {
    const registered = this.#state.enabled.get(name);
    return registered !== undefined && holdsScopes(registered.scopes, scopesOf(options))
      ? registered
      : undefined;
  }

  /** The tools visible to a caller, sorted by name (plain code-unit order). */
  list(options?: VisibilityOptions): RegisteredTool[] {
    const scopes = scopesOf(options);
    return this.#state.sorted.filter((r) => holdsScopes(r.scopes, scopes));
  }

  /** The origins, sorted by layer, then by name. */
  origins(): OriginInfo[] {
    return [...this.#origins.values()]
      .sort(
        (a, b) =>
          TOOL_LAYERS.indexOf(a.layer) - TOOL_LAYERS.indexOf(b.layer) ||
          compareNames(a.name, b.name),
      )
      .map(originInfo);
  }

  /** The origin named `name`, or undefined when there is none. */
  origin(name: string): OriginInfo | undefined {
    const origin = this.#origins.get(name);
    return origin === undefined ? undefined : originInfo(origin);
  }

  /** Every tool name, visible or not, sorted by name: winner, what it shadows, and why hidden. */
  describe(): ToolDescription[] {
    return [...this.#state.descriptions];
  }

  /**
   * Calls `listener` after each mutation that changes the enabled winners (callers' scopes
   * not considered). Returns a function that unsubscribes.
   */
  onChange(listener: ToolChangeListener): () => void {
    if (typeof listener !== 'function') {
      throw new HintgateError('invalid_option', 'onChange expects a function (changes) => void.');
    }
    const entry = { listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  #report(error: unknown): void {
    try {
      this.#onListenerError(error);
    } catch (failure) {
      rethrowLater(failure);
    }
  }

  #origin(name: string): CheckedOrigin {
    const origin = this.#origins.get(name);
    if (origin === undefined) {
      const known = [...this.#origins.keys()].map((n) => `"${n}"`).join(', ') || 'none';
      throw new HintgateError(
        'unknown_origin',
        `No origin "${name}" is registered (registered: ${known}); add it with addOrigin first.`,
      );
    }
    return origin;
  }

  /** Resolves the new state (which may throw), then swaps it in and notifies listeners. */
  #commit(
    origins: ReadonlyMap<string, CheckedOrigin>,
    configs: ReadonlyMap<string, ToolConfig>,
    envDisabled: ReadonlySet<string> = this.#envDisabled,
    originConfigs: ReadonlyMap<string, ToolConfig> = this.#originConfigs,
  ): void {
    const next = resolveTools({
      origins: [...origins.values()],
      configs,
      originConfigs,
      envDisabled,
      previous: this.#state.enabled,
    });
    const changes = Object.freeze(diffTools(this.#state.enabled, next.enabled));
    this.#origins = origins;
    this.#configs = configs;
    this.#originConfigs = originConfigs;
    this.#envDisabled = envDisabled;
    this.#state = next;
    if (changes.length === 0) return;
    for (const { listener } of [...this.#listeners]) {
      try {
        listener(changes);
      } catch (error) {
        this.#report(error);
      }
    }
  }
}

/** Creates an empty {@link ToolRegistry}; add tools with `addOrigin`. */
export function createRegistry(options?: RegistryOptions): ToolRegistry {
  return new ToolRegistry(options);
}
