import { describe, expect, it } from 'vitest';
import { exposedNames, TOOL_NAME_SEPARATOR } from './exposed-names.js';

const flat = (result: ReturnType<typeof exposedNames>) =>
  Object.fromEntries(
    [...result.names].map(([server, names]) => [server, Object.fromEntries(names)]),
  );

describe('exposedNames', () => {
  it('keeps unique names and prefixes every tool of a shared name with its server', () => {
    const result = exposedNames([
      { server: 'github', tools: ['search', 'create_issue'] },
      { server: 'gitlab', tools: ['search', 'merge'] },
    ]);
    expect(TOOL_NAME_SEPARATOR).toBe('__');
    expect(flat(result)).toEqual({
      github: { search: 'github__search', create_issue: 'create_issue' },
      gitlab: { search: 'gitlab__search', merge: 'merge' },
    });
    expect(result.problems).toEqual([]);
  });

  it('prefixes a tool whose own name equals another prefixed name, until all differ', () => {
    const result = exposedNames([
      { server: 'a', tools: ['x'] },
      { server: 'b', tools: ['x'] },
      { server: 'c', tools: ['a__x'] },
    ]);
    expect(flat(result)).toEqual({ a: { x: 'a__x' }, b: { x: 'b__x' }, c: { a__x: 'c__a__x' } });
  });

  it('reports, never hides silently, tools that still clash once prefixed or grow too long', () => {
    const result = exposedNames([
      { server: 'a__b', tools: ['x'] },
      { server: 'a', tools: ['b__x'] },
      { server: 'c', tools: ['b__x', 'x'] },
      { server: 'long', tools: ['t'.repeat(126)] },
      { server: 'other', tools: ['t'.repeat(126)] },
    ]);
    expect(flat(result)).toMatchObject({
      a__b: { x: 'a__b__x' },
      c: { b__x: 'c__b__x', x: 'c__x' },
    });
    expect(result.problems.map((p) => `${p.server}/${p.tool.slice(0, 4)}`)).toEqual([
      'a/b__x',
      'long/tttt',
      'other/tttt',
    ]);
    expect(result.problems[0]?.message).toContain('Rename one of the servers');
    expect(result.problems[1]?.message).toContain('longer than the 128 characters');
  });

  it("gives the same names whatever the order of a server's tools", () => {
    const one = exposedNames([
      { server: 'a', tools: ['x', 'y'] },
      { server: 'b', tools: ['y'] },
    ]);
    const two = exposedNames([
      { server: 'a', tools: ['y', 'x'] },
      { server: 'b', tools: ['y'] },
    ]);
    expect(flat(one)).toEqual(flat(two));
  });
});
