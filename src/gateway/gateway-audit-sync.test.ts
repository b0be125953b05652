import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cliArgv } from '../cli/serve-process.test-helpers.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  auditEvents,
  REPO_ROOT,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from './gateway.test-helpers.js';

/** While `holding`, every `fdatasync` of this process waits in `held` until released. */
const syncGate = vi.hoisted(() => ({ holding: false, held: [] as (() => void)[] }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const fdatasync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void): void => {
    if (syncGate.holding) syncGate.held.push(() => fs.fdatasync(fd, done));
    else fs.fdatasync(fd, done);
  };
  return { ...fs, default: { ...fs, fdatasync }, fdatasync };
});

const releaseSyncs = (): void => {
  syncGate.holding = false;
  for (const run of syncGate.held.splice(0)) run();
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  releaseSyncs();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const line = (message: Record<string, unknown>): string =>
  `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;

describe("hintgate gateway with audit.sync: 'batched'", () => {
  it('has the events of every call whose result the client received in the file when the gateway is killed (SIGKILL) at once', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'lookup', description: 'Reads.', annotations: { readOnlyHint: true } },
    ]);
    const configFile = join(dir, 'hintgate.yaml');
    const auditPath = join(dir, 'audit.jsonl');
    await writeFile(
      configFile,
      JSON.stringify({
        servers: { fixture: { ...fixture.entry, trusted: true, concurrency: 4 } },
        mode: 'auto',
        pin: { newTools: 'allow' },
        // No background sync comes before the kill: what is in the file was appended.
        audit: { path: auditPath, sync: 'batched', maxSyncDelayMs: 60_000 },
      }),
    );
    const child = spawn(process.execPath, cliArgv('gateway', ['--config', configFile]), {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    const calls = ['c1', 'c2', 'c3', 'c4'];
    let stdout = '';
    let sent = false;
    let answered: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      const messages = stdout
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => JSON.parse(text) as { id?: unknown; result?: unknown });
      if (!sent && messages.some((message) => message.id === 1)) {
        sent = true;
        child.stdin.write(line({ method: 'notifications/initialized' }));
        for (const id of calls) {
          child.stdin.write(
            line({ id, method: 'tools/call', params: { name: 'lookup', arguments: {} } }),
          );
        }
      }
      const results = messages
        .filter((message) => typeof message.id === 'string' && message.result !== undefined)
        .map((message) => message.id as string);
      if (results.length > 0 && answered.length === 0) {
        // Killed in the turn the first results arrive in.
        child.kill('SIGKILL');
        answered = results;
      }
    });
    child.stdin.write(
      line({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1.0.0' },
        },
      }),
    );
    expect(await exited, stderr).toBe('SIGKILL');
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((id) => calls.includes(id))).toBe(true);
    const events = await auditEvents(auditPath);
    for (const id of answered) {
      expect(events.filter((event) => event.callId === id).map((event) => event.type)).toEqual([
        'call.started',
        'call.succeeded',
      ]);
    }
  }, 60_000);
});

describe('hintgate gateway: what a call result waits for, by audit.sync', () => {
  /**
   * A gateway over a trusted server with a read-only and a write tool, and an untrusted
   * one whose tool claims to be read-only, with `audit` as given.
   */
  const start = async (audit: Record<string, unknown>) => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const local = await toolsFileServer(dir, 'local', [
      { name: 'lookup', description: 'Reads.', annotations: { readOnlyHint: true } },
      { name: 'store', description: 'Writes.', annotations: { readOnlyHint: false } },
    ]);
    const remote = await toolsFileServer(dir, 'remote', [
      { name: 'peek', description: 'Claims to read.', annotations: { readOnlyHint: true } },
    ]);
    const auditPath = join(dir, 'audit.jsonl');
    const config = await writeConfig(dir, {
      servers: { local: { ...local.entry, trusted: true }, remote: remote.entry },
      mode: 'yolo',
      pin: { newTools: 'allow' },
      // No background sync of read-only events during a test: only calls ask for syncs.
      audit: { path: auditPath, maxSyncDelayMs: 60_000, ...audit },
    });
    const gateway = await createGateway({ config, watchPins: false, onNotice: () => {} });
    cleanups.push(() => gateway.close());
    return { gateway, auditPath };
  };

  /**
   * Runs a call of `name` while syncs are held: whether its result waited for a sync, and
   * the types of its events that were in the audit log when its result came.
   */
  const run = async (gateway: Gateway, auditPath: string, name: string) => {
    const id = `${name}-call`;
    let inFile: unknown[] | undefined;
    syncGate.holding = true;
    const result = gateway.runtime.execute([{ id, name, arguments: {} }]).then((results) => {
      inFile = readFileSync(auditPath, 'utf8')
        .split('\n')
        .filter((text) => text !== '')
        .map((text) => JSON.parse(text) as { type: string; callId?: string })
        .filter((event) => event.callId === id)
        .map((event) => event.type);
      return results;
    });
    await until(() => inFile !== undefined || syncGate.held.length > 0);
    // A sync is held: a result that does not come meanwhile waits for it.
    if (inFile === undefined) await new Promise((resolve) => setTimeout(resolve, 300));
    const waited = inFile === undefined;
    releaseSyncs();
    const [outcome] = await result;
    expect(outcome?.status).toBe('ok');
    return { waited, inFile };
  };

  it('auto by default: a trusted read-only call returns without waiting for a sync, its events in the file; a write call and an untrusted read claim wait', async () => {
    const { gateway, auditPath } = await start({});
    expect(await run(gateway, auditPath, 'lookup')).toEqual({
      waited: false,
      inFile: ['call.started', 'call.succeeded'],
    });
    expect((await run(gateway, auditPath, 'store')).waited).toBe(true);
    expect((await run(gateway, auditPath, 'peek')).waited).toBe(true);
  }, 60_000);

  it('always: a read-only call waits for its sync too', async () => {
    const { gateway, auditPath } = await start({ sync: 'always' });
    expect((await run(gateway, auditPath, 'lookup')).waited).toBe(true);
    expect((await run(gateway, auditPath, 'store')).waited).toBe(true);
  }, 60_000);

  it('batched: a write call returns without waiting for a sync, its events in the file', async () => {
    const { gateway, auditPath } = await start({ sync: 'batched' });
    expect(await run(gateway, auditPath, 'store')).toEqual({
      waited: false,
      inFile: ['call.started', 'call.succeeded'],
    });
  }, 60_000);

  it('rotate: the log moves to PATH.1, PATH.2 as it passes maxBytes, every call with both events', async () => {
    const { gateway, auditPath } = await start({ rotate: { maxBytes: 1024, keep: 50 } });
    const ids = Array.from({ length: 12 }, (_, index) => `r${index}`);
    for (const id of ids) {
      const [result] = await gateway.runtime.execute([{ id, name: 'store', arguments: {} }]);
      expect(result?.status).toBe('ok');
    }
    const files = [auditPath];
    for (let index = 1; existsSync(`${auditPath}.${index}`); index += 1) {
      files.unshift(`${auditPath}.${index}`);
    }
    expect(files.length).toBeGreaterThan(2);
    const events = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      return text
        .slice(0, -1)
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; callId?: string });
    });
    for (const id of ids) {
      expect(events.filter((event) => event.callId === id).map((event) => event.type)).toEqual([
        'call.started',
        'call.succeeded',
      ]);
    }
  }, 60_000);
});
