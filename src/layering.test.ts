import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layering rules of .dependency-cruiser.cjs, run by the real depcruise command on a
// small source tree written for the test.

const root = fileURLToPath(new URL('../', import.meta.url));
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

let work = '';

/** Runs the project's rules on `files` (path under src/ -> text); returns the violations. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(join(work, 'tree-'));
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  );
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, 'src', path)), { recursive: true });
    await writeFile(join(dir, 'src', path), text);
  }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [depcruise, 'src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

/**
 * One tree holds every case, each in a file of its own, so that depcruise (about 2 s of CPU
 * to start) runs once: the layers import each other through their index.ts, except
 * `runtime/past-index.ts` (past tool's index.ts), `tool/upward.ts` (a layer above, through
 * its index.ts), `runtime/unknown.ts` (a folder that is not a layer) and a test that drives
 * `tool` with the runtime's inner file.
 */
const TREE = {
  'errors/index.ts': "export { HintgateError } from './hintgate-error.js';\n",
  'errors/hintgate-error.ts': 'export class HintgateError extends Error {}\n',
  'tool/index.ts': "export { defineTool } from './define-tool.js';\n",
  'tool/define-tool.ts':
    "import { HintgateError } from '../errors/index.js';\nexport const defineTool = () => new HintgateError();\n",
  'tool/upward.ts':
    "import { createRuntime } from '../runtime/index.js';\nexport const upward = () => createRuntime();\n",
  'tool/define-tool.test.ts':
    "import { createRuntime } from '../runtime/create-runtime.js';\nexport const used = createRuntime;\n",
  'runtime/index.ts': "export { createRuntime } from './create-runtime.js';\n",
  'runtime/create-runtime.ts':
    "import { defineTool } from '../tool/index.js';\nexport const createRuntime = () => defineTool();\n",
  'runtime/past-index.ts':
    "import { defineTool } from '../tool/define-tool.js';\nexport const pastIndex = () => defineTool();\n",
  'runtime/unknown.ts':
    "import { helper } from '../misc/index.js';\nexport const unknown = () => helper;\n",
  'misc/index.ts': 'export const helper = 1;\n',
};

let found: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hintgate-layering-'));
  found = await violations(TREE);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The violations of imports made by `file` (its path under src/). */
const from = (file: string): string[] =>
  found.filter((violation) => violation.includes(`: src/${file} -> `));

describe('the layering lint', { timeout: 60_000 }, () => {
  it('passes layers that import lower layers through their index.ts', () => {
    expect(from('runtime/create-runtime.ts')).toEqual([]);
    expect(from('tool/define-tool.ts')).toEqual([]);
    expect(from('runtime/index.ts')).toEqual([]);
  });

  it('fails a cross-layer import of a file other than the index.ts', () => {
    expect(from('runtime/past-index.ts')).toEqual([
      'through-index: src/runtime/past-index.ts -> src/tool/define-tool.ts',
    ]);
  });

  it('fails an import of a layer above, even through its index.ts', () => {
    expect(from('tool/upward.ts')).toEqual([
      'layer-order:tool: src/tool/upward.ts -> src/runtime/index.ts',
    ]);
  });

  it('fails an import of a folder that is not a listed layer', () => {
    expect(from('runtime/unknown.ts')).toEqual([
      'unknown-layer: src/runtime/unknown.ts -> src/misc/index.ts',
    ]);
  });

  it('lets a test drive its layer with a layer above', () => {
    expect(from('tool/define-tool.test.ts')).toEqual([]);
  });

  it('finds nothing else in the tree', () => {
    expect(found).toEqual(
      [
        'through-index: src/runtime/past-index.ts -> src/tool/define-tool.ts',
        'layer-order:tool: src/tool/upward.ts -> src/runtime/index.ts',
        'unknown-layer: src/runtime/unknown.ts -> src/misc/index.ts',
      ].sort(),
    );
  });
});
