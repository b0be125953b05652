import { parseYamlOrJson } from '../../config-problems/index.js';
import { HintgateError } from '../../errors/index.js';
import { readTextFile } from '../../fs/index.js';
import { checkGatewayConfig } from './check-gateway-config.js';
import type { EnvironmentVariables } from './expand-env.js';
import type { LoadedGatewayConfig } from './gateway-config.js';

/** Options of {@link parseGatewayConfigText}. */
export interface ParseGatewayConfigOptions {
  /** Where `${VAR}` references are looked up. Default `process.env`. */
  readonly env?: EnvironmentVariables | undefined;
}

/** Options of {@link loadGatewayConfig}. */
export interface LoadGatewayConfigOptions extends ParseGatewayConfigOptions {
  /**
   * Reads a file as UTF-8 text, given its absolute path. Default `fs.promises.readFile`.
   * Rejecting with an error whose `code` is `ENOENT` reports the file as missing.
   */
  readonly readFile?: ((path: string) => Promise<string>) | undefined;
}

const STARTER = 'run "hintgate init" for a commented starter';

/**
 * Reads and checks a gateway configuration file: `hintgate.yaml`, or JSON (also an MCP
 * client configuration with an `mcpServers` block, or VS Code's `servers`, as it is).
 * `.yaml`/`.yml` files are read as YAML, `.json` as strict JSON, anything else as JSON when
 * it starts with `{` and as YAML otherwise.
 *
 * @param path Path of the file, absolute or relative to the working directory. Messages
 *   name the file as given; relative paths inside it are resolved against its directory.
 * @throws HintgateError `invalid_option` when `path` is not a non-empty string, and
 *   `invalid_config` when the file is missing, unreadable, empty, not YAML or JSON, or
 *   wrong in any way; every problem is one line, `file:line:column: path what-to-fix`.
 */
export async function loadGatewayConfig(
  path: string,
  options: LoadGatewayConfigOptions = {},
): Promise<LoadedGatewayConfig> {
  const { text } = await readTextFile(path, {
    caller: 'loadGatewayConfig',
    what: 'configuration',
    readName: 'gateway configuration',
    notFound: 'Gateway configuration not found',
    howToCreate: STARTER,
    expected: 'hintgate.yaml or a .json file',
    code: 'invalid_config',
    readFile: options.readFile,
  });
  return parseGatewayConfigText(text, path, options);
}

/**
 * Parses and checks the text of a gateway configuration file, without reading it: the part
 * of {@link loadGatewayConfig} after reading.
 *
 * @param text The file's content.
 * @param file Its path: named in messages, chooses YAML or JSON by extension, and its
 *   directory (against the working directory when relative) anchors relative paths.
 * @throws HintgateError `invalid_config`, as {@link loadGatewayConfig}; `invalid_option`
 *   when `text` or `file` is not a string.
 */
export function parseGatewayConfigText(
  text: string,
  file: string,
  options: ParseGatewayConfigOptions = {},
): LoadedGatewayConfig {
  if (typeof text !== 'string' || typeof file !== 'string' || file === '') {
    throw new HintgateError(
      'invalid_option',
      `parseGatewayConfigText needs the text and a non-empty file name as strings, got ${typeof text} and ${typeof file}.`,
    );
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') {
    throw new HintgateError(
      'invalid_config',
      `${file}: the file is empty; list the servers to front under "servers" (${STARTER}).`,
    );
  }
  const parsed = parseYamlOrJson(source, file, { code: 'invalid_config' });
  if (parsed.value === undefined) {
    throw new HintgateError(
      'invalid_config',
      `${file}: the file has only comments; list the servers to front under "servers" (${STARTER}).`,
    );
  }
  return checkGatewayConfig(parsed.value, {
    file,
    path: file,
    locate: parsed.locate,
    env: options.env,
  });
}
