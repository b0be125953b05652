import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedGatewayConfig } from './config/index.js';
import { loadGatewayConfig } from './config/index.js';

/** The repository root: the working directory of fixture servers, where tsx resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const modules = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');

/** A fresh temporary directory, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'hintgate-gateway-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A tool definition as the tools-file fixture lists it. */
export interface FixtureTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
  readonly title?: string;
}

/** A tools-file fixture server: its configuration entry and a way to change its tools. */
export interface ToolsFileServer {
  /** The server's entry for `servers` in a configuration. */
  readonly entry: Record<string, unknown>;
  /** Replaces the tool list the server reports from its next `tools/list`. */
  setTools(tools: readonly FixtureTool[]): Promise<void>;
}

const withSchema = (tools: readonly FixtureTool[]) =>
  tools.map((tool) => ({ inputSchema: { type: 'object' }, ...tool }));

/** Writes the tool list of a tools-file fixture server named `name` into `dir`. */
export async function toolsFileServer(
  dir: string,
  name: string,
  tools: readonly FixtureTool[],
  extra: Record<string, unknown> = {},
): Promise<ToolsFileServer> {
  const file = join(dir, `${name}.tools.json`);
  const setTools = (next: readonly FixtureTool[]) =>
    writeFile(file, JSON.stringify(withSchema(next)));
  await setTools(tools);
  return {
    entry: {
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/tools-file-server.ts', import.meta.url)),
      ],
      env: { FIXTURE_TOOLS_FILE: file, FIXTURE_NAME: name },
      cwd: REPO_ROOT,
      ...extra,
    },
    setTools,
  };
}

/** The configuration entry of `@modelcontextprotocol/server-everything` over stdio. */
export const everythingServer = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [join(modules, 'server-everything', 'dist', 'index.js'), 'stdio'],
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

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
