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

const layer = {
  'errors/index.ts': "export { HintgateError } from './hintgate-error.js';\n",
  'errors/hintgate-error.ts': 'export class HintgateError extends Error {}\n',
  'tool/index.ts': "export { defineTool } from './define-tool.js';\n",
  'tool/define-tool.ts':
    "import { HintgateError } from '../errors/index.js';\nexport const defineTool = () => new HintgateError();\n",
  'runtime/index.ts': "export { createRuntime } from './create-runtime.js';\n",
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hintgate-layering-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the layering lint', { timeout: 60_000 }, () => {
  it('passes a tree whose layers import lower layers through their index.ts', async () => {
    expect(
      await violations({
        ...layer,
        'runtime/create-runtime.ts':
          "import { defineTool } from '../tool/index.js';\nexport const createRuntime = () => defineTool();\n",
      }),
    ).toEqual([]);
  });

  it('fails a cross-layer import of a file other than the index.ts', async () => {
    expect(
      await violations({
        ...layer,
        'runtime/create-runtime.ts':
          "import { defineTool } from '../tool/define-tool.js';\nexport const createRuntime = () => defineTool();\n",
      }),
    ).toEqual(['through-index: src/runtime/create-runtime.ts -> src/tool/define-tool.ts']);
  });

  it('fails an import of a layer above, even through its index.ts', async () => {
    expect(
      await violations({
        ...layer,
        'runtime/create-runtime.ts': 'export const createRuntime = () => 1;\n',
        'tool/define-tool.ts':
          "import { createRuntime } from '../runtime/index.js';\nexport const defineTool = () => createRuntime();\n",
      }),
    ).toEqual(['layer-order:tool: src/tool/define-tool.ts -> src/runtime/index.ts']);
  });

  it('fails an import of a folder that is not a listed layer', async () => {
    expect(
      await violations({
        ...layer,
        'runtime/create-runtime.ts':
          "import { helper } from '../misc/index.js';\nexport const createRuntime = () => helper;\n",
        'misc/index.ts': 'export const helper = 1;\n',
      }),
    ).toEqual(['unknown-layer: src/runtime/create-runtime.ts -> src/misc/index.ts']);
  });

  it('lets a test drive its layer with a layer above', async () => {
    expect(
      await violations({
        ...layer,
        'runtime/create-runtime.ts': 'export const createRuntime = () => 1;\n',
        'tool/define-tool.test.ts':
          "import { createRuntime } from '../runtime/create-runtime.js';\nexport const used = createRuntime;\n",
      }),
    ).toEqual([]);
  });
});
