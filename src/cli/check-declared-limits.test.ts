// hintgate check over a server that declares annotations.custom.rateLimit on a tool (a raw
// JSON-RPC server, so that nothing strips the field): the check shows the declared limit,
// and a pinned tool whose declared limit changed is a pin finding that names the change.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeScriptArgs } from '../testing/index.js';
import { captureCli } from './run-cli.test-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'src', 'gateway', 'fixtures', 'raw-json-rpc-server.ts');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-check-limits-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const writeConfig = (max: number) =>
  writeFile(
    join(dir, 'hintgate.yaml'),
    JSON.stringify({
      servers: {
        records: {
          command: process.execPath,
          args: nodeScriptArgs(FIXTURE),
          env: { TSX_DISABLE_CACHE: '1', FIXTURE_RATE_MAX: String(max) },
        },
      },
    }),
  );

const cli = (args: string[]) => captureCli(args, { cwd: dir });

describe('hintgate check and annotations.custom.rateLimit', () => {
  it('shows the declared limit, and reports a changed one of a pinned tool as pin-changed', async () => {
    await writeConfig(2);
    const shown = await cli(['check']);
    expect(shown.stdout).toContain(
      'declared rate limits (annotations.custom.rateLimit): search 2 calls per 60000 ms (no wait)',
    );
    const json = JSON.parse((await cli(['check', '--json'])).stdout);
    expect(json.servers[0].declaredLimits).toEqual([
      { tool: 'search', rateLimit: { max: 2, windowMs: 60_000, maxWaitMs: 0 } },
    ]);

    const pinned = await cli(['pin']);
    expect(pinned.code).toBe(0);
    const unchanged = JSON.parse((await cli(['check', '--json'])).stdout);
    expect(unchanged.findings.filter((f: { kind: string }) => f.kind === 'pin')).toEqual([]);

    await writeConfig(10);
    const changed = JSON.parse((await cli(['check', '--json'])).stdout);
    const pins = changed.findings.filter((f: { kind: string }) => f.kind === 'pin');
    expect(pins).toEqual([
      expect.objectContaining({
        id: 'pin-changed',
        tool: 'search',
        message: expect.stringContaining(
          'annotations (custom.rateLimit 2 per 60000 ms (wait 0 ms) -> 10 per 60000 ms (wait 0 ms))',
        ),
      }),
    ]);
  }, 120_000);
});
