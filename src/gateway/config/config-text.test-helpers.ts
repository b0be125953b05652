import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { parseGatewayConfigText } from './load-gateway-config.js';

/** One remote server: the least a `hintgate.yaml` needs, to test the sections beside it. */
const SERVERS = 'servers: { a: { url: "https://x.test/mcp" } }\n';

/**
 * Loads `text` (YAML, one or more top-level sections) as a `hintgate.yaml` at
 * `/project/hintgate.yaml` with one server added, expanding `${VAR}` from `env`.
 */
export const loadSection = (
  text: string,
  env: Record<string, string> = {},
): ReturnType<typeof parseGatewayConfigText> =>
  parseGatewayConfigText(`${SERVERS}${text}`, '/project/hintgate.yaml', { env });

/** `text` with the same server added, parsed as YAML but not loaded: for schema checks. */
export const sectionDocument = (text: string): unknown => parse(`${SERVERS}${text}`);

/** The message {@link loadSection} throws for `text`; throws when it loads. */
export const sectionFailure = (text: string, env: Record<string, string> = {}): string => {
  try {
    loadSection(text, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it loaded');
};

const schema: unknown = JSON.parse(
  await readFile(new URL('../../../schema/hintgate.schema.json', import.meta.url), 'utf8'),
);

/** The shipped `schema/hintgate.schema.json`, compiled strictly (first error only). */
export const validateConfigSchema = new Ajv2020({ strict: true, strictRequired: false }).compile(
  schema as object,
);
