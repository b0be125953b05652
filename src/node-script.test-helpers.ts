import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');

/** tsx's loader by file URL, so that `--import` resolves from any working directory. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/**
 * The Node arguments that run the TypeScript program `file` (a path under `src/`, such as
 * `src/cli/main.ts` or a fixture server, by path or file URL) as a child process: its counterpart in the build the
 * test run made from the current sources (`HINTGATE_TEST_BUILD`, see `vitest.test-build.ts`)
 * when it has one, else the source through tsx. Spawn `process.execPath` with them; they
 * work from any working directory.
 */
export const nodeScriptArgs = (source: string | URL): string[] => {
  const file = typeof source === 'string' ? source : fileURLToPath(source);
  const build = process.env.HINTGATE_TEST_BUILD;
  const path = relative(SRC, file);
  if (build !== undefined && build !== '' && !path.startsWith('..') && path.endsWith('.ts')) {
    const built = join(build, `${path.slice(0, -'.ts'.length)}.mjs`);
    if (existsSync(built)) return [built];
  }
  return ['--import', TSX_LOADER, file];
};
