import { describe, expect, it } from 'vitest';
import { modulesLoadedBy } from '../shared/modules-loaded-by.test-helpers.js';

const langChainModules = (urls: readonly string[]) =>
  urls.filter((url) => /\/node_modules\/(@langchain\/|langchain\/|langsmith\/)/.test(url));

describe('LangChain stays out of the main entry', () => {
  it('importing hintgate loads no LangChain package; importing hintgate/langchain does', async () => {
    const [main = [], adapter = []] = await modulesLoadedBy(
      'src/index.ts',
      'src/adapters/langchain/index.ts',
    );
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
