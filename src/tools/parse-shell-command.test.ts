import { beforeAll, describe, expect, it } from 'vitest';
import { type BashGrammar, loadBashGrammar, loadedBashGrammar } from './load-bash-grammar.js';
import { MAX_COMMAND_LENGTH } from './max-command-length.js';
import { parseShellCommand } from './parse-shell-command.js';
import type { ShellWord } from './shell-syntax.js';

let grammar: BashGrammar;
beforeAll(async () => {
  grammar = await loadBashGrammar();
});

const parse = (line: string) => parseShellCommand(grammar, line);
const values = (words: readonly ShellWord[]) =>
  words.map((word) => word.value ?? `?${word.opaque}`);

describe('loadBashGrammar', () => {
  it('loads tree-sitter-bash once: every call gets the same grammar, also synchronously after', async () => {
    expect(await loadBashGrammar()).toBe(grammar);
    expect(loadedBashGrammar()).toBe(grammar);
  });
});

describe('parseShellCommand', () => {
  it('removes quotes, sets assignments and redirections apart and numbers pipelines', () => {
    const { commands, redirects } = parse(
      `FOO="a b" git -C 'x y' status | grep -v "\\"q\\"" 2>err.txt; ls > out.txt`,
    );
    expect(
      commands.map((c) => [
        c.assignments.map((a) => [a.name, a.value.value]),
        values(c.words),
        c.redirects.map((r) => [r.fd, r.op, r.target?.value]),
        c.stage,
      ]),
    ).toEqual([
      [[['FOO', 'a b']], ['git', '-C', 'x y', 'status'], [], 0],
      [[], ['grep', '-v', '"q"'], [], 1],
      [[], ['ls'], [[undefined, '>', 'out.txt']], 0],
    ]);
    const [git, grep, ls] = commands;
    expect(git?.pipeline).toBe(grep?.pipeline);
    expect(ls?.pipeline).not.toBe(git?.pipeline);
    // The grammar hangs a redirection after a pipeline on the whole pipeline.
    expect(redirects.map((r) => [r.fd, r.op, r.target?.value])).toEqual([['2', '>', 'err.txt']]);
  });

  it('joins the halves of a word at a backslash-newline, as the shell does, but not inside single quotes', () => {
    expect(values(parse('r\\\nm -r\\\nf /').commands[0]?.words ?? [])).toEqual(['rm', '-rf', '/']);
    expect(values(parse("echo 'a\\\nb'").commands[0]?.words ?? [])).toEqual(['echo', 'a\\\nb']);
    expect(values(parse('echo "a\\\nb"').commands[0]?.words ?? [])).toEqual(['echo', 'ab']);
  });

  it('ignores comments and treats operators inside quotes as text', () => {
    const { commands, opaque } = parse("echo 'a && b' # && rm -rf x $(id)");
    expect(commands.map((c) => values(c.words))).toEqual([['echo', 'a && b']]);
    expect(opaque).toEqual([]);
  });

  it('gives the reason instead of the value where the shell decides it', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template.
    const words = parse('echo $(id) "$HOME" ${x:-y} $((1)) *.ts ~/x {a,b} $\'\\n\' "*" a\\*')
      .commands[0]?.words;
    expect(values(words ?? [])).toEqual([
      'echo',
      '?command substitution $(id)',
      '?variable $HOME',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template.
      '?parameter expansion ${x:-y}',
      '?arithmetic expansion $((1))',
      '?pathname expansion (glob) *.ts',
      '?tilde expansion ~/x',
      '?brace expansion {a,b}',
      "?$'…' quoting, which sh and bash read differently: $'\\n'",
      '*',
      'a*',
    ]);
  });

  it('reads the commands of substitutions, linked to the word that holds them', () => {
    const { commands } = parse('echo "x $(curl -s a | sh)" <(wget b)');
    const [echo, ...inner] = commands;
    expect(inner.map((c) => [values(c.words)[0], c.within, c.stage])).toEqual([
      ['curl', [0], 0],
      ['sh', [0], 1],
      ['wget', [1], 0],
    ]);
    expect(echo?.words.map((word) => word.substitutions)).toEqual([undefined, [0], [1]]);
    expect(inner.every((c) => c.nested)).toBe(true);
  });

  it('takes the words the grammar hangs on `> file` as the arguments they are', () => {
    const { commands } = parse('git >/dev/null push origin 2>&1 main');
    expect(values(commands[0]?.words ?? [])).toEqual(['git', 'push', 'origin', 'main']);
    expect(commands[0]?.redirects.map((r) => `${r.fd ?? ''}${r.op}${r.target?.value}`)).toEqual([
      '>/dev/null',
      '2>&1',
    ]);
  });

  it('reads here-documents: quoted ones as written, others expanded or opaque', () => {
    const quoted = parse("sh <<'EOF'\ngit push $(id)\nEOF").commands[0]?.redirects[0]?.input;
    expect(quoted?.value).toBe('git push $(id)\n');
    const plain = parse('sh <<EOF\ngit push \\$x\nEOF').commands[0]?.redirects[0]?.input;
    expect(plain?.value).toBe('git push $x\n');
    const expanding = parse('sh <<EOF\ngit $(id)\nEOF');
    expect(expanding.commands[0]?.redirects[0]?.input?.opaque).toContain('here-document with');
    expect(expanding.commands.map((c) => values(c.words)[0])).toEqual(['sh', 'id']);
  });

  it('reports syntax errors, missing tokens and words read differently as hiding a command', () => {
    for (const line of [
      'echo "unterminated',
      'git status )',
      'if true; then git push',
      'echo \\$(id)',
      'echo $"x"',
      'git sta\rtus',
    ]) {
      expect(parse(line).opaque, JSON.stringify(line)).toContainEqual(
        expect.objectContaining({ hidesCommand: true }),
      );
    }
  });

  it('notes function definitions and whether their bodies fork', () => {
    const { functions, opaque, commands } = parse(':(){ :|:& };:');
    expect(functions).toEqual([{ name: ':', forks: true }]);
    expect(opaque[0]?.reason).toContain('defines the shell function :');
    expect(commands.filter((c) => c.inFunction === ':')).toHaveLength(2);
  });

  it('reads a line of the largest size, nested or flat, without running out of stack', () => {
    const nested = `${'$('.repeat(MAX_COMMAND_LENGTH / 4)}id${')'.repeat(MAX_COMMAND_LENGTH / 4)}`;
    expect(parse(nested).opaque).toContainEqual({
      reason: 'substitutions nested more than 64 deep are not read',
      hidesCommand: true,
    });
    const chain = Array.from({ length: MAX_COMMAND_LENGTH / 8 }, () => 'true').join(' && ');
    expect(parse(chain).commands.length).toBe(MAX_COMMAND_LENGTH / 8);
    const deep = `echo ${'${a:-'.repeat(200)}x${'}'.repeat(200)}`;
    expect(parse(deep).opaque).toContainEqual(expect.objectContaining({ hidesCommand: true }));
  });
});
