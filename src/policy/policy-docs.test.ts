import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolAnnotations } from '../tool/annotations.js';
import { classify } from '../tool/classify.js';
import { defineTool } from '../tool/define-tool.js';
import { effectiveAnnotations } from '../tool/effective-annotations.js';
import { DESTRUCTIVE, READ_ONLY, WRITE } from '../tool/presets.js';
import type { CallRequest } from './authorizer.js';
import { compileRules } from './compiled-rule.js';
import { decideCall } from './decide-call.js';
import { parsePolicyText } from './parse-policy-text.js';
import type { Mode, Policy } from './policy-types.js';

const docs = await readFile(new URL('../../docs/policy.md', import.meta.url), 'utf8');
const examples = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

const call = (name: string, annotations: ToolAnnotations, keys: string[]): CallRequest => {
  const effective = effectiveAnnotations(annotations);
  return {
    id: 'c',
    name,
    tool: defineTool({
      name,
      description: name,
      inputSchema: z.object({}),
      annotations,
      execute: () => '',
    }),
    origin: 'local',
    trusted: true,
    claimed: annotations,
    effective,
    class: classify(effective),
    arguments: {},
    resourceKeys: [],
    approvalKeys: keys,
  };
};
const decide = (policy: Policy, request: CallRequest, mode?: Mode) =>
  decideCall(request, mode ?? policy.mode ?? 'ask', compileRules(policy.rules ?? [])).decision;

describe('docs/policy.md examples', () => {
  it('has four YAML examples, each a valid policy', () => {
    expect(examples).toHaveLength(4);
    for (const text of examples)
      expect(() => parsePolicyText(text, 'docs/policy.md')).not.toThrow();
  });

  it('example 1 behaves as the docs say', () => {
    const policy = parsePolicyText(examples[0] ?? '', 'example-1.yaml');
    expect(decide(policy, call('write_file', WRITE, ['file:src/app.ts']))).toBe('allow');
    expect(decide(policy, call('write_file', WRITE, ['file:.github/workflows/ci.yml']))).toBe(
      'ask',
    );
    expect(decide(policy, call('run_command', DESTRUCTIVE, ['npm test']))).toBe('allow');
    expect(decide(policy, call('run_command', DESTRUCTIVE, ['git push']), 'yolo')).toBe('deny');
  });

  it('example 3 behaves as the docs say', () => {
    const policy = parsePolicyText(examples[2] ?? '', 'example-3.yaml');
    expect(decide(policy, call('read_file', READ_ONLY, ['file:a']))).toBe('allow');
    expect(decide(policy, call('edit_file', WRITE, ['file:src/a.ts']))).toBe('allow');
    expect(decide(policy, call('edit_file', WRITE, ['file:package.json']))).toBe('ask');
    expect(decide(policy, call('delete_file', DESTRUCTIVE, ['file:src/a.ts']))).toBe('deny');
  });
});
