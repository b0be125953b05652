import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAuditSink } from '../audit/memory-audit-sink.js';
import { HintgateError } from '../errors/hintgate-error.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

/** A read-only tool that runs until `release()` is called or its signal aborts. */
function heldTool() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const aborts: unknown[] = [];
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const tool = defineTool({
    name: 'hold',
    description: 'Holds until released.',
    inputSchema: z.object({}),
    annotations: READ_ONLY,
    execute: async (_args, { signal }) => {
      started();
      await new Promise<void>((resolve) => {
        void released.then(resolve);
        signal.addEventListener('abort', () => {
          aborts.push(signal.reason);
          resolve();
        });
      });
      return 'released';
    },
  });
  return { tool, release: () => release(), running, aborts };
}

const setup = () => {
  const held = heldTool();
  const audit = createMemoryAuditSink();
  const runtime = createRuntime({ mode: 'yolo', tools: [held.tool], auditSinks: [audit] });
  return { ...held, audit, runtime };
};

const HOLD = [{ id: 'h', name: 'hold', arguments: {} }];

describe('runtime.close', () => {
  it('cancels the calls under way at once by default, audits them, then closes', async () => {
    const s = setup();
    const batch = s.runtime.execute(HOLD);
    await s.running;
    await s.runtime.close();

    const [result] = await batch;
    expect(result?.status).toBe('cancelled');
    expect(result?.error?.message).toContain('the runtime was closed while the call was under way');
    expect(s.aborts).toHaveLength(1);
    expect(s.aborts[0]).toBeInstanceOf(HintgateError);
    expect(s.audit.events.map((event) => [event.type, event.status])).toEqual([
      ['call.started', undefined],
      ['call.failed', 'cancelled'],
    ]);
  });

  it('lets a call under way finish within graceMs, and resolves only after it has', async () => {
    const s = setup();
    const batch = s.runtime.execute(HOLD);
    await s.running;
    let closed = false;
    const closing = s.runtime.close({ graceMs: 600_000 }).then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);

    s.release();
    await closing;
    const [result] = await batch;
    expect(result?.status).toBe('ok');
    expect(s.aborts).toEqual([]);
  });

  it('takes no more calls once closing: execute rejects with runtime_closed', async () => {
    const s = setup();
    const closing = s.runtime.close();
    await expect(s.runtime.execute(HOLD)).rejects.toMatchObject({
      code: 'runtime_closed',
      message: expect.stringContaining('takes no more calls'),
    });
    await closing;
    expect(s.runtime.close()).toBe(closing);
  });

  it('keeps a caller signal working: aborting it cancels only its own batch', async () => {
    const s = setup();
    const controller = new AbortController();
    const batch = s.runtime.execute(HOLD, { signal: controller.signal });
    await s.running;
    controller.abort(new Error('user pressed Esc'));
    const [result] = await batch;
    expect(result?.status).toBe('cancelled');
    expect(result?.error?.message).not.toContain('runtime was closed');
    await s.runtime.close();
  });

  it('rejects a bad graceMs with a message that says what to pass', async () => {
    const s = setup();
    await expect(s.runtime.close({ graceMs: -1 })).rejects.toThrow(
      'close: graceMs must be a number of milliseconds, 0 or more.',
    );
    // Still open: the mistake closed nothing.
    const batch = s.runtime.execute(HOLD);
    s.release();
    expect((await batch)[0]?.status).toBe('ok');
  });
});
