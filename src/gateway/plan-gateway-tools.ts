import { type CallRequest, createPolicy, type Decision } from '../policy/index.js';
import type { ToolAnnotations, ToolClass } from '../tool/index.js';
import type { LoadedGatewayConfig } from './config/index.js';
import type { Gateway } from './create-gateway.js';

/**
 * What the gateway does with calls of a tool: `runs` them without asking, `asks` the
 * client's user first (denied when the client cannot ask), holds the tool `held back`
 * (changed since pinned, or not pinned yet), or `denied` by a rule or the mode.
 */
export type ToolOutcome = 'runs' | 'asks' | 'held back' | 'denied';

/** What the gateway does with one tool, and why. */
export interface ToolPlan {
  /** The tool's server. */
  readonly server: string;
  /** Its name on that server. */
  readonly tool: string;
  /** The name clients call it by, when it is not `tool` (`<server>__<tool>`). */
  readonly offeredAs?: string;
  readonly outcome: ToolOutcome;
  /** Its class by the hints hintgate acts on (`destructive` while they are not trusted). */
  readonly class: ToolClass;
  /** Whether its annotations are used: its server is trusted, or `verified`, or overridden. */
  readonly trusted: boolean;
  /** Its annotations as its server states them (with the configuration's overrides). */
  readonly claimed: ToolAnnotations;
  /** Why: the pin, the rule, the mode and the annotations that decided. */
  readonly why: string;
  /**
   * Whether its annotations are trusted because its pin carries the probe's verdict
   * `verified` (not because its server is trusted).
   */
  readonly verified: boolean;
}

/** Options of {@link planGatewayTools}. */
export interface PlanGatewayToolsOptions {
  /** The running gateway. */
  readonly gateway: Gateway;
  /** Its configuration, for the rules. */
  readonly config: LoadedGatewayConfig;
}

const OUTCOME: Readonly<Record<Decision['decision'], ToolOutcome>> = {
  allow: 'runs',
  ask: 'asks',
  deny: 'denied',
};

/**
 * Tells, without calling anything, what a running gateway does with each tool it has: held
 * back by its pin, or the decision of its mode and rules for a call without arguments (a
 * rule on approval keys may decide some calls otherwise). Sorted by server, then tool.
 */
export async function planGatewayTools(options: PlanGatewayToolsOptions): Promise<ToolPlan[]> {
  const { gateway, config } = options;
  const { registry, mode } = gateway.runtime;
  const policy = createPolicy({
    ...(mode === undefined ? {} : { mode }),
    rules: config.rules,
  });
  const blocked = gateway.blockedTools();
  const order = new Map(config.servers.map((server, index) => [server.name, index]));
  const plans: ToolPlan[] = [];
  for (const entry of registry.list()) {
    const tool = entry.tool.nameOnOrigin ?? entry.name;
    const serverTrusted = registry.origin(entry.origin)?.trusted === true;
    const verified =
      !serverTrusted && registry.originConfig(entry.origin, entry.name)?.trusted === true;
    const base = {
      server: entry.origin,
      tool,
      ...(entry.name === tool ? {} : { offeredAs: entry.name }),
      class: entry.class,
      trusted: entry.trusted,
      claimed: entry.claimed,
      verified,
    };
    // Held back by the gateway only when its own configuration of this origin's tool says
    // so: a global or project tool of the same name is not.
    const held = entry.blocked === undefined ? undefined : blocked.get(entry.name);
    if (held !== undefined) {
      plans.push({ ...base, outcome: 'held back', why: held });
      continue;
    }
    const call: CallRequest = {
      id: 'plan',
      name: entry.name,
      tool: entry.tool,
      origin: entry.origin,
      trusted: entry.trusted,
      claimed: entry.claimed,
      effective: entry.effective,
      class: entry.class,
      arguments: {},
      resourceKeys: [],
      approvalKeys: ['*'],
      ...(entry.requireApproval === undefined ? {} : { requireApproval: entry.requireApproval }),
    };
    const decision = await policy.decide(call, { session: null });
    const trust = verified
      ? 'the probe verified its annotations and they are pinned, so they are trusted; '
      : '';
    plans.push({ ...base, outcome: OUTCOME[decision.decision], why: `${trust}${decision.reason}` });
  }
  return plans.sort(
    (a, b) =>
      (order.get(a.server) ?? 0) - (order.get(b.server) ?? 0) ||
      (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0),
  );
}
