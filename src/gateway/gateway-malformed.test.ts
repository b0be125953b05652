import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgv } from '../cli/serve-process.test-helpers.js';
import { initializeRequest } from '../mcp/server/mcp-clients.test-helpers.js';
import { fixtureServerEntry } from '../testing/index.js';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  type FixtureTool,
  REPO_ROOT,
  resultText,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from './gateway.test-helpers.js';

// Malformed messages, from an upstream (fixtures/malformed-tools.json, served by the fixture server of hintgate/testing: a line that is not
// JSON, responses of the wrong shape, notifications with malformed params) and from a
// client (garbage on the gateway's stdin): the affected call ends with an error, the
// problem is reported, and everything else keeps being served.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const READ: FixtureTool['annotations'] = { readOnlyHint: true, openWorldHint: false };

const malformedServer = (extra: Record<string, unknown> = {}) => ({
  ...fixtureServerEntry({
    name: 'malformed',
    toolsFile: fileURLToPath(new URL('./fixtures/malformed-tools.json', import.meta.url)),
  }),
  cwd: REPO_ROOT,
  trusted: true,
  ...extra,
});

const call = async (gateway: Gateway, name: string) => {
  const [result] = await gateway.runtime.execute([{ id: 'c1', name, arguments: {} }]);
  if (result === undefined) throw new Error('no result');
  return result;
};

const IGNORED = 'MCP server "bad" sent a message that could not be used, which was ignored';

describe('gateway over an upstream that sends malformed messages', () => {
  it('ends the affected call with an error, reports the message, and keeps serving that server and the others', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const other = await toolsFileServer(dir, 'other', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const config = await writeConfig(dir, {
      servers: {
        bad: malformedServer({ tools: { no_result: { timeoutMs: 500 } } }),
        other: { ...other.entry, trusted: true },
      },
      pin: { newTools: 'allow' },
      mode: 'yolo',
    });
    const errors: Error[] = [];
    const notices: string[] = [];
    const gateway = await createGateway({
      config,
      onError: (error) => errors.push(error),
      onNotice: (line) => notices.push(line),
      watchPins: false,
    });
    cleanups.push(() => gateway.close());
    expect(resultText(await call(gateway, 'ok'))).toBe('ok');

    // A line that is not JSON on the server's stdout is skipped; the call's answer after it counts.
    expect(resultText(await call(gateway, 'garbage_line'))).toBe('after garbage');
    expect(resultText(await call(gateway, 'ok'))).toBe('ok');

    // Notifications with malformed params: reported, each once, and the call is answered.
    expect(resultText(await call(gateway, 'bad_notification'))).toBe('after notifications');
    await until(() => errors.filter((error) => error.message.startsWith(IGNORED)).length === 3);

    // A response of the wrong shape ends its call with the reason.
    const badResult = await call(gateway, 'bad_result');
    expect(badResult.status).toBe('error');
    expect(badResult.error?.code).toBe('tool_error');
    expect(resultText(badResult)).toContain('Invalid result for tools/call');

    // A response that is no JSON-RPC message cannot be matched to its call: it is reported,
    // and the call ends at its timeout.
    const noResult = await call(gateway, 'no_result');
    expect(noResult.status).toBe('timeout');
    await until(() => errors.filter((error) => error.message.startsWith(IGNORED)).length === 4);
    expect(errors.every((error) => error.message.startsWith(IGNORED))).toBe(true);

    expect(resultText(await call(gateway, 'ok'))).toBe('ok');
    expect(resultText(await call(gateway, 'lookup'))).toBe('other lookup {}');
    expect(gateway.connections.get('bad')?.status).toBe('ready');
    expect(notices.join('\n')).not.toContain('was lost');
  });
}, 60_000);

/** The gateway CLI from the sources, over stdio, with raw lines written to its stdin. */
const rawGateway = (configFile: string) => {
  const child = spawn(process.execPath, cliArgv('gateway', ['--config', configFile]), {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  const messages = (): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    send: (line: string) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    messages,
    stderr: () => stderr,
    exited,
  };
};

describe('hintgate gateway over stdio, given garbage by its client', () => {
  it('answers each bad line with a JSON-RPC error, reports it on stderr, and keeps serving', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const fixture = await toolsFileServer(dir, 'fixture', [
      { name: 'lookup', description: 'Reads.', annotations: READ },
    ]);
    const configFile = join(dir, 'hintgate.yaml');
    await writeFile(
      configFile,
      JSON.stringify({
        servers: { fixture: { ...fixture.entry, trusted: true } },
        pin: { newTools: 'allow' },
      }),
    );
    const gateway = rawGateway(configFile);
    const byId = (id: unknown) => gateway.messages().find((message) => message.id === id);

    gateway.send(JSON.stringify(initializeRequest()));
    await until(() => byId(1) !== undefined, 30_000);
    gateway.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    gateway.send('this is not JSON {');
    await until(() => gateway.messages().length === 2);
    expect(gateway.messages()[1]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the message is not JSON' },
    });
    gateway.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 42 }));
    gateway.send(JSON.stringify({ hello: 'world' }));
    await until(() => gateway.messages().length === 4);
    expect(gateway.messages().slice(2)).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
    ]);

    // Still serving: a list and a call.
    gateway.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    gateway.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'lookup', arguments: {} },
      }),
    );
    await until(() => byId(3) !== undefined, 30_000);
    expect(byId(2)).toMatchObject({
      result: { tools: [expect.objectContaining({ name: 'lookup' })] },
    });
    expect(byId(3)).toMatchObject({
      result: { content: [{ type: 'text', text: 'fixture lookup {}' }] },
    });
    expect(gateway.stderr()).toContain(
      'hintgate gateway: An MCP client sent a line that is not JSON; it was answered with an error.',
    );
    expect(
      gateway.stderr().match(/An MCP client sent JSON that is not a JSON-RPC message/g),
    ).toHaveLength(2);

    // The client closing stdin still shuts the gateway down.
    gateway.end();
    expect(await gateway.exited).toBe(0);
  });
}, 60_000);
