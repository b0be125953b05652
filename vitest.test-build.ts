import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin, stop } from 'esbuild';

/**
 * Builds, once per test run, the programs the tests start as child processes: the
 * `hintgate` CLI (`src/cli/main.ts`), the fixture servers (`src/**\/fixtures/*.ts`) and the
 * `hintgate/testing` fixture server process. A child then runs plain JavaScript instead of
 * compiling the sources through tsx on every start (about 0.6 s of CPU per CLI start
 * against 1.5-1.8 s).
 *
 * The build is made from the current sources at the start of every run (and again before
 * each rerun in watch mode) into its own folder under `node_modules/.cache`, never into
 * `dist/`, so it cannot be stale against the sources; the folder is removed after the run.
 * The folder goes to the tests in `HINTGATE_TEST_BUILD`: `nodeScriptArgs` of `src/testing`
 * maps a source file to its built counterpart there, and falls back to the source through
 * tsx when it is unset. Each module keeps its own `import.meta.url` (the URL of its source
 * file), so paths resolved against it (`../../schema/...`, `./assets/...`, `package.json`)
 * are the same as from the sources; packages stay external and load from `node_modules` as
 * in the published build.
 */
const ENV = 'HINTGATE_TEST_BUILD';

const root = fileURLToPath(new URL('.', import.meta.url));
const src = join(root, 'src');

/** One build per run, shared by the root config and each project (setup runs for each). */
const BUILT = Symbol.for('hintgate.testBuild');

/** The entry points, by their path under `src/` without the extension. */
function entryPoints(): Record<string, string> {
  const entries: Record<string, string> = {
    'cli/main': join(src, 'cli', 'main.ts'),
    'testing/fixture-server-process': join(src, 'testing', 'fixture-server-process.ts'),
  };
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    const path = file.replaceAll('\\', '/');
    if (/(^|\/)fixtures\/[^/]+\.ts$/.test(path) && !path.endsWith('.test-helpers.ts')) {
      entries[path.slice(0, -'.ts'.length)] = join(src, file);
    }
  }
  return entries;
}

/** Replaces `import.meta.url` in each source module with the URL of that source file. */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

async function bundle(outdir: string): Promise<string> {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entryPoints(),
    outdir,
    bundle: true,
    // The CLI loads each command's module on first use; chunks keep that lazy, and the
    // programs share one copy of the modules they have in common.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
    plugins: [sourceUrls],
  });
  // esbuild keeps a service process for the next build; the run would report it as left over.
  await stop();
  return outdir;
}

interface SetupProject {
  onTestsRerun?: (cb: () => Promise<void>) => void;
}

export default async function setup(project?: SetupProject): Promise<() => Promise<void>> {
  const shared = globalThis as { [BUILT]?: Promise<string> };
  const outdir = join(root, 'node_modules', '.cache', 'hintgate-test-build', randomUUID());
  const first = shared[BUILT] === undefined;
  shared[BUILT] ??= bundle(outdir);
  process.env[ENV] = await shared[BUILT];
  if (!first) return async () => {};
  project?.onTestsRerun?.(async () => {
    await bundle(outdir);
  });
  return async () => {
    await rm(outdir, { recursive: true, force: true });
  };
}
