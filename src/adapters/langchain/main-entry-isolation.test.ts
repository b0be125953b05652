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
  dir = await mkdtemp(join(tmpdir(), 'hintgate-langchain-entry-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The URLs of every module a fresh Node process resolves to import `entry` (a source file). */
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
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      pathToFileURL(register).href,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(join(root, entry)).href)});`,
    ],
    { cwd: root },
  );
  return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
};

const langChainModules = (urls: readonly string[]) =>
  urls.filter((url) => /\/node_modules\/(@langchain\/|langchain\/|langsmith\/)/.test(url));

describe('LangChain stays out of the main entry', () => {
  it('importing hintgate loads no LangChain package; importing hintgate/langchain does', async () => {
    const [main, adapter] = await Promise.all([
      modulesLoadedBy('src/index.ts'),
      modulesLoadedBy('src/adapters/langchain/index.ts'),
    ]);
    expect(main.some((url) => url.endsWith('/src/runtime/index.ts'))).toBe(true);
    expect(main.some((url) => url.includes('/src/adapters/'))).toBe(false);
    expect(langChainModules(main)).toEqual([]);
    // The check sees the framework when it is loaded.
    const loaded = langChainModules(adapter).join('\n');
    expect(loaded).toContain('/node_modules/@langchain/core/');
    expect(loaded).toContain('/node_modules/@langchain/langgraph/');
    expect(loaded).toContain('/node_modules/langchain/');
  });
});
