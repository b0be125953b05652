import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../../audit/memory-audit-sink.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../policy/policy-types.js';
import { createRuntime } from '../../runtime/create-runtime.js';
import { defineTool } from '../../tool/define-tool.js';
import { createMcpHttpHandler } from './create-mcp-http-handler.js';
import { createMcpToolServer } from './create-mcp-tool-server.js';
import {
  connectInMemory,
  connectOverFetch,
  type ElicitationScript,
  ERAS,
  type Era,
  eventually,
} from './mcp-clients.test-helpers.js';

// An approval channel besides the client's own (what the web console is), on both eras.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A channel whose requests wait until the test answers them. */
const channel = () => {
  const waiting: { request: ApprovalRequest; answer: (a: ApprovalAnswer) => void }[] = [];
  const withdrawn: unknown[] = [];
  const approver: Approver = (request, { signal }) =>
    new Promise((resolve) => {
      const entry = { request, answer: resolve };
      waiting.push(entry);
      signal.addEventListener('abort', () => {
        withdrawn.push(signal.reason);
        waiting.splice(waiting.indexOf(entry), 1);
      });
    });
  return { approver, waiting, withdrawn };
};

const setup = async (era: Era, elicitation?: ElicitationScript) => {
  const runs: string[] = [];
  const remove = defineTool({
    name: 'remove',
    description: 'Deletes a file.',
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }) => {
      runs.push(path);
      return 'removed';
    },
  });
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({ tools: [remove], mode: 'ask', auditSinks: [audit] });
  const side = channel();
  const toolServer = createMcpToolServer({ runtime, approvalChannels: [side.approver] });
  const handler = createMcpHttpHandler({ toolServer });
  const client =
    era === 'legacy'
      ? await connectInMemory(toolServer, elicitation)
      : await connectOverFetch(handler, era, elicitation);
  cleanups.push(async () => {
    await client.close();
    await handler.close();
    await toolServer.close();
    await runtime.close();
  });
  return { runs, audit, side, client };
};

describe.each(ERAS)('an approval channel on the %s era', (era) => {
  it('holds the call of a client that cannot ask its user until the channel answers', async () => {
    const { runs, audit, side, client } = await setup(era);
    const call = client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    await eventually(() => side.waiting.length === 1);
    expect(runs).toEqual([]);
    side.waiting[0]?.answer({
      decision: 'allow',
      answeredBy: { channel: 'console', who: 'test' },
    });
    const result = await call;
    expect(result.isError ?? false).toBe(false);
    expect(runs).toEqual(['a.txt']);
    const granted = audit.events.find((event) => event.type === 'approval.granted');
    expect(granted?.answeredBy).toEqual({ channel: 'console', who: 'test' });
  });
});

describe('an approval channel beside a client that can ask', () => {
  it('2026-07-28: the question goes to the client through input_required, not to the channel', async () => {
    const { runs, side, client } = await setup('modern', {});
    const result = await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(result.isError ?? false).toBe(false);
    expect(runs).toEqual(['a.txt']);
    expect(client.forms).toHaveLength(1);
    expect(side.waiting).toEqual([]);
  });

  it('2025-11-25: the client answers first and the channel request is withdrawn', async () => {
    const { runs, side, client } = await setup('legacy', {});
    await client.client.callTool({ name: 'remove', arguments: { path: 'a.txt' } });
    expect(runs).toEqual(['a.txt']);
    expect(side.waiting).toEqual([]);
    expect(side.withdrawn).toHaveLength(1);
  });
});
