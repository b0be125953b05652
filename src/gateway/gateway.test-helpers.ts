import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createFixtureServer,
  createTempWorkspace,
  type FixtureServer,
  type FixtureTool,
  nodeScriptArgs,
} from '../testing/index.js';
import type { LoadedGatewayConfig } from './config/index.js';
import { loadGatewayConfig } from './config/index.js';

/** The repository root: the working directory of fixture servers, where tsx resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const modules = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');

/** A fresh temporary directory, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const made = await createTempWorkspace({ prefix: 'hintgate-gateway-' });
  return { dir: made.workspace, remove: made.remove };
}

export type { FixtureTool };

/** A tools-file fixture server named `name` with its list file in `dir` (see `hintgate/testing`). */
export const toolsFileServer = (
  dir: string,
  name: string,
  tools: readonly FixtureTool[],
  extra: Record<string, unknown> = {},
): Promise<FixtureServer> => createFixtureServer({ dir, name, tools, extra });

const EVERYTHING_STDIO = fileURLToPath(new URL('./fixtures/everything-stdio.ts', import.meta.url));

/**
 * The configuration entry of `@modelcontextprotocol/server-everything` over stdio, started
 * so that it exits once its stdin ends (see `fixtures/everything-stdio.ts`).
 */
export const everythingServer = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: nodeScriptArgs(EVERYTHING_STDIO),
  ...extra,
});

/** The configuration entry of `@modelcontextprotocol/server-filesystem` over `root`. */
export const filesystemServer = (root: string, extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [join(modules, 'server-filesystem', 'dist', 'index.js'), root],
  ...extra,
});

/** Writes `hintgate.yaml` (as JSON, which YAML reads too) into `dir` and loads it. */
export async function writeConfig(
  dir: string,
  config: Record<string, unknown>,
): Promise<LoadedGatewayConfig> {
  const file = join(dir, 'hintgate.yaml');
  await writeFile(file, JSON.stringify(config, null, 2));
  return loadGatewayConfig(file);
}

/** The audit events in a JSONL audit log. */
export async function auditEvents(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The text of a result's content blocks. */
export const resultText = (result: { content: readonly unknown[] }): string =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');

/** Polls `check` until it holds (see `waitFor` of `hintgate/testing`). */
export { waitFor as until } from '../testing/index.js';
