import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandApprovalKeys } from './command-approval-keys.js';
import { parseShellCommand } from './parse-shell-command.js';
import { makeWorkspace } from './workspace.test-helpers.js';

describe('commandApprovalKeys', () => {
  it.each([
    ['npm test', ['npm test']],
    ['git status', ['git status']],
    ['ls', ['ls']],
    ['ls -la src', ['ls']],
    ['git -C some/dir status --short', ['git status']],
    ['git --no-pager log -5', ['git log']],
    ['/usr/bin/git push origin main', ['git push']],
    ['npm run build', ['npm run build']],
    ['npm run build -- --watch', ['npm run build']],
    ['pnpm --filter web run lint', ['pnpm run lint']],
    ['npx vitest run src', ['npx vitest']],
    ['python -m pytest -q tests/', ['python -m pytest']],
    ['node -e "process.exit(1)"', ['node -e']],
    ['kubectl -n prod get pods', ['kubectl get']],
    ['tsc -p .', ['tsc']],
    ['./scripts/release.sh minor', ['./scripts/release.sh minor']],
  ])('%s -> %j', (command, keys) => {
    expect(commandApprovalKeys(command)).toEqual(keys);
  });

  it('gives one key per part of a compound command', () => {
    expect(commandApprovalKeys('npm test && git status')).toEqual(['npm test', 'git status']);
    expect(commandApprovalKeys('cat a.txt | grep x; ls')).toEqual(['cat', 'grep', 'ls']);
    expect(commandApprovalKeys('npm test || echo failed &')).toEqual(['npm test', 'echo']);
    expect(commandApprovalKeys('npm test\ngit push')).toEqual(['npm test', 'git push']);
  });

  it('names what substitutions, sh -c, eval and find -exec run', () => {
    expect(commandApprovalKeys('echo "$(rm -rf build)"')).toEqual(['echo', 'rm']);
    expect(commandApprovalKeys('echo `git push`')).toEqual(['echo', 'git push']);
    expect(commandApprovalKeys("sh -c 'npm test; git push'")).toEqual([
      'sh -c',
      'npm test',
      'git push',
    ]);
    expect(commandApprovalKeys('eval "git push"')).toEqual(['eval', 'git push']);
    expect(commandApprovalKeys("bash -lc 'npm test'")).toEqual(['bash -c', 'npm test']);
    expect(commandApprovalKeys('sh -euc -- "git push"')).toEqual(['sh -c', 'git push']);
    expect(commandApprovalKeys('bash -o pipefail -c "git push"')).toEqual(['bash -c', 'git push']);
    expect(commandApprovalKeys('bash script.sh -c x')).toEqual(['bash script.sh']);
    expect(commandApprovalKeys('find . -name "*.o" -exec rm {} \\;')).toEqual(['find', 'rm']);
    expect(commandApprovalKeys('find . -delete')).toEqual(['find', 'find -delete']);
    expect(commandApprovalKeys('cat <<EOF\n$(git push)\nEOF')).toEqual(['cat', 'git push']);
    expect(commandApprovalKeys("cat <<'EOF'\n$(git push)\nEOF")).toEqual(['cat']);
  });

  it('leaves wrappers and assignments out of the key but keeps sudo and xargs', () => {
    expect(commandApprovalKeys('TOKEN=s3cret CI=1 npm test')).toEqual(['npm test']);
    expect(commandApprovalKeys('timeout 10 nice -n 5 env A=1 npm test')).toEqual(['npm test']);
    expect(commandApprovalKeys('sudo -u root rm -rf /tmp/x')).toEqual(['sudo rm']);
    expect(commandApprovalKeys('git ls-files | xargs -n 1 wc -l')).toEqual([
      'git ls-files',
      'xargs wc',
    ]);
  });

  it('takes programs named like Object.prototype members as programs, not wrappers', () => {
    expect(commandApprovalKeys('constructor git status')).toEqual(['constructor git']);
    expect(commandApprovalKeys('toString npm test')).toEqual(['toString npm']);
    expect(commandApprovalKeys('__proto__ x')).toEqual(['__proto__ x']);
    expect(commandApprovalKeys('valueOf')).toEqual(['valueOf']);
    expect(commandApprovalKeys('hasOwnProperty -C /tmp rm x')).toEqual(['hasOwnProperty']);
  });

  it('adds a key per file output is redirected to, not for /dev/null or descriptors', () => {
    expect(commandApprovalKeys('npm test > out.log 2>&1')).toEqual(['npm test', '> file:out.log']);
    expect(commandApprovalKeys('npm test >/dev/null 2>&1')).toEqual(['npm test']);
    expect(commandApprovalKeys('echo x >> notes.md')).toEqual(['echo', '> file:notes.md']);
    expect(commandApprovalKeys('echo x >> /tmp/fake_bashrc')).toEqual([
      'echo',
      '> /tmp/fake_bashrc',
    ]);
    expect(commandApprovalKeys('echo x > a &> b >& c 2>&1 <> d >| ./e/../f')).toEqual([
      'echo',
      '> file:a',
      '> file:b',
      '> file:c',
      '> file:d',
      '> file:f',
    ]);
    expect(commandApprovalKeys('echo x > ~/.bashrc; echo y > "$OUT"')).toEqual([
      'echo',
      '> ~/.bashrc',
      '> $OUT',
    ]);
    expect(commandApprovalKeys('echo x > ../up.txt')).toEqual(['echo', '> ../up.txt']);
    expect(commandApprovalKeys('cd /tmp && echo x > out.txt')).toEqual([
      'cd',
      'echo',
      '> out.txt (after cd)',
    ]);
    expect(commandApprovalKeys("env -C /tmp sh -c 'echo x > out.txt'")).toEqual([
      'sh -c',
      'echo',
      '> out.txt (after cd)',
    ]);
    expect(commandApprovalKeys("sh -c 'echo x > out.txt'")).toEqual([
      'sh -c',
      'echo',
      '> file:out.txt',
    ]);
  });

  it('resolves redirection targets against the workspace, links included', async () => {
    const temp = await makeWorkspace();
    try {
      await symlink(join(temp.outside, 'rc'), join(temp.workspace, 'rc-link'));
      const keys = (command: string) => commandApprovalKeys(command, temp.workspace);
      expect(keys('echo build > out.txt')).toEqual(['echo', '> file:out.txt']);
      expect(keys(`echo build > ${join(temp.workspace, 'sub/../out.txt')}`)).toEqual([
        'echo',
        '> file:out.txt',
      ]);
      expect(keys('echo x >> ../outside/rc')).toEqual(['echo', `> ${join(temp.outside, 'rc')}`]);
      expect(keys('echo x >> rc-link')).toEqual(['echo', `> ${join(temp.outside, 'rc')}`]);
    } finally {
      await temp.remove();
    }
  });

  it('rejects what is not a command line', () => {
    for (const bad of [undefined, null, 42, {}]) {
      expect(() => commandApprovalKeys(bad as unknown as string)).toThrow(
        expect.objectContaining({ name: 'HintgateError', code: 'invalid_option' }),
      );
    }
    expect(() => commandApprovalKeys('ls', '')).toThrow(/workspace must be the path/);
  });
});

describe('parseShellCommand', () => {
  it('removes quotes, sets redirections apart and numbers pipelines', () => {
    const commands = parseShellCommand(
      `FOO="a b" git -C 'x y' status | grep -v "\\"q\\"" 2>err.txt; ls`,
    );
    expect(commands.map((c) => [c.words, c.redirects, c.pipeline, c.stage])).toEqual([
      [['FOO=a b', 'git', '-C', 'x y', 'status'], [], 0, 0],
      [['grep', '-v', '"q"'], [{ op: '>', target: 'err.txt' }], 0, 1],
      [['ls'], [], 1, 0],
    ]);
  });

  it('drops a backslash-newline inside a word, as the shell does', () => {
    expect(parseShellCommand('r\\\nm -r\\\nf /').map((c) => c.words)).toEqual([['rm', '-rf', '/']]);
    expect(parseShellCommand("echo 'a\\\nb'").map((c) => c.words)).toEqual([['echo', 'a\\\nb']]);
  });

  it('ignores comments and treats operators inside quotes as text', () => {
    expect(parseShellCommand("echo 'a && b' # && rm -rf x").map((c) => c.words)).toEqual([
      ['echo', 'a && b'],
    ]);
  });
});
