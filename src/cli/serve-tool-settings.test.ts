import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// `tools:` of the policy file `hintgate serve --policy` reads configures the built-in,
// global and project tools by name; a name no tool has stops serve before it serves.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

describe('hintgate serve --policy FILE with tools:', () => {
  it('exits 2 on a misspelled tool name, naming the file, the line and the built-in it means', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hintgate-serve-tools-'));
    roots.push(root);
    const home = join(root, 'home');
    const workspace = join(root, 'ws');
    await mkdir(home);
    await mkdir(workspace);
    const policy = join(root, 'policy.yaml');
    await writeFile(policy, 'mode: ask\ntools:\n  run_comand: { timeoutMs: 120000 }\n');
    let stderr = '';
    const code = await runCli(['serve', '--workspace', workspace, '--policy', policy], {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
      env: { HINTGATE_HOME: home },
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      `hintgate serve: ${policy}:3:3: tools.run_comand names no tool; did you mean "run_command"?`,
    );
  });
});
