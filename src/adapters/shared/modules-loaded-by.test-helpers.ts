import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The URLs of every module a fresh Node process resolves to import each of `entries`
 * (source files, relative to the repository root), one list per entry. The processes have
 * exited and the temporary files are gone when it resolves.
 */
export async function modulesLoadedBy(...entries: string[]): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'hintgate-entry-'));
  try {
    return await Promise.all(entries.map((entry) => loadedBy(dir, entry)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const loadedBy = async (dir: string, entry: string): Promise<string[]> => {
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
