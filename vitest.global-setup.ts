import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Fails the test run when a process started by a test outlives the run.
 *
 * Every process a test starts inherits `HINTGATE_TEST_RUN`, so it is found through
 * `/proc/<pid>/environ` even after its parent died and it was reparented; processes started
 * with an environment of their own are found as descendants of this one. After the last
 * test, such processes get a grace period to exit (a child being reaped after its parent
 * closed), then the survivors are listed, killed, and the run fails.
 */
const MARK = 'HINTGATE_TEST_RUN';
const GRACE_MS = 10_000;

interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly cmdline: string;
  readonly marked: boolean;
}

/**
 * The run's mark, shared by the root config and each project: Vitest calls this setup once
 * for each of them, in the same process, and all must agree on one mark.
 */
const RUN = Symbol.for('hintgate.testRun');

export default function setup(): () => Promise<void> {
  const shared = globalThis as { [RUN]?: { id: string; checked: boolean } };
  shared[RUN] ??= { id: randomUUID(), checked: false };
  const state = shared[RUN];
  const run = state.id;
  process.env[MARK] = run;
  return async () => {
    if (process.platform !== 'linux') return;
    // The first teardown runs after every test of every project; the others have nothing left.
    if (state.checked) return;
    state.checked = true;
    let left = leftovers(run);
    const deadline = Date.now() + GRACE_MS;
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(200);
      left = leftovers(run);
    }
    if (left.length === 0) return;
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    const list = left.map((p) => `  pid ${p.pid}: ${p.cmdline}`).join('\n');
    // An error thrown here is printed but does not change the exit code on its own.
    process.exitCode = 1;
    throw new Error(
      `${left.length} process(es) started by the tests were still running ${GRACE_MS / 1000} s after the last test (now killed):\n${list}\nClose what the test starts (a client, a server, a child process) before it ends.`,
    );
  };
}

function leftovers(run: string): ProcessInfo[] {
  const all = listProcesses(run);
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found = new Map<number, ProcessInfo>();
  const visit = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      visit(child.pid);
    }
  };
  visit(process.pid);
  for (const p of all) if (p.marked) found.set(p.pid, p);
  // The test workers themselves end with the run; what they started does not.
  return [...found.values()].filter((p) => p.pid !== process.pid && !isTestWorker(p));
}

function isTestWorker(p: ProcessInfo): boolean {
  return p.ppid === process.pid && /node_modules[\\/]vitest[\\/]/.test(p.cmdline);
}

function listProcesses(run: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces; fields follow its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const ppid = Number(fields[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      let marked = false;
      try {
        marked = readFileSync(`/proc/${name}/environ`, 'utf8')
          .split('\0')
          .includes(`${MARK}=${run}`);
      } catch {
        // Not ours to read.
      }
      out.push({ pid: Number(name), ppid, cmdline, marked });
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}
