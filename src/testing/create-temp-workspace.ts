import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { HintgateError } from '../errors/index.js';

/** Options of {@link createTempWorkspace}. */
export interface TempWorkspaceOptions {
  /** Start of the temporary directory's name. Default `hintgate-test-`. */
  readonly prefix?: string;
  /** Files to write at once, relative to the workspace: `{ 'src/a.ts': 'text' }`. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

/** A temporary workspace directory with a sibling directory outside it. */
export interface TempWorkspace {
  /** The workspace directory (a real path: no symbolic link on the way). */
  readonly workspace: string;
  /** A directory next to the workspace and outside it, for escape attempts. */
  readonly outside: string;
  /** Writes files relative to the workspace, creating their folders: `{ 'src/a.ts': 'text' }`. */
  write(files: Readonly<Record<string, string | Uint8Array>>): Promise<void>;
  /** Reads a file relative to the workspace as UTF-8. */
  read(path: string): Promise<string>;
  /** Removes the workspace and its sibling; safe to call twice. */
  remove(): Promise<void>;
}

/**
 * Makes a temporary workspace under the system temp directory for tests of file tools:
 * `workspace` to hand to the tools, `outside` beside it. Call `remove()` in `afterEach`.
 */
export async function createTempWorkspace(
  options: TempWorkspaceOptions = {},
): Promise<TempWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), options.prefix ?? 'hintgate-test-')));
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  const inside = (path: string): string => {
    const target = join(workspace, path);
    const rel = relative(workspace, target);
    if (isAbsolute(path) || rel.startsWith('..') || rel === '') {
      throw new HintgateError(
        'invalid_option',
        `"${path}" is not a file path inside the workspace; give a relative path such as "src/a.ts"`,
      );
    }
    return target;
  };
  const write = async (files: Readonly<Record<string, string | Uint8Array>>): Promise<void> => {
    for (const [path, content] of Object.entries(files)) {
      const target = inside(path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  };
  if (options.files !== undefined) await write(options.files);
  return {
    workspace,
    outside,
    write,
    read: (path) => readFile(inside(path), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
