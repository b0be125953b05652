/**
 * Section `shell`: how long run_command's reading of a command line takes (approval keys and
 * the safety gate, bash grammar) from a 1 KiB line to the longest one taken, and a 1 MB line
 * refused.
 */
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
import { type Goal, goal, type Result, type Row, table } from './report.js';

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
    const hugeMs = await msOf(
      [
        () => tool.approvalKey?.({ command: huge }),
        () => checkCommandSafety(huge, { workspace }),
        () => runtime.execute([call]),
      ],
      21,
    );
    await runtime.close();
    const goals: Goal[] = [];
    const rows: Row[] = [];
    for (const [name, build] of SHAPES) {
      const works = [build(SMALL), build(MAX)].flatMap((line) => [
        () => commandApprovalKeys(line, workspace),
        () => checkCommandSafety(line, { workspace }),
      ]);
      const [keys1 = 0, gate1 = 0, keys = 0, gate = 0] = await msOf(works, 21);
      const ratio = (keys + gate) / (keys1 + gate1);
      const shape = name.split(':')[0];
      goals.push(goal(`${shape}: time ${MAX} / ${SMALL} characters`, ratio, (3 * MAX) / SMALL));
      rows.push({
        'line shape': name,
        [`keys ${SMALL} ms`]: keys1,
        [`gate ${SMALL} ms`]: gate1,
        [`keys ${MAX} ms`]: keys,
        [`gate ${MAX} ms`]: gate,
        'time ratio': ratio,
      });
    }
    const longest = Number(rows[0]?.[`keys ${MAX} ms`]) + Number(rows[0]?.[`gate ${MAX} ms`]);
    const huges = [
      "run_command's approval key",
      'checkCommandSafety',
      'a whole call through the runtime (input schema)',
    ];
    const slowest = Math.max(...hugeMs) / longest;
    goals.push(goal('1 MB line refused, slowest / longest words line read', slowest, 1));
    return {
      method: `median of 21 rotating rounds after a warm-up, built package. First table: a 1 MB line (\`echo aaaa…\`, over the maximum of ${MAX}), refused unread. Second: lines of ${SMALL} and ${MAX} characters read by \`commandApprovalKeys\` (keys) and \`checkCommandSafety\` (gate), lengths and readers taking turns; linear reading allows ${(3 * MAX) / SMALL}x for the ${MAX / SMALL}x longer line (quadratic would be ${(MAX / SMALL) ** 2}x).`,
      tables: [
        table(
          huges.map((what, i) => ({
            '1 MB line': what,
            ms: at(hugeMs, i),
            '/ longest words line read': at(hugeMs, i) / longest,
          })),
        ),
        table(rows),
      ],
      goals,
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
