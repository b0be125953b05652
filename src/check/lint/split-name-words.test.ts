import { describe, expect, it } from 'vitest';
import { splitNameWords } from './split-name-words.js';

describe('splitNameWords', () => {
  it.each([
    ['deleteFile', ['delete', 'file']],
    ['file_delete', ['file', 'delete']],
    ['file.delete', ['file', 'delete']],
    ['fetchURL', ['fetch', 'url']],
    ['HTTPRequest', ['http', 'request']],
    ['ABCdEFgh', ['ab', 'cd', 'e', 'fgh']],
    ['getV2Items', ['get', 'v2', 'items']],
    ['download', ['download']],
    ['', []],
  ])('%s -> %j', (name, words) => {
    expect(splitNameWords(name)).toEqual(words);
  });

  it('splits a megabyte of capitals and humps from a server in linear time', () => {
    expect(splitNameWords('A'.repeat(1_000_000))).toHaveLength(1);
    expect(splitNameWords(`${'A'.repeat(500_000)}b`)).toHaveLength(2);
    expect(splitNameWords('aB'.repeat(500_000))).toHaveLength(500_001);
  }, 30_000);
});
