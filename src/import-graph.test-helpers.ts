import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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

/**
 * The import graph of `entry` (relative to the repository) as emitted: type-only imports
 * erased, as `verbatimModuleSyntax` emits them; dynamic `import()`s followed too.
 */
export function importGraph(entry: string): ImportGraph {
  const seen = new Set<string>();
  const builtins = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    // A JSON module (package.json) imports nothing.
    if (!file.endsWith('.ts')) return;
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    for (const { fileName } of ts.preProcessFile(outputText, true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(join(dirname(file), fileName.replace(/\.js$/, '.ts')));
      else if (fileName.startsWith('node:')) builtins.add(`${fileName} (${relative(root, file)})`);
      else
        packages.add(
          fileName
            .split('/')
            .slice(0, fileName.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(join(root, entry));
  return {
    files: [...seen].map((file) => relative(root, file).replaceAll('\\', '/')).sort(),
    builtins: [...builtins].sort(),
    packages: [...packages].sort(),
  };
}
