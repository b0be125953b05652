import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../audit/index.js';
import { createRegistry } from '../registry/index.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

const tool = (name: string, ran: string[]) =>
  defineTool({
    name,
    description: `${name} tool`,
    annotations: READ_ONLY,
    inputSchema: z.object({}),
    execute: () => {
      ran.push(name);
      return 'ran';
    },
  });

describe('a tool its configuration holds back (blocked)', () => {
  it('is neither listed nor run, and a call to it is audited as any denial', async () => {
    const ran: string[] = [];
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'local',
      layer: 'project',
      trusted: true,
      tools: [tool('held', ran), tool('fine', ran)],
    });
    registry.configure('held', { blocked: { reason: 'tool "held" changed since it was pinned' } });
    const audit = createMemoryAuditSink();
    const runtime = createRuntime({
      registry,
      mode: 'yolo',
      rules: [{ tool: 'fine', decision: 'deny', reason: 'not today' }],
      auditSinks: [audit],
    });
    expect(runtime.listTools().map((listing) => listing.name)).toEqual(['fine']);
    expect(runtime.systemPrompt()).not.toContain('held');

    const [held, denied] = await runtime.execute([
      { id: '1', name: 'held', arguments: {} },
      { id: '2', name: 'fine', arguments: {} },
    ]);
    expect(ran).toEqual([]);
    expect(held?.error?.code).toBe('denied');
    expect(held?.content).toEqual([
      {
        type: 'text',
        text: 'The call to "held" was denied: tool "held" changed since it was pinned. Do not retry it unchanged; ask the user how to proceed or take another approach.',
      },
    ]);
    expect(denied?.error?.code).toBe('denied');
    const typesOf = (id: string) =>
      audit.events.filter((event) => 'callId' in event && event.callId === id).map((e) => e.type);
    expect(typesOf('1')).toEqual(typesOf('2'));
    const failed = audit.events.find(
      (event) => event.type === 'call.failed' && 'callId' in event && event.callId === '1',
    );
    expect(failed).toMatchObject({
      decision: 'deny',
      reason: 'tool "held" changed since it was pinned',
    });
    expect((await runtime.decide({ id: '3', name: 'held', arguments: {} })).decision).toBe('deny');
    await runtime.close();
  });
});
