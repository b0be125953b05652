import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
      'hintgate/node': fileURLToPath(new URL('./src/node.ts', import.meta.url)),
      hintgate: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 20_000,
  },
});
