import { beforeEach, describe, expect, it, vi } from 'vitest';
import { READ_ONLY } from '../tool/presets.js';
import { CATALOG } from './catalog.test-helpers.js';
import type { PromptTool } from './prompt-tool.js';
import { selectTools } from './select-tools.js';

const built = vi.hoisted(() => ({ count: 0 }));

vi.mock('minisearch', async (importOriginal) => {
  const original = await importOriginal<typeof import('minisearch')>();
  class CountingMiniSearch<T> extends original.default<T> {
    constructor(...args: ConstructorParameters<typeof original.default<T>>) {
      super(...args);
      built.count += 1;
    }
  }
  return { ...original, default: CountingMiniSearch };
});

describe('selectTools index cache', () => {
  beforeEach(() => {
    built.count = 0;
  });

  it('builds the index once per catalog array', () => {
    const tools = [...CATALOG];
    for (const query of ['delete a customer', 'bank balance', 'invoice', 'web']) {
      selectTools(query, { tools, maxTools: 3 });
    }
    expect(built.count).toBe(1);
    selectTools('invoice', { tools: [...CATALOG], maxTools: 3 });
    expect(built.count).toBe(2);
  });

  it('indexes an array again when its elements changed in place', () => {
    const tools: PromptTool[] = [{ name: 'alpha', description: 'First.', annotations: READ_ONLY }];
    expect(selectTools('payroll', { tools, maxTools: 2 })).toEqual([]);
    tools.push({ name: 'payroll_run', description: 'Run payroll.', annotations: READ_ONLY });
    expect(selectTools('payroll', { tools, maxTools: 2 }).map((t) => t.name)).toEqual([
      'payroll_run',
    ]);
    expect(built.count).toBe(2);
  });
});

describe('selectTools on a catalog it indexed', () => {
  it('ranks the same when query words were seen before, in any order and repeated', () => {
    const tools = [...CATALOG];
    const fresh = (query: string) =>
      selectTools(query, { tools: [...CATALOG], maxTools: 8 }).map((tool) => tool.name);
    const queries = ['refund invoice', 'invoice refund', 'list invoices invoices', 'customer'];
    const cold = queries.map(fresh);
    for (let round = 0; round < 2; round += 1) {
      expect(
        queries.map((query) => selectTools(query, { tools, maxTools: 8 }).map((tool) => tool.name)),
      ).toEqual(cold);
    }
  });
});
