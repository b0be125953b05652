/** The reporting half of the bench harness: tables, goals, and sections of bench/RESULTS.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const RESULTS_PATH = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

/** A table cell: text as it is, a number formatted by {@link fmt}. */
export type Cell = string | number;

/** A number with 0, 2 or 3 decimals by size; NaN as `n/a`. */
const fmt = (value: Cell): string => {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return 'n/a';
  const size = Math.abs(value);
  return value.toFixed(size >= 100 || Number.isInteger(value) ? 0 : size >= 1 ? 2 : 3);
};

/** A Markdown table: `head` is the headers joined by `|`, a row has a cell per header. */
export function table(head: string, rows: readonly (readonly Cell[])[]): string {
  const headers = head.split('|');
  const cells = rows.map((row) => headers.map((_, c) => fmt(row[c] ?? '')));
  const numeric = headers.map((_, c) =>
    cells.every((row) => /^-?[\d.]+x?$|^n\/a$/.test(`${row[c]}`)),
  );
  const line = (values: readonly string[]): string => `| ${values.join(' | ')} |`;
  const rule = numeric.map((n) => (n ? '---:' : '---'));
  return [line(headers), line(rule), ...cells.map(line)].join('\n');
}

/** A figure at `most` (<=) or `least` (>=) a limit in `unit` (`x`: a ratio); NaN is missed. */
export const goal = (n: string, value: number, limit: number, unit = 'x', bound = 'most') =>
  ({ name: n, value, limit, unit, bound }) as const;
/** A goal made by {@link goal}. */
export type Goal = ReturnType<typeof goal>;

/** True when the goal is met. */
export const met = (g: Goal): boolean =>
  g.bound === 'most' ? g.value <= g.limit : g.value >= g.limit;

/** What a section's measurement gives back: one paragraph of method, tables, goals. */
export type Result = { method: string; tables: readonly string[]; goals: readonly Goal[] };
/** What a section's measurement is given: the dist/ of a `--baseline` build, a logger. */
export type Context = { baseline?: string; log: (line: string) => void };

/** When a section ran: its start, the load at its start and end, the baseline it ran against. */
type Run = { date: string; loadStart: number; loadEnd: number; baseline?: string | undefined };
/** Renders a section of bench/RESULTS.md. */
export function render(name: string, title: string, run: Run, result: Result): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const machine = `${cpu} (${cpus().length} cores, ${fmt(totalmem() / 1024 ** 3)} GiB), Node ${process.version}`;
  const based = run.baseline === undefined ? '' : ` Baseline: \`${run.baseline}\`.`;
  const context = `${run.date.slice(0, 19)}Z, ${machine}, load ${fmt(run.loadStart)} at the start, ${fmt(run.loadEnd)} at the end (\`npm run bench -- --only ${name}\`).${based}`;
  const unit = (g: Goal): string => (g.unit === 'x' || g.unit === '' ? g.unit : ` ${g.unit}`);
  const goals = result.goals.map((g) => [
    g.name,
    `${fmt(g.value)}${unit(g)}`,
    `${g.bound === 'most' ? '<=' : '>='} ${g.limit}${unit(g)}`,
    met(g) ? 'met' : '**MISSED**',
  ]);
  const parts = [`## ${name}: ${title}`, context, `Method: ${result.method}`, ...result.tables];
  if (goals.length > 0) parts.push(table('goal|value|limit|met', goals));
  return `${parts.join('\n\n')}\n`;
}

/** `text` with the section whose heading starts with `heading` replaced by `body` (or appended). */
function replaceSection(text: string, heading: string, body: string): string {
  const at = text.indexOf(`\n${heading}`) + 1;
  if (at === 0) return `${text.trimEnd()}\n\n${body.trimEnd()}\n`;
  const next = text.indexOf('\n## ', at + heading.length);
  return `${text.slice(0, at)}${body.trimEnd()}\n${next < 0 ? '' : text.slice(next)}`;
}

/** Writes the sections (`name` and Markdown) into bench/RESULTS.md and rebuilds the summary. */
export function writeResults(parts: readonly { name: string; markdown: string }[]): void {
  let text = readFileSync(RESULTS_PATH, 'utf8');
  for (const part of parts) text = replaceSection(text, `## ${part.name}:`, part.markdown);
  // The summary: per section its date, start load and goals met, from its goal table.
  const rows = text
    .split('\n## ')
    .slice(1)
    .filter((block) => !block.startsWith('Summary'))
    .map((block) => {
      const goals = block
        .split('\n')
        .filter((line) => /\| (met|\*\*MISSED\*\*) \|$/.test(line) && !line.startsWith('| goal |'));
      const missed = goals.filter((line) => line.endsWith('| **MISSED** |'));
      return [
        block.slice(0, block.indexOf(':')),
        /^(\d{4}-\d\d-\d\dT[\d:]+Z)/m.exec(block)?.[1] ?? '',
        /load ([\d.]+) at the start/.exec(block)?.[1] ?? '',
        `${goals.length - missed.length} of ${goals.length}`,
        missed.map((line) => line.split(' | ')[0]?.slice(2)).join('; '),
      ];
    });
  const head = 'section|date|load at start|goals met|missed';
  const summary = `## Summary\n\nGoals of each section, from its goal table below.\n\n${table(head, rows)}\n`;
  writeFileSync(RESULTS_PATH, replaceSection(text, '## Summary', summary));
}
