import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type {
  ApprovalAnswer,
  Approver,
  Mode,
  PolicyRule,
  RuleDecision,
} from '../policy/policy-types.js';
import { createRegistry } from '../registry/index.js';
import { defineTool } from '../tool/define-tool.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import { createRuntime } from './create-runtime.js';

type Kind = 'read' | 'write' | 'delete';
const PRESET = { read: READ_ONLY, write: WRITE, delete: DESTRUCTIVE } as const;
const PATHS = ['a', 'b', 'c'] as const;

interface CallSpec {
  readonly kind: Kind;
  readonly paths: readonly string[];
}
interface RuleSpec {
  readonly tool: string | undefined;
  readonly key: string | undefined;
  readonly destructive: boolean | undefined;
  readonly decision: RuleDecision;
  readonly priority: number;
  readonly modes: readonly Mode[] | undefined;
}

const modeArb = fc.constantFrom<Mode>('plan', 'ask', 'auto', 'allowlist', 'yolo');
const ruleArb: fc.Arbitrary<RuleSpec> = fc.record({
  tool: fc.constantFrom(undefined, '*', 'read_*', 'write_*', 'delete_*', 'write_x'),
  key: fc.constantFrom(undefined, 'file:*', 'file:a', 'file:b'),
  destructive: fc.constantFrom(undefined, true, false),
  decision: fc.constantFrom<RuleDecision>('allow', 'ask', 'deny'),
  priority: fc.constantFrom(0, 0, 0, 1, 2),
  modes: fc.option(
    fc.subarray<Mode>(['plan', 'ask', 'auto', 'allowlist', 'yolo'], { minLength: 1 }),
    {
      nil: undefined,
    },
  ),
});
const callArb: fc.Arbitrary<CallSpec> = fc.record({
  kind: fc.constantFrom<Kind>('read', 'write', 'delete'),
  paths: fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 2 }),
});
const answerArb: fc.Arbitrary<ApprovalAnswer> = fc.record({
  decision: fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
  remember: fc.constantFrom<'once' | 'session' | 'always'>('once', 'session', 'always'),
});

const toRule = (spec: RuleSpec): PolicyRule => ({
  ...(spec.tool === undefined ? {} : { tool: spec.tool }),
  ...(spec.key === undefined ? {} : { key: spec.key }),
  ...(spec.destructive === undefined ? {} : { annotations: { destructiveHint: spec.destructive } }),
  decision: spec.decision,
  priority: spec.priority,
  ...(spec.modes === undefined ? {} : { modes: spec.modes }),
});

// An oracle written from the documented rules, independent of the engine's code.
const globMatches = (glob: string, value: string): boolean =>
  glob.endsWith('*') ? value.startsWith(glob.slice(0, -1)) : glob === value;
const STRENGTH = { deny: 2, ask: 1, allow: 0 } as const;
const toolName = (kind: Kind) => `${kind}_x`;
const expected = (call: CallSpec, trusted: boolean, mode: Mode, rules: readonly RuleSpec[]) => {
  const cls = trusted
    ? call.kind === 'read'
      ? 'read'
      : call.kind === 'write'
        ? 'write'
        : 'destructive'
    : 'destructive';
  const keys = call.paths.map((p) => `file:${p}`);
  if (mode === 'plan' && cls !== 'read')
    return { cls, decision: 'deny' as const, denyMatched: false };
  const matching = rules.filter(
    (r) =>
      (r.modes === undefined || r.modes.includes(mode)) &&
      (r.tool === undefined || globMatches(r.tool, toolName(call.kind))) &&
      (r.destructive === undefined || r.destructive === (cls === 'destructive')) &&
      (r.key === undefined ||
        (r.decision === 'allow'
          ? keys.every((k) => globMatches(r.key as string, k))
          : keys.some((k) => globMatches(r.key as string, k)))),
  );
  const winner = [...matching].sort(
    (x, y) => y.priority - x.priority || STRENGTH[y.decision] - STRENGTH[x.decision],
  )[0];
  const denyMatched = matching.some((r) => r.decision === 'deny');
  if (winner !== undefined && !(winner.decision === 'ask' && mode === 'yolo')) {
    return { cls, decision: winner.decision, denyMatched };
  }
  const byMode: Record<Exclude<Mode, 'plan'>, 'allow' | 'ask'> = {
    ask: cls === 'read' ? 'allow' : 'ask',
    auto: cls === 'destructive' ? 'ask' : 'allow',
    allowlist: 'ask',
    yolo: 'allow',
  };
  return { cls, decision: byMode[mode as Exclude<Mode, 'plan'>], denyMatched };
};

describe('policy properties', () => {
  it('never runs an ask without an allow, a denied call, or a mutating call in plan mode', async () => {
    await fc.assert(
      fc.asyncProperty(
        modeArb,
        fc.array(ruleArb, { maxLength: 5 }),
        fc.boolean(),
        fc.array(fc.array(callArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        fc.infiniteStream(answerArb),
        async (mode, ruleSpecs, trusted, batches, answers) => {
          const ran: string[] = [];
          const tools = (['read', 'write', 'delete'] as const).map((kind) =>
            defineTool({
              name: toolName(kind),
              description: kind,
              inputSchema: z.object({ paths: z.array(z.string()) }),
              annotations: PRESET[kind],
              resources: ['file:{paths}'],
              execute: (_args, context) => {
                ran.push(context.callId);
                return 'done';
              },
            }),
          );
          const registry = createRegistry({ env: {} });
          registry.addOrigin({ name: 'origin', layer: 'project', trusted, tools });
          const allowedIds = new Set<string>();
          const covered = new Map<string, Set<string>>();
          const approver: Approver = (request) => {
            const answer = answers.next().value as ApprovalAnswer;
            if (answer.decision === 'allow') {
              allowedIds.add(request.callId);
              if (answer.remember !== 'once') {
                const keys = covered.get(request.tool.name) ?? new Set<string>();
                for (const key of request.approvalKeys) keys.add(key);
                covered.set(request.tool.name, keys);
              }
            }
            return answer;
          };
          const runtime = createRuntime({ registry, mode, rules: ruleSpecs.map(toRule), approver });
          let counter = 0;
          for (const batch of batches) {
            const calls = batch.map((spec) => ({ id: `c${counter++}`, spec }));
            await runtime.execute(
              calls.map(({ id, spec }) => ({
                id,
                name: toolName(spec.kind),
                arguments: { paths: spec.paths },
              })),
            );
            for (const { id, spec } of calls) {
              const oracle = expected(spec, trusted, mode, ruleSpecs);
              // And the engine is not stricter than the rules: what they allow runs.
              if (oracle.decision === 'allow')
                expect(ran, `${id} was allowed but did not run`).toContain(id);
              if (!ran.includes(id)) continue;
              expect(mode === 'plan' && oracle.cls !== 'read', `${id} ran in plan mode`).toBe(
                false,
              );
              expect(oracle.decision, `${id} ran although a deny rule won`).not.toBe('deny');
              if (ruleSpecs.every((r) => r.priority === 0)) {
                expect(oracle.denyMatched, `${id} ran although a deny rule matched`).toBe(false);
              }
              if (oracle.decision === 'ask') {
                const keys = spec.paths.map((p) => `file:${p}`);
                const remembered = keys.every((key) => covered.get(toolName(spec.kind))?.has(key));
                expect(
                  allowedIds.has(id) || remembered,
                  `${id} asked but ran without an allow`,
                ).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
