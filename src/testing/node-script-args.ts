import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HintgateError } from '../errors/index.js';

/** hintgate's own `src/` folder, when running from its sources (absent in the package). */
const SRC = fileURLToPath(new URL('../', import.meta.url));
const TYPESCRIPT = /\.[cm]?ts$/;

/** The URL of tsx's loader, resolved as a module at `from` (a file path or URL) would. */
const tsxLoaderFrom = (from: string): string | undefined => {
  try {
    return pathToFileURL(createRequire(from).resolve('tsx')).href;
  } catch {
    return undefined;
  }
};

/**
 * The build of hintgate's sources a test run made (`HINTGATE_TEST_BUILD`, see
 * `vitest.test-build.ts` in hintgate's repository): the built counterpart of `file` when
 * `file` is one of hintgate's own sources and was built.
 */
const testBuildOf = (file: string): string | undefined => {
  const build = process.env.HINTGATE_TEST_BUILD;
  const path = relative(SRC, file);
  if (build === undefined || build === '' || path.startsWith('..')) return undefined;
  const built = join(build, `${path.replace(TYPESCRIPT, '')}.mjs`);
  return existsSync(built) ? built : undefined;
};

/**
 * The Node arguments that run the program `script` (a path or a file URL) as a child
 * process: spawn `process.execPath` with them (`spawn(process.execPath, [...args, ...yours])`,
 * or `command`/`args` of a server entry or of the MCP SDK's `StdioClientTransport`). A
 * JavaScript file runs as it is; a TypeScript file (`.ts`, `.mts`, `.cts`) runs through
 * tsx's loader, found from the script's folder or else from hintgate's, by file URL, so the
 * arguments work from any working directory. hintgate's own sources run from the build its
 * test run made, when there is one.
 *
 * @throws HintgateError `invalid_option` when `script` is TypeScript and tsx is not
 *   installed (install it as a dev dependency, or give the compiled `.js` file).
 */
export function nodeScriptArgs(script: string | URL): string[] {
  const file = script instanceof URL ? fileURLToPath(script) : script;
  if (typeof file !== 'string' || file === '') {
    throw new HintgateError(
      'invalid_option',
      `nodeScriptArgs: script is ${JSON.stringify(file)}; give the path or file URL of a .js or .ts file`,
    );
  }
  if (!TYPESCRIPT.test(file)) return [file];
  const built = testBuildOf(file);
  if (built !== undefined) return [built];
  const loader = tsxLoaderFrom(file) ?? tsxLoaderFrom(import.meta.url);
  if (loader === undefined) {
    throw new HintgateError(
      'invalid_option',
      `nodeScriptArgs: "${file}" is TypeScript and tsx is not installed; run "npm install --save-dev tsx", or give the compiled .js file`,
    );
  }
  return ['--import', loader, file];
}
