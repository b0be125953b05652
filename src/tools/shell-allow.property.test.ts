import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRules } from '../policy/compiled-rule.js';
import { approvalKeysWith } from './command-approval-keys.js';
import { type BashGrammar, loadBashGrammar } from './load-bash-grammar.js';
import { SAFE_VARIABLES } from './safe-variables.js';
import { OPAQUE_RUNNERS } from './shell-runners.js';

// Property: a command line built around allowed commands, holding one substitution or
// expansion, one assignment to a variable outside the safe set, or one runner hintgate does
// not read, is never matched by an allow rule: neither by the docs' allow rule nor by one
// that allows every key. And without such a part (the control), the same lines are.

const ALLOWED = ['npm test', 'npm run lint', 'git status', 'git diff'];
const rules = compileRules([
  { tool: 'run_command', key: `{${ALLOWED.join(',')}}`, decision: 'allow' },
  { tool: 'run_command', key: '**', decision: 'allow' },
]);

const allowedBy = (line: string, grammar: BashGrammar): string[] => {
  const { keys, opaque } = approvalKeysWith(grammar, line);
  const call = {
    name: 'run_command',
    origin: 'workspace',
    effective: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    approvalKeys: keys,
    opaque,
  };
  return rules.filter((rule) => rule.matches(call, 'allowlist')).map((rule) => rule.rule.key ?? '');
};

const inner = fc.constantFrom('id', 'curl -s https://evil.example', 'git push', 'rm -rf ~');

/** A substitution or expansion, in one of its spellings. */
const substitution = fc.oneof(
  inner.map((c) => `$(${c})`),
  inner.map((c) => `\`${c}\``),
  inner.map((c) => `<(${c})`),
  inner.map((c) => `>(${c})`),
  inner.map((c) => `\${x:-$(${c})}`),
  inner.map((c) => `$((0$(${c})))`),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell words, not templates.
  fc.constantFrom('$x', '${HOME}', '$1', '$@', '$$', '$((1+1))', '$[1]', '${#x}', '$?', '~', '~/x'),
  fc.constantFrom('*', '*.ts', 'src/?', '[ab]', '{a,b}', "$'\\x41'"),
);

/** Where a substitution may stand in a word: alone, quoted, inside other text. */
const placed = fc
  .tuple(substitution, fc.constantFrom('plain', 'quoted', 'glued', 'after-dashes'))
  .map(([part, how]) => {
    if (
      how === 'quoted' &&
      !part.startsWith('<(') &&
      !part.startsWith('>(') &&
      !/[*?[{~]/.test(part)
    ) {
      return `"${part}"`;
    }
    // `~` expands only at the start of a word.
    if (how === 'glued') return part.startsWith('~') ? part : `a${part}`;
    if (how === 'after-dashes') return `-- ${part}`;
    return part;
  });

/** A variable name outside the safe set. */
const unsafeName = fc.oneof(
  fc.constantFrom(
    'PATH',
    'LD_PRELOAD',
    'NODE_OPTIONS',
    'GIT_EXTERNAL_DIFF',
    'GIT_SSH_COMMAND',
    'GIT_DIR',
    'PAGER',
    'EDITOR',
    'BASH_ENV',
    'ENV',
    'IFS',
    'npm_config_script_shell',
    'PYTHONPATH',
    'HOME',
  ),
  fc
    .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/)
    .filter((name) => !SAFE_VARIABLES.has(name) && !/^LC_[A-Z]+$/.test(name)),
);
const value = fc.constantFrom('1', 'x', "'sh -c id'", '/tmp/evil', '"a b"', '');

/** An assignment to an unsafe variable, in one of the ways a line can make one. */
const assignment = fc
  .tuple(unsafeName, value, fc.constantFrom('prefix', 'bare', 'export', 'env', 'sudo'))
  .map(([name, v, how]) => ({ name, text: `${name}=${v}`, how }));

const runner = fc.constantFrom(...OPAQUE_RUNNERS);
const safePrefix = fc.constantFrom(
  '',
  'nohup ',
  'timeout 5 ',
  'env LANG=C ',
  'nice -n 5 ',
  'CI=1 ',
);
const safeArg = fc.constantFrom(
  '',
  ' --stat',
  ' -- src',
  ' --short',
  ' 2>/dev/null',
  ' >/dev/null 2>&1',
);
const separator = fc.constantFrom(' && ', '; ', ' || ', '\n', ' | ');

/** A line of one to three allowed commands with safe wrappers and arguments. */
const safeLine = fc
  .array(fc.tuple(safePrefix, fc.constantFrom(...ALLOWED), safeArg), { minLength: 1, maxLength: 3 })
  .chain((parts) =>
    fc
      .array(separator, { minLength: parts.length - 1, maxLength: parts.length - 1 })
      .map((seps) =>
        parts
          .map(
            ([prefix, command, arg], i) => `${i === 0 ? '' : seps[i - 1]}${prefix}${command}${arg}`,
          )
          .join(''),
      ),
  );

/** A safe line with one bad part put somewhere in it. */
const badLine = fc
  .tuple(
    safeLine,
    fc.oneof(
      placed.map((part) => ({ kind: 'substitution' as const, part })),
      assignment.map((a) => ({ kind: 'assignment' as const, part: a.text, how: a.how })),
      runner.map((name) => ({ kind: 'runner' as const, part: name })),
    ),
    fc.nat(),
  )
  .map(([line, bad, at]) => {
    const commands = line.split(/(?= && |; | \|\| |\n| \| )/);
    const index = at % commands.length;
    const target = commands[index] as string;
    const lead = target.match(/^( && |; | \|\| |\n| \| )?/)?.[0] ?? '';
    const body = target.slice(lead.length);
    let changed: string;
    if (bad.kind === 'substitution') {
      changed = `${body} ${bad.part}`;
    } else if (bad.kind === 'runner') {
      changed = `${bad.part} ${body}`;
    } else if (bad.how === 'prefix') {
      changed = `${bad.part} ${body}`;
    } else if (bad.how === 'bare') {
      changed = `${bad.part}; ${body}`;
    } else if (bad.how === 'export') {
      changed = `export ${bad.part}; ${body}`;
    } else {
      changed = `${bad.how} ${bad.part} ${body}`;
    }
    commands[index] = `${lead}${changed}`;
    return commands.join('');
  });

let grammar: BashGrammar;
beforeAll(async () => {
  grammar = await loadBashGrammar();
});

describe('allow rules on run_command keys', () => {
  it('match the safe lines built around allowed commands (the control)', () => {
    fc.assert(
      fc.property(safeLine, (line) => {
        expect(allowedBy(line, grammar), line).toEqual([`{${ALLOWED.join(',')}}`, '**']);
      }),
      { numRuns: 300 },
    );
  });

  it('never match a line with a substitution, an unsafe assignment or an unknown runner', () => {
    fc.assert(
      fc.property(badLine, (line) => {
        expect(allowedBy(line, grammar), line).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
