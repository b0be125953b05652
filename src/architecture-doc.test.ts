import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's tables against the code: the layer table against the import
// graph of src/ and the layer order of .dependency-cruiser.cjs, the entry-point table
// against the `exports` of package.json.

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** The rows of the markdown table under the heading `## {heading}`, as cells. */
function tableUnder(heading: string): string[][] {
  const section = doc.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`docs/architecture.md has no "## ${heading}"`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

/** The names in backticks of a cell (`a`, `b` -> [a, b]). */
const ticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

const list = (cell: string): string[] =>
  cell === 'nothing' ? [] : cell.split(',').map((name) => name.trim());

/** The layer of a file under src/ (`adapters/x` for an adapter), or undefined at the top. */
function layerOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts.length < 2) return undefined;
  return parts[0] === 'adapters' ? `adapters/${parts[1]}` : parts[0];
}

const IS_TEST = /(\.test\.ts|\.test-helpers\.ts)$|(^|\/)fixtures\//;

/** Which layers each layer's code (not its tests) imports, by relative specifier. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const files = (readdirSync(src, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !IS_TEST.test(file));
  for (const file of files) {
    const from = layerOf(file);
    if (from === undefined) continue;
    const imports = graph.get(from) ?? new Set<string>();
    graph.set(from, imports);
    const text = readFileSync(join(src, file), 'utf8');
    for (const match of text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(src, resolve(dirname(join(src, file)), match[1] ?? ''));
      const to = layerOf(target.split('\\').join('/'));
      if (to !== undefined && to !== from) imports.add(to);
    }
  }
  return graph;
}

const require = createRequire(import.meta.url);
const LAYERS = (() => {
  // The rules file lists its layers bottom-up; read them from its text (it exports rules).
  const text = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
  const block = /const LAYERS = \[([\s\S]*?)\n\];/.exec(text)?.[1] ?? '';
  return [...block.replace(/\/\/.*$/gm, '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
})();

describe('docs/architecture.md', () => {
  const rows = tableUnder('Layers').map(([layers = '', , imports = '']) => ({
    layers: ticked(layers),
    imports: list(imports),
  }));

  it('lists the layers of .dependency-cruiser.cjs, in its order', () => {
    expect(LAYERS.length).toBeGreaterThan(10);
    // `adapters/*` stands for the adapters the rules file lists one by one.
    const adapters = LAYERS.filter((layer) => /^adapters\/(?!shared$)/.test(layer));
    const documented = rows
      .flatMap((row) => row.layers)
      .flatMap((layer) => (layer === 'adapters/*' ? adapters : [layer]));
    expect(documented).toEqual(LAYERS);
    expect(require(join(root, '.dependency-cruiser.cjs'))).toHaveProperty('forbidden');
  });

  it('says, for each layer, which layers its code imports', () => {
    const graph = importGraph();
    const layers = [...graph.keys()];
    const actual = rows.map((row) => {
      const members = row.layers.flatMap((layer) =>
        layer === 'adapters/*'
          ? layers.filter((name) => /^adapters\/(?!shared$)/.test(name))
          : [layer],
      );
      const imports = new Set(members.flatMap((member) => [...(graph.get(member) ?? [])]));
      // A row of several layers (the adapters) names what any of them imports, the shared
      // part of the adapters included.
      return { layers: row.layers, imports: [...imports].sort() };
    });
    const documented = rows.map((row) => ({
      layers: row.layers,
      imports: [...row.imports].sort(),
    }));
    expect(documented).toEqual(actual);
    // Every folder of src/ with code is a documented layer.
    const named = new Set(rows.flatMap((row) => row.layers));
    const undocumented = layers.filter(
      (layer) => !named.has(layer) && !(layer.startsWith('adapters/') && named.has('adapters/*')),
    );
    expect(undocumented).toEqual([]);
  });

  it('names every subpath of package.json with its file', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { import: string }>;
    };
    const expected = new Map<string, string>();
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      const file = target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      expected.set(subpath === '.' ? 'hintgate' : `hintgate/${subpath.slice(2)}`, file);
    }
    const documented = new Map<string, string>();
    for (const [subpaths = '', files = ''] of tableUnder('Entry points')) {
      const [file = ''] = ticked(files);
      for (const subpath of ticked(subpaths)) {
        // `src/adapters/*/index.ts` stands for each adapter's own.
        documented.set(subpath, file.replace('*', subpath.slice('hintgate/'.length)));
      }
    }
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected));
  });
});
