import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const include = ['src/**/*.test.ts', 'examples/**/*.test.ts'];

/**
 * Test files that change module or process state for the rest of their worker: module mocks
 * (`vi.mock`, `vi.doMock`), stubbed globals and environment variables. They run in the
 * `isolated` project, each in a fresh module graph; every other file runs in `shared`, where
 * a worker reuses one module graph across files (`isolate: false`), which saves loading the
 * source again for every file. The split is by this rule, so a new file lands on the right
 * side without being listed.
 */
const NEEDS_ISOLATION =
  /\bvi\.(?:mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)\s*\(/;

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.ts')) {
      out.push(join(entry.parentPath, entry.name));
    }
  }
  return out;
}

const root = fileURLToPath(new URL('.', import.meta.url));
const isolatedFiles = ['src', 'examples']
  .flatMap((dir) => testFiles(join(root, dir)))
  .filter((file) => NEEDS_ISOLATION.test(readFileSync(file, 'utf8')))
  .map((file) => file.slice(root.length).replaceAll('\\', '/'));

export default defineConfig({
  resolve: {
    alias: {
      // Subpaths before the package itself, which would otherwise match them as a prefix.
      'hintgate/openai-agents': fileURLToPath(
        new URL('./src/adapters/openai-agents/index.ts', import.meta.url),
      ),
      'hintgate/ai-sdk': fileURLToPath(new URL('./src/adapters/ai-sdk/index.ts', import.meta.url)),
      'hintgate/langchain': fileURLToPath(
        new URL('./src/adapters/langchain/index.ts', import.meta.url),
      ),
      'hintgate/gateway': fileURLToPath(new URL('./src/gateway.ts', import.meta.url)),
      'hintgate/testing': fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      'hintgate/node': fileURLToPath(new URL('./src/node.ts', import.meta.url)),
      hintgate: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    globalSetup: ['./vitest.global-setup.ts', './vitest.test-build.ts'],
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 20_000,
    // Most test time is spent waiting on child processes, servers and sockets, not on CPU:
    // Vitest's default of one worker per core but one (a single worker on 2 cores) leaves
    // the machine idle meanwhile. More workers than cores made slow starts time out on a
    // loaded 2-core machine. `--maxWorkers` overrides it.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: isolatedFiles, isolate: true },
      },
      {
        extends: true,
        test: { name: 'shared', include, exclude: isolatedFiles, isolate: false },
      },
    ],
  },
});
