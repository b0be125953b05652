import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LINT_RULES } from './lint-rules.js';
import {
  DESTRUCTIVE_NAME_VERBS,
  LOCAL_NAME_VERBS,
  OPEN_WORLD_NAME_NOUNS,
  OPEN_WORLD_NAME_VERBS,
  READ_NAME_VERBS,
  WRITE_NAME_VERBS,
} from './name-actions.js';

const docs = await readFile(new URL('../../../docs/check.md', import.meta.url), 'utf8');
const section = docs.split(/^## Lint rules$/m)[1]?.split(/^## /m)[0] ?? '';
const cells = (line: string) =>
  line
    .slice(1, -1)
    .split(' | ')
    .map((cell) => cell.trim());

describe('docs/check.md, section Lint rules', () => {
  it('lists every lint rule with its severity, summary and help, in order', () => {
    const rows = section
      .split('\n')
      .filter((line) => /^\| `[a-z-]+` \|/.test(line))
      .map(cells);
    expect(rows).toEqual(
      LINT_RULES.map((rule) => [`\`${rule.id}\``, rule.severity, rule.summary, rule.help]),
    );
  });

  it('lists the words names are read with', () => {
    const words = (kind: string) => {
      const row = section.split('\n').find((line) => line.startsWith(`| ${kind} |`));
      return cells(row ?? '|  |  |')[1]?.split(', ');
    };
    expect(words('deletes')).toEqual(DESTRUCTIVE_NAME_VERBS);
    expect(words('writes')).toEqual(WRITE_NAME_VERBS);
    expect(words('reads')).toEqual(READ_NAME_VERBS);
    expect(words('open world (verbs)')).toEqual(OPEN_WORLD_NAME_VERBS);
    expect(words('open world (nouns, anywhere in the name)')).toEqual(OPEN_WORLD_NAME_NOUNS);
    expect(words('local (a network noun they act on does not count)')).toEqual(LOCAL_NAME_VERBS);
  });
});
