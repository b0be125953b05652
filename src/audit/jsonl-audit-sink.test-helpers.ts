import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ToolClass } from '../tool/classify.js';
import type { AuditEvent } from './audit-event.js';
import { type AuditFileSystem, nodeAuditFileSystem } from './audit-file-system.js';

/** A `call.succeeded` event of call `callId`, of class `class` when given. */
export const event = (callId: string, callClass?: ToolClass): AuditEvent => ({
  type: 'call.succeeded',
  time: '2025-01-01T00:00:00.000Z',
  callId,
  tool: 'write_file',
  ...(callClass === undefined ? {} : { class: callClass }),
  attempts: 1,
});

/** A `call.started` event of call `callId` (a call's progress), of class `class` when given. */
export const startedEvent = (callId: string, callClass?: ToolClass): AuditEvent => ({
  type: 'call.started',
  time: '2025-01-01T00:00:00.000Z',
  callId,
  tool: 'write_file',
  ...(callClass === undefined ? {} : { class: callClass }),
});

/** A sync held by {@link heldSyncs}: how many lines the file had when it began, and its end. */
export interface HeldSync {
  readonly linesAtStart: number;
  /** Lets the sync run (Node's `fdatasync`) and then resolve. */
  readonly release: () => void;
  /** Makes the sync fail with `error`. */
  readonly fail: (error: Error) => void;
}

/**
 * Node's file operations, except that each `datasync` waits until the test releases it
 * and remembers how many lines the file had when it began.
 */
export function heldSyncs(path: string) {
  const syncs: HeldSync[] = [];
  const directorySyncs: string[] = [];
  const fileSystem: AuditFileSystem = {
    ...nodeAuditFileSystem,
    datasync: (fd) =>
      new Promise<void>((resolve, reject) => {
        const linesAtStart = readFileSync(path, 'utf8').split('\n').length - 1;
        syncs.push({
          linesAtStart,
          release: () => {
            nodeAuditFileSystem.datasync(fd).then(resolve, reject);
          },
          fail: reject,
        });
      }),
    syncDirectory: async (directory) => {
      directorySyncs.push(directory);
    },
  };
  return { fileSystem, syncs, directorySyncs };
}

/** True once `promise` settled, after letting pending callbacks run. */
export const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

/** The non-empty lines of the file at `path`. */
export const readLines = async (path: string): Promise<string[]> =>
  (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');

/** The `callId`s of the events in the file at `path`, in file order. */
export const callIdsIn = async (path: string): Promise<(string | undefined)[]> =>
  (await readLines(path)).map((line) => (JSON.parse(line) as AuditEvent).callId);
