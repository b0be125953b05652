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
