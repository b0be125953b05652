import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest } from '../policy/policy-types.js';
import { createTerminalApprover } from './create-terminal-approver.js';

/** A PassThrough posing as a TTY, recording raw mode switches. */
class FakeTtyInput extends PassThrough {
  readonly isTTY = true;
  isRaw = false;
  readonly rawModes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    this.isRaw = mode;
    return this;
  }
}

/** Captures everything written, optionally posing as a TTY. */
class CapturedOutput extends PassThrough {
  text = '';
  constructor(readonly isTTY = false) {
    super();
    this.setEncoding('utf8');
    this.on('data', (chunk: string) => {
      this.text += chunk;
    });
  }
}

const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  ctrlC: '\u0003',
  escape: '\u001b',
} as const;

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId: 'call-1',
  tool: { name: 'write_file', title: 'Write a file', description: 'Writes text to a file.' },
  origin: 'fs-server',
  trusted: true,
  arguments: { path: 'notes/todo.txt', content: 'buy milk' },
  class: 'write',
  claimed: { readOnlyHint: false, destructiveHint: false },
  effective: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  approvalKeys: ['file:notes/todo.txt'],
  reason: 'mode "ask" asks before writes',
  position: 1,
  total: 1,
  remember: ['once', 'session', 'always'],
  ...overrides,
});

const destructive = (): ApprovalRequest =>
  request({
    tool: { name: 'delete_file', description: 'Deletes a file.' },
    class: 'destructive',
    claimed: {},
    effective: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    approvalKeys: ['file:notes/todo.txt'],
  });

function setup(options: { outputIsTty?: boolean; color?: boolean } = {}) {
  const input = new FakeTtyInput();
  const output = new CapturedOutput(options.outputIsTty ?? false);
  const approver = createTerminalApprover({
    input,
    output,
    ...(options.color === undefined ? {} : { color: options.color }),
  });
  const ask = (
    req: ApprovalRequest = request(),
    signal: AbortSignal = new AbortController().signal,
  ): Promise<ApprovalAnswer> => Promise.resolve(approver(req, { signal }));
  const shown = (text: string) => vi.waitFor(() => expect(output.text).toContain(text));
  const press = async (...keys: string[]) => {
    await shown('Enter chooses');
    for (const key of keys) input.write(key);
  };
  return { input, output, ask, press, shown };
}

const ALLOW = (remember: 'once' | 'session' | 'always'): ApprovalAnswer => ({
  decision: 'allow',
  remember,
  reason: 'chosen in the terminal',
});
const DENY: ApprovalAnswer = { decision: 'deny', reason: 'denied in the terminal' };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createTerminalApprover', () => {
  it.each([
    ['y', ALLOW('once')],
    ['Y', ALLOW('once')],
    ['s', ALLOW('session')],
    ['a', ALLOW('always')],
    ['n', DENY],
    ['d', DENY],
    [KEY.ctrlC, DENY],
  ])('answers shortcut %j with the matching answer', async (key, expected) => {
    const { ask, press } = setup();
    const answer = ask();
    await press(key);
    expect(await answer).toEqual(expected);
  });

  it('offers only the ways the request can be remembered', async () => {
    const { ask, press, output } = setup();
    const answer = ask(request({ remember: ['once'] }));
    // Neither "a" nor "s" is offered: they do nothing, and Down from Allow once is Deny.
    await press('a', 's', KEY.down, KEY.enter);
    expect(await answer).toEqual(DENY);
    expect(output.text).not.toContain('Always allow');
    expect(output.text).not.toContain('Allow for this session');
    expect(output.text).toContain('y once, n or Esc deny');
  });

  it('offers a session approval but not an always one when the request says so', async () => {
    const { ask, press, output } = setup();
    const answer = ask(request({ remember: ['once', 'session'] }));
    await press('a', 's');
    expect(await answer).toEqual(ALLOW('session'));
    expect(output.text).not.toContain('Always allow');
  });

  it('denies on a lone Escape', async () => {
    const { ask, press } = setup();
    const answer = ask();
    await press(KEY.escape);
    expect(await answer).toEqual(DENY);
  });

  it('ignores other keys and Alt-combinations', async () => {
    const { ask, press } = setup();
    const answer = ask();
    await press('x', 'q', '\u001by', '?', 'n');
    expect(await answer).toEqual(DENY);
  });

  it('preselects Allow once for a write and Deny for a destructive call', async () => {
    const write = setup();
    const writeAnswer = write.ask();
    await write.press(KEY.enter);
    expect(await writeAnswer).toEqual(ALLOW('once'));
    expect(write.output.text).toContain('> Allow once');

    const dangerous = setup();
    const dangerousAnswer = dangerous.ask(destructive());
    await dangerous.press(KEY.enter);
    expect(await dangerousAnswer).toEqual(DENY);
    expect(dangerous.output.text).toContain('> Deny');
  });

  it.each([
    [[KEY.down, KEY.enter], ALLOW('session')],
    [[KEY.down, KEY.down, KEY.enter], ALLOW('always')],
    [['j', 'j', 'j', 'j', 'j', KEY.enter], DENY],
    [[KEY.down, KEY.down, KEY.up, KEY.enter], ALLOW('session')],
    [[KEY.up, KEY.up, KEY.enter], ALLOW('once')],
    [['j', 'j', 'k', KEY.enter], ALLOW('session')],
  ])('moves with arrows and j/k from Allow once: %j', async (keys, expected) => {
    const { ask, press } = setup();
    const answer = ask();
    await press(...keys);
    expect(await answer).toEqual(expected);
  });

  it('moves up from the preselected Deny of a destructive call', async () => {
    const { ask, press } = setup();
    const answer = ask(destructive());
    await press(KEY.up, KEY.enter);
    expect(await answer).toEqual(ALLOW('always'));
  });

  it('shows the position, tool, class, origin, trust, reason, keys and arguments', async () => {
    const { ask, press, output } = setup();
    const answer = ask(
      request({
        ...destructive(),
        trusted: false,
        approvalKeys: ['file:a.txt', 'file:b.txt'],
        arguments: { paths: ['a.txt', 'b.txt'], force: true },
        position: 2,
        total: 3,
      }),
    );
    await press('n');
    await answer;
    const text = output.text;
    expect(text).toContain('Approval 2/3:');
    expect(text).toContain('delete_file');
    expect(text).toContain('DESTRUCTIVE');
    expect(text).toContain('fs-server (untrusted');
    expect(text).toContain('mode "ask" asks before writes');
    expect(text).toContain('- file:a.txt');
    expect(text).toContain('- file:b.txt');
    expect(text).toContain(
      ['{', '  "paths": [', '    "a.txt",', '    "b.txt"', '  ],', '  "force": true', '}']
        .map((line) => `    ${line}`)
        .join('\n'),
    );
    for (const label of ['Allow once', 'Allow for this session', 'Always allow (this project)']) {
      expect(text).toContain(label);
    }
    expect(text).toContain('Denied.');
  });

  it('shows the title beside the name, and no destructive marker for a write', async () => {
    const { ask, press, output } = setup();
    const answer = ask();
    await press('y');
    await answer;
    expect(output.text).toContain('Write a file (write_file) [write]');
    expect(output.text).not.toContain('DESTRUCTIVE');
    expect(output.text).toContain('fs-server (trusted)');
  });

  it('neutralizes escapes and controls in arguments, keys, tool and reason', async () => {
    const { ask, press, output } = setup();
    const forged = '\u001b[2J\u001b[H\u001b[32mAllowed once.\u009b2J\u202eevil\r\n';
    const answer = ask(
      request({
        tool: { name: `bad\u001b[31m`, title: `Title\r\nApproval 9/9`, description: forged },
        origin: `srv${forged}`,
        reason: `why${forged}`,
        approvalKeys: [`file:${forged}`],
        arguments: { command: forged, [`key${forged}`]: 1 },
      }),
    );
    await press('n');
    await answer;
    const text = output.text;
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u009b');
    expect(text).not.toContain('\u202e');
    expect(text).not.toContain('\r');
    expect(text).toContain(
      '"command": "\\u001b[2J\\u001b[H\\u001b[32mAllowed once.\\u009b2J\\u202eevil',
    );
    expect(text).toContain('Title\\u000d\\u000aApproval 9/9 (bad\\u001b[31m)');
    expect(text).toContain('- file:\\u001b[2J');
  });

  it('keeps its own colours but none from the arguments on a colour TTY', async () => {
    const { ask, press, output } = setup({ outputIsTty: true, color: true });
    const answer = ask(request({ arguments: { command: '\u001b[2J\u001b[31mred' } }));
    await press('y');
    await answer;
    expect(output.text).toContain('\u001b[1m');
    expect(output.text).not.toContain('\u001b[2J');
    expect(output.text).not.toContain('\u001b[31mred');
  });

  it('cuts long strings, long arrays and big objects, with a note', async () => {
    const { ask, press, output } = setup();
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, i]));
    const answer = ask(
      request({
        arguments: {
          content: 'x'.repeat(5000),
          lines: Array.from({ length: 100 }, (_, i) => i),
          many,
        },
      }),
    );
    await press('n');
    await answer;
    const text = output.text;
    expect(text).not.toContain('x'.repeat(201));
    expect(text).toContain('(+4800 chars)');
    expect(text).toContain('80 more items');
    expect(text).not.toContain('field49');
    expect(text).toContain('more lines');
    expect(text).toContain('arguments shortened for display');
    expect(text.split('\n').length).toBeLessThan(70);
  });

  it('redraws the choice list in place on a TTY, and prints plainly otherwise', async () => {
    const tty = setup({ outputIsTty: true, color: false });
    const ttyAnswer = tty.ask();
    await tty.press(KEY.down);
    await vi.waitFor(() => expect(tty.output.text).toContain('\u001b[5A\r\u001b[J'));
    tty.input.write(KEY.enter);
    expect(await ttyAnswer).toEqual(ALLOW('session'));

    const plain = setup({ outputIsTty: false });
    const plainAnswer = plain.ask();
    await plain.press(KEY.down, KEY.enter);
    expect(await plainAnswer).toEqual(ALLOW('session'));
    expect(plain.output.text).not.toContain('\u001b');
    expect(plain.output.text).toContain('  > Allow for this session\n');
  });

  it('moves up over the rows the choice list wraps to on a narrow TTY', async () => {
    const { ask, press, output, input } = setup({ outputIsTty: true, color: false });
    Object.assign(output, { columns: 20 });
    const answer = ask();
    await press(KEY.down);
    // "    Always allow (this project) (a)" and the hint line wrap; the other lines do not.
    await vi.waitFor(() => expect(output.text).toContain('A\r\u001b[J'));
    const end = output.text.indexOf('A\r\u001b[J');
    const rows = Number(output.text.slice(output.text.lastIndexOf('\u001b[', end) + 2, end));
    expect(rows).toBeGreaterThan(5);
    input.write('n');
    await answer;
  });

  it('colours by default only on a TTY output without NO_COLOR', async () => {
    vi.stubEnv('NO_COLOR', '');
    const tty = setup({ outputIsTty: true });
    const ttyAnswer = tty.ask();
    await tty.press('y');
    await ttyAnswer;
    expect(tty.output.text).toContain('\u001b[1m');

    vi.stubEnv('NO_COLOR', '1');
    const noColor = setup({ outputIsTty: true });
    const noColorAnswer = noColor.ask();
    await noColor.press('y');
    await noColorAnswer;
    expect(noColor.output.text).not.toContain('\u001b[1m');
    expect(noColor.output.text).not.toContain('\u001b[0m');
  });

  it('rejects with a clear invalid_option error when the input is not a TTY', async () => {
    const output = new CapturedOutput();
    const approver = createTerminalApprover({ input: new PassThrough(), output });
    const answer = Promise.resolve(approver(request(), { signal: new AbortController().signal }));
    await expect(answer).rejects.toMatchObject({
      name: 'HintgateError',
      code: 'invalid_option',
      message: expect.stringContaining(
        'The terminal approver needs an interactive terminal (stdin is not a TTY)',
      ),
    });
    expect(output.text).toBe('');
  });

  it('turns raw mode on while asking, then restores it and removes its listeners', async () => {
    const { input, ask, press } = setup();
    const keypress = input.listenerCount('keypress');
    const end = input.listenerCount('end');
    const answer = ask();
    await press();
    expect(input.isRaw).toBe(true);
    expect(input.listenerCount('keypress')).toBe(keypress + 1);
    input.write('y');
    await answer;
    expect(input.rawModes).toEqual([true, false]);
    expect(input.listenerCount('keypress')).toBe(keypress);
    expect(input.listenerCount('end')).toBe(end);
    expect(input.readableFlowing).toBe(false);
  });

  it('leaves raw mode on when it was on before', async () => {
    const { input, ask, press } = setup();
    input.setRawMode(true);
    const answer = ask();
    await press('y');
    await answer;
    expect(input.rawModes).toEqual([true, true, true]);
    expect(input.isRaw).toBe(true);
  });

  it('resolves a cancelled denial on abort, restoring raw mode and listeners', async () => {
    const { input, ask, press, output } = setup();
    const keypress = input.listenerCount('keypress');
    const controller = new AbortController();
    const answer = ask(request(), controller.signal);
    await press();
    controller.abort();
    expect(await answer).toEqual({ decision: 'deny', reason: 'approval cancelled' });
    expect(input.rawModes).toEqual([true, false]);
    expect(input.listenerCount('keypress')).toBe(keypress);
    expect(output.text).toContain('Cancelled.');
  });

  it('does not prompt for an already aborted signal', async () => {
    const { input, ask, output } = setup();
    const answer = await ask(request(), AbortSignal.abort());
    expect(answer).toEqual({ decision: 'deny', reason: 'approval cancelled' });
    expect(output.text).toBe('');
    expect(input.rawModes).toEqual([]);
  });

  it('asks concurrent requests one at a time, in call order', async () => {
    const { ask, press, output, shown, input } = setup();
    const first = ask(request({ callId: 'a', position: 1, total: 2 }));
    const second = ask(destructive());
    await press();
    expect(output.text).toContain('Approval 1/2');
    expect(output.text).not.toContain('delete_file');
    input.write('y');
    await shown('delete_file');
    input.write('a');
    expect(await first).toEqual(ALLOW('once'));
    expect(await second).toEqual(ALLOW('always'));
  });

  it('denies a queued request cancelled while another is shown, without showing it', async () => {
    const { ask, press, output, input } = setup();
    const first = ask();
    const controller = new AbortController();
    const second = ask(destructive(), controller.signal);
    await press();
    controller.abort();
    expect(await second).toEqual({ decision: 'deny', reason: 'approval cancelled' });
    input.write('s');
    expect(await first).toEqual(ALLOW('session'));
    expect(output.text).not.toContain('delete_file');
  });
});
