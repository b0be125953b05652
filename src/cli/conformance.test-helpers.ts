import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './serve-process.test-helpers.js';

const run = promisify(execFile);

/** The official MCP conformance suite's command (@modelcontextprotocol/conformance). */
export const CONFORMANCE = join(REPO_ROOT, 'node_modules', '.bin', 'conformance');

/** Node 22 or later, which the suite needs: its binary, or why it cannot be had. */
export type Node22 = { readonly path: string } | { readonly problem: string };

let found: Promise<Node22> | undefined;

/**
 * Node 22's binary, asked of `npx -y node@22` (fetched from the npm registry once and cached
 * by npm) once per test process: the suite's runs then start it directly, without npm's
 * own start of about 2 s of CPU each.
 */
export const node22 = (): Promise<Node22> => {
  found ??= (async (): Promise<Node22> => {
    try {
      const { stdout } = await run(
        'npx',
        ['-y', 'node@22', '-p', 'process.version + " " + process.execPath'],
        { cwd: REPO_ROOT, timeout: 180_000 },
      );
      const [version = '', ...path] = stdout.trim().split(' ');
      return /^v2[2-9]\./.test(version) && path.length > 0
        ? { path: path.join(' ') }
        : { problem: `npx node@22 printed ${stdout.trim()}` };
    } catch (error) {
      return { problem: (error as Error).message.split('\n')[0] ?? String(error) };
    }
  })();
  return found;
};

/**
 * Runs every server scenario of the suite (`--suite all`, one process) under `node` against
 * `url`; maps each scenario to whether it passed.
 */
export const runSuite = async (node: string, url: string): Promise<Map<string, boolean>> => {
  const { stdout } = await run(node, [CONFORMANCE, 'server', '--url', url, '--suite', 'all'], {
    cwd: REPO_ROOT,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; message: string }) => {
    // The suite exits 1 when any scenario fails; its summary is still on stdout.
    if (error.stdout === undefined) throw error;
    return { stdout: error.stdout };
  });
  const outcomes = new Map<string, boolean>();
  for (const [, scenario, passed, failed] of stdout.matchAll(
    /^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed$/gm,
  )) {
    outcomes.set(scenario as string, Number(failed) === 0 && Number(passed) > 0);
  }
  return outcomes;
};
