import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingServer, tempDir } from '../gateway/gateway.test-helpers.js';
import { CONFORMANCE, node22, runSuite } from './conformance.test-helpers.js';
import { runCli } from './run-cli.js';
import { cliArgv, REPO_ROOT } from './serve-process.test-helpers.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance), all of its server
// scenarios, run against @modelcontextprotocol/server-everything twice: directly over its
// own Streamable HTTP transport, and through `hintgate gateway --http` with the same server
// as a stdio upstream. Every scenario that passes directly has to pass through the gateway:
// tools, resources, prompts, logging and ping are all relayed. The suite needs Node 22
// or later; it runs under the binary of `npx -y node@22` (fetched from the npm registry
// once and cached by npm), asked for once.
//
// The suite is written for its own reference server: most scenarios call tools, prompts and
// resources (`test_image_content`, `test_prompt_with_arguments`, ...) that server-everything
// does not have, and fail directly. Those are left out of the comparison.

const run = promisify(execFile);
const EVERYTHING = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/**
 * Scenarios that pass directly and through the gateway. server-everything has no
 * `test_simple_text` or `test_error_handling` tool: tools-call-simple-text and
 * tools-call-error pass on both because the suite accepts the `isError` result that reports
 * the unknown tool, which the gateway returns as the server does. The suite subscribes to
 * `test://watched-resource`, which server-everything does not list: the gateway routes a
 * URI nobody lists to the only server with resources, which accepts it as it does directly.
 */
const RELAYED = [
  'logging-set-level',
  'ping',
  'prompts-list',
  'resources-list',
  'resources-subscribe',
  'resources-unsubscribe',
  'server-initialize',
  'server-sse-multiple-streams',
  'tools-call-error',
  'tools-call-simple-text',
  'tools-list',
] as const;

const node = await node22();
const problem = 'problem' in node ? node.problem : undefined;
/** Node 22's binary (the tests that run it are skipped without it). */
const NODE_22 = 'path' in node ? node.path : 'node';
if (problem !== undefined) {
  console.warn(
    `Skipping the MCP conformance suite through the gateway: node@22 could not be obtained (${problem}).`,
  );
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A port nobody listens on at the moment, for a server that cannot be given port 0. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });

/**
 * Spawns a server, resolves once its stderr matches `ready` (to the match), and registers
 * its shutdown; rejects with its stderr when it exits first or takes longer than 20 s.
 */
const startServer = (
  name: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ match: RegExpExecArray; child: ChildProcess; exited: Promise<number | null> }> => {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in time:\n${stderr}`)),
      20_000,
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = ready.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ match, child, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${stderr}`));
    });
  });
};

/** The environment of a child, without a token that would make the gateway require one. */
const childEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const { HINTGATE_TOKEN: _token, ...env } = process.env;
  return { ...env, ...extra };
};

/** The names of the suite's server scenarios, pending ones included. */
const listScenarios = async (): Promise<string[]> => {
  const { stdout } = await run(NODE_22, [CONFORMANCE, 'list', '--server'], {
    cwd: REPO_ROOT,
    timeout: 120_000,
  });
  return [...stdout.matchAll(/^ {2}- ([\w-]+)/gm)].map((match) => match[1] as string);
};

const passing = (outcomes: Map<string, boolean>): string[] =>
  [...outcomes].filter(([, passed]) => passed).map(([scenario]) => scenario);

describe('MCP conformance suite: server-everything directly and through hintgate gateway --http', () => {
  it.skipIf(problem !== undefined)(
    `every scenario that passes directly passes through the gateway${problem === undefined ? '' : ` (skipped: node@22 unavailable: ${problem})`}`,
    async () => {
      const temp = await tempDir();
      cleanups.push(temp.remove);
      const config = join(temp.dir, 'hintgate.yaml');
      await writeFile(config, JSON.stringify({ servers: { everything: everythingServer() } }));
      let pinErrors = '';
      const pinned = await runCli(['pin', '--config', config], {
        stdout: () => {},
        stderr: (text) => {
          pinErrors += text;
        },
        env: {},
        cwd: temp.dir,
      });
      expect(pinned, pinErrors).toBe(0);

      // server-everything listens on all interfaces at PORT; it is reached at 127.0.0.1.
      const port = await freePort();
      const [direct, gateway, scenarios] = await Promise.all([
        startServer(
          'server-everything',
          [EVERYTHING, 'streamableHttp'],
          childEnv({ PORT: String(port) }),
          /listening on port \d+/,
        ),
        startServer(
          'hintgate gateway',
          cliArgv('gateway', ['--config', config, '--http', '--port', '0', '--mode', 'yolo']),
          childEnv(),
          / at (http:\/\/\S+\/mcp)/,
        ),
        listScenarios(),
      ]);
      const gatewayUrl = gateway.match[1] as string;
      const [directOutcomes, gatewayOutcomes] = await Promise.all([
        runSuite(NODE_22, `http://127.0.0.1:${port}/mcp`),
        runSuite(NODE_22, gatewayUrl),
      ]);

      expect(scenarios.length).toBeGreaterThan(0);
      expect([...directOutcomes.keys()].sort()).toEqual([...scenarios].sort());
      expect([...gatewayOutcomes.keys()].sort()).toEqual([...scenarios].sort());

      // The scenarios that pass directly, exactly: a change here (a new version of the
      // suite or of server-everything) has to be looked at and RELAYED updated.
      const passedDirectly = passing(directOutcomes);
      expect(passedDirectly.sort()).toEqual([...RELAYED].sort());

      const passedThrough = new Set(passing(gatewayOutcomes));
      const relayedButFailing = passedDirectly.filter((scenario) => !passedThrough.has(scenario));
      expect(relayedButFailing, 'pass directly but fail through the gateway').toEqual([]);

      direct.child.kill('SIGTERM');
      await direct.exited;
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    },
    240_000,
  );
});
