/** Small helpers for statistics and Markdown output. */
import { cpus, loadavg, totalmem } from 'node:os';

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Fixed-point number. */
export const fixed = (value: number, digits = 1): string => value.toFixed(digits);

/** `yes` / `no`. */
export const yesNo = (ok: boolean): string => (ok ? 'yes' : 'no');

/** A Markdown table; numeric-looking columns are right-aligned. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const numeric = headers.map((_, column) =>
    rows.every((row) => /^[-+]?[\d.,]+(\s?[a-zµ×x%]+)?$/.test(row[column] ?? '')),
  );
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const rule = headers.map((_, column) => (numeric[column] ? '---:' : '---'));
  return [line(headers), line(rule), ...rows.map(line)].join('\n');
}

/** The machine the run happened on. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly date: string;
  /** 1-minute load average at the start: other work on the machine skews timings. */
  readonly load: number;
}

/** Describes this machine and the current time. */
export function machine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    date: new Date().toISOString(),
    load: loadavg()[0] ?? 0,
  };
}

/** The 1-minute load average now. */
export const loadNow = (): number => loadavg()[0] ?? 0;

/**
 * Heading of the section of bench/RESULTS.md written by bench/compare-builds.ts; `npm run
 * bench` keeps that section when it rewrites the rest of the file.
 */
export const BUILD_COMPARISON_HEADING =
  '## 6. Before/after: per-call overhead of execute, two builds in one run';

/**
 * `text` with the section under `heading` (up to the next `## ` heading, or the end)
 * replaced by `body`, or with `body` appended when there is no such section. For the
 * sections of bench/RESULTS.md that scripts run apart from `npm run bench` write.
 */
export function replaceSection(text: string, heading: string, body: string): string {
  const at = text.indexOf(heading);
  if (at < 0) return `${text.trimEnd()}\n\n${body.trimEnd()}\n`;
  const next = text.indexOf('\n## ', at + heading.length);
  const rest = next < 0 ? '' : `\n${text.slice(next + 1)}`;
  return `${text.slice(0, at)}${body.trimEnd()}\n${rest}`;
}
