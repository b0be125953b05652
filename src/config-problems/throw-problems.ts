import { HintgateError, type HintgateErrorCode } from '../errors/index.js';
import type { ConfigPath, ConfigPosition, ConfigProblem, ConfigSource } from './config-problem.js';

/** Options of {@link throwProblems}. */
export interface ThrowProblemsOptions {
  /** The file the problems were found in, and how to find their positions. */
  readonly source?: ConfigSource | undefined;
  /** The error's code. Default `invalid_policy`. */
  readonly code?: HintgateErrorCode;
  /** How a problem with an empty path names the whole file. Default "the policy". */
  readonly root?: string;
}

/**
 * Throws one {@link HintgateError} listing `problems`, one per line in file order, each
 * as `file:line:column: path text` (the parts that are known); returns when there are none.
 * Two problems with the same path and text are reported once.
 */
export function throwProblems(
  problems: readonly ConfigProblem[],
  options: ThrowProblemsOptions = {},
): void {
  const { source, code = 'invalid_policy', root = 'the policy' } = options;
  if (problems.length === 0) return;
  const located = problems.map((problem) => ({
    problem,
    position: locate(problem.path, source?.locate),
  }));
  // In file order, so that fixing them top to bottom works; unplaced ones keep their order.
  located.sort((a, b) => compareLines(a.position, b.position));
  const lines = located.map(({ problem, position }) =>
    render(problem, position, source?.file, root),
  );
  throw new HintgateError(code, [...new Set(lines)].join('\n'));
}

function render(
  problem: ConfigProblem,
  position: ConfigPosition | undefined,
  file: string | undefined,
  root: string,
): string {
  const where = [file, position && `${position.line}:${position.column}`]
    .filter((part) => part !== undefined && part !== '')
    .join(':');
  return `${where === '' ? '' : `${where}: `}${formatPath(problem.path, root)} ${problem.text}`;
}

function compareLines(a: ConfigPosition | undefined, b: ConfigPosition | undefined): number {
  if (a === undefined || b === undefined)
    return (a === undefined ? 1 : 0) - (b === undefined ? 1 : 0);
  return a.line - b.line || a.column - b.column;
}

/** The position of `path`, or of the nearest enclosing value that has one. */
function locate(path: ConfigPath, finder: ConfigSource['locate']): ConfigPosition | undefined {
  if (finder === undefined) return undefined;
  for (let length = path.length; length >= 0; length -= 1) {
    try {
      const position = finder(path.slice(0, length));
      if (position !== undefined) return position;
    } catch {
      // A locator that fails only costs the position; the problem is still reported.
    }
  }
  return undefined;
}

/** `rules[2].decision`; keys that are not identifiers as `["a b"]`; the root as `root`. */
function formatPath(path: ConfigPath, root: string): string {
  if (path.length === 0) return root;
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
