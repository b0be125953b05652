/**
 * Words for the problems found at one object of a schema, beyond what the schema says:
 * what its keys are called, the keys people write instead, and advice for known mistakes.
 * Keyed in {@link SchemaAdvice} by the object's JSON pointer in the schema.
 */
export interface SchemaAdviceEntry {
  /** Ends "is not ..." for a key the object does not allow, such as "a server key". */
  readonly what?: string;
  /** Words people reach for, mapped to the key they mean: `"did you mean"` that key. */
  readonly synonyms?: Readonly<Record<string, string>>;
  /**
   * Keys the object does not allow that need more than a suggestion (a key of another
   * client's format, a key that belongs elsewhere), mapped to the whole text after the key's
   * path; a function gets the key's value (to show it in an example).
   */
  readonly keys?: Readonly<Record<string, string | ((value: unknown) => string)>>;
  /**
   * The whole text after the value's path for an error of a keyword at this object
   * (`type`, `pattern`, `required`, `propertyNames`, `oneOf` when no branch fits,
   * `oneOf.many` when more than one does, `additionalProperties` for a key not allowed that
   * resembles no allowed key). A function gets the offending value (for `propertyNames` and
   * `additionalProperties`, the key).
   */
  readonly text?: Readonly<Record<string, string | ((subject: unknown) => string)>>;
  /**
   * What a value here must be, for any other keyword (`type`, `minimum`, `pattern`...):
   * the problem reads `is <value>; use <rule>.`, as in "a positive integer, the most calls
   * to this server at once".
   */
  readonly rule?: string;
}

/** {@link SchemaAdviceEntry} by JSON pointer of the schema object (`""` for the root). */
export type SchemaAdvice = Readonly<Record<string, SchemaAdviceEntry>>;
