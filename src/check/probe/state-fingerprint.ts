import type { CallToolResult } from '@modelcontextprotocol/client';
import { canonicalJson } from '../../audit/argument-digest.js';
import { type ProbeClient, resultText } from './probe-client.js';

/** One tool's output, as compared. */
export interface ObservedOutput {
  /** Canonical JSON of the result's content and structured content. */
  readonly key: string;
  /** A short rendering, for evidence. */
  readonly text: string;
}

/**
 * The server's observable state: the outputs of its stable zero-argument read-only tools, by
 * tool name. A tool whose call fails is recorded with its error.
 */
export type StateFingerprint = ReadonlyMap<string, ObservedOutput>;

/** What a result shows, without `_meta` (which may carry timings). */
export function observeResult(result: CallToolResult): ObservedOutput {
  return {
    key: canonicalJson({
      content: result.content ?? [],
      structuredContent: result.structuredContent,
      isError: result.isError === true,
    }),
    text: resultText(result),
  };
}

/** Calls each tool of `tools` with no arguments and records its output. */
export async function takeFingerprint(
  client: ProbeClient,
  tools: readonly string[],
): Promise<StateFingerprint> {
  const outputs = new Map<string, ObservedOutput>();
  for (const name of tools) {
    const outcome = await client.callTool(name, {});
    outputs.set(
      name,
      outcome.ok
        ? observeResult(outcome.result)
        : { key: `error:${outcome.error}`, text: outcome.error },
    );
  }
  return outputs;
}

const quote = (text: string): string =>
  JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}...` : text);

/** Evidence lines for every fingerprint tool whose output differs between the two. */
export function diffFingerprints(before: StateFingerprint, after: StateFingerprint): string[] {
  const lines: string[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    if (now === undefined || now.key === old.key) continue;
    lines.push(
      `${name} (zero-argument read-only tool) returned ${quote(old.text)} before and ${quote(now.text)} after`,
    );
  }
  return lines;
}

const same = (a: StateFingerprint, b: StateFingerprint): boolean =>
  diffFingerprints(a, b).length === 0;

/** A fingerprint tool found to change what the other fingerprint tools show. */
export interface FingerprintCulprit {
  readonly tool: string;
  /** Evidence lines: the other tools' outputs before and after one call of it. */
  readonly evidence: readonly string[];
}

/**
 * Makes sure the fingerprint does not move by itself: a zero-argument "read-only" tool that
 * answers the same twice may still change what another one shows (a status check that bumps
 * a counter). While two fingerprints in a row differ, finds a tool whose single call moves
 * the others (which on their own stay put), and drops it. Returns the tools kept and the
 * culprits found; when no single culprit explains the drift, no tool is kept.
 */
export async function settleFingerprint(
  client: ProbeClient,
  tools: readonly string[],
): Promise<{ tools: string[]; culprits: FingerprintCulprit[] }> {
  let kept = [...tools];
  const culprits: FingerprintCulprit[] = [];
  while (kept.length > 0) {
    if (same(await takeFingerprint(client, kept), await takeFingerprint(client, kept))) {
      return { tools: kept, culprits };
    }
    let found: FingerprintCulprit | undefined;
    for (const tool of kept) {
      const others = kept.filter((name) => name !== tool);
      if (others.length === 0) break;
      await takeFingerprint(client, others);
      const before = await takeFingerprint(client, others);
      if (!same(before, await takeFingerprint(client, others))) continue;
      await client.callTool(tool, {});
      const evidence = diffFingerprints(before, await takeFingerprint(client, others));
      if (evidence.length > 0) {
        found = { tool, evidence: [`called once with {}`, ...evidence] };
        break;
      }
    }
    if (found === undefined) return { tools: [], culprits };
    culprits.push(found);
    kept = kept.filter((name) => name !== found.tool);
  }
  return { tools: kept, culprits };
}
