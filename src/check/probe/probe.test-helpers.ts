import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeScriptArgs } from '../../testing/index.js';
import type { ProbeTarget } from './probe-types.js';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const modules = join(REPO_ROOT, 'node_modules');

/** A fixture server of `src/check/fixtures/` as a stdio target, with extra environment. */
export function fixtureTarget(name: string, env: Record<string, string> = {}): ProbeTarget {
  return {
    command: process.execPath,
    args: nodeScriptArgs(join(REPO_ROOT, 'src', 'check', 'fixtures', `${name}.ts`)),
    // tsx would otherwise keep a transform cache in the sandbox's temp directory.
    env: { TSX_DISABLE_CACHE: '1', ...env },
  };
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export const everythingTarget = (): ProbeTarget => ({
  command: process.execPath,
  args: [join(modules, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'],
});

/** `@modelcontextprotocol/server-filesystem` with `root` as its allowed directory. */
export const filesystemTarget = (root: string): ProbeTarget => ({
  command: process.execPath,
  args: [join(modules, '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), root],
});

/** `@modelcontextprotocol/server-sequential-thinking` over stdio. */
export const sequentialThinkingTarget = (): ProbeTarget => ({
  command: process.execPath,
  args: [join(modules, '@modelcontextprotocol', 'server-sequential-thinking', 'dist', 'index.js')],
});

/** `@modelcontextprotocol/server-memory` over stdio, run from its install folder. */
export const memoryTarget = (): ProbeTarget => ({
  command: process.execPath,
  args: [join(modules, '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')],
});

/** The install folder of a package of `node_modules/@modelcontextprotocol/`. */
export const modelContextProtocolPackage = (name: string): string =>
  join(modules, '@modelcontextprotocol', name);
