// What the LangChain adapter's tests share: file tools over an in-memory project that
// record when each call starts and ends, and readers of what an agent run returned.
import type { BaseMessage, ToolMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { createMemoryAuditSink, type MemoryAuditSink } from '../../audit/index.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../runtime/index.js';
import { defineTool, READ_ONLY, WRITE } from '../../tool/index.js';

/** The calls of one model message: READ(a), WRITE(a), READ(b). */
export const READ_WRITE_READ = [
  { id: 'r1', name: 'read_file', args: { path: 'a.txt' } },
  { id: 'w1', name: 'write_file', args: { path: 'a.txt', text: 'new a' } },
  { id: 'r2', name: 'read_file', args: { path: 'b.txt' } },
];

/** A file project whose tools record, in order, when each call starts and ends. */
export interface Project {
  readonly runtime: Runtime;
  readonly audit: MemoryAuditSink;
  readonly files: Map<string, string>;
  /** `start read a.txt`, `end read a.txt`, `start write a.txt`, ... */
  readonly events: string[];
  /** `true` once the read of `a.txt` has seen the read of `b.txt` start while it ran. */
  readonly overlapped: () => boolean;
}

/**
 * A runtime with `read_file` (read-only) and `write_file` (write) over in-memory files, keyed
 * `file:{path}`. The read of `a.txt` lasts until the read of `b.txt` has started (or 10 s
 * passed), so it ends before then only if the two do not run alongside.
 */
export function fileProject(options: Partial<RuntimeOptions> = {}): Project {
  const files = new Map([
    ['a.txt', 'old a'],
    ['b.txt', 'old b'],
  ]);
  const events: string[] = [];
  let readOfBStarted!: () => void;
  const readOfB = new Promise<void>((resolve) => {
    readOfBStarted = resolve;
  });
  let overlapped = false;
  const read = defineTool({
    name: 'read_file',
    description: 'Read a file.',
    annotations: READ_ONLY,
    inputSchema: z.object({ path: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path }) => {
      events.push(`start read ${path}`);
      if (path === 'b.txt') readOfBStarted();
      if (path === 'a.txt') {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), 10_000);
        });
        overlapped = (await Promise.race([readOfB, late])) !== 'late';
        clearTimeout(timer);
      }
      events.push(`end read ${path}`);
      const text = files.get(path);
      if (text === undefined) throw new Error(`no such file: ${path}`);
      return text;
    },
  });
  const write = defineTool({
    name: 'write_file',
    description: 'Write a file.',
    annotations: WRITE,
    inputSchema: z.object({ path: z.string(), text: z.string() }),
    resources: ['file:{path}'],
    execute: async ({ path, text }) => {
      events.push(`start write ${path}`);
      await Promise.resolve();
      files.set(path, text);
      events.push(`end write ${path}`);
      return `wrote ${path}`;
    },
  });
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({ tools: [read, write], auditSinks: [audit], ...options });
  return { runtime, audit, files, events, overlapped: () => overlapped };
}

/** The tool messages among `messages`, as `id:status:content`. */
export function toolMessages(messages: readonly BaseMessage[]): string[] {
  return messages
    .filter((message): message is ToolMessage => message.getType() === 'tool')
    .map((message) => `${message.tool_call_id}:${message.status}:${String(message.content)}`);
}

/** Where `event` is in `events` (-1 when absent). */
export const at = (events: readonly string[], event: string): number => events.indexOf(event);
