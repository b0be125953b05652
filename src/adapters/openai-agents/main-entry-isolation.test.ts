import { describe, expect, it } from 'vitest';
import { modulesLoadedBy } from '../shared/modules-loaded-by.test-helpers.js';

const agentsModules = (urls: readonly string[]) =>
  urls.filter((url) => url.includes('/node_modules/@openai/'));

describe('the OpenAI Agents SDK stays out of the main entry', () => {
  it('importing hintgate does not load @openai/agents; importing hintgate/openai-agents does', async () => {
    const [main = [], adapter = []] = await modulesLoadedBy(
      'src/index.ts',
      'src/adapters/openai-agents/index.ts',
    );
    expect(main.some((url) => url.endsWith('/src/runtime/index.ts'))).toBe(true);
    expect(agentsModules(main)).toEqual([]);
    // The check sees the SDK when it is loaded.
    expect(agentsModules(adapter).length).toBeGreaterThan(0);
  });
});
