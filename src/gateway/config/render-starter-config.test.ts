// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './load-gateway-config.js';
import { DEFAULT_SCHEMA_URL, renderStarterConfig } from './render-starter-config.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-starter-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadText(text: string, env: Record<string, string> = {}) {
  const file = join(dir, 'hintgate.yaml');
  await writeFile(file, text);
  return loadGatewayConfig(file, { env });
}

/** The starter with every commented-out setting switched on (prose is "# " and a word). */
function uncommented(text: string): string {
  return text.replace(/^#(?=[^ \n]| {2})/gm, '');
}

describe('renderStarterConfig', () => {
  it('writes a starter the loader accepts: one stdio server, mode, rules, pin and audit defaults', async () => {
    const text = renderStarterConfig();
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${DEFAULT_SCHEMA_URL}`);
    const config = await loadText(text);
    expect(config.servers).toEqual([
      {
        name: 'everything',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
        cwd: dir,
        trusted: false,
        tools: {},
      },
    ]);
    expect(config.mode).toBe('ask');
    expect(config.rules.map((rule) => rule.decision)).toEqual(['ask', 'allow']);
    expect(config.pin).toEqual({ path: join(dir, 'hintgate.lock'), newTools: 'pending' });
    expect(config.audit).toEqual({
      path: join(dir, '.hintgate', 'audit.jsonl'),
      arguments: false,
      sync: 'auto',
      maxSyncDelayMs: 50,
    });
    expect(config.downstream).toEqual({});
  });

  it('has commented-out settings that are valid once the "#" is deleted', async () => {
    const text = uncommented(renderStarterConfig());
    expect(text).not.toBe(renderStarterConfig());
    const config = await loadText(text, {
      API_KEY: 'key',
      REMOTE_TOKEN: 'remote',
      HINTGATE_TOKEN: 'a-long-token',
    });
    expect(config.servers).toMatchObject([
      {
        name: 'everything',
        env: { API_KEY: 'key' },
        concurrency: 4,
        tools: {
          echo: { annotations: { readOnlyHint: true, openWorldHint: false }, timeoutMs: 10000 },
          dangerous_tool: { disabled: true },
        },
      },
      { name: 'remote', transport: 'http', headers: { Authorization: 'Bearer remote' } },
    ]);
    expect(config.audit.rotate).toEqual({ maxBytes: 10_000_000, keep: 5 });
    expect(config.approvals.path).toBe(join(dir, '.hintgate', 'approvals.json'));
    expect(config.downstream).toEqual({
      http: { host: '127.0.0.1', port: 3000, token: 'a-long-token' },
    });
  });

  it('points editors at the schema it is given', () => {
    const text = renderStarterConfig({
      schemaUrl: './node_modules/hintgate/schema/hintgate.schema.json',
    });
    expect(text).toMatch(
      /^# yaml-language-server: \$schema=\.\/node_modules\/hintgate\/schema\/hintgate\.schema\.json\n/,
    );
  });
});
