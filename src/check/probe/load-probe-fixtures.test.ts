import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesForServer, loadProbeFixtures, parseProbeFixtures } from './load-probe-fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-fixtures-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadProbeFixtures', () => {
  it('reads YAML with shared and per-server argument sets', async () => {
    const file = join(dir, 'fixtures.yaml');
    await writeFile(
      file,
      [
        'read_file:',
        '  - { path: notes.txt }',
        '  - { path: docs/readme.md }',
        'get_sum: { a: 1, b: 2 }',
        'servers:',
        '  files:',
        '    read_file: [{ path: other.txt }]',
        '',
      ].join('\n'),
    );
    const loaded = await loadProbeFixtures(file);
    expect(fixturesForServer(loaded, 'everything')).toEqual({
      read_file: [{ path: 'notes.txt' }, { path: 'docs/readme.md' }],
      get_sum: [{ a: 1, b: 2 }],
    });
    expect(fixturesForServer(loaded, 'files')).toEqual({
      read_file: [{ path: 'other.txt' }],
      get_sum: [{ a: 1, b: 2 }],
    });
  });

  it('keeps tools and servers named __proto__ or constructor, and finds nothing inherited', () => {
    const loaded = parseProbeFixtures(
      ['__proto__: { a: 1 }', 'servers:', '  constructor:', '    toString: [{ b: 2 }]', ''].join(
        '\n',
      ),
      'f.yaml',
    );
    const forCtor = fixturesForServer(loaded, 'constructor');
    expect(Object.keys(forCtor).sort()).toEqual(['__proto__', 'toString']);
    expect(Object.getOwnPropertyDescriptor(forCtor, '__proto__')?.value).toEqual([{ a: 1 }]);
    expect(Object.keys(fixturesForServer(loaded, 'valueOf'))).toEqual(['__proto__']);
    expect(Object.hasOwn(fixturesForServer(loaded, 'other'), 'toString')).toBe(false);
  });

  it('reports each problem with file:line:column', () => {
    const text = '{\n  "read_file": [ { "path": "a" }, "b" ],\n  "empty": [],\n  "servers": 3\n}\n';
    let message = '';
    try {
      parseProbeFixtures(text, 'f.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'f.json:2:35: the arguments of "read_file" must be an object such as { path: "notes.txt" }, got string.',
      'f.json:3:3: "empty" has no argument sets; give at least one object, or remove the entry.',
      expect.stringMatching(
        /^f\.json:4:3: "servers" must map server names to tool mappings; write /,
      ),
    ]);
  });

  it('says what to write for an empty file, a missing file or a syntax error', async () => {
    expect(() => parseProbeFixtures('  \n', 'f.yaml')).toThrowError(
      /f\.yaml: the fixtures file is empty; write \{ "<tool>"/,
    );
    await expect(loadProbeFixtures(join(dir, 'missing.yaml'))).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringMatching(/^Fixtures file not found: .*missing\.yaml/),
    });
    expect(() => parseProbeFixtures('{ "a": [ }', 'f.json')).toThrowError(
      /^f\.json:1:\d+: JSON syntax error/,
    );
  });
});
