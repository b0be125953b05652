import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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
 * are the same as from the sources. The package's dependencies are bundled with them (see
 * `BUNDLED`).
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

/**
 * The packages bundled into the programs: the package's own dependencies and zod (a peer
 * the fixture servers define their tools with), with what they import. Each child process
 * then loads a few chunks instead of several hundred package modules through the ESM loader:
 * a fixture server's start takes about 0.45 s of CPU instead of 0.65, a `serve` start 0.75
 * instead of 1.2, and the suite starts a few hundred of them. Left external, loaded from
 * `node_modules` as the published build loads them:
 * - optional and peer dependencies other than zod, which the package loads only where the
 *   user installed them, and says so where not;
 * - packages that find files beside their own modules (the shell grammar's WebAssembly);
 * - CommonJS packages whose exports a bundle presents otherwise than Node's loader does
 *   (`await import('ioredis')` finds no `Redis` in a bundle);
 * - everything else (dev tools, native modules).
 */
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const LEFT_EXTERNAL = new Set(['web-tree-sitter', 'tree-sitter-bash', 'ioredis']);
const BUNDLED = new Set(
  [...Object.keys(manifest.dependencies), 'zod'].filter((name) => !LEFT_EXTERNAL.has(name)),
);

/** `@scope/name` or `name` of a bare import specifier; undefined for a path or `node:`. */
function packageOf(specifier: string): string | undefined {
  if (/^(?:[./]|node:|[a-z]+:\/\/)/.test(specifier) || !/^[@a-z0-9]/i.test(specifier)) return;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const bundledPackages: Plugin = {
  name: 'bundled-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageOf(args.path);
      if (name === undefined) return;
      if (LEFT_EXTERNAL.has(name)) return { path: args.path, external: true };
      // What a bundled package imports is bundled with it: it may sit in that package's
      // own node_modules, which the built program could not resolve.
      if (/[\\/]node_modules[\\/]/.test(args.importer) || BUNDLED.has(name)) return;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bundled CommonJS modules `require` Node's built-ins; an ES module has no `require` of its
 * own, so each chunk gets one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __hintgateTestRequire } from 'node:module';\nconst require = __hintgateTestRequire(import.meta.url);";

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
    outExtension: { '.js': '.mjs' },
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
    plugins: [bundledPackages, sourceUrls],
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
