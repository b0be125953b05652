import { basename, join, resolve } from 'node:path';
import { HintgateError } from '../errors/index.js';
import type { Env, ToolRegistry } from '../registry/index.js';
import type { Tool } from '../tool/index.js';
import type {
  DiscoveredModule,
  DiscoveryProblem,
  DiscoveryStatus,
  FolderLayer,
  HeldBackProject,
  TrustAnswer,
  TrustRequest,
} from './discovery-types.js';
import { findToolFiles } from './find-tool-files.js';
import { hintgateHome } from './hintgate-home.js';
import { type LoadedToolModule, loadToolModule } from './load-tool-module.js';
import { createTrustStore, TRUST_FILE_NAME, type TrustStore } from './trust-store.js';
import { type ToolFolderWatch, type WatchedPath, watchToolFolders } from './watch-tool-folders.js';
import { wrapModuleTool } from './wrap-module-tool.js';

/** Options of {@link createToolDiscovery}. */
export interface ToolDiscoveryOptions {
  /** The registry the discovered tools go into, as origins `global:<file>` / `project:<file>`. */
  readonly registry: ToolRegistry;
  /**
   * The project folder: its `.hintgate/tools/` is the project layer, loaded only once a
   * person trusts the folder. Absent: no project layer.
   */
  readonly project?: string;
  /** hintgate's home folder: `tools/` is the global layer. Default `$HINTGATE_HOME` or `~/.hintgate`. */
  readonly home?: string;
  /** Environment read for `HINTGATE_HOME`. Default `process.env`. */
  readonly env?: Env;
  /** Where trusted project folders are remembered. Default `<home>/trusted-projects.json`. */
  readonly trustStore?: TrustStore;
  /**
   * Asks a person whether to load a project's tools that are not trusted (yet, or since
   * they changed). Absent: they are held back until `hintgate trust <project>`.
   */
  readonly askTrust?: (request: TrustRequest) => Promise<TrustAnswer> | TrustAnswer;
  /**
   * Called for each module left out and for a project held back, each time a load finds
   * it. Default: nothing (read {@link ToolDiscovery.status}).
   */
  readonly onProblem?: (message: string) => void;
  /**
   * Run modules' `init` before their first call and `dispose` on close. Default true;
   * `false` loads modules only to list their tools (`hintgate tools`).
   */
  readonly lifecycle?: boolean;
  /**
   * Watch the tool folders (and the trust file): a module added, changed or removed
   * triggers a reload once the folders have been quiet for `debounceMs` (default 200),
   * applied between turns as every reload is; a changed project file is held back until
   * the project is trusted again. `true` for the defaults. Default: no watching (call
   * `registry.reload()`).
   */
  readonly watch?: boolean | { readonly debounceMs?: number };
}

/** A loaded module and its lifecycle. */
interface ActiveModule {
  readonly module: LoadedToolModule;
  readonly layer: FolderLayer;
  readonly origin: string;
  tools: readonly Tool[];
  init: Promise<void> | undefined;
  disposed: boolean;
}

interface LayerState {
  readonly hash: string;
  readonly modules: readonly ActiveModule[];
  readonly problems: readonly DiscoveryProblem[];
}

const LAYERS: readonly FolderLayer[] = ['global', 'project'];

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Tool modules discovered in the `tools/` folders of the global layer (`~/.hintgate/tools/`)
 * and the project layer (`<project>/.hintgate/tools/`), kept in a registry beside the
 * tools given in code (bundled). Later layers shadow earlier ones by name. Project tools
 * load only once a person trusts the folder, with the hash of its files; a change asks
 * again. Attached to the registry: `registry.reload()` reloads it, and the runtime's
 * `close` disposes its modules.
 */
export class ToolDiscovery {
  readonly #registry: ToolRegistry;
  readonly #project: string | undefined;
  readonly #folders: Readonly<Record<FolderLayer, string | undefined>>;
  readonly #trust: TrustStore;
  readonly #askTrust: ToolDiscoveryOptions['askTrust'];
  readonly #onProblem: (message: string) => void;
  readonly #lifecycle: boolean;
  readonly #trustedOnce = new Set<string>();
  readonly #layers = new Map<FolderLayer, LayerState>();
  #heldBack: HeldBackProject | undefined;
  #reloading: Promise<void> = Promise.resolve();
  #closed: Promise<void> | undefined;
  readonly #detach: () => void;
  readonly #watch: ToolFolderWatch | undefined;

  /** Prefer {@link createToolDiscovery}, which also loads. */
  constructor(options: ToolDiscoveryOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new HintgateError('invalid_option', 'createToolDiscovery expects one options object.');
    }
    if (
      options.project !== undefined &&
      (typeof options.project !== 'string' || options.project === '')
    ) {
      throw new HintgateError('invalid_option', 'project must be the path of a project folder.');
    }
    if (options.askTrust !== undefined && typeof options.askTrust !== 'function') {
      throw new HintgateError('invalid_option', 'askTrust must be a function (request) => answer.');
    }
    const home = resolve(options.home ?? hintgateHome(options.env ?? process.env));
    this.#registry = options.registry;
    this.#project = options.project === undefined ? undefined : resolve(options.project);
    this.#folders = Object.freeze({
      global: join(home, 'tools'),
      project: this.#project === undefined ? undefined : join(this.#project, '.hintgate', 'tools'),
    });
    this.#trust = options.trustStore ?? createTrustStore({ home });
    this.#askTrust = options.askTrust;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#lifecycle = options.lifecycle !== false;
    this.#detach = this.#registry.attach(this);
    this.#watch =
      options.watch === undefined || options.watch === false
        ? undefined
        : this.#watchFolders(home, options.watch);
  }

  #watchFolders(home: string, watch: true | { readonly debounceMs?: number }): ToolFolderWatch {
    const debounceMs = watch === true ? undefined : watch.debounceMs;
    if (debounceMs !== undefined && !(Number.isFinite(debounceMs) && debounceMs >= 0)) {
      throw new HintgateError(
        'invalid_option',
        'watch.debounceMs must be a number of milliseconds, 0 or more.',
      );
    }
    const paths: WatchedPath[] = [{ path: join(home, TRUST_FILE_NAME), kind: 'file' }];
    for (const layer of LAYERS) {
      const folder = this.#folders[layer];
      if (folder !== undefined) paths.push({ path: folder, kind: 'folder' });
    }
    const watcher = watchToolFolders(paths, {
      ...(debounceMs === undefined ? {} : { debounceMs }),
      onProblem: (message) => this.#onProblem(message),
      onChange: () => {
        this.reload().then(
          () => watcher.rearm(),
          (error: unknown) => {
            watcher.rearm();
            this.#onProblem(`reloading the tool folders failed: ${messageOf(error)}`);
          },
        );
      },
    });
    return watcher;
  }

  /** What was found: modules loaded, modules left out, project held back. */
  status(): DiscoveryStatus {
    const modules: DiscoveredModule[] = [];
    const problems: DiscoveryProblem[] = [];
    for (const layer of LAYERS) {
      const state = this.#layers.get(layer);
      for (const active of state?.modules ?? []) {
        modules.push({
          layer,
          file: active.module.file,
          origin: active.origin,
          tools: active.tools.map((tool) => tool.name),
        });
      }
      problems.push(...(state?.problems ?? []));
    }
    return {
      folders: this.#folders,
      modules,
      problems,
      ...(this.#heldBack === undefined ? {} : { heldBack: this.#heldBack }),
    };
  }

  /**
   * Looks at the folders again: a layer whose files changed is loaded anew (for the
   * project, behind trust again) and swapped in between turns; its old modules are then
   * disposed. Reloads run one after another.
   */
  reload(): Promise<void> {
    const next = this.#reloading.then(() => this.#reloadNow());
    this.#reloading = next.catch(() => {});
    return next;
  }

  /** Disposes every module whose `init` ran (or that has none), once; detaches from the registry. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#watch?.close();
      this.#detach();
      await this.#reloading;
      const all = LAYERS.flatMap((layer) => this.#layers.get(layer)?.modules ?? []);
      await this.#dispose(all);
    })();
    return this.#closed;
  }

  async #reloadNow(): Promise<void> {
    if (this.#closed !== undefined) return;
    const next = new Map<FolderLayer, LayerState | undefined>();
    this.#heldBack = undefined;
    for (const layer of LAYERS) {
      const folder = this.#folders[layer];
      const files = folder === undefined ? undefined : await findToolFiles(folder);
      if (files === undefined || files.modules.length === 0) {
        next.set(layer, undefined);
        continue;
      }
      if (
        layer === 'project' &&
        !(await this.#trusted(folder as string, files.modules, files.hash))
      ) {
        next.set(layer, undefined);
        continue;
      }
      const current = this.#layers.get(layer);
      if (current?.hash === files.hash) continue;
      next.set(layer, await this.#load(layer, files.modules, files.hash));
    }
    if (this.#closed !== undefined) {
      await this.#dispose([...next.values()].flatMap((state) => state?.modules ?? []));
      return;
    }
    // Between turns only: a turn under way keeps the tools it started with.
    while (this.#registry.turnsUnderWay > 0) await this.#registry.whenIdle();
    const replaced: ActiveModule[] = [];
    for (const [layer, state] of next) {
      const old = this.#layers.get(layer);
      for (const active of old?.modules ?? []) {
        this.#registry.removeOrigin(active.origin);
        replaced.push(active);
      }
      if (state === undefined) {
        this.#layers.delete(layer);
        continue;
      }
      const kept: ActiveModule[] = [];
      const problems = [...state.problems];
      for (const active of state.modules) {
        try {
          this.#registry.addOrigin({
            name: active.origin,
            layer,
            trusted: true,
            tools: active.tools,
            file: active.module.file,
          });
          kept.push(active);
        } catch (error) {
          const message = `${active.module.file} is left out: ${messageOf(error)}`;
          problems.push({ layer, file: active.module.file, message });
          this.#onProblem(message);
        }
      }
      this.#layers.set(layer, { hash: state.hash, modules: kept, problems });
    }
    await this.#dispose(replaced);
  }

  /** Whether the project's tools may load now; asks when a person can be asked. */
  async #trusted(directory: string, files: readonly string[], hash: string): Promise<boolean> {
    const project = this.#project as string;
    if (this.#trustedOnce.has(hash)) return true;
    const status = await this.#trust.status(project, hash);
    if (status === 'trusted') return true;
    const request: TrustRequest = {
      project,
      directory,
      files,
      status,
      hash,
      command: `hintgate trust ${JSON.stringify(project)}`,
    };
    let answer: TrustAnswer = 'deny';
    if (this.#askTrust !== undefined) {
      try {
        answer = await this.#askTrust(request);
      } catch (error) {
        this.#onProblem(`asking whether to trust ${project} failed: ${messageOf(error)}`);
      }
    }
    if (answer === 'always') {
      await this.#trust.trust(project, hash);
      return true;
    }
    if (answer === 'once') {
      this.#trustedOnce.add(hash);
      return true;
    }
    this.#heldBack = request;
    this.#onProblem(
      `the ${files.length} tool module(s) of ${directory} are held back: ${
        status === 'new'
          ? 'this project folder is not trusted yet'
          : 'its tool files changed since it was trusted'
      }. Review them, then run: ${request.command}`,
    );
    return false;
  }

  /** Loads a layer's modules; a module that fails, or that redefines a name, is left out. */
  async #load(layer: FolderLayer, files: readonly string[], hash: string): Promise<LayerState> {
    const modules: ActiveModule[] = [];
    const problems: DiscoveryProblem[] = [];
    const names = new Map<string, string>();
    const leaveOut = (file: string, message: string): void => {
      problems.push({ layer, file, message });
      this.#onProblem(message);
    };
    for (const file of files) {
      const loaded = await loadToolModule(file, {
        version: hash,
        cwd: this.#project ?? process.cwd(),
      });
      if ('message' in loaded) {
        leaveOut(file, loaded.message);
        continue;
      }
      const clash = loaded.tools.find((tool) => names.has(tool.name));
      if (clash !== undefined) {
        leaveOut(
          file,
          `${file} is left out: its tool "${clash.name}" is already defined by ${names.get(clash.name)} in the ${layer} layer; rename one of them (a name may be defined once per layer).`,
        );
        continue;
      }
      for (const tool of loaded.tools) names.set(tool.name, file);
      const active: ActiveModule = {
        module: loaded,
        layer,
        origin: `${layer}:${basename(file)}`,
        tools: [],
        init: undefined,
        disposed: false,
      };
      const ready = (): Promise<void> => this.#init(active);
      active.tools = Object.freeze(
        this.#lifecycle && loaded.init !== undefined
          ? loaded.tools.map((tool) => wrapModuleTool(tool, ready))
          : loaded.tools,
      );
      modules.push(active);
    }
    return { hash, modules, problems };
  }

  /** Runs the module's `init` once; a failure fails every call of its tools, with why. */
  #init(active: ActiveModule): Promise<void> {
    active.init ??= (async () => {
      try {
        await active.module.init?.({ file: active.module.file, layer: active.layer });
      } catch (error) {
        throw new Error(
          `init of tool module ${active.module.file} failed: ${messageOf(error)}. Fix the module, then reload.`,
          { cause: error },
        );
      }
    })();
    return active.init;
  }

  async #dispose(modules: readonly ActiveModule[]): Promise<void> {
    if (!this.#lifecycle) return;
    for (const active of modules) {
      if (active.disposed) continue;
      active.disposed = true;
      const { dispose, init } = active.module;
      if (dispose === undefined || (init !== undefined && active.init === undefined)) continue;
      try {
        await active.init?.catch(() => {});
        await dispose({ file: active.module.file, layer: active.layer });
      } catch (error) {
        this.#onProblem(`dispose of tool module ${active.module.file} failed: ${messageOf(error)}`);
      }
    }
  }
}

/**
 * Creates a {@link ToolDiscovery} over a registry and loads the folders once (asking for
 * the project's trust when it can). Reload with `registry.reload()` (or
 * `discovery.reload()`); the runtime's `close` disposes the modules.
 *
 * @throws HintgateError `invalid_option` for bad options, `invalid_trust_file` for a broken
 * trust file. A module that fails is left out with a message, never thrown.
 */
export async function createToolDiscovery(options: ToolDiscoveryOptions): Promise<ToolDiscovery> {
  const discovery = new ToolDiscovery(options);
  try {
    await discovery.reload();
  } catch (error) {
    await discovery.close();
    throw error;
  }
  return discovery;
}
