import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../runtime/runtime.js';
import {
  makeWorkspace,
  type TempWorkspace,
  textOf,
  toolRuntime,
} from './workspace.test-helpers.js';

// A process outside hintgate swaps a workspace directory for a symbolic link to a directory
// outside the workspace and back, as fast as it can, while write_file and edit_file write
// into that directory again and again. Whatever the interleaving, nothing may land outside.

/** Swaps `dir` for a link to `outside` and back until its stdin closes. */
const SWAPPER = `
const fs = require('node:fs');
const [dir, outside] = process.argv.slice(1);
const aside = dir + '.real';
let running = true;
let swaps = 0;
process.stdin.on('end', () => { running = false; });
process.stdin.resume();
const step = () => {
  for (let i = 0; i < 50 && running; i += 1) {
    try { fs.renameSync(dir, aside); } catch {}
    try { fs.symlinkSync(outside, dir); } catch {}
    try { fs.unlinkSync(dir); } catch {}
    try { fs.renameSync(aside, dir); } catch {}
    swaps += 1;
  }
  if (running) setImmediate(step);
  else process.stdout.write(String(swaps));
};
step();
`;

let temp: TempWorkspace;
let runtime: Runtime;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  temp = await makeWorkspace();
  runtime = toolRuntime({ workspace: temp.workspace });
});

afterEach(async () => {
  if (swapper !== undefined && swapper.exitCode === null) swapper.kill('SIGKILL');
  swapper = undefined;
  await temp.remove();
});

/** Starts the swapper on `<workspace>/d`; resolves to a function that stops it. */
const startSwapper = (): (() => Promise<number>) => {
  const child = spawn(process.execPath, ['-e', SWAPPER, join(temp.workspace, 'd'), temp.outside], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  swapper = child;
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    child.stdin?.end();
    await exited;
    return Number(out);
  };
};

/** Every path under `dir`, recursively. */
const listAll = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true })).map(String).sort();

describe('file writes racing a directory swapped for a link to outside the workspace', () => {
  it('write_file never lands a file outside, over many writes', async () => {
    await mkdir(join(temp.workspace, 'd'));
    const stop = startSwapper();
    const outcomes = { written: 0, refused: 0 };
    for (let i = 0; i < 400; i += 1) {
      const [result] = await runtime.execute([
        { id: `w${i}`, name: 'write_file', arguments: { path: `d/f${i}.txt`, content: `${i}` } },
      ]);
      if (result?.isError === true) outcomes.refused += 1;
      else outcomes.written += 1;
    }
    const swaps = await stop();
    expect(swaps).toBeGreaterThan(0);
    expect(await listAll(temp.outside)).toEqual([]);
    // Whatever was reported written is in the workspace.
    expect(outcomes.written + outcomes.refused).toBe(400);
  }, 120_000);

  it('edit_file never changes or creates a file outside, over many edits', async () => {
    await mkdir(join(temp.workspace, 'd'));
    await writeFile(join(temp.workspace, 'd', 'e.txt'), 'count: 0\n');
    await writeFile(join(temp.outside, 'e.txt'), 'count: 0\n');
    const stop = startSwapper();
    let edits = 0;
    for (let i = 0; i < 300; i += 1) {
      const [result] = await runtime.execute([
        {
          id: `e${i}`,
          name: 'edit_file',
          arguments: { path: 'd/e.txt', old_string: 'count: ', new_string: 'count: ' + 'I' },
        },
      ]);
      if (result?.isError !== true) edits += 1;
      else expect(textOf(result)).not.toContain('Edited');
    }
    await stop();
    expect(await listAll(temp.outside)).toEqual(['e.txt']);
    expect(await readFile(join(temp.outside, 'e.txt'), 'utf8')).toBe('count: 0\n');
    expect(edits).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
