import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-entry-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The URLs of every module a fresh Node process loads to import `entry` (a source file). */
const modulesLoadedBy = async (entry: string): Promise<string[]> => {
  const name = entry.replaceAll('/', '_');
  const log = join(dir, `${name}.log`);
  const hooks = join(dir, `${name}.hooks.mjs`);
  const register = join(dir, `${name}.register.mjs`);
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  await writeFile(log, '');
  const target = pathToFileURL(join(root, entry)).href;
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      pathToFileURL(register).href,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(target)});`,
    ],
    { cwd: root },
  );
  return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
};

const agentsModules = (urls: readonly string[]) =>
  urls.filter((url) => url.includes('/node_modules/@openai/'));

describe('the OpenAI Agents SDK stays out of the main entry', () => {
  it('importing hintgate does not load @openai/agents; importing hintgate/openai-agents does', async () => {
    const [main, adapter] = await Promise.all([
      modulesLoadedBy('src/index.ts'),
      modulesLoadedBy('src/adapters/openai-agents/index.ts'),
    ]);
    expect(main.some((url) => url.endsWith('/src/runtime/index.ts'))).toBe(true);
    expect(agentsModules(main)).toEqual([]);
    // The check sees the SDK when it is loaded.
    expect(agentsModules(adapter).length).toBeGreaterThan(0);
  });
});
