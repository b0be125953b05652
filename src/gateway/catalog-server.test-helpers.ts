import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeScriptArgs } from '../testing/index.js';
import { REPO_ROOT } from './gateway.test-helpers.js';

/** What the catalog-file fixture serves besides its tools. */
export interface Catalog {
  readonly prompts?: readonly Record<string, unknown>[];
  readonly resources?: readonly Record<string, unknown>[];
  readonly pageSize?: number;
}

/**
 * A catalog-file fixture server named `name` (fixtures/catalog-file-server.ts), trusted:
 * its configuration entry and a way to change its catalog. `legacy` speaks only the 2025
 * protocol; `both` also 2026-07-28, which a gateway then negotiates (its entry says
 * `era: auto`).
 */
export const catalogServer = async (
  dir: string,
  name: string,
  catalog: Catalog,
  era: 'legacy' | 'both' = 'legacy',
) => {
  const file = join(dir, `${name}.catalog.json`);
  const set = (next: Catalog) => writeFile(file, JSON.stringify(next));
  await set(catalog);
  return {
    entry: {
      command: process.execPath,
      args: nodeScriptArgs(
        fileURLToPath(new URL('./fixtures/catalog-file-server.ts', import.meta.url)),
      ),
      env: { FIXTURE_CATALOG_FILE: file, FIXTURE_NAME: name, FIXTURE_ERA: era },
      cwd: REPO_ROOT,
      trusted: true,
      // A stdio server gets the 2025 handshake unless its entry asks for the probe.
      ...(era === 'both' ? { era: 'auto' } : {}),
    },
    set,
  };
};
