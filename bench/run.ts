/**
 * `npm run bench` (builds, then runs this file against dist/): measures every section,
 * writes each into bench/RESULTS.md with a summary of the goals, and exits non-zero when a
 * goal (a ratio or a difference to a baseline measured in the same run) is missed, printing
 * which: the regression guard. Each section also runs alone from its own file.
 */
import { performance } from 'node:perf_hooks';
import { adaptersSection } from './adapters.js';
import { CATALOG_HEADING, catalogBench } from './catalog.js';
import { ROOT } from './gateway.js';
import { gatewaySection } from './gateway-section.js';
import { machine } from './measure.js';
import {
  crashed,
  fixed,
  type Goal,
  goalLine,
  judge,
  met,
  type SectionResult,
  section,
  writeSections,
} from './report.js';
import { SCALING_HEADING, scalingReport } from './scaling.js';
import { shellSection } from './shell.js';
import { overheadSection, readOnlySection, strategiesSection } from './strategies.js';

/** A section measured by another file's own renderer, with the goals it missed. */
const foreign = (heading: string, markdown: string, missed: readonly string[]): SectionResult => ({
  heading,
  markdown,
  goals: missed.map((name) => ({ name, value: Number.NaN, limit: 0, bound: 'most', unit: '' })),
});

async function main(): Promise<void> {
  const started = machine();
  const begin = performance.now();
  const log = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const steps: Array<readonly [string, () => Promise<SectionResult>]> = [
    ['1. strategies', strategiesSection],
    ['2. read-only batches', readOnlySection],
    ['3. per-call overhead', overheadSection],
    ['4. gateway', gatewaySection],
    ['5. shell lines', shellSection],
    ['adapters', () => adaptersSection()],
    [
      '7. scaling',
      async () => {
        const part = await scalingReport();
        return foreign(SCALING_HEADING, part.markdown, part.missed);
      },
    ],
    [
      '8. big catalogs',
      async () => {
        const part = await catalogBench([{ label: 'this build', root: ROOT }], log);
        return foreign(CATALOG_HEADING, part.markdown, part.failures);
      },
    ],
  ];
  const sections: SectionResult[] = [];
  for (const [name, measure] of steps) {
    log(`${name} (load ${fixed(machine().load, 2)})`);
    sections.push(await measure());
  }
  const goals: Goal[] = sections.flatMap((part) => part.goals);
  const summary = section({
    heading: '## Summary',
    command: 'npm run bench',
    started,
    method: `every section below that \`npm run bench\` writes, in one run of ${fixed((performance.now() - begin) / 1000)} s; each goal compares a figure with a baseline measured in the same run (section 7 and 8 list their own). A missed goal fails the run.`,
    tables: [
      goals
        .map(
          (goal) =>
            `- ${goalLine(goal).replace(/: (met|MISSED)$/, (_, v) => `: ${v === 'met' ? 'met' : '**missed**'}`)}`,
        )
        .join('\n'),
      `${goals.filter(met).length} of ${goals.length} goals met.`,
    ],
  });
  writeSections([summary, ...sections]);
  judge(goals);
}

main().catch(crashed);
