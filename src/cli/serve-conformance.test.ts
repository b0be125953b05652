import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { node22, runSuite } from './conformance.test-helpers.js';
import { startHttpServe } from './serve-process.test-helpers.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance) against
// `hintgate serve --http`, for the scenarios that apply to a tools-only server. The suite
// needs Node 22 or later; it runs under the binary of `npx -y node@22` (fetched from the npm
// registry once and cached by npm), asked for once. All of its server scenarios run in one
// process (a start of the suite is about a second of CPU); the others call tools, prompts
// and resources of the suite's own reference server and are not looked at.

const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'server-sse-multiple-streams',
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
        const outcomes = await runSuite(NODE_22, server.url);
        for (const scenario of SCENARIOS) expect(outcomes.get(scenario), scenario).toBe(true);
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    },
    240_000,
  );
});
