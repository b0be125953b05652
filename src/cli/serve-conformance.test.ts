import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE, node22 } from './conformance.test-helpers.js';
import { REPO_ROOT, startHttpServe } from './serve-process.test-helpers.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against
// `hintgate serve --http`, for the scenarios that apply to a tools-only server. The suite
// needs Node 22 or later; it runs under the binary of `npx -y node@22` (fetched from the npm
// registry once and cached by npm), asked for once.

const run = promisify(execFile);
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
] as const;

const node = await node22();
const problem = 'problem' in node ? node.problem : undefined;
/** Node 22's binary (the tests that run it are skipped without it). */
const NODE_22 = 'path' in node ? node.path : 'node';
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
              NODE_22,
              [CONFORMANCE, 'server', '--url', server.url, '--scenario', scenario],
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
