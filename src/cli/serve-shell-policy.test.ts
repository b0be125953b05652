import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../mcp/server/mcp-clients.test-helpers.js';
import { stdioTransport } from './serve-process.test-helpers.js';

// A real `hintgate serve` child process with the rules of docs/policy.md's first example,
// driven by the SDK's client: the lines of the security review that ran arbitrary code under
// the allow rule now ask or are denied, the plain lines still run, and none of the ways
// around the deny rule on `git push*` pushes to a local bare repository, even in yolo.

const POLICY = `rules:
  - tool: write_file
    key: "file:.github/**"
    decision: ask
  - tool: run_command
    key: "{npm test,npm run lint,git status,git diff}"
    decision: allow
    reason: harmless project commands
  - tool: run_command
    key: "git push*"
    decision: deny
    reason: pushing is for people
`;

let root: string;
let workspace: string;
let remote: string;
let policy: string;
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hintgate-shell-policy-'));
  workspace = join(root, 'ws');
  remote = join(root, 'remote.git');
  policy = join(root, 'policy.yaml');
  await mkdir(workspace);
  await writeFile(policy, POLICY);
  git(root, 'init', '--bare', '-q', remote);
  git(workspace, 'init', '-q', '-b', 'main');
  await writeFile(join(workspace, 'a.txt'), 'a\n');
  git(workspace, 'add', 'a.txt');
  git(workspace, 'commit', '-q', '-m', 'first');
  git(workspace, 'remote', 'add', 'origin', remote);
  await writeFile(join(workspace, 'a.txt'), 'changed\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const text = (result: { content: unknown }): string =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
const status = (result: { _meta?: Record<string, unknown> | undefined }): unknown =>
  result._meta?.['dev.hintgate/status'];
const pwned = async (): Promise<string[]> =>
  (await readdir(workspace)).filter((name) => name.startsWith('pwned'));

const serve = async (mode: string, decision: () => string): Promise<TestClient> =>
  connectClient(
    stdioTransport(['--workspace', workspace, '--mode', mode, '--policy', policy]),
    'legacy',
    {
      answer: () => {
        const answer = decision();
        return answer === 'decline'
          ? { action: 'decline' }
          : { action: 'accept', content: { decision: answer } };
      },
    },
  );

const run = (client: TestClient, command: string) =>
  client.client.callTool({ name: 'run_command', arguments: { command, timeout_ms: 20_000 } });

describe('hintgate serve, mode auto, with the allow rule of docs/policy.md', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await serve('auto', () => 'decline');
  });
  afterAll(() => client.close());

  it('runs the plain allowed lines without asking', async () => {
    for (const command of ['git status', 'git diff', 'git status --short && git diff --stat']) {
      const result = await run(client, command);
      expect(status(result), command).toBe('ok');
    }
    expect(text(await run(client, 'git diff'))).toContain('+changed');
    expect(client.forms).toHaveLength(0);
  });

  it.each([
    `GIT_EXTERNAL_DIFF='sh -c "touch pwned-1"' git diff`,
    `git -c core.fsmonitor='touch pwned-2' status`,
    `git diff --output=${join(tmpdir(), 'hintgate-pwned-3')}`,
    `NODE_OPTIONS='--import=data:text/javascript,import("fs").then(f=>f.writeFileSync("pwned-4",""))' npm test`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template.
    'git status ${x:-$(touch pwned-5)}',
    'git status $((0$(touch pwned-6)))',
    `git status${' '.repeat(4100)}$(touch pwned-7)`,
    `env -S 'touch pwned-8'`,
    'git diff $(touch pwned-9)',
    'PAGER="touch pwned-10" git diff',
  ])('does not run %j without a person: it asks or is denied', async (command) => {
    const before = client.forms.length;
    const result = await run(client, command);
    expect(status(result)).toBe('denied');
    if (client.forms.length > before) {
      // It asked: the form names what is not understood, and offers "once" only.
      const form = client.forms.at(-1);
      if (form === undefined) throw new Error('no form');
      expect(form.message).toContain('Not fully understood');
      const choices = (form.requestedSchema.properties.decision as { oneOf: { const: string }[] })
        .oneOf;
      expect(choices.map((choice) => choice.const)).toEqual(['allow_once', 'deny']);
    } else {
      expect(text(result)).toContain('its keys do not name');
    }
    expect(await pwned()).toEqual([]);
    expect(existsSync(join(tmpdir(), 'hintgate-pwned-3'))).toBe(false);
  });
});

describe('hintgate serve, mode ask: an approval for the session', () => {
  it('covers the same plain command later, never one with a substitution', async () => {
    const answers = ['allow_session', 'decline'];
    const client = await serve('ask', () => answers.shift() ?? 'decline');
    try {
      expect(status(await run(client, 'git log --oneline'))).toBe('ok');
      expect(status(await run(client, 'git log -1'))).toBe('ok');
      expect(client.forms).toHaveLength(1);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template.
      const result = await run(client, 'git log ${x:-$(touch pwned-session)}');
      expect(status(result)).toBe('denied');
      expect(client.forms).toHaveLength(2);
      expect(client.forms[1]?.message).toContain('$(touch pwned-session)');
      expect(await pwned()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('hintgate serve, mode yolo, with the deny rule on git push*', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await serve('yolo', () => 'decline');
  });
  afterAll(() => client.close());

  const refs = () => git(remote, 'for-each-ref').trim();

  it.each([
    'git push origin main',
    "env -S 'git push origin main'",
    'env - git push origin main',
    'git -c alias.p=push p origin main',
    "git -c alias.p='!git push' p origin main",
    'echo main | xargs git push origin',
    'echo push | xargs -I{} git {} origin main',
    'setsid git push origin main',
    'flock .lock git push origin main',
    'timeout 20 git push origin main',
    'nohup git push origin main',
    'command git push origin main',
    '"git" \'pu\'sh origin main',
    'git pu\\\nsh origin main',
    "sh -c 'git push origin main'",
    "bash -c 'eval git push origin main'",
    'eval git push origin main',
    "script -qc 'git push origin main' /dev/null",
    'coproc git push origin main',
    '$(echo git) push origin main',
    'x=git; $x push origin main',
    'git config alias.p push; git p origin main',
    'cat <<EOF | sh\ngit push origin main\nEOF',
    'echo "git push origin main" | bash',
    "find . -maxdepth 0 -exec git push origin main ';'",
    'watch -x git push origin main',
    'GIT_SSH_COMMAND=x git push origin main',
    'echo $(git push origin main)',
  ])('refuses %j', async (command) => {
    const result = await run(client, command);
    expect(status(result), text(result)).toBe('denied');
    expect(refs()).toBe('');
  });

  it('still runs what no deny rule covers, and the push itself works outside hintgate', async () => {
    expect(status(await run(client, 'git status'))).toBe('ok');
    expect(refs()).toBe('');
    git(workspace, 'push', '-q', 'origin', 'main');
    expect(refs()).toContain('refs/heads/main');
  });
});
