import { afterAll } from 'vitest';

/**
 * Importing `@openai/agents` (the OpenAI Agents adapter and its tests, the entry-point tests)
 * starts its trace exporter's loop: a timer that re-arms itself every few seconds in the
 * worker. Where a worker runs several files, a later file's fake timers catch the next
 * re-arm, and running "all timers" then never ends ("Aborting after running 10000 timers").
 * After each file, the SDK's own shutdown stops the loop; a file that imports the SDK anew
 * starts it again.
 */
afterAll(async () => {
  const provider = (globalThis as Record<symbol, unknown>)[
    Symbol.for('openai.agents.core.traceProvider')
  ] as { shutdown?: (timeoutMs?: number) => Promise<void> } | undefined;
  await provider?.shutdown?.(1000);
});
