import { describe, expect, it } from 'vitest';
import { compileGlob } from './compile-glob.js';
import { compileLinearGlob } from './compile-linear-glob.js';

const MB = 1_000_000;

describe('compileLinearGlob (file paths)', () => {
  it.each([
    ['**/*.ts', 'a/b/c.ts', true],
    ['**/*.ts', 'c.ts', true],
    ['**/*.ts', 'c.js', false],
    ['src/**/index.{js,ts}', 'src/index.ts', true],
    ['src/**/index.{js,ts}', 'src/a/b/index.js', true],
    ['src/**/index.{js,ts}', 'lib/index.js', false],
    ['*.test.ts', 'a.test.ts', true],
    ['*.test.ts', 'x/a.test.ts', false],
    ['src/*', 'src/a', true],
    ['src/*', 'src/', false],
    ['src/*', 'src/a/b', false],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/b', false],
    ['.github/**', '.github/workflows/ci.yml', true],
    ['[[:digit:]]?.md', '1a.md', true],
    ['[!a]*', 'b', true],
    ['[!a]*', 'a', false],
    ['*(a)', '*(a)', true],
    ['!*.md', 'a.ts', true],
    ['!*.md', 'a.md', false],
  ])('%s on %s is %s', (pattern, path, expected) => {
    expect(compileLinearGlob(pattern)(path)).toBe(expected);
  });

  it('throws for a class range out of order', () => {
    expect(() => compileLinearGlob('[z-a]')).toThrow(/out of order/);
  });
});

// Each of these takes hours as a backtracking regular expression (picomatch's), and must
// finish here at once: only completion is asserted, within a generous timeout.
describe('compileLinearGlob on a megabyte of adversarial text', () => {
  it.each([
    ['*a*a*a*a*a*a*a*a*b', 'a'.repeat(MB), false],
    ['**/a*a*a*a*a*a*b', `${'a/'.repeat(MB / 4)}${'a'.repeat(MB / 2)}`, false],
    ['**/*.ts', `${'a/'.repeat(MB / 2)}x.js`, false],
    ['src/**/x/**/y', `src/${'x/'.repeat(MB / 2)}`, false],
    ['[a-z]*[a-z]*[a-z]*1', 'a'.repeat(MB), false],
    ['{a,aa}*{a,aa}*b', 'a'.repeat(MB), false],
    ['github_*', `github_${'x'.repeat(MB)}`, true],
  ])(
    '%s',
    (pattern, text, expected) => {
      expect(compileLinearGlob(pattern)(text)).toBe(expected);
    },
    30_000,
  );

  it.each([
    ['*git push*', `${'git push '.repeat(MB / 9)}x`, { starCrossesSlash: true }, true],
    ['file:**/secret*/**', `file:${'secret/'.repeat(MB / 7)}`, {}, true],
    ['file:**/x/**/y', `file:${'x/'.repeat(MB / 2)}`, {}, false],
    ['*a*a*a*a*b', 'a'.repeat(MB), { starCrossesSlash: true }, false],
  ] as const)(
    'policy glob %s on approval keys',
    (pattern, key, options, expected) => {
      expect(compileGlob(pattern, options)(key)).toBe(expected);
    },
    30_000,
  );
});
