import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './serve-process.test-helpers.js';

const run = promisify(execFile);

/** The official MCP conformance suite's command (@modelcontextprotocol/conformance). */
export const CONFORMANCE = join(REPO_ROOT, 'node_modules', '.bin', 'conformance');

/** `npx` arguments that run what follows under Node 22, which the suite needs. */
export const NODE_22 = ['-y', 'node@22'];

/** Why Node 22 cannot be had through npx, or undefined when it can. */
export const node22Problem = async (): Promise<string | undefined> => {
  try {
    const { stdout } = await run('npx', [...NODE_22, '--version'], {
      cwd: REPO_ROOT,
      timeout: 180_000,
    });
    return /^v2[2-9]\./.test(stdout.trim()) ? undefined : `npx node@22 printed ${stdout.trim()}`;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
};
