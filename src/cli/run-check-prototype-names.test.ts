import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLockFile } from '../check/pin/index.js';
import { tempDir, toolsFileServer, writeConfig } from '../gateway/gateway.test-helpers.js';
import { ownValue } from '../tool/index.js';
import { captureCli } from './run-cli.test-helpers.js';

// `hintgate check` (lint, probe, report, --write-pin) of a real server whose tools, and
// their arguments, are named like Object.prototype members, behind a server named
// `constructor`.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

const check = (args: string[], cwd: string) => captureCli(['check', ...args], { cwd });

describe('hintgate check of tools named __proto__, constructor, toString, valueOf, hasOwnProperty', () => {
  it('lints, probes, reports and pins every one of them', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const server = await toolsFileServer(
      dir,
      'constructor',
      NAMES.map((name) => ({
        name,
        title: `The ${name} tool`,
        description: `Returns what it is given under ${name}.`,
        annotations: { readOnlyHint: true, openWorldHint: false },
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(NAMES.map((arg) => [arg, { type: 'string' }])),
          required: NAMES,
        },
      })),
    );
    await writeConfig(dir, {
      servers: {
        constructor: server.entry,
      },
    });

    const json = await check(['--json', '--fail-on', 'none'], dir);
    expect(json.stderr).toBe('');
    const report = JSON.parse(json.stdout);
    expect(report.servers).toHaveLength(1);
    expect(report.servers[0]).toMatchObject({ name: 'constructor', status: 'checked' });
    expect([...report.servers[0].tools].sort()).toEqual([...NAMES].sort());
    const table = await check(['--fail-on', 'none'], dir);
    expect(table.stdout.split('\n')[0]).toMatch(/: 1 server, 5 tools; lint$/);

    const probed = await check(['--probe', '--write-pin', '--json', '--fail-on', 'none'], dir);
    expect(probed.stderr).toBe('');
    const verdicts = JSON.parse(probed.stdout).verdicts as { tool: string; verdict: string }[];
    expect(verdicts.map((verdict) => verdict.tool).sort()).toEqual([...NAMES].sort());
    const lock = await readLockFile(join(dir, 'hintgate.lock'));
    const pinned = ownValue(lock.servers, 'constructor')?.tools;
    expect(Object.keys(pinned ?? {}).sort()).toEqual([...NAMES].sort());
    for (const { tool, verdict } of verdicts) {
      expect(ownValue(pinned, tool)?.verdict).toBe(verdict);
    }
  });
});
