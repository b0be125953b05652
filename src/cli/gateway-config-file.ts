import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type LoadedGatewayConfig, loadGatewayConfig } from '../gateway/early.js';

/** The configuration file `hintgate gateway`, `pin` and `init` use when not told otherwise. */
export const DEFAULT_CONFIG_FILE = 'hintgate.yaml';

/** A configuration, none (no `--config` and no default file), or why it cannot be used. */
export type ConfigChoice =
  | { readonly kind: 'loaded'; readonly config: LoadedGatewayConfig }
  | { readonly kind: 'none'; readonly looked: string }
  | { readonly kind: 'invalid'; readonly lines: readonly string[] };

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Loads `--config FILE`, else `hintgate.yaml` of `cwd` when there is one. Problems come
 * back one per line, as the loader reports them (file, line, column and the fix).
 */
export async function chooseGatewayConfig(
  given: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ConfigChoice> {
  const file = given ?? DEFAULT_CONFIG_FILE;
  if (given === undefined && !(await exists(join(cwd, file)))) {
    return { kind: 'none', looked: join(cwd, file) };
  }
  // Relative to the working directory, the file is named as given in messages.
  const path = resolve(cwd) === process.cwd() ? file : resolve(cwd, file);
  try {
    return { kind: 'loaded', config: await loadGatewayConfig(path, { env }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: 'invalid',
      lines: message.split('\n').filter((line) => line.trim() !== ''),
    };
  }
}
