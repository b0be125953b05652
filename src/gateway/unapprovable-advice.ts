import type { ApprovalRequest, Mode, PolicyRule } from '../policy/index.js';
import type { ToolRegistry } from '../registry/index.js';
import type { LoadedGatewayConfig } from './config/index.js';

/** Options of {@link unapprovableAdvice}. */
export interface UnapprovableAdviceOptions {
  readonly config: LoadedGatewayConfig;
  /** The gateway's registry: where a call's tool, server and annotations are looked up. */
  readonly registry: ToolRegistry;
  /** The mode calls are decided in now. */
  readonly mode: () => Mode | undefined;
}

/** A YAML scalar as written in a flow mapping: plain when it can be, else double-quoted. */
const scalar = (text: string): string =>
  /^[A-Za-z_][A-Za-z0-9_-]*$/.test(text) && !/^(true|false|null|yes|no|on|off)$/i.test(text)
    ? text
    : JSON.stringify(text);

/** The priority of the ask rule that decided, when `reason` names one. */
const askRulePriority = (reason: string, rules: readonly PolicyRule[]): number | undefined => {
  const match = /^rule #(\d+) \(ask\b/.exec(reason);
  if (match === null) return undefined;
  return rules[Number(match[1]) - 1]?.priority ?? 0;
};

/**
 * The ways to let a call run that needed a person's approval when the MCP client that sent
 * it cannot ask its user, for that very tool, in the order worth trying: verify it with
 * the side-effect probe (when verified annotations would let it run in the current mode),
 * trust its server or vouch for the tool in the configuration (the lines to add), an allow
 * rule (the line to add, outranking the ask rule that decided, if one did), or a client
 * that can approve. A tool not pinned yet (`pin.newTools: ask`) is let run by pinning it.
 * The text is one paragraph; `undefined` for a tool the gateway does not know.
 */
export function unapprovableAdvice(
  options: UnapprovableAdviceOptions,
): (request: ApprovalRequest) => string | undefined {
  const { config, registry } = options;
  const file = config.file;
  return (request) => {
    const entry = registry.resolve(request.tool.name);
    if (entry === undefined) return undefined;
    const server = entry.origin;
    const tool = entry.tool.nameOnOrigin ?? entry.name;
    const named = `"${tool}" of server "${server}"`;
    const client =
      'use an MCP client that can show an approval form (form elicitation): the gateway then asks you each time';
    if (entry.requireApproval !== undefined) {
      return `Ways to let ${named} run: (1) review its definition and pin it with \`hintgate pin --config ${file}\` (it is not pinned yet, so every call asks whatever the mode and rules say); (2) or ${client}.`;
    }
    const mode = options.mode() ?? 'ask';
    const { claimed } = request;
    const readOnly = claimed.readOnlyHint === true;
    const byRule = askRulePriority(request.reason, config.rules);
    // Trusted annotations let the call run when the mode runs its claimed class unasked.
    const annotationsWouldDo =
      byRule === undefined &&
      ((['ask', 'plan'].includes(mode) && readOnly) ||
        (mode === 'auto' && (readOnly || claimed.destructiveHint === false)));
    const ways: string[] = [];
    if (annotationsWouldDo && !request.trusted) {
      ways.push(
        `verify its annotations with the side-effect probe: \`hintgate check --config ${file} --probe${readOnly ? '' : ' --allow-writes'} --write-pin\` (a tool it verifies is trusted as pinned, and mode ${mode} runs ${readOnly ? 'reads' : 'reads and non-destructive writes'} without asking)`,
      );
      ways.push(
        `or vouch for it in ${file}: under \`servers:\` \`${scalar(server)}:\` add \`trusted: true\` (trusts every tool of the server), or for this tool alone \`tools: { ${scalar(tool)}: { annotations: { ${readOnly ? 'readOnlyHint: true' : 'readOnlyHint: false, destructiveHint: false'} } } }\``,
      );
    }
    const priority = byRule === undefined ? '' : `, priority: ${byRule + 1}`;
    ways.push(
      `${ways.length === 0 ? '' : 'or '}allow it with a rule in ${file}: under \`rules:\` add \`- { origin: ${scalar(server)}, tool: ${scalar(tool)}, decision: allow${priority} }\`${byRule === undefined ? '' : ' (its priority outranks the ask rule that decided)'}`,
    );
    ways.push(`or ${client}`);
    return `Ways to let ${named} run: ${ways.map((way, index) => `(${index + 1}) ${way}`).join('; ')}.`;
  };
}
