import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as testing from './index.js';

const root = new URL('../../', import.meta.url);

describe('docs/testing.md', () => {
  it('shows examples/testing.test.ts as it is, and documents every export', async () => {
    const docs = await readFile(fileURLToPath(new URL('docs/testing.md', root)), 'utf8');
    const example = await readFile(
      fileURLToPath(new URL('examples/testing.test.ts', root)),
      'utf8',
    );
    expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
    for (const name of Object.keys(testing)) expect(docs).toContain(`\`${name}(`);
  });
});
