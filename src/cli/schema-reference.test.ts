import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_URL } from '../gateway/config/index.js';
import { schemaReference } from './schema-reference.js';

const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('schemaReference', () => {
  it("points at the project's installed hintgate, here or in a parent directory", () => {
    const installed = '/p/node_modules/hintgate/schema/hintgate.schema.json';
    expect(
      schemaReference('/p', { ownSchema: '/g/schema.json', exists: existing(installed) }),
    ).toBe('./node_modules/hintgate/schema/hintgate.schema.json');
    expect(
      schemaReference('/p/config', { ownSchema: '/g/schema.json', exists: existing(installed) }),
    ).toBe('../node_modules/hintgate/schema/hintgate.schema.json');
  });

  it('else at the schema of the hintgate that runs, and at the URL only for one run from npx', () => {
    const own = '/usr/lib/node_modules/hintgate/schema/hintgate.schema.json';
    expect(schemaReference('/home/me/mcp', { ownSchema: own, exists: existing(own) })).toBe(
      '../../../usr/lib/node_modules/hintgate/schema/hintgate.schema.json',
    );
    const npx = '/home/me/.npm/_npx/1a2b/node_modules/hintgate/schema/hintgate.schema.json';
    expect(schemaReference('/home/me/mcp', { ownSchema: npx, exists: existing(npx) })).toBe(
      DEFAULT_SCHEMA_URL,
    );
  });
});
