import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../registry/index.js';
import { checkMcpServerOptions } from './mcp-server-options.js';

const registry = createRegistry();
const base = { name: 'github', registry };

const rejects = (options: unknown, message: RegExp): void => {
  let thrown: unknown;
  try {
    checkMcpServerOptions(options);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toMatchObject({ name: 'HintgateError', code: 'invalid_option' });
  expect((thrown as Error).message).toMatch(message);
};

describe('checkMcpServerOptions', () => {
  it('applies the defaults to a stdio server', () => {
    const checked = checkMcpServerOptions({ ...base, command: 'npx', args: ['-y', 'server'] });
    expect(checked).toMatchObject({
      name: 'github',
      target: { kind: 'stdio', command: 'npx', args: ['-y', 'server'] },
      layer: 'project',
      trusted: false,
      era: 'legacy',
      connectTimeoutMs: 30_000,
      reconnect: { initialDelayMs: 250, maxDelayMs: 30_000, maxAttempts: Number.POSITIVE_INFINITY },
    });
    expect(checked).not.toHaveProperty('concurrency');
  });

  it('accepts an http server with headers', () => {
    const checked = checkMcpServerOptions({
      ...base,
      url: 'http://127.0.0.1:3000/mcp',
      headers: { Authorization: 'Bearer t' },
      era: 'legacy',
      reconnect: false,
    });
    expect(checked.target).toEqual({
      kind: 'http',
      url: new URL('http://127.0.0.1:3000/mcp'),
      headers: { Authorization: 'Bearer t' },
    });
    expect(checked.reconnect).toBe(false);
    expect(checkMcpServerOptions({ ...base, url: 'http://127.0.0.1:3000/mcp' }).era).toBe('auto');
  });

  it('says how to reach the server when neither command nor url is given', () => {
    rejects(base, /MCP server "github": say how to reach the server: "command".*or "url"/);
  });

  it('refuses both command and url', () => {
    rejects(
      { ...base, command: 'npx', url: 'http://x/mcp' },
      /either "command".*or "url".*not both/,
    );
  });

  it('refuses a url that is not http(s)', () => {
    rejects(
      { ...base, url: 'ftp://example.com/mcp' },
      /url "ftp:\/\/example.com\/mcp" is not an http\(s\) URL/,
    );
    rejects({ ...base, url: 'localhost:3000' }, /is not an http\(s\) URL; write the full endpoint/);
  });

  it('refuses arguments that are not strings', () => {
    rejects(
      { ...base, command: 'node', args: ['server.js', 3000] },
      /args must be a list of strings.*write numbers as strings/,
    );
    rejects({ ...base, command: 'node', args: 'server.js' }, /args must be a list of strings/);
  });

  it('refuses options of the other transport', () => {
    rejects(
      { ...base, command: 'node', headers: { a: 'b' } },
      /"headers" only applies to a "url" server/,
    );
    rejects(
      { ...base, url: 'http://x/mcp', env: { A: 'b' } },
      /"env" only applies to a "command" server/,
    );
  });

  it('names unknown options and malformed ones', () => {
    rejects({ ...base, command: 'node', argv: [] }, /unknown option "argv"/);
    rejects(
      { ...base, command: 'node', env: { PORT: 3000 } },
      /env must be an object of string values/,
    );
    rejects(
      { ...base, command: 'node', registry: {} },
      /registry must be a registry made by createRegistry/,
    );
    rejects(
      { ...base, command: 'node', era: '2026' },
      /era "2026" is invalid; use auto, legacy, modern/,
    );
    rejects({ ...base, command: 'node', layer: 'user' }, /layer "user" is invalid/);
    rejects(
      { ...base, command: 'node', concurrency: 0 },
      /concurrency must be a positive integer or Infinity/,
    );
    rejects(
      { ...base, command: 'node', reconnect: { initialDelayMs: 0 } },
      /reconnect must be false or/,
    );
    rejects(
      { ...base, command: 'node', reconnect: { maxAttempts: 1.5 } },
      /reconnect must be false or/,
    );
    rejects(
      { ...base, command: 'node', reconnect: { constructor: 1, toString: 2 } },
      /reconnect must be false or/,
    );
    rejects({ ...base, name: '' }, /MCP server name "" is invalid/);
    rejects('npx server', /expects one options object/);
  });
});
