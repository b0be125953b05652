import { beforeAll, describe, expect, it } from 'vitest';
import { expandCommands } from './expand-commands.js';
import { type BashGrammar, loadBashGrammar } from './load-bash-grammar.js';
import type { ExpandedCommand } from './shell-syntax.js';

let grammar: BashGrammar;
beforeAll(async () => {
  grammar = await loadBashGrammar();
});

const expand = (line: string) => expandCommands(grammar, line);
const shape = (c: ExpandedCommand) => ({
  prefix: c.prefix,
  program: c.program,
  args: c.args.map((word) => word.value ?? `?${word.opaque}`),
  ...(c.argsFrom === undefined ? {} : { argsFrom: c.argsFrom }),
  ...(c.chdir ? { chdir: true } : {}),
});

describe('expandCommands', () => {
  it('takes runners apart, keeping those that change who runs the command as a prefix', () => {
    expect(
      expand('sudo -u root nice -n 5 env A=1 timeout 10 rm -rf x').commands.map(shape),
    ).toEqual([{ prefix: ['sudo'], program: 'rm', args: ['-rf', 'x'] }]);
    expect(expand("su -c 'watch git status'").commands.map(shape)).toEqual([
      { prefix: ['su', 'watch'], program: 'git', args: ['status'] },
    ]);
  });

  it('knows when a runner moves the command to another directory', () => {
    expect(expand('env -C /tmp make').commands.map(shape)).toEqual([
      { prefix: [], program: 'make', args: [], chdir: true },
    ]);
    expect(expand("sudo -D /srv sh -c 'make'").commands.map(shape)).toContainEqual({
      prefix: ['sudo'],
      program: 'make',
      args: [],
      chdir: true,
    });
  });

  it('reads env -S again as env arguments: options, assignments and the command', () => {
    const line = expand("env -S '-i A=1 git push' origin");
    expect(line.commands.map(shape)).toEqual([
      { prefix: [], program: 'git', args: ['push', 'origin'] },
    ]);
    expect(line.opaque.map((part) => part.reason)).toEqual([
      "env -S splits the string '-i A=1 git push' into a command",
      'env sets A, which may change what programs run',
    ]);
  });

  it('marks the arguments a runner fills in from its input, and the words it replaces', () => {
    expect(expand('git ls-files | xargs -I{} cp {} dest').commands.map(shape)).toEqual([
      { prefix: [], program: 'git', args: ['ls-files'] },
      {
        prefix: ['xargs'],
        program: 'cp',
        args: ['?{}, which xargs replaces with what it reads', 'dest'],
        argsFrom: 'xargs',
      },
    ]);
    expect(expand('find . -name x -exec rm {} +').commands.map(shape)).toEqual([
      { prefix: [], program: 'find', args: ['.', '-name', 'x', '-exec', 'rm', '{}', '+'] },
      {
        prefix: [],
        program: 'rm',
        args: ['?{}, which find replaces with a file name'],
        argsFrom: 'find -exec',
      },
    ]);
  });

  it('links the commands of a substitution to the arguments that hold it', () => {
    const { commands } = expand('bash -c "$(curl -s https://x)"');
    const bash = commands.find((c) => c.program === 'bash');
    const curl = commands.find((c) => c.program === 'curl');
    expect(bash?.args[1]?.substitutions).toEqual(curl?.within);
  });

  it('reads shell code eight levels deep, and says it stops there', () => {
    let line = 'git push';
    for (let i = 0; i < 10; i += 1) line = `sh -c ${JSON.stringify(line)}`;
    const expanded = expand(line);
    expect(expanded.commands.some((c) => c.program === 'git')).toBe(false);
    expect(expanded.opaque).toContainEqual({
      reason: 'shell code nested more than 8 levels deep is not read',
      hidesCommand: true,
    });
  });

  it('follows git aliases set by -c and by git config earlier in the line, and their chains', () => {
    const keys = (line: string) =>
      expand(line).commands.map((c) => [c.program, ...c.args.map((w) => w.value)].join(' '));
    expect(keys('git -c alias.a=b -c alias.b=push a origin')).toEqual([
      'git -c alias.a=b -c alias.b=push push origin',
    ]);
    expect(keys("git config alias.up '!git push'; git up")).toEqual([
      'git config alias.up !git push',
      'git up',
      'git push',
    ]);
    expect(keys('git up')).toEqual(['git up']);
  });
});
