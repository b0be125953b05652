import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { compileResources, type ResourcesOption } from './resource-template.js';

const WHERE = 'tool "t"';
const known = (...names: string[]): ReadonlySet<string> => new Set(names);

const thrownBy = (fn: () => unknown): HintgateError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof HintgateError) return error;
    throw error;
  }
  throw new Error('expected a HintgateError, nothing was thrown');
};

describe('compileResources with templates', () => {
  it('expands file:{path} to one key', () => {
    const resources = compileResources(['file:{path}'], known('path'), WHERE);
    expect(resources({ path: 'src/a.ts' })).toStrictEqual(['file:src/a.ts']);
  });

  it('expands an array argument to one key per element', () => {
    const resources = compileResources(['file:{paths}'], known('paths'), WHERE);
    expect(resources({ paths: ['a.ts', 'b.ts'] })).toStrictEqual(['file:a.ts', 'file:b.ts']);
  });

  it('expands two array arguments to every combination', () => {
    const resources = compileResources(['db:{table}/{id}'], known('table', 'id'), WHERE);
    expect(resources({ table: ['u', 'o'], id: [1, 2] })).toStrictEqual([
      'db:u/1',
      'db:u/2',
      'db:o/1',
      'db:o/2',
    ]);
  });

  it('writes numbers and booleans as text', () => {
    const resources = compileResources(['row:{id}:{live}'], known('id', 'live'), WHERE);
    expect(resources({ id: 7, live: false })).toStrictEqual(['row:7:false']);
  });

  it('cuts the key before the placeholder of an absent argument (locks the whole subtree)', () => {
    const resources = compileResources(['file:{path}'], known('path'), WHERE);
    expect(resources({})).toStrictEqual(['file:']);
    const nested = compileResources(['repo:{owner}/{name}'], known('owner', 'name'), WHERE);
    expect(nested({ owner: 'acme' })).toStrictEqual(['repo:acme/']);
  });

  it('cuts the key before a placeholder whose argument is not a scalar', () => {
    const resources = compileResources(['file:{path}'], known('path'), WHERE);
    expect(resources({ path: { nested: 'a' } })).toStrictEqual(['file:']);
    expect(resources({ path: ['a', { nested: 'b' }] })).toStrictEqual(['file:']);
    expect(resources({ path: null })).toStrictEqual(['file:']);
  });

  it('falls back to the prefix when an expansion would exceed 256 keys', () => {
    const resources = compileResources(['k:{a}/{b}'], known('a', 'b'), WHERE);
    const many = Array.from({ length: 17 }, (_, i) => i);
    expect(resources({ a: many, b: many })).toHaveLength(17);
    expect(resources({ a: many, b: many })[0]).toBe('k:0/');
  });

  it('gives no key for an empty array argument', () => {
    const resources = compileResources(['file:{paths}'], known('paths'), WHERE);
    expect(resources({ paths: [] })).toStrictEqual([]);
  });

  it('dedupes the keys of several templates', () => {
    const resources = compileResources(['file:{from}', 'file:{to}'], known('from', 'to'), WHERE);
    expect(resources({ from: 'a', to: 'a' })).toStrictEqual(['file:a']);
    expect(resources({ from: 'a', to: 'b' })).toStrictEqual(['file:a', 'file:b']);
  });

  it('dedupes the keys one template gives for an array argument with repeats', () => {
    const resources = compileResources(['file:{paths}'], known('paths'), WHERE);
    expect(resources({ paths: ['a', 'b', 'a', 'b'] })).toStrictEqual(['file:a', 'file:b']);
    const nested = compileResources(['k:{a}/{b}'], known('a', 'b'), WHERE);
    expect(nested({ a: 'x', b: ['1', '1'] })).toStrictEqual(['k:x/1']);
  });

  it('expands a scalar placeholder then an array one after it', () => {
    const resources = compileResources(['db:{table}/{ids}!'], known('table', 'ids'), WHERE);
    expect(resources({ table: 'u', ids: [1, 2] })).toStrictEqual(['db:u/1!', 'db:u/2!']);
    expect(resources({ table: 'u', ids: [1, {}] })).toStrictEqual(['db:u/']);
  });

  it('keeps a template without placeholders as a literal key', () => {
    const resources = compileResources(['db:settings'], known(), WHERE);
    expect(resources({})).toStrictEqual(['db:settings']);
  });
});

describe('compileResources with a function', () => {
  it('wraps a returned string in a list', () => {
    const resources = compileResources(
      (args: { path: string }) => `file:${args.path}`,
      known(),
      WHERE,
    );
    expect(resources({ path: 'a' })).toStrictEqual(['file:a']);
  });

  it('copies a returned list', () => {
    const keys = ['file:a', 'file:b'];
    const resources = compileResources(() => keys, known(), WHERE);
    const result = resources({});
    expect(result).toStrictEqual(['file:a', 'file:b']);
    result.push('file:c');
    expect(keys).toStrictEqual(['file:a', 'file:b']);
  });

  it('turns undefined into no keys', () => {
    const resources = compileResources(() => undefined, known(), WHERE);
    expect(resources({})).toStrictEqual([]);
  });
});

describe('compileResources errors', () => {
  it('names the unknown argument and lists the known ones', () => {
    const error = thrownBy(() => compileResources(['file:{pth}'], known('path', 'mode'), WHERE));
    expect(error.code).toBe('invalid_resource_template');
    expect(error.message).toContain('tool "t"');
    expect(error.message).toContain('names argument "pth"');
    expect(error.message).toContain('(its properties: mode, path)');
  });

  it('says "none" when the schema declares no properties', () => {
    const error = thrownBy(() => compileResources(['file:{path}'], known(), WHERE));
    expect(error.message).toContain('(its properties: none)');
  });

  it('rejects unbalanced braces', () => {
    for (const template of ['file:{path', 'file:path}', 'file:{{path}}', 'a:{path}}']) {
      const error = thrownBy(() => compileResources([template], known('path'), WHERE));
      expect(error.code, template).toBe('invalid_resource_template');
      expect(error.message, template).toContain('unbalanced brace');
    }
  });

  it('rejects a placeholder that is not an argument name', () => {
    for (const template of ['file:{}', 'file:{a b}', 'file:{0x}']) {
      const error = thrownBy(() => compileResources([template], known('a b', '0x'), WHERE));
      expect(error.code, template).toBe('invalid_resource_template');
      expect(error.message, template).toContain('is not an argument name');
    }
  });

  it('rejects a list with empty or non-string templates, or a value that is no list', () => {
    for (const option of [[''], [42], 'file:{path}', { path: 'x' }]) {
      const error = thrownBy(() =>
        compileResources(option as unknown as ResourcesOption, known('path'), WHERE),
      );
      expect(error.code).toBe('invalid_resource_template');
      expect(error.message).toContain('non-empty template strings');
    }
  });
});
