import type { CallToolResult } from '@modelcontextprotocol/client';
import { canonicalJson } from '../../audit/index.js';
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
    text: resultText(result, 4000),
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

const EXCERPT = 60;

/** The two outputs around where they first differ: `"...at 10:04:13 AM"`, `"...at 10:04:14 AM"`. */
const excerpts = (a: string, b: string): [string, string] => {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - EXCERPT / 2);
  const cut = (text: string): string =>
    `${from > 0 ? '...' : ''}${text.slice(from, from + EXCERPT)}${text.length > from + EXCERPT ? '...' : ''}`;
  return [cut(a), cut(b)];
};

/** Fingerprint tools whose output differs between the two. */
export function changedTools(before: StateFingerprint, after: StateFingerprint): string[] {
  return [...before]
    .filter(([name, old]) => after.has(name) && after.get(name)?.key !== old.key)
    .map(([name]) => name);
}

/** Evidence lines for every fingerprint tool whose output differs between the two. */
export function diffFingerprints(before: StateFingerprint, after: StateFingerprint): string[] {
  return changedTools(before, after).map((name) => {
    const old = before.get(name) as ObservedOutput;
    const now = after.get(name) as ObservedOutput;
    const [a, b] =
      old.text === now.text ? excerpts(old.key, now.key) : excerpts(old.text, now.text);
    return `${name} (zero-argument read-only tool) returned ${JSON.stringify(a)} before and ${JSON.stringify(b)} after`;
  });
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
 * the others (which on their own stay put), and drops it. When no single culprit explains
 * the drift, the tools whose answers changed on their own (a clock) are dropped instead, and
 * the rest settled again. Returns the tools kept and the culprits found.
 */
export async function settleFingerprint(
  client: ProbeClient,
  tools: readonly string[],
): Promise<{ tools: string[]; culprits: FingerprintCulprit[] }> {
  let kept = [...tools];
  const culprits: FingerprintCulprit[] = [];
  while (kept.length > 0) {
    const first = await takeFingerprint(client, kept);
    const second = await takeFingerprint(client, kept);
    if (same(first, second)) return { tools: kept, culprits };
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
    if (found === undefined) {
      // No call of one of them moves the others: those that changed between the two
      // readings change on their own (a clock, a load figure). They leave the fingerprint;
      // the rest is settled again.
      const drifting = new Set(changedTools(first, second));
      kept = kept.filter((name) => !drifting.has(name));
      continue;
    }
    culprits.push(found);
    kept = kept.filter((name) => name !== found.tool);
  }
  return { tools: kept, culprits };
}
