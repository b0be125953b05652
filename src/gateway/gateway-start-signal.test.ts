import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAlive } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { tempDir, until, writeConfig } from './gateway.test-helpers.js';

// createGateway's `signal` stops a start under way, also on a Node without
// AbortSignal.any (before 20.3), where the start signal is combined by listeners.

/** Writes its pid to $PIDFILE and never answers. */
const HANGS =
  "require('fs').writeFileSync(process.env.PIDFILE, String(process.pid)); setInterval(() => {}, 1000)";

const nativeAny = AbortSignal.any;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  AbortSignal.any = nativeAny;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each([
  ['with AbortSignal.any', false],
  ['without AbortSignal.any (Node 20.0 to 20.2)', true],
])('createGateway stopped by its signal while starting, %s', (_name, withoutAny) => {
  it('rejects with the reason and stops the upstream process it started', async () => {
    if (withoutAny) Reflect.deleteProperty(AbortSignal, 'any');
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const pidFile = join(dir, 'upstream.pid');
    const config = await writeConfig(dir, {
      servers: {
        hangs: { command: process.execPath, args: ['-e', HANGS], env: { PIDFILE: pidFile } },
      },
      pin: { newTools: 'allow' },
    });
    const stop = new AbortController();
    const started = createGateway({
      config,
      signal: stop.signal,
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
    });
    started.then(
      (gateway) => cleanups.push(() => gateway.close()),
      () => {},
    );
    await until(async () => (await readFile(pidFile, 'utf8').catch(() => '')) !== '', 20_000);
    const upstream = Number(await readFile(pidFile, 'utf8'));
    const reason = new Error('SIGTERM');
    stop.abort(reason);
    await expect(started).rejects.toBe(reason);
    await until(() => !processAlive(upstream), 10_000);
  }, 30_000);
});
