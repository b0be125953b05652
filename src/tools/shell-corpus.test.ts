import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRules } from '../policy/compiled-rule.js';
import { decideCall } from '../policy/decide-call.js';
import { parsePolicyText } from '../policy/parse-policy-text.js';
import type { PolicyRule } from '../policy/policy-types.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE } from '../tool/presets.js';
import { checkCommandSafetyWith } from './check-command-safety.js';
import { approvalKeysWith } from './command-approval-keys.js';
import { type BashGrammar, loadBashGrammar } from './load-bash-grammar.js';

// The corpus: command lines with the keys they must get, whether they are understood, ask
// (a part is not understood) or hide a command (a part may run a command the keys do not
// name), a reason that must be among those given, and the safety gate's verdict where it
// matters. It covers the lines of the security review and the classes behind them.

interface Entry {
  readonly line: string;
  readonly keys: readonly string[];
  readonly verdict: 'understood' | 'asks' | 'hides';
  readonly reason?: string;
  readonly safety?: 'refused' | 'allowed';
}

const corpus: readonly Entry[] = JSON.parse(
  readFileSync(new URL('./shell-corpus.json', import.meta.url), 'utf8'),
);

/** The rules of docs/policy.md's first example. */
const rules = compileRules([
  {
    tool: 'run_command',
    key: '{npm test,npm run lint,git status,git diff}',
    decision: 'allow',
  },
  { tool: 'run_command', key: 'git push*', decision: 'deny' },
] satisfies PolicyRule[]);
const [allow, deny] = rules as [(typeof rules)[number], (typeof rules)[number]];

const subject = (
  keys: readonly string[],
  opaque: ReturnType<typeof approvalKeysWith>['opaque'],
) => ({
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
});

let grammar: BashGrammar;
beforeAll(async () => {
  grammar = await loadBashGrammar();
});

const show = (line: string): string => JSON.stringify(line).slice(0, 100);

describe('the shell corpus', () => {
  it('has hundreds of lines of every verdict', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(500);
    for (const verdict of ['understood', 'asks', 'hides'] as const) {
      expect(corpus.filter((entry) => entry.verdict === verdict).length).toBeGreaterThan(100);
    }
  });

  it.each(corpus.map((entry) => [show(entry.line), entry] as const))(
    '%s',
    (_, { line, keys, verdict, reason, safety }) => {
      const read = approvalKeysWith(grammar, line);
      expect([...read.keys].sort()).toEqual([...keys].sort());
      const got =
        read.opaque.length === 0
          ? 'understood'
          : read.opaque.some((part) => part.hidesCommand === true)
            ? 'hides'
            : 'asks';
      expect(got, JSON.stringify(read.opaque)).toBe(verdict);
      if (reason !== undefined) {
        expect(read.opaque.map((part) => part.reason).join('\n')).toContain(reason);
      }
      if (safety !== undefined) {
        const danger = checkCommandSafetyWith(grammar, line, {
          workspace: '/home/user/proj',
          home: '/home/user',
        });
        if (safety === 'refused') expect(danger).toEqual(expect.any(String));
        else expect(danger).toBeUndefined();
      }
      // Against the docs' rules: only an understood line may be allowed, and a line that
      // runs `git push` or hides a command is denied.
      const call = subject(read.keys, read.opaque);
      if (verdict !== 'understood') expect(allow.matches(call, 'auto')).toBe(false);
      if (verdict === 'hides' || read.keys.some((key) => key.startsWith('git push'))) {
        expect(deny.matches(call, 'yolo')).toBe(true);
      }
    },
  );
});

describe("docs/policy.md's first example, on run_command lines read by the grammar", () => {
  const docs = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');
  const yaml = docs.match(/```yaml\n([\s\S]*?)```/)?.[1] ?? '';
  const policy = parsePolicyText(yaml, 'example-1.yaml');
  const compiled = compileRules(policy.rules ?? []);
  const tool = defineTool({
    name: 'run_command',
    description: 'runs',
    inputSchema: { type: 'object' },
    annotations: DESTRUCTIVE,
    execute: () => '',
  });
  const decide = (line: string, mode: 'auto' | 'yolo') => {
    const { keys, opaque } = approvalKeysWith(grammar, line);
    return decideCall(
      {
        ...subject(keys, opaque),
        id: 'c',
        tool,
        trusted: true,
        claimed: DESTRUCTIVE,
        class: 'destructive',
        arguments: { command: line },
        resourceKeys: ['file:'],
      },
      mode,
      compiled,
    ).decision;
  };

  it.each([
    'npm test',
    'git status --short && npm test -- --run',
    'CI=1 timeout 60 npm test',
    'env LANG=C git status > /dev/null',
  ])('allows %j in auto', (line) => {
    expect(decide(line, 'auto')).toBe('allow');
  });

  it.each([
    'git status; rm x',
    'npm test > out.log',
    'git status $(id)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template.
    'git status ${x:-$(id)}',
    'npm test -- *.ts',
    'git -C /elsewhere status',
    'git diff --output=/x',
    'npm test $(id)',
  ])('asks about %j in auto', (line) => {
    expect(decide(line, 'auto')).toBe('ask');
  });

  it.each([
    'git push',
    'sudo git push',
    "env -S 'git push'",
    'git -c alias.p=push p',
    'echo main | xargs git push origin',
    '$(echo git) push',
    'x=1 git status',
    'NODE_OPTIONS=--require=/tmp/x npm test',
    'GIT_EXTERNAL_DIFF=x git diff',
    'PAGER=x git diff',
    'git -c core.fsmonitor=x status',
  ])('denies %j, even in yolo', (line) => {
    expect(decide(line, 'yolo')).toBe('deny');
    expect(decide(line, 'auto')).toBe('deny');
  });
});
