import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SCHEMA_URL } from '../gateway/index.js';

const SCHEMA_IN_PACKAGE = join('schema', 'hintgate.schema.json');

/** Options of {@link schemaReference}; the package's own schema file is injectable for tests. */
export interface SchemaReferenceOptions {
  /**
   * `hintgate.schema.json` of the hintgate that runs. Default: the one beside this module
   * in the installed package.
   */
  readonly ownSchema?: string;
  /** Whether a file exists. Default `fs.existsSync`. */
  readonly exists?: (path: string) => boolean;
}

/** A path for `$schema` relative to `directory`, with `/` separators and a leading `./`. */
const relativeTo = (directory: string, file: string): string => {
  const path = relative(directory, file);
  // On another Windows drive there is no relative path.
  if (isAbsolute(path)) return path.split(sep).join('/');
  const slashed = path.split(sep).join('/');
  return slashed.startsWith('.') ? slashed : `./${slashed}`;
};

/**
 * Where the configuration written into `directory` should point editors for its schema,
 * so that it works offline: the schema of a hintgate installed in the project
 * (`node_modules/hintgate` here or in a parent directory), else that of the hintgate that
 * runs (a global or local install), both as relative paths; only a hintgate run from
 * npx's temporary cache, which may be deleted, gets {@link DEFAULT_SCHEMA_URL}.
 */
export function schemaReference(directory: string, options: SchemaReferenceOptions = {}): string {
  const exists = options.exists ?? existsSync;
  for (let at = directory; ; at = dirname(at)) {
    const installed = join(at, 'node_modules', 'hintgate', SCHEMA_IN_PACKAGE);
    if (exists(installed)) return relativeTo(directory, installed);
    if (dirname(at) === at) break;
  }
  const own =
    options.ownSchema ??
    fileURLToPath(new URL('../../schema/hintgate.schema.json', import.meta.url));
  const temporary = own.split(sep).includes('_npx');
  return exists(own) && !temporary ? relativeTo(directory, own) : DEFAULT_SCHEMA_URL;
}
