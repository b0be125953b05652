import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HintgateError } from '../errors/hintgate-error.js';
import { createRegistry } from '../registry/index.js';
import { AbortScope } from '../schedule/index.js';
import { createFakeClock } from '../testing/index.js';
import { defineTool } from '../tool/define-tool.js';
import { READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';
import { type Mark, scenarioTools, startTimes } from './scenario.test-helpers.js';

/** The fake clock of the test under way: `beforeEach` makes a new one. */
let clock = createFakeClock();

describe('execute: calls that cannot run', () => {
  it('answers an unknown tool with unknown_tool and lists the available ones', async () => {
    const runtime = createRuntime({ mode: 'yolo', tools: scenarioTools([], clock) });
    const [result] = await runtime.execute([{ id: '1', name: 'rm_rf', arguments: {} }]);
    expect(result).toMatchObject({ id: '1', status: 'error', isError: true, attempts: 0 });
    expect(result?.error?.code).toBe('unknown_tool');
    expect(result?.error?.message).toContain('destroy, read, write');
  });

  it('rejects arguments that fail the schema with the validator message, without running the tool', async () => {
    const execute = vi.fn((_args: unknown) => 'ran');
    const tool = defineTool({
      name: 'greet',
      description: 'Greets',
      inputSchema: z.object({ name: z.string().min(2) }),
      annotations: READ_ONLY,
      execute,
    });
    const runtime = createRuntime({ mode: 'yolo', tools: [tool] });
    const results = await runtime.execute([
      { id: 'a', name: 'greet', arguments: { name: 1 } },
      { id: 'b', name: 'greet', arguments: '{"name": "x"' },
      { id: 'c', name: 'greet', arguments: [1, 2] },
      { id: 'd', name: 'greet', arguments: '{"name":"Ada"}' },
    ]);
    expect(results.map((r) => r.error?.code)).toEqual([
      'invalid_arguments',
      'invalid_arguments',
      'invalid_arguments',
      undefined,
    ]);
    expect(results[0]?.error?.message).toMatch(/name: .*expected string/i);
    expect(results[1]?.error?.message).toContain('not valid JSON');
    expect(results[2]?.error?.message).toContain('an array');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]?.[0]).toEqual({ name: 'Ada' });
  });

  it('validates JSON Schema arguments and hands the tool its defaults', async () => {
    const tool = defineTool({
      name: 'count',
      description: 'Counts',
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer', default: 3 } },
        additionalProperties: false,
      },
      annotations: READ_ONLY,
      execute: (args) => `n=${String(args.n)}`,
    });
    const runtime = createRuntime({ mode: 'yolo', tools: [tool] });
    const [ok, bad] = await runtime.execute([
      { id: '1', name: 'count' },
      { id: '2', name: 'count', arguments: { n: 1, extra: true } },
    ]);
    expect(ok?.content).toEqual([{ type: 'text', text: 'n=3' }]);
    expect(bad?.error?.code).toBe('invalid_arguments');
    expect(bad?.error?.message).toContain('extra');
  });

  it('turns a thrown error (even a non-Error) into tool_error and never rejects', async () => {
    const tools = [
      defineTool({
        name: 'boom',
        description: 'Throws',
        inputSchema: z.object({}),
        annotations: WRITE,
        execute: () => {
          throw new Error('disk on fire');
        },
      }),
      defineTool({
        name: 'reject',
        description: 'Rejects with a string',
        inputSchema: z.object({}),
        annotations: WRITE,
        execute: () => Promise.reject('nope'),
      }),
    ];
    const runtime = createRuntime({ mode: 'yolo', tools });
    const results = await runtime.execute([
      { id: '1', name: 'boom' },
      { id: '2', name: 'reject' },
    ]);
    expect(results.map((r) => [r.status, r.error?.code, r.attempts])).toEqual([
      ['error', 'tool_error', 1],
      ['error', 'tool_error', 1],
    ]);
    expect(results[0]?.content).toEqual([
      { type: 'text', text: 'Tool "boom" failed: disk on fire' },
    ]);
    expect(results[1]?.error?.message).toContain('nope');
  });

  it('hides tools whose scopes the caller lacks', async () => {
    const tool = defineTool({
      name: 'customer_delete',
      description: 'Deletes a customer',
      inputSchema: z.object({}),
      scopes: ['customers.write'],
      execute: () => 'deleted',
    });
    const runtime = createRuntime({ mode: 'yolo', tools: [tool] });
    const [hidden] = await runtime.execute([{ id: '1', name: 'customer_delete' }]);
    expect(hidden?.error?.code).toBe('unknown_tool');
    expect(runtime.listTools()).toEqual([]);
    const [seen] = await runtime.execute([{ id: '2', name: 'customer_delete' }], {
      scopes: ['customers.write'],
    });
    expect(seen?.status).toBe('ok');
    expect(runtime.listTools({ scopes: ['customers.write'] }).map((t) => t.name)).toEqual([
      'customer_delete',
    ]);
  });

  it('rejects a malformed batch with invalid_calls naming the call', async () => {
    const runtime = createRuntime({ mode: 'yolo', tools: scenarioTools([], clock) });
    await expect(runtime.execute('read' as never)).rejects.toMatchObject({ code: 'invalid_calls' });
    await expect(runtime.execute([{ id: '', name: 'read' }])).rejects.toThrow(/calls\[0\]\.id/);
    await expect(
      runtime.execute([
        { id: 'x', name: 'read' },
        { id: 'x', name: 'read' },
      ]),
    ).rejects.toThrow(/calls\[0\] and calls\[1\] share the id "x"/);
    await expect(
      runtime.plan([
        { id: 'a', name: 'read' },
        { id: 'x', name: 'read' },
        { id: 'b', name: 'read' },
        { id: 'x', name: 'read' },
      ]),
    ).rejects.toThrow(/calls\[1\] and calls\[3\] share the id "x"/);
    await expect(runtime.plan([{ id: 'a', name: 'read' }, { id: 'b' } as never])).rejects.toThrow(
      /calls\[1\]\.name must be the tool name/,
    );
    await expect(
      runtime.execute([{ id: 'x', name: 'read', timeoutMs: -1 }]),
    ).rejects.toBeInstanceOf(HintgateError);
  });

  it('finds a repeated id in a batch of 10,000 calls, and takes the next batch with the same ids', async () => {
    const runtime = createRuntime({ mode: 'yolo', tools: scenarioTools([], clock) });
    const calls = Array.from({ length: 10_000 }, (_, n) => ({ id: `call_${n}`, name: 'read' }));
    const repeated = [...calls.slice(0, 9_999), { id: 'call_4321', name: 'read' }];
    await expect(runtime.plan(repeated)).rejects.toThrow(
      /calls\[4321\] and calls\[9999\] share the id "call_4321"/,
    );
    await expect(runtime.execute(repeated)).rejects.toThrow(
      /calls\[4321\] and calls\[9999\] share the id "call_4321"/,
    );
    // A batch that stopped at a call the caller got wrong leaves nothing of its ids behind.
    await expect(
      runtime.plan([...calls.slice(0, 5_000), { id: '', name: 'read' }]),
    ).rejects.toThrow(/calls\[5000\]\.id/);
    const plan = await runtime.plan(calls);
    expect(plan).toHaveLength(10_000);
    expect(plan.every((entry) => entry.runnable)).toBe(true);
  });

  it('rejects bad runtime options with what to fix', () => {
    expect(() => createRuntime({} as never)).toThrow(/give tools .* or a registry/);
    expect(() => createRuntime({ mode: 'yolo', tools: [], defaultTimeoutMs: 0 })).toThrow(
      /defaultTimeoutMs must be milliseconds in \(0, 2147483647\]/,
    );
    expect(() => createRuntime({ mode: 'yolo', tools: [], speed: 'max' } as never)).toThrow(
      /unknown option "speed"/,
    );
    expect(() => createRuntime({ mode: 'yolo', tools: [], registry: createRegistry() })).toThrow(
      /not both/,
    );
  });

  it.each([[null], [{}], [{ now: () => 0, setTimeout: () => 0 }], ['system']])(
    'rejects the clock %j with the shape it must have',
    (clock) => {
      expect(() => createRuntime({ mode: 'yolo', tools: [], clock } as never)).toThrow(
        /clock must be \{ now\(\), setTimeout\(callback, ms\), clearTimeout\(handle\) \}/,
      );
    },
  );
});

describe('execute: timeouts and cancellation', () => {
  let marks: Mark[];
  beforeEach(() => {
    clock = createFakeClock();
    marks = [];
  });

  const stubborn = (seen: AbortSignal[]) =>
    defineTool({
      name: 'hang',
      description: 'Never finishes on its own',
      inputSchema: z.object({ path: z.string().optional() }),
      annotations: WRITE,
      resources: (args) => (args.path === undefined ? [] : [`file:${args.path}`]),
      timeoutMs: 500,
      execute: (_args, context) =>
        new Promise((resolve) => {
          seen.push(context.signal);
          context.signal.addEventListener('abort', () =>
            clock.setTimeout(() => resolve('late'), 50),
          );
        }),
    });

  it('times out per tool, per call and by the runtime default, and aborts the tool signal', async () => {
    const seen: AbortSignal[] = [];
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [stubborn(seen), ...scenarioTools(marks, clock)],
      clock,
      defaultTimeoutMs: 30,
    });
    const done = runtime.execute([
      { id: 'tool', name: 'hang', arguments: { path: 'a' } },
      { id: 'call', name: 'hang', arguments: { path: 'b' }, timeoutMs: 100 },
      { id: 'default', name: 'read', arguments: { ms: 1000 } },
    ]);
    await clock.runAll();
    const results = await done;
    expect(results.map((r) => [r.status, r.error?.code, r.runMs])).toEqual([
      ['timeout', 'timeout', 500],
      ['timeout', 'timeout', 100],
      ['timeout', 'timeout', 30],
    ]);
    expect(seen.every((signal) => signal.aborted)).toBe(true);
    expect(results[0]?.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('500 ms'),
    });
  });

  it('keeps the locks of a timed-out call until the tool stops: [HANG(a) times out, WRITE(a)]', async () => {
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [stubborn([]), ...scenarioTools(marks, clock)],
      clock,
    });
    const done = runtime.execute([
      { id: 'h', name: 'hang', arguments: { path: 'a' } },
      { id: 'w', name: 'write', arguments: { path: 'a', ms: 10 } },
    ]);
    await clock.runAll();
    await done;
    // The tool stops 50 ms after its abort at 500 ms.
    expect(startTimes(marks)).toEqual({ w: 550 });
  });

  it('releases the locks of a tool that ignores its abort after the grace period', async () => {
    const deaf = defineTool({
      name: 'deaf',
      description: 'Ignores abort',
      inputSchema: z.object({}),
      annotations: WRITE,
      resources: ['file:a'],
      execute: () => new Promise(() => {}),
    });
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [deaf, ...scenarioTools(marks, clock)],
      clock,
      defaultTimeoutMs: 100,
      releaseGraceMs: 250,
    });
    const done = runtime.execute([
      { id: 'd', name: 'deaf' },
      { id: 'w', name: 'write', arguments: { path: 'a' } },
    ]);
    await clock.advance(1_000);
    const results = await done;
    expect(results[0]?.status).toBe('timeout');
    expect(startTimes(marks)).toEqual({ w: 350 });
  });

  it('cancels a batch: running tools see the abort, queued calls end cancelled without running', async () => {
    const seen: AbortSignal[] = [];
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [stubborn(seen), ...scenarioTools(marks, clock)],
      clock,
    });
    const controller = new AbortController();
    const done = runtime.execute(
      [
        { id: 'h', name: 'hang', arguments: { path: 'a' } },
        { id: 'w', name: 'write', arguments: { path: 'a' } },
        { id: 'r', name: 'read', arguments: { path: 'b', ms: 1000 } },
      ],
      { signal: controller.signal },
    );
    await clock.advance(20);
    controller.abort();
    await clock.runAll();
    const results = await done;
    expect(results.map((r) => [r.id, r.status, r.attempts])).toEqual([
      ['h', 'cancelled', 1],
      ['w', 'cancelled', 0],
      ['r', 'cancelled', 1],
    ]);
    expect(seen[0]?.aborted).toBe(true);
    expect(startTimes(marks)).toEqual({ r: 0 });
  });

  it('cancels a batch through an AbortScope as through an AbortSignal: [HANG(a), WRITE(a)]', async () => {
    const seen: AbortSignal[] = [];
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [stubborn(seen), ...scenarioTools(marks, clock)],
      clock,
    });
    const scope = new AbortScope();
    const done = runtime.execute(
      [
        { id: 'h', name: 'hang', arguments: { path: 'a' } },
        { id: 'w', name: 'write', arguments: { path: 'a' } },
      ],
      { signal: scope },
    );
    await clock.advance(20);
    scope.abort('enough');
    await clock.runAll();
    const results = await done;
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['h', 'cancelled'],
      ['w', 'cancelled'],
    ]);
    expect(seen[0]?.aborted).toBe(true);
    await expect(
      runtime.execute([{ id: 'r', name: 'read', arguments: { path: 'b' } }], {
        signal: { aborted: false } as unknown as AbortSignal,
      }),
    ).rejects.toThrow('execute: signal must be an AbortSignal (or an AbortScope).');
  });

  it('cancels everything when the signal is already aborted', async () => {
    const runtime = createRuntime({
      mode: 'yolo',
      tools: scenarioTools(marks, clock),
      clock,
    });
    const done = runtime.execute([{ id: 'r', name: 'read', arguments: {} }], {
      signal: AbortSignal.abort(),
    });
    await clock.runAll();
    const [result] = await done;
    expect(result?.status).toBe('cancelled');
    expect(marks).toEqual([]);
  });
});

describe('execute: odd things thrown', () => {
  it('reports a circular object or a BigInt thrown by a tool, and frees its locks', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const thrower = (name: string, value: unknown) =>
      defineTool({
        name,
        description: 'Throws an odd value',
        inputSchema: z.object({}),
        annotations: WRITE,
        resources: ['file:a'],
        execute: () => {
          throw value;
        },
      });
    const runtime = createRuntime({
      mode: 'yolo',
      tools: [thrower('circular', circular), thrower('big', 10n)],
    });
    const results = await runtime.execute([
      { id: '1', name: 'circular' },
      { id: '2', name: 'big' },
    ]);
    expect(results.map((r) => r.error?.code)).toEqual(['tool_error', 'tool_error']);
    expect(results[0]?.error?.message).toContain('[object Object]');
    const again = await runtime.execute([{ id: '3', name: 'big' }]);
    expect(again[0]?.error?.code).toBe('tool_error');
  });

  it('reports an output that throws while it is read as tool_error, and frees its locks', async () => {
    const odd = defineTool({
      name: 'odd',
      description: 'Returns an output whose content cannot be read',
      inputSchema: z.object({}),
      annotations: WRITE,
      resources: ['file:a'],
      execute: () => ({
        get content(): never {
          throw new Error('content is gone');
        },
      }),
    });
    const runtime = createRuntime({ mode: 'yolo', tools: [odd] });
    const [first] = await runtime.execute([{ id: '1', name: 'odd' }]);
    expect(first?.error).toEqual({
      code: 'tool_error',
      message: 'Tool "odd" failed: its output could not be checked (content is gone).',
    });
    const [again] = await runtime.execute([{ id: '2', name: 'odd' }]);
    expect(again?.error?.code).toBe('tool_error');
  });
});

describe('millisecond options beyond what timers honour', () => {
  it('rejects them with the limit, instead of timing out after 1 ms', async () => {
    expect(() => createRuntime({ tools: [], defaultTimeoutMs: 3e9 })).toThrow(/2147483647/);
    expect(() => createRuntime({ tools: [], releaseGraceMs: Number.POSITIVE_INFINITY })).toThrow(
      /releaseGraceMs/,
    );
    expect(() => createRuntime({ tools: [], approvalTimeoutMs: Number.POSITIVE_INFINITY })).toThrow(
      /approvalTimeoutMs/,
    );
    const runtime = createRuntime({ tools: scenarioTools([], clock) });
    await expect(runtime.execute([{ id: '1', name: 'read', timeoutMs: 2 ** 31 }])).rejects.toThrow(
      /timeoutMs/,
    );
    expect(() =>
      defineTool({
        name: 'slow',
        description: 'x',
        inputSchema: z.object({}),
        rateLimit: { max: 1, windowMs: 3e9 },
        execute: () => '',
      }),
    ).toThrow(/windowMs/);
  });
});

describe('options of the runtime methods', () => {
  it('rejects scopes that are not a list, which would otherwise match by substring', async () => {
    const admin = defineTool({
      name: 'admin_op',
      description: 'Admin only',
      inputSchema: z.object({}),
      annotations: READ_ONLY,
      scopes: ['admin'],
      execute: () => 'done',
    });
    const runtime = createRuntime({ tools: [admin] });
    await expect(
      runtime.execute([{ id: '1', name: 'admin_op' }], { scopes: 'superadmin' as never }),
    ).rejects.toThrow(/scopes must be a list/);
    expect(() => runtime.listTools({ scopes: 'notadmin' as never })).toThrow(
      /scopes must be a list/,
    );
    expect(() => runtime.registry.list({ scopes: 'notadmin' as never })).toThrow(
      /scopes must be a list/,
    );
    expect(() => runtime.listTools(null as never)).toThrow(/options must be an object/);
    await expect(runtime.plan([], null as never)).rejects.toThrow(/options must be an object/);
    // A rejection, not a throw: execute always answers with a promise.
    const nullOptions = runtime.execute([{ id: '1', name: 'admin_op' }], null as never);
    await expect(nullOptions).rejects.toThrow(/options must be an object/);
    expect(() => createRuntime({ registry: {} as never })).toThrow(
      /registry must be made by createRegistry/,
    );
  });
});
