// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { describe, expect, it } from 'vitest';
import { expandEnv } from './expand-env.js';

const env = { TOKEN: 'abc', EMPTY: '', HOST: 'example.com' };
const value = (text: string) => {
  const result = expandEnv(text, env);
  if (!result.ok) throw new Error(result.problem);
  return result.value;
};
const problem = (text: string) => {
  const result = expandEnv(text, env);
  if (result.ok) throw new Error(`accepted ${text} as ${result.value}`);
  return result.problem;
};

describe('expandEnv', () => {
  it('replaces ${NAME} and ${env:NAME}, several per value', () => {
    expect(value('Bearer ${TOKEN}')).toBe('Bearer abc');
    expect(value('https://${HOST}/mcp?key=${env:TOKEN}')).toBe('https://example.com/mcp?key=abc');
  });

  it('uses the default of ${NAME:-default} when the variable is unset or empty', () => {
    expect(value('${MISSING:-info}')).toBe('info');
    expect(value('${EMPTY:-info}')).toBe('info');
    expect(value('${TOKEN:-info}')).toBe('abc');
    expect(value('${MISSING:-}')).toBe('');
  });

  it('keeps text without references, lone dollars and $${ escapes literal', () => {
    expect(value('$5 and $HOME')).toBe('$5 and $HOME');
    expect(value('$${TOKEN}')).toBe('${TOKEN}');
    expect(value('')).toBe('');
  });

  it('counts a variable set to the empty string as set', () => {
    expect(value('[${EMPTY}]')).toBe('[]');
  });

  it('names every unset variable once and how to set it', () => {
    expect(problem('${A}/${B}/${A}')).toBe(
      'uses ${A}, ${B}, which are not set; set A, B in the environment hintgate runs in, or give a default, as in ${A:-value}.',
    );
  });

  it('does not read inherited properties as variables', () => {
    expect(problem('${constructor}')).toContain('uses ${constructor}, which is not set');
  });

  it('explains VS Code inputs and variables it cannot fill in', () => {
    expect(problem('${input:token}')).toContain('a VS Code input, which hintgate cannot ask for');
    expect(problem('${workspaceFolder}/data')).toContain(
      '${workspaceFolder} is a VS Code variable, which hintgate does not fill in',
    );
  });

  it('rejects malformed and unclosed references', () => {
    expect(problem('${1X}')).toContain('is not an environment variable reference');
    expect(problem('${}')).toContain('is not an environment variable reference');
    expect(problem('Bearer ${TOKEN')).toContain('without a closing "}"');
  });
});
