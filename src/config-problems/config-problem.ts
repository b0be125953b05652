/**
 * Path of a value inside a configuration or policy: keys of mappings and indexes of lists,
 * e.g. `['rules', 2, 'decision']`.
 */
export type ConfigPath = (string | number)[];

/** A 1-based line and column in a configuration or policy file. */
export interface ConfigPosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly column: number;
}

/** Where a configuration came from, so that each problem can say where to fix it. */
export interface ConfigSource {
  /**
   * Name of the file, put at the start of every problem (`hintgate.yaml:12:5: ...`). Leave
   * it out for a value given in code: problems then start with the path (`rules[2]...`).
   */
  readonly file?: string | undefined;
  /**
   * Finds the position of the value at `path` (of its key, for a value in a mapping).
   * Returning `undefined` makes the problem fall back to the nearest enclosing value that
   * has a position. Default: no positions.
   */
  readonly locate?: ((path: ConfigPath) => ConfigPosition | undefined) | undefined;
}

/** One mistake found in a configuration or policy, before it is given a position. */
export interface ConfigProblem {
  /** Where the offending value is. */
  readonly path: ConfigPath;
  /** The rest of the sentence after the path, with its final punctuation. */
  readonly text: string;
}
