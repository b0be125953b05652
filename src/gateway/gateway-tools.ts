import type { AuditEvent } from '../audit/index.js';
import type { PinFinding } from '../check/pin.js';
import {
  type LoadedGatewayConfig,
  type LoadedServerCommon,
  type LoadedToolOverride,
  VERIFIED_CONCURRENCY,
} from '../gateway/config/index.js';
import type { McpServerConnection } from '../mcp/index.js';
import type { ToolConfig, ToolRegistry } from '../registry/index.js';
import type { Clock } from '../schedule/index.js';
import { effectiveAnnotations, ownValue, type Tool, toToolListing } from '../tool/index.js';
import { gatewayNames } from './gateway-names.js';
import { assessPins, type LoadedPins, loadPins, type PinAssessment } from './gateway-pins.js';
import { gatewayTool } from './gateway-tool.js';
import {
  type AppliedServerPins,
  type GatewayToolState,
  gatewayToolStates,
} from './gateway-tool-states.js';
import { sameToolConfig, serverToolConfig } from './server-tool-config.js';
import { retryAfterReconnect } from './upstream-retry.js';

/** Options of {@link GatewayTools}. */
export interface GatewayToolsOptions {
  readonly config: LoadedGatewayConfig;
  /** The gateway's registry, with one origin per configured server already added. */
  readonly registry: ToolRegistry;
  /** One line for the person running the gateway. */
  readonly notice: (message: string) => void;
  /** Records an audit event. */
  readonly audit: (event: AuditEvent) => void;
  /** A failure in the background (a tool list the registry refused). */
  readonly report: (error: unknown) => void;
  /**
   * The connection to a server, for calls of trusted read-only or idempotent tools to wait
   * for its reconnect and be sent again (see `retryAfterReconnect`). Default: no retry.
   */
  readonly connection?: (server: string) => McpServerConnection | undefined;
  /**
   * Wraps each offered tool of a server so that its limits are kept in shared state (see
   * `withSharedLimits`). Default: limits stay in the gateway's process.
   */
  readonly share?: (server: LoadedServerCommon, tool: Tool) => Tool;
  /** Times the wait of a retried call for its server's reconnect. Default the system clock. */
  readonly clock?: Clock;
}

/** Configuration the gateway set for one server's tool, by the name it is exposed as. */
interface OriginToolConfig {
  readonly server: string;
  readonly name: string;
  readonly config: ToolConfig;
}

const CHANGE_OF: Readonly<Record<PinFinding['id'], 'added' | 'removed' | 'updated'>> = {
  'pin-less-caution': 'updated',
  'pin-changed': 'updated',
  'pin-renamed': 'added',
  'pin-new': 'added',
  'pin-removed': 'removed',
};

/** What one server has offered after pins were applied, for the line that says so. */
interface ServedCounts {
  readonly server: string;
  offered: number;
  /** Offered tools whose annotations are trusted because their pin says `verified`. */
  verified: number;
  /** Names of the tools held back. */
  readonly heldBack: string[];
}

const MAX_NAMES = 10;

/**
 * One line for the person running the gateway once a changed pin file is applied: what is
 * served now, per server, and what is held back.
 */
function appliedPinsLine(path: string, served: readonly ServedCounts[]): string {
  const offered = served.reduce((sum, counts) => sum + counts.offered, 0);
  const perServer = served
    .map((counts) => `${counts.server}: ${counts.offered} (${counts.verified} verified)`)
    .join(', ');
  const held = served.flatMap((counts) => counts.heldBack);
  const names =
    held.length > MAX_NAMES
      ? `${held.slice(0, MAX_NAMES).join(', ')} and ${held.length - MAX_NAMES} more`
      : held.join(', ');
  return `applied the changed pin file ${path}: now serving ${offered} tool${offered === 1 ? '' : 's'} (${perServer}); ${held.length === 0 ? 'none held back' : `held back: ${names}`}.`;
}

const sameTools = (a: readonly Tool[], b: readonly Tool[]): boolean =>
  a.length === b.length && a.every((tool, index) => tool === b[index]);

/**
 * The tools the gateway offers, kept in step with its upstreams: each server's tools are
 * staged in a registry of their own (where `connectMcpServer` keeps them current), and on
 * every change of any of them, and of the pin file, the gateway's registry is brought to
 * the result of pins (`assessPins`: the reasons tools are held back land in
 * {@link GatewayTools.blocked}), naming (`gatewayNames`: held-back tools take no part in
 * it) and per-tool overrides (`gatewayTool`; annotations through registry configuration).
 * Held-back tools stay in the registry under the name `gatewayNames` gives them, so that a
 * call by that name is refused with the reason rather than taken for a typo.
 */
export class GatewayTools {
  /** Why each held-back tool is held back, by the name it is known by while held back. */
  readonly blocked = new Map<string, string>();
  /** Called after the gateway's registry was brought up to date. */
  onApplied: () => void = () => {};
  readonly #options: GatewayToolsOptions;
  readonly #stagings = new Map<string, ToolRegistry>();
  readonly #unsubscribes: (() => void)[] = [];
  #pins: LoadedPins | undefined;
  #pinsJson: string | undefined;
  #toldNoPins = false;
  /** The pin file changed since it was first read: tell what is served once applied. */
  #pinsReplaced = false;
  #reloading: Promise<void> = Promise.resolve();
  #started = false;
  #stopped = false;
  /** Offered tools by `server\0tool`, reused while the upstream tool and its name stay. */
  #cache = new Map<string, { upstream: Tool; exposed: string; tool: Tool; retries: boolean }>();

  /**
   * Whether calls of `upstream` are sent again after a reconnect: its annotations are
   * trusted (its server is, or its pin says verified, and it is pinned) and it is read-only
   * or idempotent, as claimed with the configuration's overrides.
   */
  #retries(
    server: LoadedServerCommon,
    upstream: Tool,
    override: LoadedToolOverride | undefined,
    assessment: PinAssessment,
  ): boolean {
    if (this.#options.connection === undefined) return false;
    if (assessment.unpinned.has(upstream.name)) return false;
    if (!server.trusted && !assessment.verified.has(upstream.name)) return false;
    const hints = effectiveAnnotations({ ...upstream.annotations, ...override?.annotations });
    return hints.readOnlyHint || hints.idempotentHint;
  }
  /** Tools set per origin of the gateway's registry. */
  readonly #applied = new Map<string, readonly Tool[]>();
  /**
   * Configuration set in the gateway's registry for each server's tool (by
   * `server\0exposed name`; see `ToolRegistry.configureOrigin`, so that a global or project
   * tool of the same name never gets it): annotation overrides, trust of verified tools,
   * the approval that unpinned tools require, and held back.
   */
  #configured = new Map<string, OriginToolConfig>();
  /** Lines already told, so that each is told once while it holds. */
  #told = new Set<string>();
  /** What the pins said of each server's tools when they were last applied. */
  #appliedPins: readonly AppliedServerPins[] = [];

  constructor(options: GatewayToolsOptions) {
    this.#options = options;
  }

  /** Follows the tools of `server`, kept current in `staging` by its connection. */
  stage(server: string, staging: ToolRegistry): void {
    this.#stagings.set(server, staging);
    this.#unsubscribes.push(
      staging.onChange(() => {
        // Apply at once with the pins at hand (a changed tool is held back right away),
        // then again if the pin file changed meanwhile.
        this.update();
        this.reloadPins().catch(this.#options.report);
      }),
    );
  }

  /** Starts applying changes (the initial connections are made). */
  start(): void {
    this.#started = true;
    this.update();
  }

  /**
   * The state of every tool as last applied: annotations, trust, held back and why, pin
   * status and review (see {@link gatewayToolStates}).
   */
  states(): GatewayToolState[] {
    return gatewayToolStates({
      registry: this.#options.registry,
      blocked: this.blocked,
      applied: this.#appliedPins,
    });
  }

  /** Stops following changes. */
  stop(): void {
    this.#stopped = true;
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
  }

  /**
   * Reads the pin file and, when it differs from the pins at hand, applies it. Reads are
   * serialized.
   *
   * @throws HintgateError `invalid_lock_file`; the pins at hand then stay.
   */
  reloadPins(): Promise<void> {
    const next = this.#reloading.catch(() => {}).then(() => this.#reload());
    this.#reloading = next;
    return next;
  }

  async #reload(): Promise<void> {
    const { config, notice } = this.#options;
    const pins = await loadPins(config.pin.path, this.#pins);
    if (!pins.exists && !this.#toldNoPins) {
      this.#toldNoPins = true;
      const pin = `hintgate pin --config ${config.file}`;
      notice(
        {
          pending: `no pin file ${config.pin.path} yet: every tool counts as new, and new tools are not offered until they are pinned (pin.newTools: pending). Review the servers' tools and run \`${pin}\`.`,
          ask: `no pin file ${config.pin.path} yet: every tool counts as new, and every call to a new tool asks the user first (pin.newTools: ask). Review the servers' tools and run \`${pin}\`.`,
          allow: `no pin file ${config.pin.path} yet: every tool counts as new and runs unpinned (pin.newTools: allow). Run \`${pin}\` to pin them, so that later changes are caught.`,
        }[config.pin.newTools],
      );
    }
    // The same text: the same pins. Another text is compared pin by pin (as JSON) only
    // then, so that the first read of a big pin file costs no copy of it.
    const previous = this.#pins;
    if (pins === previous) return;
    if (previous !== undefined) {
      this.#pinsJson ??= JSON.stringify(previous.lock);
      const json = JSON.stringify(pins.lock);
      if (json === this.#pinsJson) {
        // Kept, so that the file is not read again while it stays as it is now.
        if (pins.exists === previous.exists) this.#pins = pins;
        return;
      }
      this.#pinsReplaced = true;
      this.#pinsJson = json;
    }
    this.#pins = pins;
    this.update();
  }

  /** Brings the gateway's registry up to date with the staged tools and the pins. */
  update(): void {
    if (!this.#started || this.#stopped || this.#pins === undefined) return;
    try {
      this.#update(this.#pins);
    } catch (error) {
      this.#options.report(error);
    }
  }

  #update(pins: LoadedPins): void {
    const { config, registry } = this.#options;
    const lines: { text: string; event?: AuditEvent }[] = [];
    const servers = config.servers.map((server) => {
      const staging = this.#stagings.get(server.name);
      const staged = staging?.list().map((entry) => entry.tool) ?? [];
      const listings = staged.map((tool) => toToolListing(tool));
      const assessment = assessPins({
        lock: pins.lock,
        server: server.name,
        listings,
        newTools: config.pin.newTools,
      });
      const disabled = (name: string): boolean => ownValue(server.tools, name)?.disabled === true;
      if (staging !== undefined && staging.origins().length > 0) {
        const stagedNames = new Set(staged.map((tool) => tool.name));
        for (const name of Object.keys(server.tools)) {
          if (!stagedNames.has(name)) {
            lines.push({
              text: `servers.${server.name}.tools.${name}: server "${server.name}" lists no tool "${name}"; its override applies to nothing.`,
            });
          }
        }
      }
      for (const finding of assessment.report.findings) {
        if (disabled(finding.tool) || (finding.id === 'pin-new' && !pins.exists)) continue;
        const heldBack = assessment.blocked.has(finding.tool) && finding.id !== 'pin-changed';
        const asks = assessment.unpinned.has(finding.tool);
        const until =
          heldBack && finding.id !== 'pin-less-caution'
            ? ' Until then it is not offered.'
            : asks
              ? ' Until then every call to it asks the user first.'
              : '';
        const text = `[${finding.severity}] ${finding.message}${until}`;
        lines.push({
          text,
          event: {
            type: 'tool.changed',
            time: new Date().toISOString(),
            tool: finding.tool,
            origin: server.name,
            change: CHANGE_OF[finding.id],
            ...(assessment.blocked.has(finding.tool)
              ? { decision: 'deny' as const }
              : asks
                ? { decision: 'ask' as const }
                : {}),
            reason: `${finding.id} (${finding.severity})`,
            message: finding.message,
          },
        });
      }
      return {
        server,
        enabled: staged.filter((tool) => !disabled(tool.name)),
        assessment,
        listings,
      };
    });

    // Tools held back by their pins take no part in naming: they make no other tool
    // prefixed and take no name an offered tool has.
    const named = gatewayNames(
      servers.map(({ server, enabled, assessment }) => ({
        server: server.name,
        offered: enabled
          .filter((tool) => !assessment.blocked.has(tool.name))
          .map((tool) => tool.name),
        heldBack: enabled
          .filter((tool) => assessment.blocked.has(tool.name))
          .map((tool) => tool.name),
      })),
    );
    for (const problem of named.problems) lines.push({ text: problem.message });

    const cache = new Map<
      string,
      { upstream: Tool; exposed: string; tool: Tool; retries: boolean }
    >();
    const served: ServedCounts[] = [];
    const sets = new Map<string, readonly Tool[]>();
    const blocked = new Map<string, string>();
    const configs = new Map<string, OriginToolConfig>();
    for (const { server, enabled, assessment } of servers) {
      const names = named.names.get(server.name);
      const heldBack = named.heldBack.get(server.name);
      const registered: Tool[] = [];
      const counts: ServedCounts = { server: server.name, offered: 0, verified: 0, heldBack: [] };
      served.push(counts);
      for (const upstream of enabled) {
        const exposed = assessment.blocked.has(upstream.name)
          ? heldBack?.get(upstream.name)
          : names?.get(upstream.name);
        if (exposed === undefined) continue;
        const key = `${server.name}\u0000${upstream.name}`;
        const cached = this.#cache.get(key);
        let entry = cached;
        const override = ownValue(server.tools, upstream.name);
        const retries = this.#retries(server, upstream, override, assessment);
        if (
          cached?.upstream !== upstream ||
          cached.exposed !== exposed ||
          cached.retries !== retries
        ) {
          const lookup = this.#options.connection;
          const execute =
            retries && lookup !== undefined
              ? retryAfterReconnect((args, context) => upstream.execute(args, context), {
                  connection: () => lookup(server.name),
                  ...(this.#options.clock === undefined ? {} : { clock: this.#options.clock }),
                })
              : undefined;
          const outcome = gatewayTool(upstream, exposed, override, execute);
          if (outcome.problem !== undefined) {
            lines.push({ text: `server "${server.name}": ${outcome.problem}` });
          }
          const share = this.#options.share;
          const tool = share === undefined ? outcome.tool : share(server, outcome.tool);
          entry = { upstream, exposed, tool, retries };
        }
        if (entry === undefined) continue;
        cache.set(key, entry);
        registered.push(entry.tool);
        const reason = assessment.blocked.get(upstream.name);
        if (reason !== undefined) {
          blocked.set(exposed, reason);
          counts.heldBack.push(exposed);
        } else {
          counts.offered += 1;
          if (assessment.verified.has(upstream.name)) counts.verified += 1;
        }
        const toolConfig = serverToolConfig(
          ownValue(server.tools, upstream.name),
          assessment,
          upstream.name,
        );
        if (toolConfig !== undefined) {
          configs.set(`${server.name}\u0000${exposed}`, {
            server: server.name,
            name: exposed,
            config: toolConfig,
          });
        }
      }
      sets.set(server.name, registered);
    }
    this.#cache = cache;
    this.#appliedPins = servers.map(({ server, assessment, listings }) => {
      const exposed = new Map<string, string>();
      for (const [tool, name] of named.names.get(server.name) ?? []) exposed.set(tool, name);
      for (const [tool, name] of named.heldBack.get(server.name) ?? []) exposed.set(tool, name);
      return {
        server: server.name,
        report: assessment.report,
        lock: pins.lock,
        listings,
        exposed,
      };
    });
    for (const { server, enabled, assessment } of servers) {
      if (server.trusted || server.concurrency !== undefined) continue;
      const verified =
        enabled.length > 0 && enabled.every((tool) => assessment.verified.has(tool.name));
      const cap = verified ? VERIFIED_CONCURRENCY : undefined;
      if (registry.origin(server.name)?.concurrency !== cap)
        registry.setConcurrency(server.name, cap);
    }

    // Held back (blocked in their configuration) before the tools change, so that no
    // listing shows them in between.
    this.blocked.clear();
    for (const [name, reason] of blocked) this.blocked.set(name, reason);
    // Per origin: the top-level `tools:` configuration of a name stays under it (the
    // registry merges the two), and a local tool that wins the name gets neither of these.
    // Per server at once: configured one by one, thousands of tools would each be resolved
    // thousands of times.
    const changed = new Map<string, Map<string, ToolConfig | undefined>>();
    const change = (server: string, name: string, toolConfig: ToolConfig | undefined): void => {
      const of = changed.get(server) ?? new Map<string, ToolConfig | undefined>();
      changed.set(server, of.set(name, toolConfig));
    };
    for (const [key, { server, name }] of this.#configured) {
      if (!configs.has(key) && registry.origin(server) !== undefined)
        change(server, name, undefined);
    }
    for (const [key, next] of configs) {
      const before = this.#configured.get(key);
      if (before === undefined || !sameToolConfig(before.config, next.config)) {
        change(next.server, next.name, next.config);
      } else {
        configs.set(key, before);
      }
    }
    for (const [server, toolConfigs] of changed) registry.configureOriginTools(server, toolConfigs);
    this.#configured = configs;
    // Names are unique across the final sets, but not between one origin's old set and
    // another's new one: first drop what goes away, then add what comes.
    for (const [server, next] of sets) {
      const before = this.#applied.get(server) ?? [];
      const staying = new Set(next);
      const kept = before.filter((tool) => staying.has(tool));
      if (!sameTools(kept, before)) {
        registry.setTools(server, kept);
        this.#applied.set(server, kept);
      }
    }
    for (const [server, next] of sets) {
      if (!sameTools(next, this.#applied.get(server) ?? [])) {
        registry.setTools(server, next);
        this.#applied.set(server, next);
      }
    }
    if (this.#pinsReplaced) {
      this.#pinsReplaced = false;
      lines.push({ text: appliedPinsLine(config.pin.path, served) });
    }
    this.#tell(lines);
    this.onApplied();
  }

  /** Tells the lines not told before (while they held), and records their events. */
  #tell(lines: readonly { text: string; event?: AuditEvent }[]): void {
    const told = new Set<string>();
    for (const { text, event } of lines) {
      if (told.has(text)) continue;
      told.add(text);
      if (this.#told.has(text)) continue;
      this.#options.notice(text);
      if (event !== undefined) this.#options.audit(event);
    }
    this.#told = told;
  }
}
