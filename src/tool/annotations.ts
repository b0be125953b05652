/**
 * What a tool claims about itself, as in MCP's `ToolAnnotations`. Every hint has three
 * states: `true`, `false` and absent (`undefined`); absent is never the same as `false`.
 */
export interface ToolAnnotations {
  /** Human-readable title of the tool. */
  readonly title?: string;
  /** The tool does not change its environment. Spec default when absent: `false`. */
  readonly readOnlyHint?: boolean;
  /**
   * A non-read-only tool may perform destructive updates (as opposed to additive ones).
   * Spec default when absent: `true`. Meaningless when `readOnlyHint` is true.
   */
  readonly destructiveHint?: boolean;
  /**
   * Calling the tool again with the same arguments has no additional effect. Spec default
   * when absent: `false`. A read-only tool counts as idempotent.
   */
  readonly idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. Spec default: `true`. */
  readonly openWorldHint?: boolean;
  /**
   * Fields outside the MCP spec, carried as declared (a JSON object). hintgate reads one:
   * `rateLimit: { windowMs, max }`, a limit the tool declares on itself; it always applies,
   * trusted or not, since a limit only makes a tool safer to handle (see `defineTool`).
   */
  readonly custom?: Readonly<Record<string, unknown>>;
}

/** The four hints after the MCP spec defaults were applied: never absent. */
export interface EffectiveHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** Names of the four hints, in spec order. */
export const HINT_NAMES = [
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;

/** One of {@link HINT_NAMES}. */
export type HintName = (typeof HINT_NAMES)[number];

/** The effective hints of a tool that claims nothing: what the MCP spec assumes. */
export const SPEC_DEFAULT_HINTS: EffectiveHints = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});
