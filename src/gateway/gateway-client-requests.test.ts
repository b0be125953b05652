import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from './create-gateway.js';
import {
  everythingServer,
  filesystemServer,
  resultText,
  tempDir,
  until,
  writeConfig,
} from './gateway.test-helpers.js';

// Requests upstream servers send their client (roots/list, sampling/createMessage,
// elicitation/create) reach the gateway's client that can answer them, over the real
// server-filesystem and server-everything.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const start = async (servers: Record<string, unknown>): Promise<Gateway> => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, { servers, mode: 'yolo', pin: { newTools: 'allow' } });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  return gateway;
};

/** An SDK client of the gateway declaring `capabilities`, answering with `handlers`. */
const client = async (
  gateway: Gateway,
  capabilities: ConstructorParameters<typeof Client>[1],
  setUp: (client: Client) => void = () => {},
): Promise<Client> => {
  const made = new Client({ name: 'relay-test', version: '1.0.0' }, capabilities);
  setUp(made);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.toolServer.createServer().connect(serverSide);
  await made.connect(clientSide);
  cleanups.push(() => made.close());
  return made;
};

type Result = { content: { type: string; text?: string }[]; isError?: boolean };

describe('requests of upstream servers to their client', () => {
  it("gives server-filesystem the roots of a client that has them: its allowed directories become the client's", async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const [configured, root] = [join(dir, 'configured'), join(dir, 'client-root')];
    await mkdir(configured);
    await mkdir(root);
    const gateway = await start({ files: filesystemServer(configured) });
    const allowed = async (c: Client) =>
      resultText((await c.callTool({ name: 'list_allowed_directories', arguments: {} })) as Result);

    const plain = await client(gateway, {});
    expect(await allowed(plain)).toContain(configured);

    const withRoots = await client(
      gateway,
      { capabilities: { roots: { listChanged: true } } },
      (c) =>
        c.setRequestHandler('roots/list', () => ({
          roots: [{ uri: pathToFileURL(root).href, name: 'the client root' }],
        })),
    );
    await until(async () => (await allowed(withRoots)).includes(root));
    expect(await allowed(withRoots)).not.toContain(configured);
  });

  it("offers server-everything's elicitation and sampling tools and relays their requests to the calling client, or fails the call when no client can answer", async () => {
    const gateway = await start({ everything: everythingServer() });
    const forms: unknown[] = [];
    const prompts: unknown[] = [];
    const able = await client(
      gateway,
      { capabilities: { elicitation: { form: {} }, sampling: {} } },
      (c) => {
        c.setRequestHandler('elicitation/create', (request) => {
          forms.push(request.params);
          return { action: 'accept', content: { name: 'Ada', check: true, integer: 7 } };
        });
        c.setRequestHandler('sampling/createMessage', (request) => {
          prompts.push(request.params);
          return {
            role: 'assistant',
            content: { type: 'text', text: 'sampled by the test client' },
            model: 'test-model',
          };
        });
      },
    );
    const names = (await able.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('trigger-elicitation-request');
    expect(names).toContain('trigger-sampling-request');

    const elicited = (await able.callTool({
      name: 'trigger-elicitation-request',
      arguments: {},
    })) as Result;
    expect(elicited.isError).toBeFalsy();
    expect(forms).toHaveLength(1);
    expect(JSON.stringify(forms[0])).toContain('Please provide inputs');
    expect(resultText(elicited)).toContain('Ada');

    const sampled = (await able.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 5 },
    })) as Result;
    expect(sampled.isError).toBeFalsy();
    expect(JSON.stringify(prompts[0])).toContain('hello');
    expect(resultText(sampled)).toContain('sampled by the test client');

    await able.close();
    const unable = await client(gateway, {});
    const refused = (await unable.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 5 },
    })) as Result;
    expect(resultText(refused)).toContain(
      'no client connected to the gateway can answer sampling/createMessage',
    );
  });
});
