import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE, NODE_22, node22Problem } from './conformance.test-helpers.js';
import { REPO_ROOT, startHttpServe } from './serve-process.test-helpers.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against
// `hintgate serve --http`, for the scenarios that apply to a tools-only server. The suite
// needs Node 22 or later; it runs under `npx -y node@22`, fetched from the npm registry
// once and cached by npm.

const run = promisify(execFile);
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
] as const;

const problem = await node22Problem();
if (problem !== undefined) {
  console.warn(`Skipping the MCP conformance suite: node@22 could not be obtained (${problem}).`);
}

let workspace: string | undefined;
afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

describe('MCP conformance suite against hintgate serve --http', () => {
  it.skipIf(problem !== undefined)(
    `passes ${SCENARIOS.join(', ')}${problem === undefined ? '' : ` (skipped: node@22 unavailable: ${problem})`}`,
    async () => {
      workspace = await mkdtemp(join(tmpdir(), 'hintgate-conformance-'));
      const server = await startHttpServe(['--workspace', workspace]);
      try {
        const outcomes = await Promise.all(
          SCENARIOS.map(async (scenario) => {
            const { stdout } = await run(
              'npx',
              [...NODE_22, CONFORMANCE, 'server', '--url', server.url, '--scenario', scenario],
              { cwd: REPO_ROOT, timeout: 120_000 },
            ).catch((error: { stdout?: string; message: string }) => ({
              stdout: `${error.stdout ?? ''}\n${error.message}`,
            }));
            return { scenario, stdout };
          }),
        );
        for (const { scenario, stdout } of outcomes) {
          expect(stdout, scenario).toMatch(/Passed: (\d+)\/\1, 0 failed/);
          expect(stdout, scenario).not.toContain('FAILURE');
        }
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    },
    240_000,
  );
});
