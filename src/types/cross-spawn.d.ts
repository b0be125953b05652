// The part of cross-spawn used here: a drop-in for node:child_process's spawn that also
// finds `npx.cmd`-style shims and quotes arguments correctly on Windows.
declare module 'cross-spawn' {
  import type { spawn } from 'node:child_process';

  const crossSpawn: typeof spawn;
  export default crossSpawn;
}
