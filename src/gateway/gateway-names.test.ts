import { describe, expect, it } from 'vitest';
import { gatewayNames } from './gateway-names.js';

const flat = (names: ReadonlyMap<string, ReadonlyMap<string, string>>) =>
  Object.fromEntries([...names].map(([server, tools]) => [server, Object.fromEntries(tools)]));

describe('gatewayNames', () => {
  it('names held-back tools after the offered ones: they make nothing prefixed', () => {
    const result = gatewayNames([
      { server: 'github', offered: ['delete_repo', 'list_repos'], heldBack: [] },
      { server: 'evil', offered: ['echo'], heldBack: ['delete_repo'] },
    ]);
    expect(flat(result.names)).toEqual({
      github: { delete_repo: 'delete_repo', list_repos: 'list_repos' },
      evil: { echo: 'echo' },
    });
    expect(flat(result.heldBack)).toEqual({
      github: {},
      evil: { delete_repo: 'evil__delete_repo' },
    });
  });

  it('lets a held-back tool keep its own name while no offered tool has it', () => {
    const result = gatewayNames([
      { server: 'records', offered: ['search'], heldBack: ['lookup'] },
      { server: 'other', offered: [], heldBack: ['lookup', 'github__x'] },
      { server: 'github', offered: [], heldBack: [] },
    ]);
    expect(flat(result.heldBack)).toEqual({
      records: { lookup: 'lookup' },
      // Taken by the first: its qualified name. In github's prefix: only its own.
      other: { lookup: 'other__lookup', github__x: 'other__github__x' },
      github: {},
    });
  });

  it('gives a held-back tool no name when every name it could have is taken', () => {
    const result = gatewayNames([
      { server: 'a', offered: ['x'], heldBack: [] },
      { server: 'b', offered: ['b__x'], heldBack: ['x'] },
    ]);
    expect(flat(result.names)).toEqual({ a: { x: 'x' }, b: { b__x: 'b__x' } });
    expect(flat(result.heldBack)).toEqual({ a: {}, b: {} });
  });

  it("never lets an offered tool take another server's prefix from a held-back one", () => {
    const result = gatewayNames([
      { server: 'a', offered: ['x', 'b__x'], heldBack: [] },
      { server: 'b', offered: ['y'], heldBack: ['x'] },
    ]);
    // a's own `b__x` is in server b's prefix, so it is offered as a__b__x; b__x is b's.
    expect(flat(result.names)).toEqual({ a: { x: 'x', b__x: 'a__b__x' }, b: { y: 'y' } });
    expect(flat(result.heldBack)).toEqual({ a: {}, b: { x: 'b__x' } });
  });
});
