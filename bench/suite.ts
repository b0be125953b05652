/** Section `suite`: `npm test` timed, and the processes it left running. */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { procStat, ROOT, sized } from './measure.js';
import { type Context, goal, type Result, table } from './report.js';

/** What to show of a failed run's output: failing test files, first error lines, the tail. */
export function failureReport(output: string): string[] {
  // `npm test` runs its commands side by side, each line prefixed with the command's name.
  const lines = stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.replace(/^\[(?:typecheck|lint|vitest)\] /, ''));
  const failed = lines.filter((line) => /^\s*(FAIL|❯)\s/.test(line));
  const files = failed.flatMap((line) => /(\S+\.test\.ts)(?=\s|$)/.exec(line)?.[1] ?? []);
  const errors = lines.filter((line) => /\berror TS|Error:|✖|×/.test(line) && !/^\s*✓/.test(line));
  const list = (title: string, shown: string[]) =>
    shown.length > 0 ? [title, ...shown.map((line) => line.slice(0, 300))] : [];
  return [
    ...list('failing test files:', [...new Set(files)]),
    ...list('failed tests:', failed.filter((line) => line.includes(' > ')).slice(0, 30)),
    ...list('first error lines:', errors.slice(0, 20)),
    ...list('last 40 lines of output:', lines.slice(-41)),
  ];
}

/** Section `suite`. */
export async function suite(context: Context): Promise<Result> {
  const line = sized('npm test', 'npx vitest run src/tools/classify-address.test.ts');
  const [command = '', ...args] = line.split(' ');
  const dir = mkdtempSync(join(tmpdir(), 'hintgate-bench-suite-'));
  const file = join(dir, 'output.txt');
  const fd = openSync(file, 'w');
  // tsx hands its `--tsconfig bench/tsconfig.json` to child processes in TSX_TSCONFIG_PATH, a
  // path relative to this folder: tests that run TypeScript from another folder fail with it.
  const { TSX_TSCONFIG_PATH: _tsconfig, ...env } = process.env;
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', fd, fd] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  closeSync(fd);
  if (code === 0) rmSync(dir, { recursive: true, force: true });
  else {
    context.log(`suite: \`${line}\` exited ${code}; its output is in ${file}`);
    for (const shown of failureReport(readFileSync(file, 'utf8'))) context.log(`  ${shown}`);
  }
  await sleep(2000);
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
