import { describe, expect, it } from 'vitest';
import { createMemoryAuditSink } from '../../audit/index.js';
import { createRuntime } from '../../runtime/index.js';
import { defineTool, READ_ONLY } from '../../tool/index.js';
import { MessageTurns } from './message-turns.js';

/** A runtime whose one tool records the order calls start in, and turns whose end is run by hand. */
const setup = () => {
  const started: string[] = [];
  const audit = createMemoryAuditSink();
  const echo = defineTool({
    name: 'echo',
    description: 'Echo.',
    annotations: READ_ONLY,
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    execute: (_args, { callId }) => {
      started.push(callId);
      return callId;
    },
  });
  const runtime = createRuntime({ tools: [echo], auditSinks: [audit] });
  const deferred: Array<() => void> = [];
  const turns = new MessageTurns(
    () => runtime.turn(),
    (run) => deferred.push(run),
  );
  const call = (id: string, message?: { key: string; order: string[] }) =>
    turns.run(
      id,
      message === undefined ? undefined : { key: message.key, order: () => message.order },
      (turn) => turn.call({ id, name: 'echo' }),
    );
  const endOfTick = () => {
    for (const run of deferred.splice(0)) run();
  };
  const batchOf = (id: string) =>
    audit.events.find((e) => e.type === 'call.started' && e.callId === id)?.batchId;
  return { started, call, endOfTick, batchOf, runtime };
};

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 50; i += 1) await Promise.resolve();
  return done;
};

describe('MessageTurns', () => {
  it('admits a call that comes early only after the calls before it in the message', async () => {
    const { started, call, batchOf } = setup();
    const place = { key: 'm1', order: ['c1', 'c2', 'c3'] };
    const third = call('c3', place);
    const second = call('c2', place);
    expect(await settled(third)).toBe(false);
    const first = call('c1', place);
    await Promise.all([first, second, third]);
    expect(started).toEqual(['c1', 'c2', 'c3']);
    expect(new Set(['c1', 'c2', 'c3'].map(batchOf)).size).toBe(1);
  });

  it('takes a call that has not come by the end of the tick as not coming', async () => {
    const { started, call, endOfTick } = setup();
    const place = { key: 'm1', order: ['c1', 'c2'] };
    const second = call('c2', place);
    expect(await settled(second)).toBe(false);
    endOfTick();
    expect((await second).status).toBe('ok');
    expect(started).toEqual(['c2']);
    // It comes after all: a turn of its own, at once.
    expect((await call('c1', place)).status).toBe('ok');
  });

  it('runs a call id given twice in one message twice, in turns of their own', async () => {
    const { call, batchOf } = setup();
    const place = { key: 'm1', order: ['c1', 'c1'] };
    const results = await Promise.all([call('c1', place), call('c1', place)]);
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(batchOf('c1')).toBeDefined();
  });

  it('puts calls without a known message that come in one tick into one turn, in arrival order', async () => {
    const { started, call, batchOf, endOfTick } = setup();
    await Promise.all([call('x'), call('y')]);
    endOfTick();
    await call('z');
    expect(started).toEqual(['x', 'y', 'z']);
    expect(batchOf('x')).toBe(batchOf('y'));
    expect(batchOf('z')).not.toBe(batchOf('x'));
  });

  it('rejects the calls of a message once the runtime is closed, leaving none waiting', async () => {
    const { call, runtime } = setup();
    const place = { key: 'm1', order: ['c1', 'c2'] };
    const second = call('c2', place);
    await runtime.close();
    await expect(call('c1', place)).rejects.toThrow(/shutting down or closed/);
    await expect(second).rejects.toThrow(/shutting down or closed/);
  });
});
