// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkGatewayConfig } from './check-gateway-config.js';
import {
  FIXTURE_ENV,
  FIXTURES_DIR,
  fixtureNames,
  INVALID_FIXTURES,
} from './config-fixtures.test-helpers.js';
import { parseGatewayConfigText } from './load-gateway-config.js';
import { renderStarterConfig } from './render-starter-config.js';

const SCHEMA_FILE = new URL('../../../schema/hintgate.schema.json', import.meta.url);
const schema: unknown = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));

/** The shipped schema, compiled in strict mode: unknown keywords would fail here. */
function compile(): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false });
  return ajv.compile(schema as object);
}

const validate = compile();

function readFixture(kind: 'valid' | 'invalid', name: string): unknown {
  const text = readFileSync(join(FIXTURES_DIR, kind, name), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : parse(text);
}

/** Whether the loader accepts `value` (env references resolve against FIXTURE_ENV). */
function loaderAccepts(value: unknown): boolean {
  try {
    checkGatewayConfig(value, { path: '/project/hintgate.yaml', env: FIXTURE_ENV });
    return true;
  } catch {
    return false;
  }
}

describe('schema/hintgate.schema.json', () => {
  it('is a draft 2020-12 schema with a description on every property', () => {
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema' });
    const undocumented: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const [key, property] of Object.entries(properties ?? {})) {
        const described =
          typeof property === 'object' &&
          property !== null &&
          ('description' in property || '$ref' in property);
        if (!described) undocumented.push(`${path}.${key}`);
      }
      for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`);
    };
    walk(schema, '#');
    expect(undocumented).toEqual([]);
  });

  it('ships in the package as hintgate/schema.json', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as {
      files: string[];
      exports: Record<string, string>;
    };
    expect(pkg.files).toContain('schema');
    expect(new URL(`../../../${pkg.exports['./schema.json']}`, import.meta.url).href).toBe(
      SCHEMA_FILE.href,
    );
  });

  it('accepts every valid fixture', () => {
    for (const name of fixtureNames('valid')) {
      const ok = validate(readFixture('valid', name));
      expect({ name, ok, errors: validate.errors ?? null }).toEqual({
        name,
        ok: true,
        errors: null,
      });
    }
  });

  it('rejects every invalid fixture', () => {
    const names = fixtureNames('invalid');
    expect(names).toEqual(Object.keys(INVALID_FIXTURES).sort());
    for (const name of names) {
      expect({ name, ok: validate(readFixture('invalid', name)) }).toEqual({ name, ok: false });
    }
  });

  it('accepts the starter configuration', () => {
    expect(validate(parse(renderStarterConfig()))).toBe(true);
  });

  it('agrees with the loader on generated configurations', () => {
    // Both outcomes must be common, or agreement would say little.
    const accepted = fc.sample(configArbitrary(), { numRuns: 2000, seed: 1 }).filter(loaderAccepts);
    expect(accepted.length).toBeGreaterThan(100);
    expect(accepted.length).toBeLessThan(1900);
    fc.assert(
      fc.property(configArbitrary(), (config) => {
        expect({ config, schema: validate(config) }).toEqual({
          config,
          schema: loaderAccepts(config),
        });
      }),
      { numRuns: 600 },
    );
  });

  it('leaves to the loader what a schema cannot know: variables, globs, parsed URLs', () => {
    const cases = [
      { servers: { a: { url: '${UNSET_VARIABLE}/mcp' } } },
      { servers: { a: { command: 'npx' } }, rules: [{ tool: 'a{b', decision: 'deny' }] },
      { servers: { a: { url: 'http:' } } },
    ];
    for (const config of cases) {
      expect(validate(config)).toBe(true);
      expect(loaderAccepts(config)).toBe(false);
    }
    expect(() =>
      parseGatewayConfigText('servers: { a: { url: "http:" } }', '/p/hintgate.yaml'),
    ).toThrow('servers.a.url is "http:", not an http(s) URL');
  });
});

/** Mostly absent or one of `valid`; now and then one of `invalid`. */
function field(valid: unknown[], invalid: unknown[] = []): fc.Arbitrary<unknown> {
  const ok = fc.constantFrom(undefined, ...valid);
  if (invalid.length === 0) return ok;
  return fc.oneof(
    { weight: 25, arbitrary: ok },
    { weight: 1, arbitrary: fc.constantFrom(...invalid) },
  );
}

/** A mapping of the entries whose value is not `undefined`. */
function record(entries: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc
    .record(entries)
    .map((value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)));
}

/** Now and then a value that is wrong whatever else is right. */
function sometimes(...wrong: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 25, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...wrong) },
  );
}

function toolOverrideArbitrary(): fc.Arbitrary<unknown> {
  const override = record({
    timeoutMs: field([1000, 0.5, 2_147_483_647], [0, -1, '5', 2_147_483_648]),
    disabled: field([true, false], ['yes']),
    annotations: field(
      [{ readOnlyHint: true }, { title: 'T', openWorldHint: false }, null],
      [{ readOnly: true }, { title: 5 }, { destructiveHint: 'false' }],
    ),
    resources: field(
      [['file:{path}'], ['a:{x}/{y-z}'], [], null],
      [['file:{path'], ['{a b}'], 'file:{path}', ['']],
    ),
    rateLimit: field(
      [{ max: 1, windowMs: 10 }, { max: 1, windowMs: 10, maxWaitMs: 0 }, null],
      [
        { max: 1 },
        { max: 0, windowMs: 10 },
        { max: 1.5, windowMs: 10 },
        { max: 1, windowMs: 10, burst: 2 },
      ],
    ),
    timeout: sometimes(5),
  });
  return fc.oneof(
    { weight: 20, arbitrary: override },
    { weight: 1, arbitrary: fc.constantFrom(null, 'off', 3) },
  );
}

function serverArbitrary(): fc.Arbitrary<unknown> {
  const extras = {
    trusted: field([true, false], ['true']),
    concurrency: field([1, 8], [0, 2.5, '2']),
    tools: fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.dictionary(
        fc.oneof(
          { weight: 20, arbitrary: fc.constantFrom('search', 'read.file') },
          { weight: 1, arbitrary: fc.constantFrom('bad name', '') },
        ),
        toolOverrideArbitrary(),
        { maxKeys: 2 },
      ),
    ),
    comand: sometimes('npx'),
  };
  const stdio = record({
    type: field(['stdio'], ['http', 'sse', 'STDIO']),
    command: field(['npx', './bin/server'], ['', ' ', 5]),
    args: field([['-y', 'pkg'], null], [[1], '-y']),
    env: field(
      [{ A: 'b' }, { A: '${GITHUB_TOKEN}' }, null],
      [{ A: 1 }, { 'A=B': 'c' }, { A: 'x\ny' }],
    ),
    cwd: field(['sub', '/abs'], ['']),
    url: sometimes('https://x.test/mcp'),
    headers: sometimes({ A: 'b' }),
    envFile: sometimes('.env'),
    ...extras,
  });
  const http = record({
    type: field(['http'], ['stdio', 'sse']),
    url: field(['https://x.test/mcp', 'HTTP://X.TEST', '${API_BASE}/mcp'], ['ftp://x.test', '', 5]),
    headers: field(
      [{ Authorization: 'Bearer ${GITHUB_TOKEN}' }, null],
      [{ 'Bad Header': 'x' }, { X: 1 }, { X: 'a\rb' }],
    ),
    command: sometimes('npx'),
    args: sometimes([]),
    ...extras,
  });
  return fc.oneof(
    { weight: 10, arbitrary: stdio },
    { weight: 10, arbitrary: http },
    { weight: 1, arbitrary: fc.constantFrom(null, 'npx', []) },
  );
}

function configArbitrary(): fc.Arbitrary<unknown> {
  const servers = fc.oneof(
    {
      weight: 20,
      arbitrary: fc.dictionary(
        fc.oneof(
          { weight: 20, arbitrary: fc.constantFrom('github', 'a-b_1', '10') },
          { weight: 1, arbitrary: fc.constantFrom('my server', 'x'.repeat(65)) },
        ),
        serverArbitrary(),
        { minKeys: 1, maxKeys: 2 },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, {}, [], 'x') },
  );
  const config = fc
    .tuple(
      fc.constantFrom(
        'servers',
        'servers',
        'servers',
        'mcpServers',
        'mcpServers',
        'both',
        'neither',
      ),
      servers,
      servers,
      record({
        mode: field(['auto', 'ask'], ['careful']),
        rules: field(
          [null, [], [{ tool: 'github_*', decision: 'deny' }]],
          [[{ decision: 'block' }], [{ tool: 'x' }], 'deny'],
        ),
        audit: field(
          [
            {},
            null,
            { path: 'a.jsonl', arguments: true },
            { sync: 'auto' },
            { sync: 'always' },
            { sync: 'batched', maxSyncDelayMs: 20 },
            { rotate: { maxBytes: 10_000_000, keep: 3 } },
            { rotate: { daily: true } },
            { rotate: { maxBytes: 1024, daily: false } },
            { rotate: null },
          ],
          [
            { path: '' },
            { arguments: 'true' },
            { file: 'x' },
            { sync: 'never' },
            { sync: true },
            { rotate: { keep: 3 } },
            { rotate: { daily: false } },
            { rotate: { maxBytes: 100 } },
            { rotate: { maxBytes: '10MB' } },
            { rotate: { daily: 'yes' } },
            { rotate: { maxBytes: 4096, keep: 0 } },
            { rotate: { every: 'day' } },
            { rotate: 'daily' },
          ],
        ),
        approvals: field([{ path: 'x.json' }, null], [{ path: 3 }]),
        pin: field(
          [{ newTools: 'allow' }, { newTools: 'ask' }, { path: 'lock' }, null],
          [{ newTools: 'deny' }, 'lock'],
        ),
        downstream: field(
          [
            { http: { port: 3000, host: 'localhost' } },
            { http: null },
            { http: { token: '${HINTGATE_TOKEN}' } },
            { http: { token: 'long-enough-token' } },
            null,
          ],
          [
            { http: { port: 70000 } },
            { http: { port: '3000' } },
            { http: { token: 'short' } },
            { stdio: {} },
          ],
        ),
        $schema: field(['./schema.json'], [1]),
        inputs: field([[]], [{}]),
        rule: sometimes([]),
      }),
    )
    .map(([which, first, second, rest]) => ({
      ...(which === 'servers' || which === 'both' ? { servers: first } : {}),
      ...(which === 'mcpServers' || which === 'both' ? { mcpServers: second } : {}),
      ...(rest as object),
    }));
  return fc.oneof(
    { weight: 30, arbitrary: config },
    { weight: 1, arbitrary: fc.constantFrom(null, [], 'servers') },
  );
}
