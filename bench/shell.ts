/**
 * Part 5 of `npm run bench`: how long run_command's reading of a command line takes
 * (approval keys and the safety gate, with the bash grammar), from a 1 KiB line to the
 * longest one taken, and a 1 MB line refused. Alone: `npx tsx --tsconfig
 * bench/tsconfig.json bench/shell.ts [--write]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRuntime } from 'hintgate';
import {
  checkCommandSafety,
  commandApprovalKeys,
  createRunCommandTool,
  MAX_COMMAND_LENGTH,
} from 'hintgate/tools';
import { machine, median } from './measure.js';
import { fixed, type Goal, runAlone, type SectionResult, section, table } from './report.js';

const HUGE = 1024 * 1024;
const REPEATS = 21;

/** A line of `length` characters built by repeating `unit`. */
const repeat = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** As many whole copies of `unit` as fit in `length` characters. */
const units = (unit: string, length: number): string =>
  unit.repeat(Math.floor(length / unit.length));

/** Shapes of command lines, each built at a given length. */
const SHAPES: ReadonlyArray<readonly [string, (length: number) => string]> = [
  ['words: `echo ab ab ab …`', (n) => `echo ${repeat('ab ', n - 5)}`],
  [
    'mixed: `git status && npm test -- "a b" $(echo x) > out.log 2>&1; …`',
    (n) => units('git status && npm test -- "a b" $(echo x) > out.log 2>&1; ', n),
  ],
  ['chain: `true && true && …`', (n) => `${units('true && ', n - 4)}true`],
  [
    'nested: `$($($(… id …)))`',
    (n) => {
      const depth = Math.floor((n - 2) / 3);
      return `${'$('.repeat(depth)}id${')'.repeat(depth)}`;
    },
  ],
  ['comment: `git status # aaaa…`', (n) => `git status # ${repeat('a', n - 13)}`],
  [
    'here-document: `cat > f <<EOF … EOF`',
    (n) => `cat > f <<'EOF'\n${units('some text of a file\n', n - 20)}EOF`,
  ],
];

/** Median wall ms of `work` over `REPEATS` runs after one warm-up. */
async function timeOf(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Measures part 5. */
export async function shellSection(): Promise<SectionResult> {
  const started = machine();
  const workspace = mkdtempSync(join(tmpdir(), 'hintgate-bench-shell-'));
  try {
    const huge = `echo ${repeat('a', HUGE - 5)}`;
    const tool = createRunCommandTool({ workspace });
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const hugeRows: Array<readonly [string, number]> = [
      [
        "run_command's approval key (refused unread)",
        await timeOf(async () => tool.approvalKey?.({ command: huge })),
      ],
      [
        'checkCommandSafety (refused unread)',
        await timeOf(() => checkCommandSafety(huge, { workspace })),
      ],
      [
        'a whole call through the runtime (refused by the input schema)',
        await timeOf(() =>
          runtime.execute([{ id: 'c', name: 'run_command', arguments: { command: huge } }]),
        ),
      ],
    ];
    await runtime.close();
    const small = 1024;
    const lengthRatio = MAX_COMMAND_LENGTH / small;
    const goals: Goal[] = [];
    const rows: string[][] = [];
    let longest = Number.POSITIVE_INFINITY;
    for (const [name, build] of SHAPES) {
      // Both lengths measured in turn, so that both see the same load of the machine.
      const lines = [build(small), build(MAX_COMMAND_LENGTH)];
      const times = lines.map(() => ({ keys: [] as number[], gate: [] as number[] }));
      for (let round = -1; round < REPEATS; round += 1) {
        for (const [index, line] of lines.entries()) {
          const start = performance.now();
          await commandApprovalKeys(line, workspace);
          const middle = performance.now();
          await checkCommandSafety(line, { workspace });
          if (round < 0) continue;
          times[index]?.keys.push(middle - start);
          times[index]?.gate.push(performance.now() - middle);
        }
      }
      const [one, max] = times.map((t) => ({ keys: median(t.keys), gate: median(t.gate) })) as [
        { keys: number; gate: number },
        { keys: number; gate: number },
      ];
      const ratio = (max.keys + max.gate) / (one.keys + one.gate);
      if (rows.length === 0) longest = max.keys + max.gate;
      goals.push({
        name: `5. ${name.split(':')[0]}: ${MAX_COMMAND_LENGTH} / ${small} characters, time`,
        value: ratio,
        limit: 3 * lengthRatio,
        bound: 'most',
        unit: 'x',
      });
      rows.push([
        name,
        fixed(one.keys, 2),
        fixed(one.gate, 2),
        fixed(max.keys, 2),
        fixed(max.gate, 2),
        `${fixed(ratio, 1)}x`,
      ]);
    }
    const worst = Math.max(...hugeRows.map(([, ms]) => ms));
    goals.push({
      name: `5. 1 MB line, slowest path / a ${MAX_COMMAND_LENGTH}-character words line read`,
      value: worst / longest,
      limit: 1,
      bound: 'most',
      unit: 'x',
    });
    return section({
      heading: SHELL_HEADING,
      command: 'bench/shell.ts',
      started,
      method: `median of ${REPEATS} runs after a warm-up, built package. First table: a 1 MB line (\`echo aaaa…\`, over the maximum of ${MAX_COMMAND_LENGTH}). Second: lines of ${small} and ${MAX_COMMAND_LENGTH} characters read with the bash grammar by \`commandApprovalKeys\` (keys) and \`checkCommandSafety\` (gate), the two lengths taking turns. Goals: reading linear in length (the ${lengthRatio}x longer line at most ${3 * lengthRatio}x the time; quadratic would be ${lengthRatio ** 2}x); a 1 MB line refused faster than the longest words line taken is read.`,
      tables: [
        table(
          ['1 MB line', 'ms', '/ longest words line read'],
          hugeRows.map(([label, ms]) => [label, fixed(ms, 3), fixed(ms / longest, 3)]),
        ),
        table(
          [
            'line shape',
            `keys ${small} ms`,
            `gate ${small} ms`,
            `keys ${MAX_COMMAND_LENGTH} ms`,
            `gate ${MAX_COMMAND_LENGTH} ms`,
            'time ratio',
          ],
          rows,
        ),
      ],
      goals,
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Heading of part 5 in bench/RESULTS.md. */
export const SHELL_HEADING = '## 5. Reading shell command lines';

runAlone(import.meta.url, shellSection);
