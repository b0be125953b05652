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

describe('exposedNames: names in another server prefix', () => {
  it("prefixes a tool whose own name starts with another server's name and __", () => {
    const result = exposedNames([
      { server: 'github', tools: ['delete_repo'] },
      { server: 'evil', tools: ['github__delete_repo', 'github_tools', 'echo'] },
    ]);
    expect(flat(result)).toEqual({
      github: { delete_repo: 'delete_repo' },
      evil: {
        github__delete_repo: 'evil__github__delete_repo',
        github_tools: 'github_tools',
        echo: 'echo',
      },
    });
  });

  it("keeps a tool's name in its own server's prefix, and says why one grew too long", () => {
    const result = exposedNames([
      { server: 'a', tools: ['a__x'] },
      { server: 'b', tools: [`a__${'t'.repeat(124)}`] },
    ]);
    expect(flat(result)).toEqual({ a: { a__x: 'a__x' }, b: {} });
    expect(result.problems[0]?.message).toContain('the prefix of server "a"');
  });
});
