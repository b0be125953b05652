import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { SourceLocation } from '../check/index.js';
import { MAX_CONFIG_FILE_BYTES, readRegularFile } from '../fs/index.js';

/**
 * How a file is named in reports: relative to `cwd` with `/` separators when it is inside
 * `cwd` (as code scanning wants paths relative to the repository root), else a `file:` URL.
 */
export function reportPath(file: string, cwd: string): string {
  const inside = relative(cwd, file);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) {
    return inside.split(sep).join('/');
  }
  return pathToFileURL(file).href;
}

/**
 * Where each server of a configuration file is defined: the line and column of its key under
 * `servers` or `mcpServers`. A server whose entry cannot be found is left out; a file that
 * cannot be read or parsed gives no locations (it was loaded before, so this is rare).
 */
export async function serverLocations(
  file: string,
  cwd: string,
): Promise<Map<string, SourceLocation>> {
  const locations = new Map<string, SourceLocation>();
  let text: string;
  try {
    text = (await readRegularFile(file, { maxBytes: MAX_CONFIG_FILE_BYTES })).text;
  } catch {
    return locations;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, {
    lineCounter,
    prettyErrors: false,
  });
  const shown = reportPath(file, cwd);
  const root = doc.contents;
  if (!isMap(root)) return locations;
  for (const block of root.items) {
    if (!isScalar(block.key) || !['servers', 'mcpServers'].includes(String(block.key.value))) {
      continue;
    }
    if (!isMap(block.value)) continue;
    for (const entry of block.value.items) {
      if (!isScalar(entry.key) || entry.key.range == null) continue;
      const { line, col } = lineCounter.linePos(entry.key.range[0]);
      locations.set(String(entry.key.value), { file: shown, line, column: col });
    }
  }
  return locations;
}
