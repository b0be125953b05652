import { describe, expect, it } from 'vitest';
import { keyHierarchy, normalizeResourceKey } from './resource-key.js';

describe('normalizeResourceKey', () => {
  it.each([
    ['file:./a/../b/', 'file:b'],
    ['file:src//a.ts', 'file:src/a.ts'],
    ['file:./src/./a.ts', 'file:src/a.ts'],
    ['file:src/', 'file:src'],
    ['file:src///', 'file:src'],
    ['file:a/b/../../c', 'file:c'],
  ])('normalizes %s to %s', (key, expected) => {
    expect(normalizeResourceKey(key)).toBe(expected);
  });

  it('makes two spellings of one file equal', () => {
    expect(normalizeResourceKey('file:./src/../src/a.ts')).toBe(
      normalizeResourceKey('file:src//a.ts'),
    );
  });

  it('keeps a bare namespace as it is', () => {
    expect(normalizeResourceKey('file:')).toBe('file:');
  });

  it('turns a path that resolves to nothing into the bare namespace', () => {
    expect(normalizeResourceKey('file:.')).toBe('file:');
    expect(normalizeResourceKey('file:a/..')).toBe('file:');
  });

  it('treats a key without a namespace as all path', () => {
    expect(normalizeResourceKey('./a//b/')).toBe('a/b');
    expect(normalizeResourceKey('x/../y')).toBe('y');
  });

  it('keeps `..` that climbs above the root of a relative key', () => {
    expect(normalizeResourceKey('file:../x')).toBe('file:../x');
    expect(normalizeResourceKey('file:a/../../x')).toBe('file:../x');
  });

  it('resolves `..` of an absolute key, never above `/`', () => {
    expect(normalizeResourceKey('file:/etc/../var/log/')).toBe('file:/var/log');
    expect(normalizeResourceKey('file:/../x')).toBe('file:/x');
    expect(normalizeResourceKey('file:/')).toBe('file:/');
  });

  it('makes an absolute path inside the workspace workspace-relative', () => {
    expect(normalizeResourceKey('file:/ws/src/a.ts', '/ws')).toBe('file:src/a.ts');
    expect(normalizeResourceKey('file:/ws/src/./b/../a.ts', '/ws/')).toBe('file:src/a.ts');
    expect(normalizeResourceKey('file:/ws/src/a.ts', '/ws')).toBe(
      normalizeResourceKey('file:./src/a.ts', '/ws'),
    );
  });

  it('maps the workspace itself to the bare namespace', () => {
    expect(normalizeResourceKey('file:/ws', '/ws')).toBe('file:');
  });

  it('treats an entry named `..something` as inside the workspace', () => {
    expect(normalizeResourceKey('file:/ws/..cache/x', '/ws')).toBe('file:..cache/x');
  });

  it('keeps an absolute path outside the workspace absolute', () => {
    expect(normalizeResourceKey('file:/etc/hosts', '/ws')).toBe('file:/etc/hosts');
    expect(normalizeResourceKey('file:/wsx/a', '/ws')).toBe('file:/wsx/a');
    expect(normalizeResourceKey('file:/ws/../etc/hosts', '/ws')).toBe('file:/etc/hosts');
  });

  it('leaves relative keys alone when a workspace is given', () => {
    expect(normalizeResourceKey('file:src/a.ts', '/ws')).toBe('file:src/a.ts');
  });

  it('keeps absolute paths absolute without a workspace', () => {
    expect(normalizeResourceKey('file:/ws/src/a.ts')).toBe('file:/ws/src/a.ts');
  });
});

describe('keyHierarchy', () => {
  it('lists the namespace, each directory and the key of a relative key', () => {
    expect(keyHierarchy('file:src/lib/a.ts')).toEqual([
      'file:',
      'file:src',
      'file:src/lib',
      'file:src/lib/a.ts',
    ]);
  });

  it('puts `/` between the namespace and the first directory of an absolute key', () => {
    expect(keyHierarchy('file:/etc/hosts')).toEqual([
      'file:',
      'file:/',
      'file:/etc',
      'file:/etc/hosts',
    ]);
  });

  it('gives only the namespace for a bare namespace', () => {
    expect(keyHierarchy('file:')).toEqual(['file:']);
  });

  it('gives nothing for the empty key (the whole origin)', () => {
    expect(keyHierarchy('')).toEqual([]);
  });

  it('has no namespace node for a key without a namespace', () => {
    expect(keyHierarchy('a/b')).toEqual(['a', 'a/b']);
    expect(keyHierarchy('/etc')).toEqual(['/', '/etc']);
  });

  it('makes sibling files share every ancestor and nothing else', () => {
    const a = keyHierarchy('file:src/a.ts');
    const b = keyHierarchy('file:src/b.ts');
    expect(a.filter((node) => b.includes(node))).toEqual(['file:', 'file:src']);
  });
});

describe('normalizeResourceKey: relative paths leaving the workspace', () => {
  it('spells them absolute, so they meet the absolute and the in-workspace spellings', () => {
    expect(normalizeResourceKey('file:../proj/.env', '/ws/proj')).toBe('file:.env');
    expect(normalizeResourceKey('file:../other/x', '/ws/proj')).toBe('file:/ws/other/x');
    expect(normalizeResourceKey('file:/ws/other/x', '/ws/proj')).toBe('file:/ws/other/x');
    expect(normalizeResourceKey('file:..', '/ws/proj')).toBe('file:/ws');
    expect(normalizeResourceKey('file:..cache/x', '/ws/proj')).toBe('file:..cache/x');
    expect(normalizeResourceKey('file:../x')).toBe('file:../x');
  });
});
