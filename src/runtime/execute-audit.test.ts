import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AuditEventType, argumentDigest, createMemoryAuditSink } from '../audit/index.js';
import { heldSyncs, settled } from '../audit/jsonl-audit-sink.test-helpers.js';
import { jsonlSyncPolicy } from '../audit/jsonl-sync-policy.js';
import { type AuditFileSystem, createJsonlAuditSink, nodeAuditFileSystem } from '../audit/node.js';
import { createRegistry } from '../registry/index.js';
import { nodeScriptArgs } from '../testing/index.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

/** Runtimes in their own processes, run from the test run's build (see `nodeScriptArgs`). */
const HANG_AFTER_AUDIT = fileURLToPath(new URL('./fixtures/hang-after-audit.ts', import.meta.url));
const ROTATING_WRITER = fileURLToPath(
  new URL('./fixtures/rotating-audit-writer.ts', import.meta.url),
);

const lookup = defineTool({
  name: 'lookup',
  description: 'Reads',
  annotations: READ_ONLY,
  inputSchema: z.object({}),
  execute: () => 'found',
});
const save = defineTool({
  name: 'save',
  description: 'Writes',
  annotations: WRITE,
  inputSchema: z.object({}),
  execute: () => 'saved',
});

/** A read-only tool that changes the arguments it is given. */
const mutate = defineTool({
  name: 'mutate',
  description: 'Changes its arguments',
  annotations: READ_ONLY,
  inputSchema: z.object({ n: z.number() }),
  execute: (args) => {
    (args as { n: number }).n += 1;
    return 'changed';
  },
});

const linesOf = (text: string): { type: string; callId: string }[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; callId: string });

describe('execute: audit records of calls', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hintgate-audit-durability-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has the call.started line in the file when the tool starts', async () => {
    const path = join(dir, 'audit.jsonl');
    const seen: string[][] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Reads the audit log',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: (_args, { callId }) => {
        seen.push(linesOf(readFileSync(path, 'utf8')).map((e) => `${e.type}:${e.callId}`));
        return callId;
      },
    });
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [probe],
      auditSinks: [createJsonlAuditSink({ path })],
    });
    await runtime.execute([{ id: 'a', name: 'probe', arguments: {} }]);
    await runtime.execute([{ id: 'b', name: 'probe', arguments: {} }]);
    expect(seen).toEqual([
      ['call.started:a'],
      ['call.started:a', 'call.succeeded:a', 'call.started:b'],
    ]);
    await runtime.close();
  });

  it('resolves only after one sync that began once every line of the batch was written', async () => {
    const path = join(dir, 'audit.jsonl');
    const syncs: { linesAtStart: number; done: boolean }[] = [];
    const fileSystem: AuditFileSystem = {
      ...nodeAuditFileSystem,
      async datasync(fd) {
        const sync = { linesAtStart: linesOf(readFileSync(path, 'utf8')).length, done: false };
        syncs.push(sync);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await nodeAuditFileSystem.datasync(fd);
        sync.done = true;
      },
    };
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes',
      annotations: READ_ONLY,
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => String(n),
    });
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [tool],
      auditSinks: [createJsonlAuditSink({ path, fileSystem })],
    });
    await runtime.execute([{ id: '1', name: 'echo', arguments: { n: 1 } }]);
    // call.started rode with call.succeeded: one sync for the call, covering both lines.
    expect(syncs).toEqual([{ linesAtStart: 2, done: true }]);

    await runtime.execute([
      { id: '2', name: 'echo', arguments: { n: 2 } },
      { id: '3', name: 'echo', arguments: { n: 3 } },
    ]);
    expect(syncs.every((sync) => sync.done)).toBe(true);
    expect(syncs.at(-1)?.linesAtStart).toBe(6);
    await runtime.close();
  });

  it("gives every event of a read call its trusted class, which 'auto' stores without a sync: not a write, an untrusted read claim or an unknown tool", async () => {
    const modeOf = jsonlSyncPolicy('auto');
    const written: [AuditEventType, string | undefined, string | undefined, string][] = [];
    const registry = createRegistry({ env: {} });
    registry.addOrigin({ name: 'local', layer: 'project', trusted: true, tools: [lookup, save] });
    const peek = defineTool({
      name: 'peek',
      description: 'Claims to read',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: () => 'peeked',
    });
    registry.addOrigin({ name: 'remote', layer: 'project', trusted: false, tools: [peek] });
    const runtime = createRuntime({
      registry,
      mode: 'yolo',
      auditSinks: [
        {
          write: (event) => {
            written.push([event.type, event.callId, event.class, modeOf(event)]);
          },
        },
      ],
    });
    const calls = [
      ['r', 'lookup'],
      ['w', 'save'],
      ['p', 'peek'],
      ['u', 'nothing'],
    ] as const;
    for (const [id, name] of calls) await runtime.execute([{ id, name, arguments: {} }]);
    expect(written).toEqual([
      ['call.started', 'r', 'read', 'with-next'],
      ['call.succeeded', 'r', 'read', 'appended'],
      ['call.started', 'w', 'write', 'synced-later'],
      ['call.succeeded', 'w', 'write', 'synced'],
      ['call.started', 'p', 'destructive', 'synced-later'],
      ['call.succeeded', 'p', 'destructive', 'synced'],
      ['call.failed', 'u', undefined, 'synced'],
    ]);
    await runtime.close();
  });

  it("with a JSONL sink in sync: 'auto', resolves a read call without waiting for a sync, and a write call only once its events are synced", async () => {
    const path = join(dir, 'audit.jsonl');
    const { fileSystem, syncs } = heldSyncs(path);
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [lookup, save],
      auditSinks: [
        createJsonlAuditSink({ path, fileSystem, sync: 'auto', maxSyncDelayMs: 60_000 }),
      ],
    });
    const read = runtime.execute([{ id: 'r', name: 'lookup', arguments: {} }]);
    expect(await settled(read)).toBe(true);
    expect(syncs).toHaveLength(0);
    expect(linesOf(readFileSync(path, 'utf8')).map((e) => `${e.type}:${e.callId}`)).toEqual([
      'call.started:r',
      'call.succeeded:r',
    ]);

    const write = runtime.execute([{ id: 'w', name: 'save', arguments: {} }]);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(await settled(write)).toBe(false);
    // The write call's sync covers the read call's lines too.
    expect(syncs[0]?.linesAtStart).toBe(4);
    syncs[0]?.release();
    expect((await write)[0]?.status).toBe('ok');
    await runtime.close();
    expect(syncs).toHaveLength(1);
  });

  it('digests the arguments as called in both events of a call, even if the tool changes them', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ mode: 'yolo', tools: [mutate], auditSinks: [sink] });
    await runtime.execute([{ id: '1', name: 'mutate', arguments: { n: 1 } }]);
    const [started, succeeded] = sink.events;
    expect(started?.argsDigest).toBe(argumentDigest({ n: 1 }));
    expect(succeeded?.argsDigest).toBe(argumentDigest({ n: 1 }));
  });

  it('writes call.started before the tool starts, for a read call as for a write call', async () => {
    const order: string[] = [];
    const logged = (name: string, annotations: typeof READ_ONLY | typeof WRITE) =>
      defineTool({
        name,
        description: 'Logs its start',
        annotations,
        inputSchema: z.object({}),
        execute: (_args, { callId }) => {
          order.push(`tool:${callId}`);
          return 'done';
        },
      });
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [logged('look', READ_ONLY), logged('store', WRITE)],
      auditSinks: [
        {
          write: (event) => {
            order.push(`${event.type}:${event.callId}`);
          },
        },
      ],
    });
    await runtime.execute([{ id: 'r', name: 'look', arguments: {} }]);
    await runtime.execute([{ id: 'w', name: 'store', arguments: {} }]);
    expect(order).toEqual([
      'call.started:r',
      'tool:r',
      'call.succeeded:r',
      'call.started:w',
      'tool:w',
      'call.succeeded:w',
    ]);
    await runtime.close();
  });

  it('shows a read call.started held by the auto sink in the file before any event its start causes', async () => {
    const path = join(dir, 'audit.jsonl');
    const registry = createRegistry({ env: {} });
    let release = (): void => {};
    let fileWhileRunning = '';
    const slow = defineTool({
      name: 'slow',
      description: 'Reads slowly, after adding an origin',
      annotations: READ_ONLY,
      inputSchema: z.object({}),
      execute: async () => {
        registry.addOrigin({ name: 'extra', layer: 'project', tools: [save] });
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        fileWhileRunning = readFileSync(path, 'utf8');
        return 'read';
      },
    });
    registry.addOrigin({ name: 'local', layer: 'project', trusted: true, tools: [slow] });
    const runtime = createRuntime({
      registry,
      mode: 'yolo',
      auditSinks: [createJsonlAuditSink({ path, sync: 'auto', maxSyncDelayMs: 60_000 })],
    });
    const run = runtime.execute([{ id: 'r', name: 'slow', arguments: {} }]);
    await vi.waitFor(() => expect(readFileSync(path, 'utf8')).not.toBe(''));
    release();
    expect((await run)[0]?.status).toBe('ok');
    // The tool.changed its start caused was appended, with the start held before it.
    expect(linesOf(fileWhileRunning).map((e) => `${e.type}:${e.callId}`)).toEqual([
      'call.started:r',
      'tool.changed:undefined',
    ]);
    expect(linesOf(readFileSync(path, 'utf8')).map((e) => `${e.type}:${e.callId}`)).toEqual([
      'call.started:r',
      'tool.changed:undefined',
      'call.succeeded:r',
    ]);
    await runtime.close();
  });

  it('reads an arguments object the caller reuses anew for each call', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [lookup],
      auditArguments: true,
      auditSinks: [sink],
    });
    const args: Record<string, unknown> = { path: 'a' };
    await runtime.execute([{ id: '1', name: 'nothing', arguments: args }]);
    args.path = 'b';
    await runtime.execute([{ id: '2', name: 'nothing', arguments: args }]);
    expect(sink.events.map((e) => [e.callId, e.argsDigest, e.arguments])).toEqual([
      ['1', argumentDigest({ path: 'a' }), { path: 'a' }],
      ['2', argumentDigest({ path: 'b' }), { path: 'b' }],
    ]);
    await runtime.close();
  });

  it('records the arguments as called in both events, even when the tool changes them', async () => {
    const events: { type: string; argsDigest?: string; arguments?: unknown }[] = [];
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [mutate],
      auditArguments: true,
      auditSinks: [{ write: (event) => void events.push(event) }],
    });
    await runtime.execute([{ id: '1', name: 'mutate', arguments: { n: 1 } }]);
    expect(events.map((e) => [e.type, e.argsDigest, e.arguments])).toEqual([
      ['call.started', argumentDigest({ n: 1 }), { n: 1 }],
      ['call.succeeded', argumentDigest({ n: 1 }), { n: 1 }],
    ]);
    await runtime.close();
  });

  it('keeps every event reported written, and the start of the running call, when the process is killed', async () => {
    const path = join(dir, 'audit.jsonl');
    const child = spawn(process.execPath, [...nodeScriptArgs(HANG_AFTER_AUDIT), path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      child.on('exit', (_code, signal) => resolve(signal));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('running')) child.kill('SIGKILL');
    });
    expect(await exited, stderr).toBe('SIGKILL');
    expect(stdout).toBe('written\nrunning\n');
    const events = linesOf(await readFile(path, 'utf8')).map((e) => `${e.type}:${e.callId}`);
    const reported = Array.from({ length: 20 }, (_, i) => [
      `call.started:q${i}`,
      `call.succeeded:q${i}`,
    ]).flat();
    expect(events.slice(0, 40).sort()).toEqual(reported.sort());
    expect(events.slice(40)).toEqual(['call.started:h']);
  });

  it('keeps whole lines in every file and every event reported written when killed while rotating under heavy writing', async () => {
    const path = join(dir, 'audit.jsonl');
    const child = spawn(process.execPath, [...nodeScriptArgs(ROTATING_WRITER), path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      child.on('exit', (_code, signal) => resolve(signal));
    });
    let acked: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (acked.length > 0 || !existsSync(`${path}.5`)) return;
      // Killed in the middle of writing, past several rotations.
      child.kill('SIGKILL');
      acked = stdout
        .split('\n')
        .filter((line) => line.startsWith('acked '))
        .flatMap((line) => line.slice('acked '.length).split(' '));
    });
    try {
      expect(await exited, stderr).toBe('SIGKILL');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect(acked.length).toBeGreaterThan(0);
    const files = readdirSync(dir)
      .filter((name) => name.startsWith('audit.jsonl'))
      .map((name) => join(dir, name));
    expect(files.length).toBeGreaterThan(5);
    const seen = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (text === '') continue;
      // Whole JSON lines only: a file starts with a whole event and ends with a newline.
      expect(text.endsWith('\n'), file).toBe(true);
      for (const line of text.slice(0, -1).split('\n')) {
        const parsed = JSON.parse(line) as { type: string; callId: string };
        seen.add(`${parsed.type}:${parsed.callId}`);
      }
    }
    const missing = acked.filter(
      (id) => !seen.has(`call.started:${id}`) || !seen.has(`call.succeeded:${id}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('execute: onEvent', () => {
  it('hands the listener each event of the batch, with no audit sink and past a listener that throws', async () => {
    const registry = createRegistry();
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [lookup, save] });
    const runtime = createRuntime({ registry, mode: 'yolo' });
    const heard: AuditEventType[] = [];
    const results = await runtime.execute(
      [
        { id: 'a', name: 'lookup' },
        { id: 'b', name: 'save' },
      ],
      {
        onEvent: (event) => {
          heard.push(event.type);
          throw new Error('listener bug');
        },
      },
    );
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(heard.filter((t) => t === 'call.started')).toHaveLength(2);
    expect(heard.filter((t) => t === 'call.succeeded')).toHaveLength(2);
    await expect(
      runtime.execute([{ id: 'c', name: 'lookup' }], {
        onEvent: 'log' as unknown as () => void,
      }),
    ).rejects.toThrow(/onEvent must be a function/);
    await runtime.close();
  });
});
