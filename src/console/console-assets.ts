import { readFile } from 'node:fs/promises';

/** A file the console serves, with its media type. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly type: string;
}

/** The console's files: HTML, one script and one stylesheet per page; nothing else is served. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'login.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'login.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/**
 * Reads the console's files from `assets/` beside this module (in the package:
 * `dist/console/assets/`, copied there by `npm run build`). Only the names listed are
 * served, so a request can never name another file.
 */
export async function loadConsoleAssets(): Promise<ReadonlyMap<string, ConsoleAsset>> {
  const assets = new Map<string, ConsoleAsset>();
  for (const [name, type] of Object.entries(FILES)) {
    const body = await readFile(new URL(`./assets/${name}`, import.meta.url));
    assets.set(name, { body, type });
  }
  return assets;
}
