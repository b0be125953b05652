import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { ProbeFixtures } from './load-probe-fixtures.js';
import type { CallOutcome, ProbeClient } from './probe-client.js';
import { type SynthesisContext, synthesizeArguments } from './synthesize-arguments.js';

/** What a tool claims about itself, as the probe tests it. */
export type ToolClaim = 'read-only' | 'idempotent' | 'write';

/** A tool of the server with what it claims and the arguments to call it with. */
export interface PlannedTool {
  readonly name: string;
  readonly claim: ToolClaim;
  /** `destructiveHint: false` stated on a tool that is not read-only. */
  readonly claimsAdditive: boolean;
  /** Argument sets, from fixtures (all are used) or synthesized (the first that works). */
  readonly args:
    | {
        readonly source: 'fixtures' | 'synthesized';
        readonly sets: readonly Record<string, unknown>[];
      }
    | { readonly source: 'none'; readonly reason: string };
  /** Synthesized and callable with no arguments: a candidate for the state fingerprint. */
  readonly zeroArgument: boolean;
}

/** One call made. */
export interface MadeCall {
  readonly args: Record<string, unknown>;
  readonly outcome: CallOutcome;
}

/** The calls made on one tool, and the arguments that worked. */
export interface CallRun {
  readonly calls: readonly MadeCall[];
  /** Argument sets whose calls succeeded; empty when every call failed. */
  readonly working: readonly Record<string, unknown>[];
  /** The last failure, when a call failed. */
  readonly error?: string;
}

/** The claim of a tool, from its annotations (an absent hint counts as the MCP default). */
export function toolClaim(tool: McpTool): { claim: ToolClaim; claimsAdditive: boolean } {
  const hints = tool.annotations ?? {};
  if (hints.readOnlyHint === true) return { claim: 'read-only', claimsAdditive: false };
  return {
    claim: hints.idempotentHint === true ? 'idempotent' : 'write',
    claimsAdditive: hints.destructiveHint === false,
  };
}

/** Plans the probe of each tool: its claim and its argument sets. */
export async function planTools(
  tools: readonly McpTool[],
  fixtures: ProbeFixtures,
  context: Pick<SynthesisContext, 'sampleFile' | 'sampleDir'>,
): Promise<PlannedTool[]> {
  const planned: PlannedTool[] = [];
  for (const tool of tools) {
    const claim = toolClaim(tool);
    const given = Object.hasOwn(fixtures, tool.name) ? fixtures[tool.name] : undefined;
    if (given !== undefined && given.length > 0) {
      planned.push({
        name: tool.name,
        ...claim,
        args: { source: 'fixtures', sets: given.map((set) => ({ ...set })) },
        zeroArgument: false,
      });
      continue;
    }
    const outcome = await synthesizeArguments(tool.inputSchema, {
      ...context,
      toolName: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
    });
    planned.push({
      name: tool.name,
      ...claim,
      args: outcome.ok
        ? { source: 'synthesized', sets: outcome.candidates }
        : { source: 'none', reason: outcome.reason },
      zeroArgument: outcome.ok && Object.keys(outcome.candidates[0] ?? { x: 0 }).length === 0,
    });
  }
  return planned;
}

/**
 * Calls a tool `times` times per argument set. Fixture sets are all used; synthesized
 * candidates are tried in order until one succeeds, and only that one is repeated.
 * `sets` restricts the run to argument sets that worked before (for a second round).
 */
export async function callTool(
  client: ProbeClient,
  tool: PlannedTool,
  times: number,
  sets?: readonly Record<string, unknown>[],
): Promise<CallRun> {
  const calls: MadeCall[] = [];
  const working: Record<string, unknown>[] = [];
  let error: string | undefined;
  if (tool.args.source === 'none') return { calls, working, error: tool.args.reason };
  const all = sets ?? tool.args.sets;
  const firstWorking = sets === undefined && tool.args.source === 'synthesized';
  for (const args of all) {
    const first = await client.callTool(tool.name, args);
    calls.push({ args, outcome: first });
    if (!first.ok) {
      error = first.error;
      continue;
    }
    let ok = true;
    for (let i = 1; i < times; i += 1) {
      const again = await client.callTool(tool.name, args);
      calls.push({ args, outcome: again });
      if (!again.ok) {
        ok = false;
        error = again.error;
      }
    }
    if (ok) working.push(args);
    if (firstWorking) break;
  }
  return { calls, working, ...(error === undefined ? {} : { error }) };
}
