import { emitKeypressEvents, type Key } from 'node:readline';
import { HintgateError } from '../errors/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../policy/index.js';
import { formatApprovalRequest, paint } from './format-approval-request.js';

/**
 * The stream the approver reads keys from: `process.stdin`, or in tests a PassThrough
 * with `isTTY = true` and a `setRawMode` stub.
 */
export type TerminalInput = NodeJS.ReadableStream & {
  /** True for an interactive terminal; the approver refuses to prompt otherwise. */
  isTTY?: boolean;
  /** Whether raw mode is on; restored after each prompt. */
  isRaw?: boolean;
  /** Whether the stream is flowing (Node's `Readable#readableFlowing`); restored too. */
  readableFlowing?: boolean | null;
  /** Turns raw mode (one key at a time, no echo, Ctrl-C as a key) on or off. */
  setRawMode?: (mode: boolean) => unknown;
};

/** Options of {@link createTerminalApprover}. */
export interface TerminalApproverOptions {
  /** Where keys are read from. Default `process.stdin`; must be a TTY. */
  readonly input?: TerminalInput;
  /**
   * Where the prompt is written. Default `process.stderr`, so that stdout stays free for
   * a program's output (and for an MCP stdio transport).
   */
  readonly output?: NodeJS.WritableStream;
  /**
   * Use ANSI colours. Default: on when `output` is a TTY and the `NO_COLOR` environment
   * variable is unset or empty.
   */
  readonly color?: boolean;
}

interface Choice {
  readonly label: string;
  readonly shortcut: string;
  readonly answer: ApprovalAnswer;
  readonly summary: string;
}

const CHOSEN = 'chosen in the terminal';
const DENIED: ApprovalAnswer = { decision: 'deny', reason: 'denied in the terminal' };
const CANCELLED: ApprovalAnswer = { decision: 'deny', reason: 'approval cancelled' };

const CHOICES: readonly Choice[] = [
  {
    label: 'Allow once',
    shortcut: 'y',
    answer: { decision: 'allow', remember: 'once', reason: CHOSEN },
    summary: 'Allowed once.',
  },
  {
    label: 'Allow for this session',
    shortcut: 's',
    answer: { decision: 'allow', remember: 'session', reason: CHOSEN },
    summary: 'Allowed for this session.',
  },
  {
    label: 'Always allow (this project)',
    shortcut: 'a',
    answer: { decision: 'allow', remember: 'always', reason: CHOSEN },
    summary: 'Always allowed in this project.',
  },
  { label: 'Deny', shortcut: 'n', answer: DENIED, summary: 'Denied.' },
];

/**
 * The choices offered for `request`: Allow once, then the ways it can be remembered
 * (`request.remember`), then Deny.
 */
function choicesFor(request: ApprovalRequest): readonly Choice[] {
  // Requests built by hand before `remember` existed offer every choice.
  const offered: readonly string[] = Array.isArray(request.remember)
    ? request.remember
    : ['once', 'session', 'always'];
  return CHOICES.filter(
    (choice) =>
      choice.answer.decision === 'deny' || offered.includes(choice.answer.remember ?? 'once'),
  );
}

/** The key hint under the choices, naming only the shortcuts offered. */
function hintFor(choices: readonly Choice[]): string {
  const named = choices
    .filter((choice) => choice.answer.decision === 'allow')
    .map((choice) => `${choice.shortcut} ${choice.answer.remember ?? 'once'}`);
  return `Up/Down move, Enter chooses; ${[...named, 'n or Esc deny'].join(', ')}`;
}

const NOT_A_TTY =
  'The terminal approver needs an interactive terminal (stdin is not a TTY); run hintgate in a terminal, or pass another approver (e.g. one that asks through MCP elicitation), or allow the calls without asking through policy rules or the mode ("auto", "yolo").';

const isTty = (stream: object): boolean => 'isTTY' in stream && stream.isTTY === true;

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips the prompt's own colours.
const SGR = /\u001b\[[0-9;]*m/gu;

/** Terminal rows `lines` take up on an output `columns` wide (unknown: one row each). */
function rowsOf(lines: readonly string[], columns: number | undefined): number {
  if (columns === undefined || columns <= 0) return lines.length;
  return lines.reduce(
    (rows, line) => rows + Math.max(1, Math.ceil(line.replace(SGR, '').length / columns)),
    0,
  );
}

const columnsOf = (output: object): number | undefined =>
  'columns' in output && typeof output.columns === 'number' ? output.columns : undefined;

function choiceLines(choices: readonly Choice[], selected: number, color: boolean): string[] {
  const lines = choices.map((choice, index) =>
    index === selected
      ? paint(color, `  > ${choice.label} (${choice.shortcut})`, 'bold', 'cyan')
      : `    ${choice.label} (${choice.shortcut})`,
  );
  lines.push(paint(color, `  ${hintFor(choices)}`, 'dim'));
  return lines;
}

/** Shows one request and waits for a choice; resolves, never rejects, once it is shown. */
function promptOnce(
  request: ApprovalRequest,
  signal: AbortSignal,
  input: TerminalInput,
  output: NodeJS.WritableStream,
  color: boolean,
): Promise<ApprovalAnswer> {
  const redraw = isTty(output);
  const choices = choicesFor(request);
  const denyIndex = choices.length - 1;
  let selected = request.class === 'destructive' ? denyIndex : 0;
  output.write(`${[...formatApprovalRequest(request, { color }), ''].join('\n')}\n`);
  let block = choiceLines(choices, selected, color);
  output.write(`${block.join('\n')}\n`);
  // Cursor up over the choice block as drawn, then clear to the end of the screen.
  const erase = (): string =>
    redraw ? `\u001b[${rowsOf(block, columnsOf(output))}A\r\u001b[J` : '';

  return new Promise<ApprovalAnswer>((resolve) => {
    const wasRaw = input.isRaw === true;
    const wasFlowing = input.readableFlowing === true;
    const canRaw = typeof input.setRawMode === 'function';

    const cleanup = (): void => {
      input.removeListener('keypress', onKeypress);
      input.removeListener('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      if (canRaw) input.setRawMode?.(wasRaw);
      if (!wasFlowing) input.pause();
    };
    let done = false;
    const finish = (answer: ApprovalAnswer, summary: string): void => {
      if (done) return;
      done = true;
      cleanup();
      output.write(`${erase()}  ${paint(color, summary, 'bold')}\n`);
      resolve(answer);
    };
    const select = (index: number): void => {
      if (index === selected) return;
      selected = index;
      if (!redraw) {
        output.write(`  > ${choices[selected]?.label ?? ''}\n`);
        return;
      }
      const previous = erase();
      block = choiceLines(choices, selected, color);
      output.write(`${previous}${block.join('\n')}\n`);
    };
    const choose = (index: number): void => {
      const choice = choices[index];
      if (choice !== undefined) finish(choice.answer, choice.summary);
    };
    function onKeypress(_text: string | undefined, key: Key | undefined): void {
      const name = key?.name ?? '';
      if (key?.ctrl === true) {
        if (name === 'c' || name === 'd') finish(DENIED, 'Denied.');
      } else if (name === 'escape') {
        finish(DENIED, 'Denied.');
      } else if (key?.meta === true) {
        // Alt-combinations are no shortcuts: a stray Alt-y must not approve.
      } else if (name === 'up' || name === 'k') {
        select(Math.max(0, selected - 1));
      } else if (name === 'down' || name === 'j') {
        select(Math.min(denyIndex, selected + 1));
      } else if (name === 'return' || name === 'enter') {
        choose(selected);
      } else {
        const index =
          name === 'd' ? denyIndex : choices.findIndex((choice) => choice.shortcut === name);
        if (index >= 0) choose(index);
      }
    }
    function onAbort(): void {
      finish(CANCELLED, 'Cancelled.');
    }
    function onEnd(): void {
      finish(CANCELLED, 'Cancelled: the terminal closed.');
    }

    emitKeypressEvents(input);
    input.on('keypress', onKeypress);
    input.once('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
    if (canRaw) input.setRawMode?.(true);
    input.resume();
  });
}

/**
 * An {@link Approver} that asks the person at the terminal: it shows the request (tool,
 * class, origin, reason, approval keys, arguments) and a choice list — Allow once, Allow
 * for this session, Always allow (this project), Deny, the middle two only when the
 * request's `remember` lists them — chosen with the arrow keys (or k/j) and Enter, or the
 * shortcuts y, s, a and n/d. Ctrl-C and Escape deny. `Deny` is
 * preselected for destructive calls, `Allow once` otherwise.
 *
 * Requests are shown one at a time, in call order; one cancelled while it waits is denied
 * at once and never shown. Raw mode, the stream's flowing state
 * and its listeners are restored after each; an aborted signal resolves a denial with the
 * reason `approval cancelled`. Rejects with `invalid_option` when the input is not a TTY.
 * Node only: import it from `hintgate/terminal`.
 */
export function createTerminalApprover(options: TerminalApproverOptions = {}): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> => {
    const input = options.input ?? process.stdin;
    const output = options.output ?? process.stderr;
    if (!isTty(input)) throw new HintgateError('invalid_option', NOT_A_TTY);
    if (signal.aborted) return CANCELLED;
    const noColor = process.env.NO_COLOR;
    const color = options.color ?? (isTty(output) && (noColor === undefined || noColor === ''));
    return promptOnce(request, signal, input, output, color);
  };
  return (request, { signal }) => {
    const turn = queue.then(() => ask(request, signal));
    queue = turn.catch(() => {});
    // A request cancelled while it waits for its turn is answered at once, not when shown.
    return new Promise<ApprovalAnswer>((resolve, reject) => {
      const onAbort = (): void => resolve(CANCELLED);
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(
        (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  };
}
