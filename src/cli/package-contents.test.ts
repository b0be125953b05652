import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// What `npm pack` ships, from the built dist/ (npm ci builds it through "prepare").

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = existsSync(join(root, 'dist', 'cli', 'main.js'));

describe('the package npm pack makes', () => {
  it.runIf(built)(
    'ships the bin and the schema, and no source map that points at a file it does not ship',
    { timeout: 60_000 },
    async () => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const { stdout } = await promisify(execFile)(
        npm,
        ['pack', '--dry-run', '--json', '--ignore-scripts'],
        { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      );
      const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
      const shipped = new Set((pack?.files ?? []).map((file) => file.path));
      expect(shipped).toContain('dist/cli/main.js');
      expect(shipped).toContain('schema/hintgate.schema.json');
      expect(shipped).toContain('README.md');
      const unshipped: string[] = [];
      for (const map of [...shipped].filter((path) => path.endsWith('.map'))) {
        const { sources = [] } = JSON.parse(readFileSync(join(root, map), 'utf8')) as {
          sources?: string[];
        };
        for (const source of sources) {
          const target = join(map, '..', source);
          if (!shipped.has(target.split('\\').join('/'))) unshipped.push(`${map} -> ${target}`);
        }
      }
      expect(unshipped).toEqual([]);
    },
  );
});
