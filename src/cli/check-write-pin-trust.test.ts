// End to end: `hintgate check --probe --write-pin` writes verdicts into hintgate.lock, and a
// gateway started on the same configuration trusts the annotations of the verified tools of
// its untrusted servers, and of no other tool.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockFile } from '../check/pin/index.js';
import { loadGatewayConfig } from '../gateway/config/index.js';
import { createGateway } from '../gateway/create-gateway.js';
import { nodeScriptArgs } from '../testing/index.js';
import { runCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The fixtures run from the test run's build when there is one (else through tsx).
const fixture = (name: string) => ({
  command: process.execPath,
  args: nodeScriptArgs(join(ROOT, 'src', 'check', 'fixtures', `${name}.ts`)),
  env: { TSX_DISABLE_CACHE: '1' },
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-check-trust-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('hintgate check --probe --write-pin, then the gateway', () => {
  it('trusts the annotations of the tools the probe verified, and only those', async () => {
    // Neither server is trusted: without verdicts the gateway would trust no annotation.
    await writeFile(
      join(dir, 'hintgate.yaml'),
      JSON.stringify({
        servers: { honest: fixture('honest-server'), liar: fixture('log-appender') },
      }),
    );
    const code = await runCli(['check', '--probe', '--write-pin'], {
      stdout: () => {},
      stderr: () => {},
      env: {},
      cwd: dir,
    });
    expect(code).toBe(1);
    const lock = await readLockFile(join(dir, 'hintgate.lock'));
    const verdicts = Object.fromEntries(
      Object.entries(lock.servers).flatMap(([, server]) =>
        Object.entries(server.tools).map(([tool, pin]) => [tool, pin.verdict]),
      ),
    );
    expect(verdicts).toEqual({
      read_note: 'verified',
      list_notes: 'verified',
      get_settings: 'verified',
      process_info: 'verified',
      set_setting: 'inconclusive',
      delete_note: 'inconclusive',
      search_notes: 'violation',
    });

    const gateway = await createGateway({
      config: await loadGatewayConfig(join(dir, 'hintgate.yaml')),
      onNotice: () => {},
      onError: () => {},
      watchPins: false,
    });
    try {
      const trusted = Object.fromEntries(
        Object.keys(verdicts).map((tool) => [
          tool,
          gateway.runtime.registry.resolve(tool)?.trusted,
        ]),
      );
      expect(trusted).toEqual({
        read_note: true,
        list_notes: true,
        get_settings: true,
        process_info: true,
        set_setting: false,
        delete_note: false,
        search_notes: false,
      });
      // Nothing is held back: every tool is pinned with the definition the gateway lists.
      expect([...gateway.blockedTools()]).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});
