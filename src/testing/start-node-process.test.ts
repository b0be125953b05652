import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempWorkspace, type TempWorkspace } from './create-temp-workspace.js';
import { nodeScriptArgs } from './node-script-args.js';
import { processAlive } from './process-alive.js';
import { type NodeProcess, startNodeProcess } from './start-node-process.js';
import { waitFor } from './wait-for.js';

let made: TempWorkspace | undefined;
const started: NodeProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop('SIGKILL')));
  await made?.remove();
});

// A TypeScript program (a type annotation plain node cannot run) that says it is ready on
// stderr with its arguments, then waits.
const SERVER_TS = `const args: string[] = process.argv.slice(2);
console.error(\`listening \${JSON.stringify(args)} \${process.env.GREETING ?? ''}\`);
setInterval(() => {}, 1000);
`;

describe('nodeScriptArgs', () => {
  it('runs a TypeScript file through tsx from any folder, and a JavaScript file as it is', async () => {
    made = await createTempWorkspace({
      files: {
        'hello.ts': 'const n: number = 2;\nconsole.log(n * 21);\n',
        'plain.mjs': 'console.log("js");\n',
      },
    });
    const ts = nodeScriptArgs(`${made.workspace}/hello.ts`);
    expect(ts[0]).toBe('--import');
    expect(execFileSync(process.execPath, ts, { cwd: made.outside, encoding: 'utf8' })).toBe(
      '42\n',
    );
    const js = nodeScriptArgs(new URL(`file://${made.workspace}/plain.mjs`));
    expect(js).toEqual([`${made.workspace}/plain.mjs`]);
    expect(execFileSync(process.execPath, js, { encoding: 'utf8' })).toBe('js\n');
  });

  it('refuses an empty script', () => {
    expect(() => nodeScriptArgs('')).toThrow(/give the path or file URL of a \.js or \.ts file/);
  });
});

describe('startNodeProcess', () => {
  it('resolves once the program prints its ready line, and stops it', async () => {
    made = await createTempWorkspace({ files: { 'server.ts': SERVER_TS } });
    const child = await startNodeProcess({
      script: `${made.workspace}/server.ts`,
      args: ['--port', '0'],
      env: { ...process.env, GREETING: 'hi' },
      ready: /listening (\S+) (\w+)/,
      readyOn: 'stderr',
    });
    started.push(child);
    expect(child.ready.slice(1)).toEqual(['["--port","0"]', 'hi']);
    expect(child.stderr()).toContain('listening');
    const pid = child.child.pid ?? 0;
    expect(processAlive(pid)).toBe(true);
    expect(await child.stop()).toBeNull();
    expect(await child.stop()).toBeNull();
    await waitFor(() => !processAlive(pid));
  });

  it("runs a TypeScript program in another folder under a parent started with tsx's relative --tsconfig", async () => {
    made = await createTempWorkspace({ files: { 'server.ts': SERVER_TS } });
    // What \`tsx --tsconfig tsconfig.json\` passes on: a path relative to this process's folder.
    const child = await startNodeProcess({
      script: `${made.workspace}/server.ts`,
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.json' },
      cwd: made.outside,
      ready: /listening/,
      readyOn: 'stderr',
    });
    started.push(child);
    expect(child.stderr()).not.toContain('Cannot resolve tsconfig');
  });

  it('rejects with what the program wrote when it exits before it is ready', async () => {
    made = await createTempWorkspace({
      files: { 'fail.mjs': 'console.error("no config file"); process.exit(2);\n' },
    });
    await expect(
      startNodeProcess({ script: `${made.workspace}/fail.mjs`, ready: /never/ }),
    ).rejects.toThrow(/exited with 2:\nno config file/);
  });

  it('kills a program that is not ready in time', async () => {
    made = await createTempWorkspace({ files: { 'quiet.mjs': 'setInterval(() => {}, 1000);\n' } });
    await expect(
      startNodeProcess({ script: `${made.workspace}/quiet.mjs`, ready: /ready/, timeoutMs: 300 }),
    ).rejects.toThrow(/was not ready in 300 ms/);
  });

  it('refuses a ready pattern that is not a RegExp and an unknown stream', () => {
    expect(() => startNodeProcess({ script: 'x.js', ready: 'ready' as unknown as RegExp })).toThrow(
      /ready must be a RegExp/,
    );
    expect(() => startNodeProcess({ script: 'x.js', readyOn: 'stdin' as 'stdout' })).toThrow(
      /use "stdout" or "stderr"/,
    );
  });
});
