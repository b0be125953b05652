/** Section `shell`: run_command's reading of command lines, 1 KiB to the longest, 1 MB refused. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from 'hintgate';
import {
  checkCommandSafety,
  commandApprovalKeys,
  createRunCommandTool,
  MAX_COMMAND_LENGTH as MAX,
} from 'hintgate/tools';
import { at, msOf } from './measure.js';
import { type Cell, type Goal, goal, type Result, table } from './report.js';

const SMALL = 1024;
/** `unit` repeated to exactly `length` characters, or as many whole copies as fit. */
const repeat = (unit: string, length: number, whole = false): string =>
  whole
    ? unit.repeat(Math.floor(length / unit.length))
    : unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const SHAPES: readonly (readonly [string, (n: number) => string])[] = [
  ['words: `echo ab ab ab …`', (n) => `echo ${repeat('ab ', n - 5)}`],
  [
    'mixed: `git status && npm test -- "a b" $(echo x) > out.log 2>&1; …`',
    (n) => repeat('git status && npm test -- "a b" $(echo x) > out.log 2>&1; ', n, true),
  ],
  ['chain: `true && true && …`', (n) => `${repeat('true && ', n - 4, true)}true`],
  ['nested: `$($($(… id …)))`', (n) => `${'$('.repeat((n - 2) / 3)}id${')'.repeat((n - 2) / 3)}`],
  ['comment: `git status # aaaa…`', (n) => `git status # ${repeat('a', n - 13)}`],
  [
    'here-document: `cat > f <<EOF … EOF`',
    (n) => `cat > f <<'EOF'\n${repeat('some text of a file\n', n - 20, true)}EOF`,
  ],
];

/** Section `shell`. */
export async function shell(): Promise<Result> {
  const workspace = mkdtempSync(join(tmpdir(), 'hintgate-bench-shell-'));
  try {
    const huge = `echo ${repeat('a', 1024 * 1024 - 5)}`;
    const tool = createRunCommandTool({ workspace });
    const runtime = createRuntime({ tools: [tool], mode: 'yolo' });
    const call = { id: 'c', name: 'run_command', arguments: { command: huge } };
    const huges: Record<string, () => unknown> = {
      "run_command's approval key": () => tool.approvalKey?.({ command: huge }),
      checkCommandSafety: () => checkCommandSafety(huge, { workspace }),
      'a whole call through the runtime (input schema)': () => runtime.execute([call]),
    };
    const hugeMs = await msOf(Object.values(huges), 21);
    await runtime.close();
    const goals: Goal[] = [];
    const rows: Cell[][] = [];
    for (const [name, build] of SHAPES) {
      const works = [build(SMALL), build(MAX)].flatMap((line) => [
        () => commandApprovalKeys(line, workspace),
        () => checkCommandSafety(line, { workspace }),
      ]);
      const [keys1 = 0, gate1 = 0, keys = 0, gate = 0] = await msOf(works, 21);
      const ratio = (keys + gate) / (keys1 + gate1);
      const what = `${name.split(':')[0]}: time ${MAX} / ${SMALL} characters`;
      goals.push(goal(what, ratio, (3 * MAX) / SMALL));
      rows.push([name, keys1, gate1, keys, gate, ratio]);
    }
    const longest = Number(rows[0]?.[3]) + Number(rows[0]?.[4]);
    const refused = '1 MB line refused, slowest / longest words line read';
    goals.push(goal(refused, Math.max(...hugeMs) / longest, 1));
    const hugeRows = Object.keys(huges).map((k, i) => [k, at(hugeMs, i), at(hugeMs, i) / longest]);
    const head = `line shape|keys ${SMALL} ms|gate ${SMALL} ms|keys ${MAX} ms|gate ${MAX} ms|time ratio`;
    return {
      method: `median of 21 rotating rounds after a warm-up, built package. First table: a 1 MB line (\`echo aaaa…\`, over the maximum of ${MAX}), refused unread. Second: lines of ${SMALL} and ${MAX} characters read by \`commandApprovalKeys\` (keys) and \`checkCommandSafety\` (gate), lengths and readers taking turns; linear reading allows ${(3 * MAX) / SMALL}x for the ${MAX / SMALL}x longer line (quadratic would be ${(MAX / SMALL) ** 2}x).`,
      tables: [table('1 MB line|ms|/ longest words line read', hugeRows), table(head, rows)],
      goals,
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
