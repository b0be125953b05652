import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime, type Runtime, type Turn } from '../../runtime/index.js';
import { defineTool, WRITE } from '../../tool/index.js';
import { CallOrder } from './call-order.js';

const note = defineTool({
  name: 'note',
  description: 'Write a note.',
  annotations: WRITE,
  inputSchema: z.object({ text: z.string() }),
  resources: ['note:one'],
  execute: ({ text }) => text,
});

let runtime: Runtime;
let turns: Turn[];
let order: CallOrder;
/** Call ids in the order they were handed to hintgate. */
let admitted: string[];

const setUp = () => {
  runtime = createRuntime({ tools: [note], mode: 'yolo' });
  turns = [];
  admitted = [];
  order = new CallOrder(() => {
    const turn = runtime.turn();
    turns.push(turn);
    return turn;
  });
};
afterEach(() => runtime.close());

/** What `execute` does: admit the call, which then runs the note tool. */
const execute = (callId: string, context: object, signal?: AbortSignal) =>
  order.admit(order.take(callId, context), callId, signal, (turn) => {
    admitted.push(callId);
    return turn.call(
      { id: callId, name: 'note', arguments: { text: callId } },
      signal === undefined ? {} : { signal },
    );
  });

const noteCall = (id: string) => ({ id, name: 'note', arguments: { text: id } });
const run = {};
const otherRun = {};
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CallOrder', () => {
  it('admits the calls of a step in the order they were checked, whatever order execute comes in', async () => {
    setUp();
    const checked = ['c1', 'c2', 'c3'].map((id) => order.check(noteCall(id), run));
    for (const call of checked) order.expect(call);

    const results = [execute('c3', run), execute('c2', run), execute('c1', run)];

    expect((await Promise.all(results)).map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(admitted).toEqual(['c1', 'c2', 'c3']);
    expect(turns).toHaveLength(1);
  });

  it('waits for a call still being checked, and not for one that was dropped', async () => {
    setUp();
    const [c1, c2, c3] = ['c1', 'c2', 'c3'].map((id) => order.check(noteCall(id), run));
    if (c1 === undefined || c2 === undefined || c3 === undefined) throw new Error('unreachable');
    order.expect(c3);
    const third = execute('c3', run);
    await settle();
    expect(admitted).toEqual([]);

    order.drop(c1); // it waits for a person
    await settle();
    expect(admitted).toEqual([]);
    order.expect(c2);
    const second = execute('c2', run);

    await Promise.all([second, third]);
    expect(admitted).toEqual(['c2', 'c3']);
  });

  it('stops waiting when the call is cancelled: it ends cancelled without running', async () => {
    setUp();
    const [c1, c2] = ['c1', 'c2'].map((id) => order.check(noteCall(id), run));
    if (c1 === undefined || c2 === undefined) throw new Error('unreachable');
    order.expect(c1);
    order.expect(c2);
    const controller = new AbortController();
    const second = execute('c2', run, controller.signal);
    await settle();
    expect(admitted).toEqual([]);

    controller.abort(new Error('run aborted'));

    expect(await second).toMatchObject({ id: 'c2', status: 'cancelled', attempts: 0 });
    // c1 never came (the SDK cancelled it before execute): nothing waits for it.
    expect(admitted).toEqual(['c2']);
  });

  it('admits at once a call that comes without a check (a tool approved with alwaysApprove)', async () => {
    setUp();
    const c1 = order.check(noteCall('c1'), run);
    order.expect(c1);
    // c2 of the same run was never checked: it does not wait for c1.
    expect(await execute('c2', run)).toMatchObject({ status: 'ok' });
    expect(admitted).toEqual(['c2']);
    await execute('c1', run);
  });

  it('forgets the calls of a run that never came once the run checks its next step', async () => {
    setUp();
    const stale = order.check(noteCall('c1'), run);
    order.expect(stale); // then the SDK cancelled the step before execute
    await settle();

    const next = order.check(noteCall('c2'), run);
    order.expect(next);
    expect(await execute('c2', run)).toMatchObject({ status: 'ok' });
    // A late execute of the forgotten call does not wait for anything either.
    expect(await execute('c1', run)).toMatchObject({ status: 'ok' });
    expect(turns).toHaveLength(2);
  });

  it('keeps the calls of different runs apart: neither waits for the other', async () => {
    setUp();
    const mine = order.check(noteCall('c1'), run);
    const theirs = order.check(noteCall('c1'), otherRun);
    order.expect(mine);
    order.expect(theirs);
    const waiting = order.check(noteCall('c2'), run);
    order.expect(waiting);

    expect(await execute('c1', otherRun)).toMatchObject({ status: 'ok' });
    expect(admitted).toEqual(['c1']);
    await Promise.all([execute('c2', run), execute('c1', run)]);
    expect(admitted).toEqual(['c1', 'c1', 'c2']);
  });

  it('tells a call, once the calls before it were checked, which of them do not run now', async () => {
    setUp();
    const [c1, c2, c3, c4] = ['c1', 'c2', 'c3', 'c4'].map((id) => order.check(noteCall(id), run));
    if (c1 === undefined || c2 === undefined || c3 === undefined || c4 === undefined) {
      throw new Error('unreachable');
    }
    let blockers: readonly string[] | undefined;
    void Promise.resolve(order.blockersBefore(c4)).then((found) => {
      blockers = found.map((call) => call.call.id);
    });
    order.ask(c1);
    order.expect(c3);
    await settle();
    expect(blockers).toBeUndefined(); // c2 is still being checked
    order.hold(c2, c1);

    await settle();
    expect(blockers).toEqual(['c1', 'c2']);
    // Held calls are settled for the order: c3 runs at once; c2's execute takes its entry.
    expect(await execute('c3', run)).toMatchObject({ status: 'ok' });
    expect(order.take('c2', run)?.heldBehind).toBe(c1);
    expect(admitted).toEqual(['c3']);
  });

  it('gives a call id used twice in a step a turn of its own', async () => {
    setUp();
    const first = order.check(noteCall('dup'), run);
    const second = order.check(noteCall('dup'), run);
    order.expect(first);
    order.expect(second);

    const results = await Promise.all([execute('dup', run), execute('dup', run)]);

    expect(results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(new Set(turns.map((t) => t.id)).size).toBe(2);
  });
});
