import { HintgateError } from '../errors/index.js';
import { classify, effectiveAnnotations, type Tool } from '../tool/index.js';
import { compareNames, sameRegistered } from './diff-tools.js';
import { disabledEnvVar } from './env-disabled.js';
import type { CheckedOrigin } from './origin-options.js';
import type { DisabledBy, RegisteredTool, ToolDescription } from './registered-tool.js';
import type { ToolConfig } from './tool-config.js';
import { TOOL_LAYERS } from './tool-layer.js';

/** Inputs of {@link resolveTools}. */
export interface ResolveToolsInput {
  /** Every origin, in the order they were added. */
  readonly origins: readonly CheckedOrigin[];
  /** Configuration by tool name. */
  readonly configs: ReadonlyMap<string, ToolConfig>;
  /**
   * Configuration of one origin's tool by `originConfigKey(origin, name)`: applied only when
   * the winner of the name comes from that origin, its keys over the name's. Default none.
   */
  readonly originConfigs?: ReadonlyMap<string, ToolConfig>;
  /** `TOOL_<NAME>_DISABLED` variables set to `true`. */
  readonly envDisabled: ReadonlySet<string>;
  /** Winners of the previous state, reused when unchanged so their identity stays stable. */
  readonly previous?: ReadonlyMap<string, RegisteredTool>;
}

/** The registry's derived state, computed once per mutation. */
export interface ResolvedTools {
  /** Enabled winners by name (callers' scopes not considered). */
  readonly enabled: ReadonlyMap<string, RegisteredTool>;
  /** The same winners, sorted by name. */
  readonly sorted: readonly RegisteredTool[];
  /** Every name, visible or not, sorted by name. */
  readonly descriptions: readonly ToolDescription[];
}

interface Definition {
  readonly tool: Tool;
  readonly origin: CheckedOrigin;
}

const layerIndex = (origin: CheckedOrigin): number => TOOL_LAYERS.indexOf(origin.layer);

const duplicate = (name: string, first: CheckedOrigin, second: CheckedOrigin): never => {
  const where =
    first === second
      ? `origin "${first.name}" lists it twice`
      : `origins "${first.name}" and "${second.name}" both define it`;
  throw new HintgateError(
    'duplicate_tool',
    `Tool "${name}" is defined twice in the ${first.layer} layer: ${where}. Names must be unique within a layer: rename one of them, move one origin to another layer (a later layer shadows an earlier one), or leave the tool out of one origin's tool list.`,
  );
};

const register = (
  winner: Definition,
  shadowed: readonly Definition[],
  config: ToolConfig | undefined,
): RegisteredTool => {
  const { tool, origin } = winner;
  const override = config?.annotations;
  const claimTrusted = config?.trusted ?? origin.trusted;
  const trusted = claimTrusted || override !== undefined;
  const claimed = override === undefined ? tool.annotations : { ...tool.annotations, ...override };
  // An override vouches only for the hints it states: over an untrusted claim the unstated
  // hints keep the spec defaults, never the unverified claim.
  const used = claimTrusted ? claimed : override;
  const effective = Object.freeze(effectiveAnnotations(used));
  return Object.freeze({
    tool,
    name: tool.name,
    origin: origin.name,
    layer: origin.layer,
    ...(origin.file === undefined ? {} : { file: origin.file }),
    shadows: Object.freeze(
      shadowed.map((d) =>
        Object.freeze({
          origin: d.origin.name,
          layer: d.origin.layer,
          ...(d.origin.file === undefined ? {} : { file: d.origin.file }),
        }),
      ),
    ),
    trusted,
    claimed: Object.freeze(claimed),
    effective,
    class: classify(effective),
    scopes: config?.scopes ?? tool.scopes,
    ...(config?.requireApproval === undefined ? {} : { requireApproval: config.requireApproval }),
    ...(config?.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config?.blocked === undefined ? {} : { blocked: config.blocked }),
  });
};

/**
 * The key of one origin's tool in {@link ResolveToolsInput.originConfigs}. A NUL is in no
 * tool name, so that no origin and name make another's key.
 */
export const originConfigKey = (origin: string, name: string): string => `${origin}\u0000${name}`;

/** The configuration of a name with one origin's own over it: its keys win, annotations merged. */
const withOriginConfig = (
  named: ToolConfig | undefined,
  own: ToolConfig | undefined,
): ToolConfig | undefined => {
  if (own === undefined) return named;
  if (named === undefined) return own;
  const annotations =
    named.annotations === undefined || own.annotations === undefined
      ? (own.annotations ?? named.annotations)
      : { ...named.annotations, ...own.annotations };
  return { ...named, ...own, ...(annotations === undefined ? {} : { annotations }) };
};

const disabledBy = (
  name: string,
  config: ToolConfig | undefined,
  envDisabled: ReadonlySet<string>,
): DisabledBy | undefined => {
  if (config?.enabled === false) return 'config';
  return envDisabled.has(disabledEnvVar(name)) ? 'env' : undefined;
};

/**
 * Resolves layers, shadowing, configuration and environment into the registry's state.
 * Pure: it throws before anything is changed.
 *
 * @throws HintgateError `duplicate_tool` when one layer defines a name twice.
 */
export function resolveTools(input: ResolveToolsInput): ResolvedTools {
  const definitions = new Map<string, Definition[]>();
  for (const origin of input.origins) {
    for (const tool of origin.tools) {
      const list = definitions.get(tool.name) ?? [];
      const clash = list.find((d) => d.origin.layer === origin.layer);
      if (clash !== undefined) duplicate(tool.name, clash.origin, origin);
      list.push({ tool, origin });
      definitions.set(tool.name, list);
    }
  }

  const enabled = new Map<string, RegisteredTool>();
  const sorted: RegisteredTool[] = [];
  const named: { readonly registered: RegisteredTool; readonly hiddenBy?: DisabledBy }[] = [];
  for (const name of [...definitions.keys()].sort(compareNames)) {
    const [winner, ...shadowed] = (definitions.get(name) ?? []).sort(
      (a, b) => layerIndex(b.origin) - layerIndex(a.origin),
    );
    if (winner === undefined) continue;
    const config = withOriginConfig(
      winner.origin.configuredByName === false ? undefined : input.configs.get(name),
      input.originConfigs?.get(originConfigKey(winner.origin.name, name)),
    );
    const fresh = register(winner, shadowed, config);
    const previous = input.previous?.get(name);
    const registered = previous !== undefined && sameRegistered(previous, fresh) ? previous : fresh;
    const hiddenBy = disabledBy(name, config, input.envDisabled);
    if (hiddenBy === undefined) {
      enabled.set(name, registered);
      sorted.push(registered);
      named.push({ registered });
    } else named.push({ registered, hiddenBy });
  }
  // Described when first asked: a registry of thousands of tools that changes often (a
  // gateway applying a server's list) is rarely described.
  let descriptions: readonly ToolDescription[] | undefined;
  return {
    enabled,
    sorted: Object.freeze(sorted),
    get descriptions() {
      descriptions ??= Object.freeze(
        named.map(({ registered, hiddenBy }) => {
          const { tool: _tool, ...described } = registered;
          return Object.freeze({
            ...described,
            visible: hiddenBy === undefined,
            ...(hiddenBy === undefined ? {} : { disabledBy: hiddenBy }),
          });
        }),
      );
      return descriptions;
    },
  };
}
