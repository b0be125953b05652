import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseGatewayConfigText } from './load-gateway-config.js';

const SERVERS = 'servers: { a: { url: "https://x.test/mcp" } }\n';
const load = (text: string, env: Record<string, string> = {}) =>
  parseGatewayConfigText(`${SERVERS}${text}`, '/project/hintgate.yaml', { env });
const failure = (text: string, env: Record<string, string> = {}): string => {
  try {
    load(text, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it loaded');
};
const schema: unknown = JSON.parse(
  await readFile(new URL('../../../schema/hintgate.schema.json', import.meta.url), 'utf8'),
);
const validate = new Ajv2020({ strict: true, strictRequired: false }).compile(schema as object);

describe('console: in hintgate.yaml', () => {
  it('is off unless stated, on with true or settings', () => {
    expect(load('').console).toBeUndefined();
    expect(load('console: false\n').console).toBeUndefined();
    expect(load('console: true\n').console).toEqual({});
    expect(
      load(`console: { port: 7777, token: "\${CONSOLE_TOKEN}" }\n`, {
        CONSOLE_TOKEN: 'a-long-enough-token',
      }).console,
    ).toEqual({ port: 7777, token: 'a-long-enough-token' });
  });

  it('says what is wrong with a bad port, a short token or an unknown key, without the token', () => {
    expect(failure('console: { port: 70000 }\n')).toContain(
      'console.port is 70000; use an integer from 0 to 65535',
    );
    const short = failure(`console: { token: "\${T}" }\n`, { T: 'sh0rt' });
    expect(short).toContain('console.token is 5 characters long; use at least 16');
    expect(short).not.toContain('sh0rt');
    expect(failure('console: { host: 0.0.0.0 }\n')).toContain(
      'the console listens on 127.0.0.1 only',
    );
    expect(failure('console: 7777\n')).toContain('console');
  });

  it('matches the schema', () => {
    for (const text of ['console: true\n', `console: { port: 0, token: "\${T}" }\n`]) {
      expect(validate(parse(`${SERVERS}${text}`))).toBe(true);
    }
    expect(validate(parse(`${SERVERS}console: { host: "x" }\n`))).toBe(false);
  });
});
