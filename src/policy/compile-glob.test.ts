import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { checkGlob, compileGlob } from './compile-glob.js';

describe('compileGlob', () => {
  it.each([
    ['file:src/**', 'file:src/a/b.ts'],
    ['file:src/**', 'file:src/a.ts'],
    ['file:src/**', 'file:src/.env'],
    ['git *', 'git status'],
    ['github_*', 'github_list_issues'],
    ['*', 'github_list_issues'],
    ['*', '.hidden'],
    ['*', 'fs.read-file'],
    ['**', 'file:/etc/hosts'],
    ['file:**', 'file:src/a/b.ts'],
    ['cmd:rm **', 'cmd:rm -rf /'],
    ['a**b', 'ax/y/zb'],
    ['src/**.ts', 'src/a/b.ts'],
    ['{github,gitlab}_*', 'gitlab_merge'],
    ['{a,{b,c}}_x', 'c_x'],
    ['[abc]_tool', 'b_tool'],
    ['read_?', 'read_1'],
    ['a\\*', 'a*'],
    ['!github_*', 'fs_read'],
  ])('%s matches %s', (pattern, value) => {
    expect(compileGlob(pattern)(value)).toBe(true);
  });

  it.each([
    ['file:src/**', 'file:lib/a.ts'],
    ['git *', 'git status/x'],
    ['git *', 'gitk'],
    ['github_*', 'gitlab_list'],
    ['*', 'file:src/a.ts'],
    ['file:*', 'file:src/a.ts'],
    ['{github,gitlab}_*', 'bitbucket_list'],
    ['[abc]_tool', 'd_tool'],
    ['read_?', 'read_12'],
    ['a\\*', 'ab'],
    ['a\\b', 'a/b'],
    ['!github_*', 'github_list'],
    ['\\**', '*a/b'],
  ])('%s does not match %s', (pattern, value) => {
    expect(compileGlob(pattern)(value)).toBe(false);
  });

  it('returns the cached matcher for a pattern it compiled before', () => {
    expect(compileGlob('cache_*')).toBe(compileGlob('cache_*'));
    expect(compileGlob('cache_*')).not.toBe(compileGlob('cache_?'));
  });

  it('throws invalid_policy with the reason for a bad pattern', () => {
    let thrown: unknown;
    try {
      compileGlob('[abc');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HintgateError);
    expect(thrown).toMatchObject({
      code: 'invalid_policy',
      message:
        'Glob "[abc": the "[" at character 1 is never closed; close it with "]" or escape it as "\\[".',
    });
    expect(() => compileGlob('')).toThrow('a glob must not be empty');
  });
});

describe('checkGlob', () => {
  it.each(['*', 'github_*', 'file:src/**', '{a,b}', '[]a]', '\\[x', 'a\\{', '[!]]'])(
    'accepts %s',
    (pattern) => {
      expect(checkGlob(pattern)).toBeUndefined();
    },
  );

  it.each([
    [42, 'a glob must be a string such as "github_*", not a number'],
    [null, 'a glob must be a string such as "github_*", not null'],
    [['a'], 'a glob must be a string such as "github_*", not a list'],
    [{}, 'a glob must be a string such as "github_*", not a mapping'],
    ['', 'a glob must not be empty; use "*" to match anything'],
    ['[abc', 'the "[" at character 1 is never closed; close it with "]" or escape it as "\\["'],
    ['ab]', 'the "]" at character 3 has no "[" before it; remove it or escape it as "\\]"'],
    ['x{a,b', 'the "{" at character 2 is never closed; close it with "}" or escape it as "\\{"'],
    ['{a,b}{', 'the "{" at character 6 is never closed; close it with "}" or escape it as "\\{"'],
    ['a}', 'the "}" at character 2 has no "{" before it; remove it or escape it as "\\}"'],
    ['a\\', 'it ends with a lone "\\" at character 2; escape a backslash as "\\\\"'],
  ])('rejects %j', (pattern, message) => {
    expect(checkGlob(pattern)).toBe(message);
  });

  it('reports a pattern picomatch cannot compile', () => {
    expect(checkGlob('[z-a]')).toMatch(/^picomatch cannot compile it \(.*Range out of order/);
  });
});
