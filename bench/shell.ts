/**
 * Part 5 of `npm run bench`: how long run_command's reading of a command line takes
 * (approval keys and the safety gate, with the bash grammar), from a 1 KiB line to the
 * longest one taken, and a 1 MB line refused. Alone: `npx tsx --tsconfig
 * bench/tsconfig.json bench/shell.ts [--write]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from 'hintgate';
import {
  checkCommandSafety,
  commandApprovalKeys,
  createRunCommandTool,
  MAX_COMMAND_LENGTH,
} from 'hintgate/tools';
import { interleave, machine } from './measure.js';
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

/** Median wall ms per run of each of `works`, taking turns in {@link REPEATS} rounds after a warm-up. */
const timesOf = async (works: ReadonlyArray<() => Promise<unknown>>): Promise<number[]> =>
  (
    await interleave(
      works.map((run) => ({ calls: 1, run })),
      { rounds: REPEATS, runsPerRound: 1, warmupRuns: 1 },
    )
  ).map((m) => m.wallUs / 1000);

/** Measures part 5. */
export async function shellSection(): Promise<SectionResult> {
  const started = machine();
  const workspace = mkdtempSync(join(tmpdir(), 'hintgate-bench-shell-'));
  try {
    const huge = `echo ${repeat('a', HUGE - 5)}`;
    const tool = createRunCommandTool({ workspace });
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const hugeLabels = [
      "run_command's approval key (refused unread)",
      'checkCommandSafety (refused unread)',
      'a whole call through the runtime (refused by the input schema)',
    ];
    const hugeTimes = await timesOf([
      async () => tool.approvalKey?.({ command: huge }),
      () => checkCommandSafety(huge, { workspace }),
      () => runtime.execute([{ id: 'c', name: 'run_command', arguments: { command: huge } }]),
    ]);
    await runtime.close();
    const small = 1024;
    const lengthRatio = MAX_COMMAND_LENGTH / small;
    const goals: Goal[] = [];
    const rows: string[][] = [];
    let longest = Number.POSITIVE_INFINITY;
    for (const [name, build] of SHAPES) {
      // Both lengths and both readers take turns, so that all see the same load of the machine.
      const [keys1, gate1, keysMax, gateMax] = (await timesOf(
        [build(small), build(MAX_COMMAND_LENGTH)].flatMap((line) => [
          () => commandApprovalKeys(line, workspace),
          () => checkCommandSafety(line, { workspace }),
        ]),
      )) as [number, number, number, number];
      const one = { keys: keys1, gate: gate1 };
      const max = { keys: keysMax, gate: gateMax };
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
    const worst = Math.max(...hugeTimes);
    goals.push({
      name: `5. 1 MB line, slowest path / a ${MAX_COMMAND_LENGTH}-character words line read`,
      value: worst / longest,
      limit: 1,
      bound: 'most',
      unit: 'x',
    });
    return section({
      heading: '## 5. Reading shell command lines',
      command: 'bench/shell.ts',
      started,
      method: `median of ${REPEATS} rotating rounds of one run each after a warm-up, built package. First table: a 1 MB line (\`echo aaaa…\`, over the maximum of ${MAX_COMMAND_LENGTH}). Second: lines of ${small} and ${MAX_COMMAND_LENGTH} characters read with the bash grammar by \`commandApprovalKeys\` (keys) and \`checkCommandSafety\` (gate), both lengths and readers taking turns. Goals: reading linear in length (the ${lengthRatio}x longer line at most ${3 * lengthRatio}x the time; quadratic would be ${lengthRatio ** 2}x); a 1 MB line refused faster than the longest words line taken is read.`,
      tables: [
        table(
          ['1 MB line', 'ms', '/ longest words line read'],
          hugeLabels.map((label, index) => {
            const ms = hugeTimes[index] ?? Number.NaN;
            return [label, fixed(ms, 3), fixed(ms / longest, 3)];
          }),
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

runAlone(import.meta.url, shellSection);
