import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTempWorkspace } from 'hintgate/testing';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What an example printed, and the files it was given as they are after the run. */
export interface ExampleRun {
  /** Its standard output, line by line. */
  readonly lines: string[];
  /** The given files' text after the run, by name. */
  readonly files: Record<string, string>;
}

/**
 * Runs `examples/<name>.ts` in a fresh Node process (through tsx), in a temporary directory
 * holding `files` (removed afterwards), or in the repository root when there are none.
 */
export async function runExample(name: string, files: Record<string, string> = {}): Promise<ExampleRun> {
  const names = Object.keys(files);
  const workspace = names.length === 0 ? undefined : await createTempWorkspace({ prefix: `hintgate-${name}-`, files });
  try {
    const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsx, '--tsconfig', join(root, 'tsconfig.json'), join(root, 'examples', `${name}.ts`)],
      { cwd: workspace?.workspace ?? root },
    );
    const after: Record<string, string> = {};
    for (const file of names) after[file] = (await workspace?.read(file)) ?? '';
    return { lines: stdout.trim().split('\n'), files: after };
  } finally {
    await workspace?.remove();
  }
}

/** The text of `examples/<name>.ts` as a TypeScript code block, as docs show it. */
export const exampleBlock = async (name: string): Promise<string> =>
  `\`\`\`ts\n${await readFile(join(root, 'examples', `${name}.ts`), 'utf8')}\`\`\``;

/** The text of a file of the repository (README.md, docs/...). */
export const repoText = (path: string): Promise<string> => readFile(join(root, path), 'utf8');
