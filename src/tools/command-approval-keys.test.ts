import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandApprovalKeys } from './command-approval-keys.js';
import { makeWorkspace } from './workspace.test-helpers.js';

/** The keys alone, as the tests before opaque parts existed read them. */
const keysOf = async (command: string, workspace?: string) =>
  (await commandApprovalKeys(command, workspace)).keys;

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
  ])('%s -> %j', async (command, keys) => {
    expect(await keysOf(command)).toEqual(keys);
  });

  it('gives one key per part of a compound command', async () => {
    expect(await keysOf('npm test && git status')).toEqual(['npm test', 'git status']);
    expect(await keysOf('cat a.txt | grep x; ls')).toEqual(['cat', 'grep', 'ls']);
    expect(await keysOf('npm test || echo failed &')).toEqual(['npm test', 'echo']);
    expect(await keysOf('npm test\ngit push')).toEqual(['npm test', 'git push']);
  });

  it('names what substitutions, sh -c, eval and find -exec run', async () => {
    expect(await keysOf('echo "$(rm -rf build)"')).toEqual(['echo', 'rm']);
    expect(await keysOf('echo `git push`')).toEqual(['echo', 'git push']);
    expect(await keysOf("sh -c 'npm test; git push'")).toEqual(['sh -c', 'npm test', 'git push']);
    expect(await keysOf('eval "git push"')).toEqual(['eval', 'git push']);
    expect(await keysOf("bash -lc 'npm test'")).toEqual(['bash -c', 'npm test']);
    expect(await keysOf('sh -euc -- "git push"')).toEqual(['sh -c', 'git push']);
    expect(await keysOf('bash -o pipefail -c "git push"')).toEqual(['bash -c', 'git push']);
    expect(await keysOf('bash script.sh -c x')).toEqual(['bash script.sh']);
    expect(await keysOf('find . -name "*.o" -exec rm {} \\;')).toEqual(['find', 'rm']);
    expect(await keysOf('find . -delete')).toEqual(['find', 'find -delete']);
    expect(await keysOf('cat <<EOF\n$(git push)\nEOF')).toEqual(['cat', 'git push']);
    expect(await keysOf("cat <<'EOF'\n$(git push)\nEOF")).toEqual(['cat']);
  });

  it('leaves wrappers and assignments out of the key; sudo and xargs key with and without', async () => {
    expect(await keysOf('TOKEN=s3cret CI=1 npm test')).toEqual(['npm test']);
    expect(await keysOf('timeout 10 nice -n 5 env A=1 npm test')).toEqual(['npm test']);
    expect(await keysOf('sudo -u root rm -rf /tmp/x')).toEqual(['sudo rm', 'rm']);
    expect(await keysOf('git ls-files | xargs -n 1 wc -l')).toEqual([
      'git ls-files',
      'xargs wc',
      'wc',
    ]);
  });

  it('takes programs named like Object.prototype members as programs, not wrappers', async () => {
    expect(await keysOf('constructor git status')).toEqual(['constructor git']);
    expect(await keysOf('toString npm test')).toEqual(['toString npm']);
    expect(await keysOf('__proto__ x')).toEqual(['__proto__ x']);
    expect(await keysOf('valueOf')).toEqual(['valueOf']);
    expect(await keysOf('hasOwnProperty -C /tmp rm x')).toEqual(['hasOwnProperty']);
  });

  it('adds a key per file output is redirected to, not for /dev/null or descriptors', async () => {
    expect(await keysOf('npm test > out.log 2>&1')).toEqual(['npm test', '> file:out.log']);
    expect(await keysOf('npm test >/dev/null 2>&1')).toEqual(['npm test']);
    expect(await keysOf('echo x >> notes.md')).toEqual(['echo', '> file:notes.md']);
    expect(await keysOf('echo x >> /tmp/fake_bashrc')).toEqual(['echo', '> /tmp/fake_bashrc']);
    expect(await keysOf('echo x > a &> b >& c 2>&1 >| ./e/../f')).toEqual([
      'echo',
      '> file:a',
      '> file:b',
      '> file:c',
      '> file:f',
    ]);
    // The grammar does not know `<>`: the line is not understood, and may hide a command.
    expect((await commandApprovalKeys('echo x <> d')).opaque).toContainEqual(
      expect.objectContaining({ hidesCommand: true }),
    );
    expect(await keysOf('echo x > ~/.bashrc; echo y > "$OUT"')).toEqual([
      'echo',
      '> ~/.bashrc',
      '> "$OUT"',
    ]);
    expect(await keysOf('echo x > ../up.txt')).toEqual(['echo', '> ../up.txt']);
    expect(await keysOf('cd /tmp && echo x > out.txt')).toEqual([
      'cd',
      'echo',
      '> out.txt (after cd)',
    ]);
    expect(await keysOf("env -C /tmp sh -c 'echo x > out.txt'")).toEqual([
      'sh -c',
      'echo',
      '> out.txt (after cd)',
    ]);
    expect(await keysOf("sh -c 'echo x > out.txt'")).toEqual(['sh -c', 'echo', '> file:out.txt']);
  });

  it('resolves redirection targets against the workspace, links included', async () => {
    const temp = await makeWorkspace();
    try {
      await symlink(join(temp.outside, 'rc'), join(temp.workspace, 'rc-link'));
      const keys = (command: string) => keysOf(command, temp.workspace);
      expect(await keys('echo build > out.txt')).toEqual(['echo', '> file:out.txt']);
      expect(await keys(`echo build > ${join(temp.workspace, 'sub/../out.txt')}`)).toEqual([
        'echo',
        '> file:out.txt',
      ]);
      expect(await keys('echo x >> ../outside/rc')).toEqual([
        'echo',
        `> ${join(temp.outside, 'rc')}`,
      ]);
      expect(await keys('echo x >> rc-link')).toEqual(['echo', `> ${join(temp.outside, 'rc')}`]);
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
