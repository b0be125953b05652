/**
 * The reporting half of the bench harness: Markdown tables, a section of bench/RESULTS.md
 * (heading, one line of machine, date and load, one paragraph of method, tables), goals,
 * and the entry point of a bench file run alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadNow, type Machine, type PerCall, QUICK } from './measure.js';

export { loadNow, machine, median } from './measure.js';

/** bench/RESULTS.md. */
export const RESULTS_PATH = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

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

/** A measured variant against the baseline of its row group, for {@link perCallTable}. */
export interface PerCallRow {
  /** The first cells, one per label header. */
  readonly labels: readonly string[];
  readonly measured: PerCall;
  readonly baseline: PerCall;
}

/** A table of CPU and wall µs per call, each with its difference and ratio to the row's baseline. */
export const perCallTable = (
  labelHeaders: readonly string[],
  rows: readonly PerCallRow[],
): string =>
  table(
    [
      ...labelHeaders,
      'CPU µs/call',
      'CPU - baseline µs',
      'CPU / baseline',
      'wall µs/call',
      'wall / baseline',
    ],
    rows.map(({ labels, measured: m, baseline: b }) => [
      ...labels,
      fixed(m.cpuUs, 2),
      fixed(m.cpuUs - b.cpuUs, 2),
      fixed(m.cpuUs / b.cpuUs, 3),
      fixed(m.wallUs, 2),
      fixed(m.wallUs / b.wallUs, 3),
    ]),
  );

/**
 * `text` with the section under `heading` (up to the next `## ` heading, or the end)
 * replaced by `body`, or with `body` appended when there is no such section.
 */
export function replaceSection(text: string, heading: string, body: string): string {
  const at = text.indexOf(heading);
  if (at < 0) return `${text.trimEnd()}\n\n${body.trimEnd()}\n`;
  const next = text.indexOf('\n## ', at + heading.length);
  const rest = next < 0 ? '' : `\n${text.slice(next + 1)}`;
  return `${text.slice(0, at)}${body.trimEnd()}\n${rest}`;
}

/**
 * A goal: a figure measured against a baseline of the same run, and the most (or least) it
 * may be. A missed goal fails `npm run bench`.
 */
export interface Goal {
  /** What is compared with what, e.g. `4. HTTP calls/s / mcp-proxy's, 8 concurrent`. */
  readonly name: string;
  readonly value: number;
  readonly limit: number;
  /** `most`: value <= limit (a ratio or difference to keep small); `least`: value >= limit. */
  readonly bound: 'most' | 'least';
  /** Unit shown after the figures: `x` for a ratio, or `ms`, `µs`. */
  readonly unit: string;
}

/** True when the goal is met. */
export const met = (goal: Goal): boolean =>
  goal.bound === 'most' ? goal.value <= goal.limit : goal.value >= goal.limit;

/** A goal as one line: `name: 1.230x (at most 1.5x): met`; a NaN value is a goal reported missed by another file. */
export const goalLine = (goal: Goal): string =>
  Number.isNaN(goal.value)
    ? `${goal.name}: MISSED`
    : `${goal.name}: ${fixed(goal.value, 3)}${goal.unit} (${goal.bound === 'most' ? 'at most' : 'at least'} ${goal.limit}${goal.unit}): ${met(goal) ? 'met' : 'MISSED'}`;

/** A measured section: its Markdown and its goals. */
export interface SectionResult {
  readonly heading: string;
  readonly markdown: string;
  readonly goals: readonly Goal[];
}

/** What a section says besides its tables. */
export interface SectionInput {
  /** `## ...` heading; the section's key in bench/RESULTS.md. */
  readonly heading: string;
  /** The command that measures it alone, e.g. `bench/shell.ts`. */
  readonly command: string;
  /** The machine at the start of the measurement (its load is the start load). */
  readonly started: Machine;
  /** One paragraph: what is measured, how, and the goals. */
  readonly method: string;
  readonly tables: readonly string[];
  readonly goals?: readonly Goal[];
}

/** Renders a section: heading, machine/date/load line, method, tables. */
export function section(input: SectionInput): SectionResult {
  const { started: m } = input;
  const context = `${m.date.slice(0, 19)}Z, ${m.cpu} (${m.cores} cores, ${fixed(m.memoryGiB)} GiB), Node ${m.node}, load ${fixed(m.load, 2)} at the start, ${fixed(loadNow(), 2)} at the end (\`${input.command}\`).`;
  const markdown = [input.heading, context, `Method: ${input.method}`, ...input.tables].join(
    '\n\n',
  );
  return { heading: input.heading, markdown: `${markdown}\n`, goals: input.goals ?? [] };
}

/** Writes sections into bench/RESULTS.md, each replacing its own. */
export function writeSections(sections: readonly SectionResult[]): void {
  if (QUICK) throw new Error('HINTGATE_BENCH_QUICK figures mean nothing: not written.');
  let text = readFileSync(RESULTS_PATH, 'utf8');
  for (const part of sections) text = replaceSection(text, part.heading, part.markdown);
  writeFileSync(RESULTS_PATH, text);
}

/** Prints the goals; sets a failing exit code and returns the missed ones. */
export function judge(goals: readonly Goal[]): Goal[] {
  const missed = goals.filter((goal) => !met(goal));
  for (const goal of goals) process.stdout.write(`${goalLine(goal)}\n`);
  if (missed.length > 0) {
    process.stdout.write(`goals missed: ${missed.map((goal) => goal.name).join('; ')}\n`);
    process.exitCode = 1;
  }
  return missed;
}

/** True when `moduleUrl` is the script this process runs. */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === moduleUrl;

/** Prints a bench's crash and sets a failing exit code. */
export function crashed(error: unknown): void {
  process.stderr.write(
    `bench crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}

/**
 * The entry point of a bench file run alone (`npx tsx --tsconfig bench/tsconfig.json
 * bench/X.ts [--write]`): when `moduleUrl` is the script run, measures, prints the
 * section and its goals, and with `--write` writes it into bench/RESULTS.md.
 */
export function runAlone(
  moduleUrl: string,
  measure: () => Promise<SectionResult | readonly SectionResult[]>,
): void {
  if (!isMain(moduleUrl)) return;
  measure().then((result) => {
    const sections = 'heading' in result ? [result] : (result as readonly SectionResult[]);
    for (const part of sections) process.stdout.write(`\n${part.markdown}\n`);
    judge(sections.flatMap((part) => part.goals));
    if (process.argv.includes('--write')) writeSections(sections);
  }, crashed);
}
