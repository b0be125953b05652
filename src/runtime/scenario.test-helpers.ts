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

const input = z.object({ path: z.string().optional(), ms: z.number().default(10) });

/**
 * A tool that sleeps `ms` on `clock` (a fake one: `createFakeClock` of hintgate/testing)
 * and records its start and end. With `path` its resource key is `file:<path>`; without it
 * the call has no keys.
 */
export function sleepyTool(
  name: string,
  annotations: ToolAnnotations,
  marks: Mark[],
  clock: Clock,
) {
  return defineTool({
    name,
    description: `${name} for scenarios`,
    inputSchema: input,
    annotations,
    resources: (args) => (args.path === undefined ? [] : [`file:${args.path}`]),
    execute: async (args, context) => {
      marks.push({ id: context.callId, phase: 'start', at: clock.now() });
      await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), args.ms));
      marks.push({ id: context.callId, phase: 'end', at: clock.now() });
      return `${name} ${args.path ?? ''} done`;
    },
  });
}

/** `read`, `write` and `destroy` sleepy tools sharing one mark log. */
export function scenarioTools(marks: Mark[], clock: Clock) {
  return [
    sleepyTool('read', READ_ONLY, marks, clock),
    sleepyTool('write', WRITE, marks, clock),
    sleepyTool('destroy', DESTRUCTIVE, marks, clock),
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
