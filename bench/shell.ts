/**
 * Part 5 of the benchmark: how long run_command's reading of a command line takes (approval
 * keys and the safety gate, with the bash grammar), from a normal line to the longest one
 * taken (16 KiB), and how fast a 1 MB line is refused. Part of `npm run bench`; alone,
 * `npm run build && npx tsx --tsconfig bench/tsconfig.json bench/shell.ts` rewrites only
 * this section of bench/RESULTS.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createRuntime } from 'hintgate';
import {
  checkCommandSafety,
  commandApprovalKeys,
  createRunCommandTool,
  MAX_COMMAND_LENGTH,
} from 'hintgate/tools';
import { fixed, machine, median, table, yesNo } from './report.js';

/** Goal: a 1 MB command line is handled (refused) in under this many ms. */
export const HUGE_LINE_GOAL_MS = 50;
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

/** Median wall time of `work` over `REPEATS` runs after one warm-up, in ms. */
const timeOf = async (work: () => Promise<unknown>): Promise<number> => {
  await work();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
};

/** What part 5 measured: a Markdown section body and summary lines. */
export interface ShellBenchResult {
  readonly markdown: string;
  readonly summary: readonly string[];
}

/** Runs part 5. */
export async function shellReading(): Promise<ShellBenchResult> {
  const workspace = mkdtempSync(join(tmpdir(), 'hintgate-bench-shell-'));
  try {
    const huge = `echo ${repeat('a', HUGE - 5)}`;
    const tool = createRunCommandTool({ workspace });
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const hugeKeys = await timeOf(async () => tool.approvalKey?.({ command: huge }));
    const hugeGate = await timeOf(() => checkCommandSafety(huge, { workspace }));
    const hugeCall = await timeOf(() =>
      runtime.execute([{ id: 'c', name: 'run_command', arguments: { command: huge } }]),
    );
    await runtime.close();
    const hugeWorst = Math.max(hugeKeys, hugeGate, hugeCall);

    const small = 1024;
    const rows: string[][] = [];
    let worstRatio = 0;
    let worstMax = 0;
    for (const [name, build] of SHAPES) {
      // Both lengths measured in turn, so that both see the same load of the machine.
      const lines = [build(small), build(MAX_COMMAND_LENGTH)] as const;
      const times = lines.map(() => ({ keys: [] as number[], gate: [] as number[] }));
      for (let round = -1; round < REPEATS; round += 1) {
        for (const [index, line] of lines.entries()) {
          let start = performance.now();
          await commandApprovalKeys(line, workspace);
          const keys = performance.now() - start;
          start = performance.now();
          await checkCommandSafety(line, { workspace });
          const gate = performance.now() - start;
          if (round < 0) continue;
          times[index]?.keys.push(keys);
          times[index]?.gate.push(gate);
        }
      }
      const [one, max] = times.map((t) => ({ keys: median(t.keys), gate: median(t.gate) })) as [
        { keys: number; gate: number },
        { keys: number; gate: number },
      ];
      const ratio = (max.keys + max.gate) / (one.keys + one.gate);
      worstRatio = Math.max(worstRatio, ratio);
      worstMax = Math.max(worstMax, max.keys + max.gate);
      rows.push([
        name,
        fixed(one.keys, 2),
        fixed(one.gate, 2),
        fixed(max.keys, 2),
        fixed(max.gate, 2),
        `${fixed(ratio, 1)}x`,
      ]);
    }
    const lengthRatio = MAX_COMMAND_LENGTH / small;
    const markdown = `Goal: a 1 MB command line handled in under ${HUGE_LINE_GOAL_MS} ms; reading linear in the length of the line (no input-size cliff). Median of ${REPEATS} runs after a warm-up, against the built package.

A 1 MB line (\`echo aaaa…\`, ${HUGE} characters, over the maximum of ${MAX_COMMAND_LENGTH}):

${table(
  ['path', 'ms', `under ${HUGE_LINE_GOAL_MS} ms`],
  [
    [
      "run_command's approval key (refused unread: key `(command too long)`)",
      fixed(hugeKeys, 3),
      yesNo(hugeKeys < HUGE_LINE_GOAL_MS),
    ],
    [
      'checkCommandSafety (refused unread)',
      fixed(hugeGate, 3),
      yesNo(hugeGate < HUGE_LINE_GOAL_MS),
    ],
    [
      'a whole call through the runtime (refused by the input schema)',
      fixed(hugeCall, 3),
      yesNo(hugeCall < HUGE_LINE_GOAL_MS),
    ],
  ],
)}

Lines of ${small} and ${MAX_COMMAND_LENGTH} characters (the longest taken), read with the bash grammar: \`commandApprovalKeys\` (what a call's decision waits for) and \`checkCommandSafety\` (run before the command), in ms. The last column is the ratio of the two lengths' total times; the lengths differ ${lengthRatio}x, so a ratio near ${lengthRatio}x is linear and one near ${lengthRatio ** 2}x would be quadratic. run_command itself reads a line once per call for both.

${table(
  [
    'line shape',
    `keys ${small} ms`,
    `gate ${small} ms`,
    `keys ${MAX_COMMAND_LENGTH} ms`,
    `gate ${MAX_COMMAND_LENGTH} ms`,
    'time ratio',
  ],
  rows,
)}`;
    const summary = [
      `- A 1 MB command line handled in under ${HUGE_LINE_GOAL_MS} ms: ${yesNo(hugeWorst < HUGE_LINE_GOAL_MS)}, ${fixed(hugeWorst, 3)} ms at worst (approval key, safety gate, whole call).`,
      `- Reading a command line linear in its length: ${yesNo(worstRatio < lengthRatio * 3)}, ${MAX_COMMAND_LENGTH}-character lines take at most ${fixed(worstRatio, 1)}x the time of ${small}-character ones (${lengthRatio}x longer); at most ${fixed(worstMax, 1)} ms for keys and gate of the longest line taken.`,
    ];
    return { markdown, summary };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

const RESULTS_PATH = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
export const SHELL_HEADING = '## 5. Reading shell command lines';

/** Run alone: replaces part 5 in RESULTS.md, with its own machine and date line. */
async function alone(): Promise<void> {
  const host = machine();
  const result = await shellReading();
  const section = `${SHELL_HEADING}

Measured alone on ${host.cpu}, ${host.cores} cores, Node ${host.node}, ${host.date}, load average ${fixed(host.load, 2)} (\`bench/shell.ts\`).

${result.summary.join('\n')}

${result.markdown}
`;
  const current = readFileSync(RESULTS_PATH, 'utf8');
  const at = current.indexOf(SHELL_HEADING);
  const next = at === -1 ? -1 : current.indexOf('\n## ', at + SHELL_HEADING.length);
  const updated =
    at === -1
      ? `${current.trimEnd()}\n\n${section}`
      : `${current.slice(0, at)}${section}${next === -1 ? '' : current.slice(next + 1)}`;
  writeFileSync(RESULTS_PATH, updated);
  process.stdout.write(`${section}\nwrote ${RESULTS_PATH}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  alone().catch((error: unknown) => {
    process.stderr.write(
      `bench crashed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
