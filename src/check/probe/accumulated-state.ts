import { setTimeout as delay } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type ProbeClient, resultText } from './probe-client.js';

/** Longest text of one content block that is searched for counts, in characters. */
const MAX_TEXT = 20_000;
/** Most values collected from one answer. */
const MAX_VALUES = 2000;
/** Shortest pause before the last confirming call, in milliseconds. */
const MIN_PAUSE_MS = 1000;
/** Longest pause before the last confirming call, in milliseconds. */
const MAX_PAUSE_MS = 5000;

/**
 * The whole numbers an answer shows, by where they are: numbers and array lengths
 * (`.length`) in its structured content and in text blocks that hold JSON, and numbers in
 * plain text, placed by the text around them (`3 thoughts so far` is `# thoughts so far`
 * number 0), so that only the same number in the same place is compared.
 */
export function countsOf(result: CallToolResult): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (value: unknown, path: string, depth: number): void => {
    if (counts.size >= MAX_VALUES || depth > 20) return;
    if (typeof value === 'number' && Number.isSafeInteger(value)) counts.set(path, value);
    else if (Array.isArray(value)) {
      counts.set(`${path}.length`, value.length);
      value.forEach((item, index) => {
        walk(item, `${path}[${index}]`, depth + 1);
      });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        walk(item, `${path}.${JSON.stringify(key)}`, depth + 1);
      }
    }
  };
  walk(result.structuredContent, 'structuredContent', 0);
  (result.content ?? []).forEach((block, index) => {
    if (block.type !== 'text') return;
    const text = block.text.slice(0, MAX_TEXT);
    const where = `content[${index}]`;
    const trimmed = text.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        walk(JSON.parse(trimmed), where, 0);
        return;
      } catch {
        // Text that only looks like JSON: read it as text.
      }
    }
    const skeleton = text.replace(/\d+/g, '#');
    let at = 0;
    for (const match of text.matchAll(/\d+/g)) {
      const value = Number(match[0]);
      if (Number.isSafeInteger(value)) counts.set(`${where} "${skeleton}" #${at}`, value);
      at += 1;
      if (counts.size >= MAX_VALUES) break;
    }
  });
  return counts;
}

/** A number in an answer that grew by the same step on every identical call. */
export interface GrowingCount {
  /** Where it is: a JSON path, or the text around it. */
  readonly path: string;
  /** Its value in each answer, in call order. */
  readonly values: readonly number[];
}

/**
 * The counts that grew by the same positive step from each answer to the next: a counter, a
 * history length or a list that grows with every call. Needs three answers or more.
 */
export function growingCounts(answers: readonly CallToolResult[]): GrowingCount[] {
  const all = answers.map(countsOf);
  const [first, ...rest] = all;
  if (first === undefined || rest.length < 2) return [];
  const grown: GrowingCount[] = [];
  for (const [path, start] of first) {
    const values = [start, ...rest.map((counts) => counts.get(path))];
    if (values.some((value) => value === undefined)) continue;
    const numbers = values as number[];
    const step = (numbers[1] ?? 0) - start;
    if (step <= 0) continue;
    if (
      numbers.every((value, index) => index === 0 || value - (numbers[index - 1] ?? 0) === step)
    ) {
      grown.push({ path, values: numbers });
    }
  }
  return grown;
}

/** What {@link confirmAccumulation} found. */
export interface Accumulation {
  /** The counts that grew by one step per call, also across the pause. */
  readonly grown: readonly GrowingCount[];
  /** Evidence lines: the calls, the first two answers, and how each count moved. */
  readonly evidence: readonly string[];
}

const readable = (path: string): string => {
  const text = / "(.*)" #(\d+)$/.exec(path);
  if (text !== null) return `the number ${Number(text[2]) + 1} in "${text[1]}"`;
  return path
    .replace(/^(structuredContent|content\[\d+\])/, '')
    .replace(/\."((?:[^"\\]|\\.)*)"/g, '.$1')
    .replace(/^\./, '');
};

/**
 * Checks whether a tool whose two answers to the same call differed is counting its calls:
 * calls it once more at once and once more after a pause (as long as a call took, at least
 * 1 s), and looks for a number that grew by the same step on each of the four answers. A
 * clock or an uptime moves with time, not calls, and cannot keep one step across the pause;
 * random values do not keep a step at all. Resolves to nothing found when the extra calls
 * fail.
 */
export async function confirmAccumulation(
  client: ProbeClient,
  call: { readonly tool: string; readonly args: Record<string, unknown> },
  answers: readonly [CallToolResult, CallToolResult],
): Promise<Accumulation> {
  const before = countsOf(answers[0]);
  const after = countsOf(answers[1]);
  // No number grew between the first two answers: nothing to confirm.
  if (![...before].some(([path, value]) => (after.get(path) ?? value) > value)) {
    return { grown: [], evidence: [] };
  }
  const started = performance.now();
  const third = await client.callTool(call.tool, call.args);
  const callMs = performance.now() - started;
  if (!third.ok) return { grown: [], evidence: [] };
  const pauseMs = Math.min(Math.max(MIN_PAUSE_MS, 2 * callMs), MAX_PAUSE_MS);
  await delay(pauseMs);
  const fourth = await client.callTool(call.tool, call.args);
  if (!fourth.ok) return { grown: [], evidence: [] };
  // The same count shown twice (structured content and its text) is one count.
  const seen = new Set<string>();
  const grown = growingCounts([...answers, third.result, fourth.result]).filter((count) => {
    const key = `${readable(count.path)} ${count.values.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (grown.length === 0) return { grown, evidence: [] };
  const args = JSON.stringify(call.args);
  return {
    grown,
    evidence: [
      `called 4 times with ${args.length > 200 ? `${args.slice(0, 200)}...` : args}, the last after a pause of ${(pauseMs / 1000).toFixed(1)} s`,
      `first answer: ${answerText(answers[0])}`,
      `second answer: ${answerText(answers[1])}`,
      ...grown
        .slice(0, 5)
        .map(
          (count) =>
            `${readable(count.path)} went ${count.values.join(' -> ')}: one step per call, also across the pause, so it counts calls, not time`,
        ),
    ],
  };
}

/** An answer on one line: its structured content, else its text, JSON compacted. */
function answerText(result: CallToolResult): string {
  let text =
    result.structuredContent === undefined
      ? resultText(result, 4000)
      : JSON.stringify(result.structuredContent);
  try {
    text = JSON.stringify(JSON.parse(text));
  } catch {
    text = text.replace(/\s+/g, ' ').trim();
  }
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/** A short phrase for a message: `thoughtHistoryLength 1 -> 2`. */
export function accumulationSummary(grown: readonly GrowingCount[]): string {
  return grown
    .slice(0, 3)
    .map((count) => `${readable(count.path)} ${count.values[0]} -> ${count.values[1]}`)
    .join(', ');
}
