import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLockFile } from '../check/pin/index.js';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { ownValue } from '../tool/index.js';
import { createGateway } from './create-gateway.js';
import {
  type FixtureTool,
  resultText,
  tempDir,
  toolsFileServer,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// Real upstream processes (the tools-file fixture) whose tools, servers and argument names
// are those of Object.prototype members: none of them may crash the gateway or the pins,
// or stand for anything but itself.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

const fixtureTool = (name: string): FixtureTool => ({
  name,
  description: `The ${name} tool.`,
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(NAMES.map((arg) => [arg, { type: 'string' }])),
  },
});

/** Arguments named like the members, each an own key (`__proto__` too). */
const ARGUMENTS: Record<string, string> = Object.fromEntries(
  NAMES.map((arg) => [arg, `value of ${arg}`]),
);
/**
 * What an MCP client can send: the SDK's request schemas drop an argument named
 * `__proto__` on the way in (on the gateway as on any SDK server), so the rest.
 */
const CLIENT_ARGUMENTS = Object.fromEntries(
  Object.entries(ARGUMENTS).filter(([arg]) => arg !== '__proto__'),
);

/** The arguments of the tools/call requests a fixture read off the wire, as sent. */
const wireArguments = async (path: string): Promise<Record<string, unknown>[]> =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"tools/call"'))
    .map((line) => JSON.parse(line) as { params: { arguments: Record<string, unknown> } })
    .map((request) => request.params.arguments);

describe('tools, servers and arguments named __proto__, constructor, toString, valueOf, hasOwnProperty', () => {
  it('are pinned, read back from the lock file, listed and called through the gateway', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    // `alpha` lists all five; server `constructor` lists two of them too (so those are
    // prefixed) and one of its own; server `__proto__` lists one more.
    const alpha = await toolsFileServer(dir, 'alpha', NAMES.map(fixtureTool));
    const wire = join(dir, 'alpha.wire.log');
    const ctor = await toolsFileServer(dir, 'constructor', [
      fixtureTool('toString'),
      fixtureTool('valueOf'),
      fixtureTool('plain'),
    ]);
    const proto = await toolsFileServer(dir, '__proto__', [fixtureTool('only_here')]);
    const config = await writeConfig(dir, {
      servers: Object.fromEntries([
        [
          'alpha',
          {
            ...alpha.entry,
            env: { ...(alpha.entry.env as Record<string, string>), FIXTURE_WIRE_LOG: wire },
            trusted: true,
          },
        ],
        ['constructor', { ...ctor.entry, trusted: true }],
        ['__proto__', { ...proto.entry, trusted: true }],
      ]),
      mode: 'yolo',
    });
    expect(config.servers.map((server) => server.name)).toEqual([
      'alpha',
      'constructor',
      '__proto__',
    ]);

    const pinned = await pinGateway({ config });
    expect(pinned.changed).toBe(true);
    const lock = await readLockFile(config.pin.path);
    expect(Object.keys(lock.servers).sort()).toEqual(['__proto__', 'alpha', 'constructor']);
    expect(Object.keys(ownValue(lock.servers, 'alpha')?.tools ?? {}).sort()).toEqual(
      [...NAMES].sort(),
    );
    expect(Object.keys(ownValue(lock.servers, 'constructor')?.tools ?? {}).sort()).toEqual([
      'plain',
      'toString',
      'valueOf',
    ]);
    expect(Object.keys(ownValue(lock.servers, '__proto__')?.tools ?? {})).toEqual(['only_here']);
    // Pinning again finds every tool pinned, so nothing changes.
    const again = await pinGateway({ config });
    expect(again.changed).toBe(false);
    expect(again.reports.flatMap((report) => report.tools.map((state) => state.status))).toEqual(
      Array(9).fill('pinned'),
    );

    const errors: string[] = [];
    const notices: string[] = [];
    const gateway = await createGateway({
      config,
      watchPins: false,
      onNotice: (line) => notices.push(line),
      onError: (error) => errors.push(error.message),
    });
    cleanups.push(() => gateway.close());
    const { client, close } = await connectInMemory(gateway.toolServer);
    cleanups.push(close);

    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    const expected: [string, string, string][] = [
      ['__proto__', 'alpha', '__proto__'],
      ['constructor', 'alpha', 'constructor'],
      ['hasOwnProperty', 'alpha', 'hasOwnProperty'],
      ['alpha__toString', 'alpha', 'toString'],
      ['alpha__valueOf', 'alpha', 'valueOf'],
      ['constructor__toString', 'constructor', 'toString'],
      ['constructor__valueOf', 'constructor', 'valueOf'],
      ['plain', 'constructor', 'plain'],
      ['only_here', '__proto__', 'only_here'],
    ];
    expect(listed).toEqual(expected.map(([name]) => name).sort());
    expect(gateway.blockedTools().size).toBe(0);

    for (const [name, server, tool] of expected) {
      const result = (await client.callTool({ name, arguments: CLIENT_ARGUMENTS })) as {
        content: unknown[];
        isError?: boolean;
      };
      expect(result.isError, `${name}: ${resultText(result)}`).not.toBe(true);
      const text = resultText(result);
      expect(text.startsWith(`${server} ${tool} `), text).toBe(true);
      expect(JSON.parse(text.slice(`${server} ${tool} `.length))).toEqual(CLIENT_ARGUMENTS);
    }
    // Through the runtime, `__proto__` is an argument like the others, up to the wire.
    const [direct] = await gateway.runtime.execute([
      { id: 'c1', name: 'constructor', arguments: JSON.parse(JSON.stringify(ARGUMENTS)) },
    ]);
    expect(direct?.status).toBe('ok');
    const sent = await wireArguments(wire);
    expect(sent).toHaveLength(6);
    expect(sent.slice(0, 5)).toEqual(Array(5).fill(CLIENT_ARGUMENTS));
    expect(Object.keys(sent[5] ?? {}).sort()).toEqual([...NAMES].sort());
    expect(ownValue(sent[5], '__proto__')).toBe('value of __proto__');
    expect(errors).toEqual([]);
  });
});
