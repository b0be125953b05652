import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type ImportKind, type Metafile } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

/** What a module loads when it runs: its static import graph as emitted. */
export interface ImportGraph {
  /** Source files reached, relative to the repository (`src/...`), sorted. */
  readonly files: string[];
  /** Node built-ins with the file importing each: `node:crypto (src/audit/x.ts)`, sorted. */
  readonly builtins: string[];
  /** Packages (`ajv`, `@scope/name`), sorted. */
  readonly packages: string[];
}

/** Which imports {@link importGraph} follows. */
export interface ImportGraphOptions {
  /**
   * Follow dynamic `import()`s too (default true). False: only what loads with the module
   * itself, before any of its code runs.
   */
  readonly dynamic?: boolean;
}

/** Each entry's import records, read once per test process (a graph is read by several tests). */
const metafiles = new Map<string, Metafile>();

/**
 * Every import record reachable from `entry`, as the TypeScript compiler emits the modules
 * (the repository's tsconfig: `verbatimModuleSyntax`, so type-only imports are erased and
 * every other one kept). Packages are left external, as Node loads them.
 */
const metafileOf = (entry: string): Metafile => {
  let metafile = metafiles.get(entry);
  if (metafile === undefined) {
    metafile = buildSync({
      entryPoints: [join(root, entry)],
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      outdir: 'import-graph',
      logLevel: 'silent',
    }).metafile;
    metafiles.set(entry, metafile);
  }
  return metafile;
};

const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The import graph of `entry` (relative to the repository) as emitted: type-only imports
 * erased, as `verbatimModuleSyntax` emits them; dynamic `import()`s followed too unless
 * `options.dynamic` is false.
 */
export function importGraph(entry: string, options: ImportGraphOptions = {}): ImportGraph {
  const follows = new Set<ImportKind>(['entry-point', 'import-statement']);
  if (options.dynamic ?? true) follows.add('dynamic-import');
  const { inputs } = metafileOf(entry);
  const seen = new Set<string>();
  const builtins = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const record of inputs[file]?.imports ?? []) {
      if (!follows.has(record.kind)) continue;
      if (!record.external) visit(record.path);
      else if (record.path.startsWith('node:')) builtins.add(`${record.path} (${file})`);
      else packages.add(packageOf(record.path));
    }
  };
  visit(entry);
  return {
    files: [...seen].sort(),
    builtins: [...builtins].sort(),
    packages: [...packages].sort(),
  };
}
