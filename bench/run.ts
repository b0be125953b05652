/** `npm run bench [-- --only a,b] [--quick] [--baseline <dist/>]`: sections into RESULTS.md. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { adapters } from './adapters.js';
import { catalog } from './catalog.js';
import { gateway } from './gateway.js';
import { loadNow, QUICK } from './measure.js';
import { type Context, type Goal, goal, met, type Result, render, writeResults } from './report.js';
import { overhead, scaling } from './runtime.js';
import { shell } from './shell.js';
import { state } from './state.js';
import { strategies } from './strategies.js';
import { suite } from './suite.js';

const SECTIONS: Record<string, readonly [string, (context: Context) => Promise<Result>]> = {
  strategies: ['strategies and read-only batches, sleeping tools', strategies],
  overhead: ['per-call cost of the pipeline, no-op tools', overhead],
  scaling: ['cost per call as batches grow; one call against `FunctionTool.invoke`', scaling],
  adapters: ["framework adapters against each framework's plain tools", adapters],
  shell: ['reading shell command lines', shell],
  gateway: ['the gateway hop: direct vs hintgate vs relays and mcp-proxy', gateway],
  catalog: ['big catalogs: gateway start, pin, selectTools', catalog],
  state: ['shared state: in-process vs Redis, through the gateway', state],
  suite: ['the test suite', suite],
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, quick: { type: 'boolean' }, baseline: { type: 'string' } },
  });
  const names = values.only?.split(',').map((name) => name.trim()) ?? Object.keys(SECTIONS);
  const unknown = names.filter((name) => !(name in SECTIONS));
  const all = Object.keys(SECTIONS).join(', ');
  if (unknown.length > 0)
    throw new Error(`--only: no section ${unknown.join(', ')}; sections: ${all}`);
  const baseline = values.baseline === undefined ? undefined : resolve(values.baseline);
  if (baseline !== undefined && !existsSync(join(baseline, 'cli', 'main.js')))
    throw new Error(
      `--baseline ${baseline}: no cli/main.js there; give the dist/ folder of an older build (run \`npm run build\` in its checkout).`,
    );
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const context: Context = { log, ...(baseline === undefined ? {} : { baseline }) };
  const written: { name: string; markdown: string }[] = [];
  const goals: Goal[] = [];
  for (const name of names) {
    const [title, measure] = SECTIONS[name] as (typeof SECTIONS)[string];
    const [date, loadStart] = [new Date().toISOString(), loadNow()];
    log(`${name}: started, load ${loadStart.toFixed(2)}`);
    const result = await measure(context).catch((error: unknown) => {
      log(`${name} crashed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    });
    // A crashed section keeps its figures in RESULTS.md and counts as a missed goal.
    if (!result) {
      goals.push(goal(`${name}: ran to the end`, 0, 1, '', 'least'));
      continue;
    }
    const markdown = render(name, title, { date, loadStart, loadEnd: loadNow(), baseline }, result);
    log(markdown);
    written.push({ name, markdown });
    goals.push(...result.goals.map((g) => ({ ...g, name: `${name}: ${g.name}` })));
  }
  if (!QUICK) writeResults(written);
  const missed = goals.filter((g) => !met(g));
  const quick = QUICK ? ' (quick run: figures mean nothing, RESULTS.md not written)' : '';
  log(`${goals.length - missed.length} of ${goals.length} goals met${quick}.`);
  if (missed.length === 0) return;
  log(`goals missed: ${missed.map((g) => g.name).join('; ')}`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
