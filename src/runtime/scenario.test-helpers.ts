import { vi } from 'vitest';
import { z } from 'zod';
import type { Clock } from '../schedule/clock.js';
import type { ToolAnnotations } from '../tool/annotations.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';

/** A start or end of a tool invocation, on the fake clock. */
export interface Mark {
  readonly id: string;
  readonly phase: 'start' | 'end';
  readonly at: number;
}

/** A clock over vitest's fake `Date` and timers. */
export const fakeClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Starts fake time at 0. */
export function useFakeTime(): void {
  vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

const input = z.object({ path: z.string().optional(), ms: z.number().default(10) });

/**
 * A tool that sleeps `ms` on the fake clock and records its start and end. With `path`
 * its resource key is `file:<path>`; without it the call has no keys.
 */
export function sleepyTool(name: string, annotations: ToolAnnotations, marks: Mark[]) {
  return defineTool({
    name,
    description: `${name} for scenarios`,
    inputSchema: input,
    annotations,
    resources: (args) => (args.path === undefined ? [] : [`file:${args.path}`]),
    execute: async (args, context) => {
      marks.push({ id: context.callId, phase: 'start', at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, args.ms));
      marks.push({ id: context.callId, phase: 'end', at: Date.now() });
      return `${name} ${args.path ?? ''} done`;
    },
  });
}

/** `read`, `write` and `destroy` sleepy tools sharing one mark log. */
export function scenarioTools(marks: Mark[]) {
  return [
    sleepyTool('read', READ_ONLY, marks),
    sleepyTool('write', WRITE, marks),
    sleepyTool('destroy', DESTRUCTIVE, marks),
  ];
}

/** When each call started, by id. */
export function startTimes(marks: readonly Mark[]): Record<string, number> {
  return Object.fromEntries(marks.filter((m) => m.phase === 'start').map((m) => [m.id, m.at]));
}

/** Ids in the order they started. */
export function startOrder(marks: readonly Mark[]): string[] {
  return marks.filter((m) => m.phase === 'start').map((m) => m.id);
}
