/**
 * Section `suite`: `npm test` (typecheck, lint, every test) timed, and the processes it left
 * running: it runs in a process group of its own, which must be empty once it has exited.
 * A quick run times one small test file instead.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ROOT, sized } from './measure.js';
import { goal, type Result, table } from './report.js';

/** Processes of process group `group` still alive (Linux /proc). */
const leftIn = (group: number): number =>
  readdirSync('/proc').filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return (
        /^\d+$/.test(pid) && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === group
      );
    } catch {
      return false;
    }
  }).length;

/** Section `suite`. */
export async function suite(): Promise<Result> {
  const command = sized(
    ['npm', 'test'],
    ['npx', 'vitest', 'run', 'src/tools/classify-address.test.ts'],
  );
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const left = child.pid === undefined ? Number.NaN : leftIn(child.pid);
  return {
    method: `\`${command.join(' ')}\` from the repository root, wall time to its exit; then, 2 s later, the processes of its process group still alive. Absolute figures: the load beside them tells how far to trust the time.`,
    tables: [
      table([
        {
          command: `\`${command.join(' ')}\``,
          'exit code': String(code),
          'wall s': seconds,
          'processes left': left,
        },
      ]),
    ],
    goals: [
      goal('exit code', code ?? Number.NaN, 0, ''),
      goal(`\`${command.join(' ')}\` wall time (absolute)`, seconds, 300, 's'),
      goal('processes left running after the suite', left, 0, ''),
    ],
  };
}
