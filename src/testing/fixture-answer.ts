import { HintgateError } from '../errors/index.js';

/**
 * How the fixture server answers a call of one of its tools: the first of the tool's
 * `answers` whose `when` matches the call's arguments. Without a matching answer, a call
 * is answered with its echo, `"<name> <tool> <arguments as JSON>"`.
 */
export interface FixtureAnswer {
  /**
   * Arguments the call must have, each equal (as JSON) to the one given, for this answer to
   * be chosen: `{ key: 'missing' }`. Default: any call.
   */
  readonly when?: Readonly<Record<string, unknown>>;
  /**
   * The answer's text. `{arg}` in it is replaced by the call's argument `arg` as text.
   * Default the JSON of `structuredContent` when given, else the echo.
   */
  readonly text?: string;
  /** Structured content of the answer; `{arg}` in its string values as in `text`. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** Answers as a tool error (`isError: true`). Default false. */
  readonly isError?: boolean;
  /**
   * Milliseconds to wait before answering; a cancelled call stops waiting and its reason is
   * kept (the tool `cancelled_calls` tells them). Default 0.
   */
  readonly delayMs?: number;
  /** An argument that gives the delay in milliseconds instead, when the call has it. */
  readonly delayMsArgument?: string;
  /** Progress notifications to send first (when the call asked for progress). Default 0. */
  readonly progress?: number;
  /**
   * A built-in action instead of an answer: `pid` (the process id), `crash` (exits),
   * `meta` (the request's `_meta` as JSON), `meet` (answers once `of` calls of the tool,
   * default 2, run at once), `notify_changed` (sends `tools/list_changed`), `add_tools`
   * (adds {@link FixtureAnswer.tools} to the list and sends `list_changed`),
   * `cancelled_calls` (the reasons of the cancelled calls, as JSON), `header` (the HTTP
   * request header {@link FixtureAnswer.header}, `"nobody"` without it) and `drop_streams`
   * (HTTP: cuts the open notification streams, answers how many).
   */
  readonly run?: FixtureAction;
  /**
   * Over stdio, lines written as they are to the server's standard output before it
   * answers, where only whole JSON-RPC messages belong: a string as written, an object as
   * its JSON. For tests of a client facing a server that breaks the protocol.
   */
  readonly raw?: readonly (string | Readonly<Record<string, unknown>>)[];
  /**
   * Over stdio, answers the request with this JSON-RPC response of your own (its `jsonrpc`
   * and `id` added: `{}` gives a response with neither result nor error) and nothing else.
   */
  readonly rawResponse?: Readonly<Record<string, unknown>>;
  /** The tools `add_tools` adds. */
  readonly tools?: readonly Record<string, unknown>[];
  /** The header `header` answers. */
  readonly header?: string;
}

/** The built-in actions of {@link FixtureAnswer.run}. */
export type FixtureAction =
  | 'pid'
  | 'crash'
  | 'meta'
  | 'meet'
  | 'notify_changed'
  | 'add_tools'
  | 'cancelled_calls'
  | 'header'
  | 'drop_streams';

/** The built-in actions, for checks. */
export const FIXTURE_ACTIONS: readonly FixtureAction[] = [
  'pid',
  'crash',
  'meta',
  'meet',
  'notify_changed',
  'add_tools',
  'cancelled_calls',
  'header',
  'drop_streams',
];

/** Checks the `answers` of a tool (`where` names it in the message). */
export const checkAnswers = (where: string, answers: unknown): void => {
  const fail = (what: string): never => {
    throw new HintgateError('invalid_option', `${where}: ${what}`);
  };
  if (!Array.isArray(answers)) fail('answers must be a list of answers');
  for (const [index, answer] of (answers as unknown[]).entries()) {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      fail(`answers[${index}] must be an object such as { text: "done" }`);
    }
    const { when, run, delayMs } = answer as FixtureAnswer;
    if (when !== undefined && (typeof when !== 'object' || when === null || Array.isArray(when))) {
      fail(`answers[${index}].when must map argument names to values`);
    }
    if (run !== undefined && !FIXTURE_ACTIONS.includes(run)) {
      fail(
        `answers[${index}].run is ${JSON.stringify(run)}; use one of ${FIXTURE_ACTIONS.join(', ')}`,
      );
    }
    if (delayMs !== undefined && !(typeof delayMs === 'number' && delayMs >= 0)) {
      fail(`answers[${index}].delayMs is ${JSON.stringify(delayMs)}; use milliseconds, 0 or more`);
    }
  }
};

/** The answer of the call, among `answers`: the first whose `when` matches. */
export const chooseAnswer = (
  answers: readonly FixtureAnswer[] | undefined,
  args: Readonly<Record<string, unknown>>,
): FixtureAnswer | undefined =>
  answers?.find((answer) =>
    Object.entries(answer.when ?? {}).every(
      ([key, value]) => JSON.stringify(args[key]) === JSON.stringify(value),
    ),
  );

/** `{arg}` of `template` replaced by the call's arguments, as text. */
const fill = (template: string, args: Readonly<Record<string, unknown>>): string =>
  template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  );

/** `value` with `{arg}` filled in each string in it. */
export const fillAll = (value: unknown, args: Readonly<Record<string, unknown>>): unknown => {
  if (typeof value === 'string') return fill(value, args);
  if (Array.isArray(value)) return value.map((item) => fillAll(item, args));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillAll(v, args)]));
  }
  return value;
};
