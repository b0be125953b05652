/**
 * True while a process of id `pid` exists (signal 0 reaches it), to check that a server
 * process was stopped: `await waitFor(() => !processAlive(pid))`.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
