/**
 * Section `suite`: `npm test` (typecheck, lint, every test) timed, and the processes it left
 * running in its process group, 2 s after it exited. A quick run times one small test file.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { procStat, ROOT, sized } from './measure.js';
import { goal, type Result, table } from './report.js';

/** Section `suite`. */
export async function suite(): Promise<Result> {
  const line = sized('npm test', 'npx vitest run src/tools/classify-address.test.ts');
  const [command = '', ...args] = line.split(' ');
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  // Field 5 of stat(5): the process group.
  const pids = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid));
  const left = pids.filter((pid) => Number(procStat(pid)[2]) === child.pid).length;
  return {
    method: `\`${line}\` from the repository root, wall time to its exit; then, 2 s later, the processes of its process group still alive. Absolute figures: the load beside them tells how far to trust the time.`,
    tables: [
      table('command|exit code|wall s|processes left', [[`\`${line}\``, `${code}`, seconds, left]]),
    ],
    goals: [
      goal('exit code', code ?? Number.NaN, 0, ''),
      goal(`\`${line}\` wall time (absolute)`, seconds, 300, 's'),
      goal('processes left running after the suite', left, 0, ''),
    ],
  };
}
