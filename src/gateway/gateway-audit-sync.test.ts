import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditEvents, REPO_ROOT, tempDir, toolsFileServer } from './gateway.test-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
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
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO_ROOT, 'src', 'cli', 'main.ts'),
        'gateway',
        '--config',
        configFile,
      ],
      { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
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
