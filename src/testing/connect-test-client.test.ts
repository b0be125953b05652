import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler, createMcpToolServer } from '../mcp/index.js';
import { createRuntime } from '../runtime/index.js';
import { WRITE } from '../tool/index.js';
import { connectTestClient } from './connect-test-client.js';
import { scriptedTool } from './scripted-tool.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A hintgate tool server in mode `ask` over one writing tool. */
const serve = () => {
  const save = scriptedTool({
    name: 'save_note',
    annotations: WRITE,
    steps: [{ result: 'saved' }],
  });
  const runtime = createRuntime({ tools: [save.tool], mode: 'ask' });
  const toolServer = createMcpToolServer({ runtime });
  const handler = createMcpHttpHandler({ toolServer });
  cleanups.push(
    () => runtime.close(),
    () => toolServer.close(),
    () => handler.close(),
  );
  return { save, toolServer, handler };
};

const textOf = (result: unknown): string =>
  (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('connectTestClient', () => {
  it('connects in memory to a tool server and answers its approval form as scripted', async () => {
    const { save, toolServer } = serve();
    const allowed = await connectTestClient({ to: toolServer, elicitation: {} });
    cleanups.push(() => allowed.close());
    expect(allowed.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const result = await allowed.client.callTool({ name: 'save_note', arguments: {} });
    expect(textOf(result)).toBe('saved');
    expect(allowed.forms).toHaveLength(1);
    expect(save.calls).toHaveLength(1);

    const denying = await connectTestClient({
      to: toolServer,
      elicitation: { answer: () => ({ action: 'accept', content: { decision: 'deny' } }) },
    });
    cleanups.push(() => denying.close());
    const denied = await denying.client.callTool({ name: 'save_note', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(save.calls).toHaveLength(1);
  });

  it('speaks 2026-07-28 to an HTTP handler through its fetch, and counts list changes', async () => {
    const { handler } = serve();
    const modern = await connectTestClient({ to: handler, era: 'modern', elicitation: {} });
    cleanups.push(() => modern.close());
    expect(modern.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await modern.client.listTools()).tools.map((tool) => tool.name)).toEqual(['save_note']);
    expect(modern.listChanges()).toBe(0);
  });

  it('refuses a missing target and an unknown era', async () => {
    await expect(connectTestClient({ to: undefined as never })).rejects.toThrow(/give `to`/);
    const { toolServer } = serve();
    await expect(connectTestClient({ to: toolServer, era: 'future' as 'modern' })).rejects.toThrow(
      /use "legacy" or "modern"/,
    );
  });
});
