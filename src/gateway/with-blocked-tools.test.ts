import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../audit/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { withBlockedTools } from './with-blocked-tools.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Reads',
  annotations: READ_ONLY,
  inputSchema: z.object({}),
  execute: () => 'found',
});

describe('withBlockedTools: execute', () => {
  it('answers every failure with a rejected promise, never a throw', async () => {
    const runtime = createRuntime({ mode: 'yolo', tools: [lookup] });
    const failing = withBlockedTools(runtime, {
      blocked: () => {
        throw new Error('the pin check failed');
      },
    });
    const calls = [{ id: '1', name: 'lookup' }];
    const thrown = failing.execute(calls);
    await expect(thrown).rejects.toThrow('the pin check failed');
    const open = withBlockedTools(runtime, { blocked: () => undefined });
    await expect(open.execute(calls, null as never)).rejects.toThrow(/options must be an object/);
    await expect(open.execute('nope' as never)).rejects.toMatchObject({ code: 'invalid_calls' });
    await runtime.close();
  });

  it('runs the calls that are not blocked and refuses the others with their reason, audited', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ mode: 'yolo', tools: [lookup] });
    const gated = withBlockedTools(runtime, {
      blocked: (name) => (name === 'lookup' ? undefined : 'its definition changed'),
      auditSinks: [sink],
    });
    const results = await gated.execute([
      { id: '1', name: 'lookup' },
      { id: '2', name: 'changed' },
    ]);
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ['1', 'ok'],
      ['2', 'denied'],
    ]);
    expect(results[1]?.error?.code).toBe('denied');
    expect(sink.events.map((event) => [event.type, event.callId])).toEqual([['call.failed', '2']]);
    await runtime.close();
  });
});

describe('withBlockedTools: turn and decide', () => {
  it('refuses calls of a turn to blocked tools with their reason, runs the others, and keeps call order in end()', async () => {
    const sink = createMemoryAuditSink();
    const runtime = createRuntime({ mode: 'yolo', tools: [lookup] });
    const gated = withBlockedTools(runtime, {
      blocked: (name) => (name === 'lookup' ? undefined : 'its definition changed'),
      auditSinks: [sink],
    });
    const turn = gated.turn();
    const refused = await turn.call({ id: '1', name: 'changed' });
    expect(refused).toMatchObject({ status: 'denied', error: { code: 'denied' } });
    expect(refused.error?.message).toContain('its definition changed');
    expect((await turn.call({ id: '2', name: 'lookup' })).status).toBe('ok');
    expect((await turn.end()).map((result) => [result.id, result.status])).toEqual([
      ['1', 'denied'],
      ['2', 'ok'],
    ]);
    expect(sink.events.map((event) => [event.type, event.callId, event.batchId])).toEqual([
      ['call.failed', '1', turn.id],
    ]);
    await expect(turn.call({ id: '', name: 'lookup' })).rejects.toMatchObject({
      code: 'invalid_calls',
    });
    await runtime.close();
  });

  it('decides deny for a blocked tool, with its reason, and asks the runtime for the others', async () => {
    const runtime = createRuntime({ mode: 'yolo', tools: [lookup] });
    const gated = withBlockedTools(runtime, {
      blocked: (name) => (name === 'lookup' ? undefined : 'it is not pinned yet'),
    });
    expect(await gated.decide({ id: '1', name: 'changed' })).toMatchObject({
      decision: 'deny',
      reason: 'it is not pinned yet',
    });
    expect(await gated.decide({ id: '2', name: 'lookup' })).toMatchObject({ decision: 'allow' });
    const failing = withBlockedTools(runtime, {
      blocked: () => {
        throw new Error('the pin check failed');
      },
    });
    await expect(failing.decide({ id: '3', name: 'lookup' })).rejects.toThrow(
      'the pin check failed',
    );
    await expect(failing.turn().call({ id: '4', name: 'lookup' })).rejects.toThrow(
      'the pin check failed',
    );
    await runtime.close();
  });
});
