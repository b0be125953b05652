import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import { loadPolicy } from './load-policy.js';
import { parsePolicyText } from './parse-policy-text.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hintgate-policy-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** The error `promise` rejects with, checked to be a HintgateError with `code`. */
async function failure(promise: Promise<unknown>, code = 'invalid_policy'): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HintgateError);
  expect((error as HintgateError).code).toBe(code);
  return (error as Error).message;
}

/** The message of the invalid_policy error `parsePolicyText` throws. */
function parseFailure(text: string, file: string): string {
  try {
    parsePolicyText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(HintgateError);
    expect((error as HintgateError).code).toBe('invalid_policy');
    return (error as Error).message;
  }
  throw new Error('parsePolicyText accepted the text');
}

describe('loadPolicy', () => {
  it('reads a YAML file with comments into the exact policy', async () => {
    const file = await write(
      'hintgate.yaml',
      [
        '# Project policy',
        'mode: auto # reads and safe writes run',
        '',
        'rules:',
        '  # never touch secrets',
        '  - key: "file:.env*"',
        '    decision: deny',
        '    priority: 100',
        '    reason: secrets',
        '  - tool: "github_*"',
        '    annotations: { destructiveHint: true }',
        '    decision: ask',
        '    modes: [auto, yolo]',
        '  - tool: "*"',
        '    origin: local',
        '    decision: allow',
        '',
      ].join('\n'),
    );
    const policy = await loadPolicy(file);
    expect(policy).toEqual({
      mode: 'auto',
      rules: [
        { key: 'file:.env*', decision: 'deny', priority: 100, reason: 'secrets' },
        {
          tool: 'github_*',
          annotations: { destructiveHint: true },
          decision: 'ask',
          modes: ['auto', 'yolo'],
        },
        { tool: '*', origin: 'local', decision: 'allow' },
      ],
    });
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it('reads .yml and .json files, and a JSON file with a byte order mark', async () => {
    const yml = await write('p.yml', 'mode: plan\n');
    const json = await write(
      'p.json',
      '\uFEFF{ "mode": "yolo", "rules": [{ "decision": "deny" }] }',
    );
    expect(await loadPolicy(yml)).toEqual({ mode: 'plan' });
    expect(await loadPolicy(json)).toEqual({ mode: 'yolo', rules: [{ decision: 'deny' }] });
  });

  it('points at the line and column of a bad value in a YAML file', async () => {
    const file = await write(
      'hintgate.yaml',
      'mode: ask\nrules:\n  - tool: a\n    decision: allow\n  - tool: b\n    decision: block\n',
    );
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:6:5: rules[1].decision is "block"; use one of allow, ask, deny.`,
    );
  });

  it('points at the line and column of a bad value in a JSON file', async () => {
    const file = await write(
      'hintgate.json',
      '{\n  "mode": "ask",\n  "rules": [\n    { "tool": "a", "decision": "block" }\n  ]\n}\n',
    );
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:4:20: rules[0].decision is "block"; use one of allow, ask, deny.`,
    );
  });

  it('reports every problem of a file, each on its own line, in file order', async () => {
    const file = await write(
      'hintgate.yaml',
      'rules:\n  - tools: x\n    decison: deny\nmod: ask\n',
    );
    expect((await failure(loadPolicy(file))).split('\n')).toEqual([
      `${file}:2:5: rules[0].tools is not a rule key; did you mean "tool"?`,
      // The misspelled key says it all: no second line that "decision" is missing.
      `${file}:3:5: rules[0].decison is not a rule key; did you mean "decision"?`,
      `${file}:4:1: mod is not a policy key; did you mean "mode"?`,
    ]);
  });

  it('reports an unknown top-level key with its line', async () => {
    const file = await write('hintgate.yaml', 'mode: ask\nallow: [github_*]\n');
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:2:1: allow is not a policy key; use "mode", "rules" and "tools".`,
    );
  });

  it('reports a YAML syntax error with the line and column of the parser', async () => {
    const file = await write('hintgate.yaml', 'mode: ask\nrules:\n\t- decision: deny\n');
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:3:1: YAML syntax error: Tabs are not allowed as indentation; indent with spaces.`,
    );
  });

  it('reports a JSON syntax error with its line and column', async () => {
    const file = await write('hintgate.json', '{\n  "mode": "ask",\n  "rules": [,]\n}\n');
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:3:13: JSON syntax error: expected a value but found ",".`,
    );
  });

  it('holds JSON files to JSON, not YAML: a trailing comma is an error', async () => {
    const file = await write('hintgate.json', '{ "mode": "ask", }');
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:1:18: JSON syntax error: expected a key in double quotes but found "}".`,
    );
  });

  it('reads a file of another extension as JSON when it starts with "{", else as YAML', async () => {
    const json = await write('policy', ' { "mode": "ask", }');
    const yaml = await write('policy.conf', 'mode: ask\n');
    expect(await failure(loadPolicy(json))).toContain('JSON syntax error');
    expect(await loadPolicy(yaml)).toEqual({ mode: 'ask' });
  });

  it('says a missing file is missing, with its absolute path', async () => {
    const file = join(dir, 'nope.yaml');
    const message = await failure(loadPolicy(relative(process.cwd(), file)));
    expect(message).toBe(
      `Policy file not found: ${resolve(file)}. Create it (for example with "mode: ask"), or pass the right path.`,
    );
  });

  it('says a directory is not a policy file', async () => {
    await mkdir(join(dir, 'sub'));
    expect(await failure(loadPolicy(join(dir, 'sub')))).toBe(
      `${join(dir, 'sub')} is a directory, not a policy file; pass the path of a .yaml or .json file.`,
    );
  });

  it('says a file it cannot read is unreadable, keeping the cause', async () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const promise = loadPolicy('hintgate.yaml', { readFile: () => Promise.reject(denied) });
    await expect(promise).rejects.toMatchObject({ cause: denied });
    expect(await failure(promise)).toBe(
      `Cannot read policy file ${resolve('hintgate.yaml')} (EACCES: permission denied); check that this process may read it.`,
    );
  });

  it('rejects an empty file, a blank one and one with only comments', async () => {
    const empty = await write('empty.yaml', '');
    const blank = await write('blank.json', '  \n\n');
    const comments = await write('comments.yaml', '# mode: ask\n');
    expect(await failure(loadPolicy(empty))).toBe(
      `${empty}: the file is empty; write a policy such as "mode: ask", with rules under "rules".`,
    );
    expect(await failure(loadPolicy(blank))).toBe(
      `${blank}: the file is empty; write a policy such as "mode: ask", with rules under "rules".`,
    );
    expect(await failure(loadPolicy(comments))).toBe(
      `${comments}: the file has only comments; write a policy such as "mode: ask", with rules under "rules".`,
    );
  });

  it('rejects a document that is not a mapping', async () => {
    const file = await write('hintgate.yaml', '- decision: deny\n');
    expect(await failure(loadPolicy(file))).toBe(
      `${file}:1:1: the policy is a list; write a mapping with "mode" and/or "rules".`,
    );
  });

  it('rejects a path that is not a non-empty string with invalid_option', async () => {
    expect(await failure(loadPolicy(42 as unknown as string), 'invalid_option')).toBe(
      'loadPolicy needs the path of a policy file as a non-empty string, got number.',
    );
    expect(await failure(loadPolicy(''), 'invalid_option')).toContain('got an empty string');
  });
});

describe('parsePolicyText', () => {
  it('parses without I/O and names the given file in messages', async () => {
    expect(parsePolicyText('mode: ask', 'embedded.yaml')).toEqual({ mode: 'ask' });
    expect(parseFailure('mode: fast', 'config.yaml#policy')).toBe(
      'config.yaml#policy:1:1: mode is "fast"; use one of plan, ask, auto, allowlist, yolo.',
    );
  });

  it('explains that an unquoted * glob is a YAML alias', async () => {
    expect(parseFailure('rules:\n  - tool: *_read\n    decision: allow\n', 'p.yaml')).toBe(
      'p.yaml:2:11: *_read is read as a YAML alias, and no anchor &_read is set; if it is a glob, quote it: "*_read".',
    );
    expect(parseFailure('rules:\n  - tool: *\n    decision: deny\n', 'p.yaml')).toBe(
      'p.yaml:2:11: YAML syntax error: Alias cannot be an empty string; a value that starts with "*" is read as an alias, so quote globs, as in tool: "*".',
    );
  });

  it('rejects duplicate keys, in YAML and in JSON', async () => {
    expect(parseFailure('mode: ask\nmode: yolo\n', 'p.yaml')).toBe(
      'p.yaml:2:1: YAML syntax error: Map keys must be unique; keep one of the keys.',
    );
    expect(parseFailure('{\n  "mode": "ask",\n  "mode": "yolo"\n}', 'p.json')).toBe(
      'p.json:3:3: JSON syntax error: Map keys must be unique; keep one of the keys.',
    );
  });

  it('rejects several YAML documents in one file', async () => {
    expect(parseFailure('mode: ask\n---\nmode: yolo\n', 'p.yaml')).toBe(
      'p.yaml:2:1: YAML syntax error: the file holds more than one YAML document; keep one, without "---" lines between policies.',
    );
  });

  it('rejects text or a file name that is not a string with invalid_option', () => {
    expect(() => parsePolicyText(undefined as unknown as string, 'p.yaml')).toThrow(
      'parsePolicyText needs the text and the file name as strings, got undefined and string.',
    );
  });

  it('reports __proto__, constructor and other Object.prototype names as unknown keys, suggesting no object', () => {
    const yaml = [
      '__proto__: { mode: yolo }',
      'constructor: 1',
      'rules:',
      '  - __proto__: { decision: allow }',
      '    constructor: x',
      '    toString: x',
      '    decision: deny',
      '    annotations: { valueOf: true, hasOwnProperty: true }',
    ].join('\n');
    const json =
      '{"rules": [{"__proto__": {"decision": "allow"}, "constructor": 1, "decision": "deny"}]}';
    const lines = [
      ...parseFailure(yaml, 'p.yaml').split('\n'),
      ...parseFailure(json, 'p.json').split('\n'),
    ];
    const USE =
      'use "tool", "origin", "annotations", "key", "decision", "priority", "modes" or "reason".';
    const HINTS = 'use "readOnlyHint", "destructiveHint", "idempotentHint" or "openWorldHint".';
    expect(lines).toEqual([
      'p.yaml:1:1: __proto__ is not a policy key; use "mode", "rules" and "tools".',
      'p.yaml:2:1: constructor is not a policy key; use "mode", "rules" and "tools".',
      `p.yaml:4:5: rules[0].__proto__ is not a rule key; ${USE}`,
      `p.yaml:5:5: rules[0].constructor is not a rule key; ${USE}`,
      `p.yaml:6:5: rules[0].toString is not a rule key; ${USE}`,
      `p.yaml:8:20: rules[0].annotations.valueOf is not a hint; ${HINTS}`,
      `p.yaml:8:35: rules[0].annotations.hasOwnProperty is not a hint; ${HINTS}`,
      `p.json:1:13: rules[0].__proto__ is not a rule key; ${USE}`,
      `p.json:1:49: rules[0].constructor is not a rule key; ${USE}`,
    ]);
  });

  it('reads anchors and aliases that resolve', () => {
    const text = 'rules:\n  - &r { tool: a, decision: deny }\n  - *r\n';
    expect(parsePolicyText(text, 'p.yaml')).toEqual({
      rules: [
        { tool: 'a', decision: 'deny' },
        { tool: 'a', decision: 'deny' },
      ],
    });
  });
});

describe('the policy file schema', () => {
  it("is the gateway schema's mode, rules and tools, so that the two cannot drift apart", async () => {
    const read = async (name: string) =>
      JSON.parse(await readFile(new URL(`../../schema/${name}`, import.meta.url), 'utf8'));
    const gateway = await read('hintgate.schema.json');
    const policy = await read('hintgate-policy.schema.json');
    expect(policy.properties).toEqual({
      $schema: gateway.properties.$schema,
      mode: gateway.properties.mode,
      rules: gateway.properties.rules,
      tools: gateway.properties.tools,
    });
    expect(policy.$defs).toEqual({
      rule: gateway.$defs.rule,
      toolOverride: gateway.$defs.toolOverride,
    });
    expect(policy.additionalProperties).toBe(false);
  });
});
