/**
 * The baseline strategies, each calling the tools' `execute` directly (no validation,
 * no locks): what harnesses without hintgate do with the calls of one turn.
 */
import type { ToolContext } from 'hintgate';
import type { DirectCall } from './batches.js';

/** A baseline: runs the calls of one turn and resolves when all have settled. */
export type Strategy = (calls: readonly DirectCall[]) => Promise<unknown[]>;

const never = new AbortController().signal;

/** Runs one call and never rejects (a failure becomes its value, as `allSettled` does). */
const invoke = async (call: DirectCall, index: number): Promise<unknown> => {
  const context: ToolContext = { signal: never, callId: `c${index}`, attempt: 1 };
  try {
    return await call.tool.execute(call.args, context);
  } catch (error) {
    return error;
  }
};

const isReadOnly = (call: DirectCall): boolean => call.tool.annotations.readOnlyHint === true;

/** (1) Sequential: await each call in order. */
export const sequential: Strategy = async (calls) => {
  const results: unknown[] = [];
  for (const [index, call] of calls.entries()) results.push(await invoke(call, index));
  return results;
};

/**
 * (2) ak-coder `AgentCore.processMessage`: `Promise.allSettled` when every call is
 * `readOnlyHint: true`, otherwise sequential.
 */
export const parallelIfAllReadOnly: Strategy = async (calls) => {
  if (!calls.every(isReadOnly)) return sequential(calls);
  const settled = await Promise.allSettled(calls.map((call, index) => invoke(call, index)));
  return settled.map((outcome) =>
    outcome.status === 'fulfilled' ? outcome.value : outcome.reason,
  );
};

/**
 * (3) Codex CLI / Gemini CLI: consecutive read-only calls run together as one wave; each
 * other call runs alone, in order, after the wave before it.
 */
export const readWaves: Strategy = async (calls) => {
  const results: unknown[] = [];
  let wave: Array<Promise<unknown>> = [];
  const flush = async (): Promise<void> => {
    results.push(...(await Promise.all(wave)));
    wave = [];
  };
  for (const [index, call] of calls.entries()) {
    if (isReadOnly(call)) {
      wave.push(invoke(call, index));
    } else {
      await flush();
      results.push(await invoke(call, index));
    }
  }
  await flush();
  return results;
};
