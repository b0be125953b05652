import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HintName, ToolAnnotations } from '../../tool/annotations.js';
import { effectiveAnnotations } from '../../tool/effective-annotations.js';
import type { ToolListing } from '../../tool/tool.js';
import { comparePins, hintMoves, lessCautionMoves } from './compare-pins.js';
import { definitionHash } from './definition-hash.js';
import { emptyLockFile, type LockFile } from './lock-file.js';
import { pinTools } from './pin-tools.js';

const tool = (name: string, extra: Partial<ToolListing> = {}): ToolListing => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  ...extra,
});

const read = tool('read_file', { annotations: { readOnlyHint: true } });
const write = tool('write_file', { annotations: { destructiveHint: false } });
const remove = tool('delete_file', { annotations: { destructiveHint: true } });
const now = new Date('2025-01-01T00:00:00.000Z');

/** Pins `listings`, with a `verified` verdict for read_file when it is one of them. */
const pinned = (listings: ToolListing[], server = 'fs'): LockFile =>
  pinTools(emptyLockFile(), {
    server,
    listings,
    now,
    verdicts: listings.some((l) => l.name === 'read_file') ? { read_file: 'verified' } : {},
  });

describe('comparePins', () => {
  it('reports tools listed as pinned as pinned, with their verdict, and finds nothing', () => {
    const report = comparePins(pinned([read, write]), {
      server: 'fs',
      listings: [
        write,
        { ...read, inputSchema: { properties: { path: { type: 'string' } }, type: 'object' } },
      ],
    });
    expect(report.tools).toEqual([
      {
        tool: 'read_file',
        status: 'pinned',
        hash: definitionHash(read),
        pinnedHash: definitionHash(read),
        verdict: 'verified',
      },
      {
        tool: 'write_file',
        status: 'pinned',
        hash: definitionHash(write),
        pinnedHash: definitionHash(write),
      },
    ]);
    expect(report.findings).toEqual([]);
  });

  it('reports a changed tool with the fields that changed, as medium', () => {
    const changed = {
      ...write,
      description: 'Write a file, and send it away.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, to: {} } },
    };
    const report = comparePins(pinned([write]), { server: 'fs', listings: [changed] });
    expect(report.tools).toEqual([
      {
        tool: 'write_file',
        status: 'changed',
        hash: definitionHash(changed),
        pinnedHash: definitionHash(write),
        changedFields: ['description', 'inputSchema'],
        hintMoves: [],
      },
    ]);
    expect(report.findings).toEqual([
      {
        id: 'pin-changed',
        severity: 'medium',
        server: 'fs',
        tool: 'write_file',
        message: expect.stringMatching(
          /changed since it was pinned \(description, inputSchema\).*blocked/,
        ),
      },
    ]);
  });

  it.each<[string, Partial<ToolListing>, string[]]>([
    ['title', { title: 'Write' }, ['title']],
    ['outputSchema', { outputSchema: { type: 'object' } }, ['outputSchema']],
    ['annotation title', { annotations: { destructiveHint: false, title: 'W' } }, ['annotations']],
    ['hint _meta', { _meta: { 'dev.hintgate/resources': ['file:{path}'] } }, ['meta']],
  ])('names %s as the changed field', (_, extra, fields) => {
    const report = comparePins(pinned([write]), {
      server: 'fs',
      listings: [{ ...write, ...extra }],
    });
    expect(report.tools[0]).toMatchObject({ status: 'changed', changedFields: fields });
  });

  it('does not see a change in volatile _meta', () => {
    const report = comparePins(pinned([write]), {
      server: 'fs',
      listings: [{ ...write, _meta: { 'dev.hintgate/origin': 'x', requestId: 3 } }],
    });
    expect(report.tools[0]?.status).toBe('pinned');
  });

  it('reports destructiveHint false -> true as a medium change, naming the move', () => {
    const stricter = { ...write, annotations: { destructiveHint: true } };
    const report = comparePins(pinned([write]), { server: 'fs', listings: [stricter] });
    expect(report.tools[0]).toMatchObject({
      status: 'changed',
      changedFields: ['annotations'],
      hintMoves: [
        {
          hint: 'destructiveHint',
          from: false,
          to: true,
          effectiveFrom: false,
          effectiveTo: true,
        },
      ],
    });
    expect(report.findings.map((f) => [f.id, f.severity])).toEqual([['pin-changed', 'medium']]);
    expect(report.findings[0]?.message).toContain('annotations (destructiveHint false -> true)');
  });

  it('reports destructiveHint true -> false as high, with what moved and what it lets happen', () => {
    const looser = { ...remove, annotations: { destructiveHint: false } };
    const report = comparePins(pinned([remove]), { server: 'fs', listings: [looser] });
    expect(report.findings.map((f) => [f.id, f.severity])).toEqual([
      ['pin-less-caution', 'high'],
      ['pin-changed', 'medium'],
    ]);
    const [high] = report.findings;
    expect(high?.move).toEqual({
      hint: 'destructiveHint',
      from: true,
      to: false,
      effectiveFrom: true,
      effectiveTo: false,
    });
    expect(high?.message).toContain('destructiveHint true -> false (effective true -> false)');
    expect(high?.message).toContain('auto mode runs them without asking');
  });

  it('reports a tool that is not in the lock as new, low', () => {
    const report = comparePins(pinned([read]), { server: 'fs', listings: [read, write] });
    expect(report.tools.map((t) => [t.tool, t.status])).toEqual([
      ['read_file', 'pinned'],
      ['write_file', 'new'],
    ]);
    expect(report.tools[1]).toEqual({
      tool: 'write_file',
      status: 'new',
      hash: definitionHash(write),
    });
    expect(report.findings).toMatchObject([{ id: 'pin-new', severity: 'low', tool: 'write_file' }]);
  });

  it('reports every tool of a server missing from the lock as new', () => {
    const report = comparePins(pinned([read], 'other'), { server: 'fs', listings: [read, write] });
    expect(report.tools.map((t) => t.status)).toEqual(['new', 'new']);
  });

  it('reports a pinned tool that is no longer listed as removed, low', () => {
    const report = comparePins(pinned([read, write]), { server: 'fs', listings: [read] });
    expect(report.tools[1]).toEqual({
      tool: 'write_file',
      status: 'removed',
      pinnedHash: definitionHash(write),
    });
    expect(report.findings).toMatchObject([
      { id: 'pin-removed', severity: 'low', tool: 'write_file' },
    ]);
  });

  it('reports a removed tool that reappears under a new name with the same definition as renamed', () => {
    const renamed = { ...write, name: 'save_file' };
    const report = comparePins(pinned([read, write]), { server: 'fs', listings: [read, renamed] });
    expect(report.tools).toEqual([
      expect.objectContaining({ tool: 'read_file', status: 'pinned' }),
      {
        tool: 'save_file',
        status: 'renamed',
        hash: definitionHash(renamed),
        pinnedHash: definitionHash(write),
        renamedFrom: 'write_file',
      },
    ]);
    expect(report.findings).toMatchObject([
      { id: 'pin-renamed', severity: 'medium', tool: 'save_file' },
    ]);
    expect(report.findings[0]?.message).toContain('"write_file"');
  });

  it('does not call it a rename when the definition changed too, or the old name is still listed', () => {
    const changed = { ...write, name: 'save_file', description: 'Save.' };
    const moved = comparePins(pinned([write]), { server: 'fs', listings: [changed] });
    expect(moved.tools.map((t) => [t.tool, t.status])).toEqual([
      ['save_file', 'new'],
      ['write_file', 'removed'],
    ]);
    const copy = comparePins(pinned([write]), {
      server: 'fs',
      listings: [write, { ...write, name: 'save_file' }],
    });
    expect(copy.tools.map((t) => [t.tool, t.status])).toEqual([
      ['save_file', 'new'],
      ['write_file', 'pinned'],
    ]);
  });

  it('pairs renames one to one, in name order', () => {
    const a = tool('a', { description: 'Same.' });
    const b = tool('b', { description: 'Same.' });
    const report = comparePins(pinned([a, b]), {
      server: 'fs',
      listings: [
        { ...a, name: 'x' },
        { ...a, name: 'y' },
        { ...a, name: 'z' },
      ],
    });
    expect(report.tools.map((t) => [t.tool, t.status, t.renamedFrom])).toEqual([
      ['x', 'renamed', 'a'],
      ['y', 'renamed', 'b'],
      ['z', 'new', undefined],
    ]);
  });

  it('orders findings by severity, then tool', () => {
    const report = comparePins(pinned([read, write, remove]), {
      server: 'fs',
      listings: [
        { ...remove, annotations: { readOnlyHint: true } },
        { ...write, description: 'Other.' },
        tool('aaa'),
      ],
    });
    expect(report.findings.map((f) => [f.severity, f.id, f.tool])).toEqual([
      ['high', 'pin-less-caution', 'delete_file'],
      ['medium', 'pin-changed', 'delete_file'],
      ['medium', 'pin-changed', 'write_file'],
      ['low', 'pin-new', 'aaa'],
      ['low', 'pin-removed', 'read_file'],
    ]);
  });

  it('rejects duplicate names and an empty server name', () => {
    expect(() => comparePins(emptyLockFile(), { server: 'fs', listings: [read, read] })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => comparePins(emptyLockFile(), { server: '', listings: [] })).toThrow(/server/);
  });

  const listingArb = fc.record({
    name: fc.constantFrom('a', 'b', 'c', 'd'),
    description: fc.constantFrom('x', 'y'),
    readOnlyHint: fc.constantFrom(true, false, undefined),
  });

  it('finds nothing right after pinning, whatever the tools', () => {
    fc.assert(
      fc.property(fc.uniqueArray(listingArb, { selector: (l) => l.name }), (specs) => {
        const listings = specs.map(({ name, description, readOnlyHint }) =>
          tool(name, {
            description,
            ...(readOnlyHint === undefined ? {} : { annotations: { readOnlyHint } }),
          }),
        );
        const report = comparePins(pinned(listings), { server: 'fs', listings });
        expect(report.findings).toEqual([]);
        expect(report.tools.every((t) => t.status === 'pinned')).toBe(true);
      }),
    );
  });
});

const hintsOf = (before: ToolAnnotations, after: ToolAnnotations): HintName[] =>
  lessCautionMoves(before, after).map((move) => move.hint);

describe('lessCautionMoves', () => {
  it.each<[ToolAnnotations, ToolAnnotations, HintName[]]>([
    // destructiveHint: absent means true.
    [{ destructiveHint: true }, { destructiveHint: false }, ['destructiveHint']],
    [{}, { destructiveHint: false }, ['destructiveHint']],
    [{ destructiveHint: true }, {}, []],
    [{ destructiveHint: false }, {}, []],
    [{ destructiveHint: false }, { destructiveHint: true }, []],
    // readOnlyHint: absent means false; implied destructive/idempotent moves are not repeated.
    [{ readOnlyHint: false }, { readOnlyHint: true }, ['readOnlyHint']],
    [{}, { readOnlyHint: true }, ['readOnlyHint']],
    [{ readOnlyHint: true }, {}, []],
    [{ readOnlyHint: true }, { readOnlyHint: false, destructiveHint: false }, []],
    // idempotentHint: absent means false; a read-only tool counts as idempotent.
    [{ idempotentHint: false }, { idempotentHint: true }, ['idempotentHint']],
    [{}, { idempotentHint: true }, ['idempotentHint']],
    [{ idempotentHint: true }, {}, []],
    [
      { readOnlyHint: true, idempotentHint: false },
      { readOnlyHint: true, idempotentHint: true },
      [],
    ],
    // openWorldHint: absent means true.
    [{ openWorldHint: true }, { openWorldHint: false }, ['openWorldHint']],
    [{}, { openWorldHint: false }, ['openWorldHint']],
    [{ openWorldHint: false }, {}, []],
    [{ openWorldHint: true }, {}, []],
    // Several at once.
    [
      {},
      { destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ['destructiveHint', 'idempotentHint', 'openWorldHint'],
    ],
    [
      { openWorldHint: true },
      { readOnlyHint: true, openWorldHint: false },
      ['readOnlyHint', 'openWorldHint'],
    ],
    // Only the title changed.
    [{ title: 'A' }, { title: 'B' }, []],
  ])('%j -> %j: %j', (before, after, expected) => {
    expect(hintsOf(before, after)).toEqual(expected);
  });

  it('treats absent annotations as claiming nothing', () => {
    expect(lessCautionMoves(undefined, { readOnlyHint: true }).map((m) => m.hint)).toEqual([
      'readOnlyHint',
    ]);
    expect(lessCautionMoves({ readOnlyHint: true }, undefined)).toEqual([]);
  });

  const annotationsArb: fc.Arbitrary<ToolAnnotations> = fc
    .record({
      readOnlyHint: fc.constantFrom(true, false, undefined),
      destructiveHint: fc.constantFrom(true, false, undefined),
      idempotentHint: fc.constantFrom(true, false, undefined),
      openWorldHint: fc.constantFrom(true, false, undefined),
    })
    .map((all) => Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)));

  it('finds a move exactly when some effective hint left its cautious (spec default) value', () => {
    const cautious = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    };
    fc.assert(
      fc.property(annotationsArb, annotationsArb, (before, after) => {
        const b = effectiveAnnotations(before);
        const a = effectiveAnnotations(after);
        const lessCautious = (Object.keys(cautious) as HintName[]).some(
          (hint) => b[hint] === cautious[hint] && a[hint] !== cautious[hint],
        );
        expect(lessCautionMoves(before, after).length > 0).toBe(lessCautious);
        expect(lessCautionMoves(before, before)).toEqual([]);
      }),
    );
  });
});

describe('hintMoves', () => {
  it('lists every hint whose claimed state differs, absent included', () => {
    expect(hintMoves({ readOnlyHint: true, openWorldHint: false }, { readOnlyHint: true })).toEqual(
      [
        {
          hint: 'openWorldHint',
          from: false,
          to: undefined,
          effectiveFrom: false,
          effectiveTo: true,
        },
      ],
    );
    expect(hintMoves({ destructiveHint: true }, {})).toHaveLength(1);
  });
});
