import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseYamlOrJson } from './parse-yaml-or-json.js';
import { schemaProblems } from './schema-problems.js';
import { throwProblems } from './throw-problems.js';

const schema = {
  type: 'object',
  properties: {
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    sync: { enum: ['auto', 'always', 'batched'] },
    trusted: { type: 'boolean' },
    servers: {
      type: 'object',
      propertyNames: { pattern: '^[a-z]+$' },
      additionalProperties: {
        type: 'object',
        properties: { command: { type: 'string' }, args: { type: 'array' } },
        required: ['command'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};
const validate = new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile(schema);

function messageOf(text: string, file: string): string {
  const parsed = parseYamlOrJson(text, file);
  expect(validate(parsed.value)).toBe(false);
  const problems = schemaProblems(validate.errors ?? [], parsed.value, {
    what: (path) => (path.length === 0 ? 'a top-level key' : 'a server key'),
  });
  try {
    throwProblems(problems, { source: { file, locate: parsed.locate }, code: 'invalid_config' });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no problem reported');
}

describe('schemaProblems', () => {
  it('reports an unknown key (not also the key it misspells as missing), a wrong type and a bad enum together, each at file:line:column', () => {
    const yaml = [
      'servers:',
      '  github:',
      '    comand: npx',
      '  local:',
      '    command: node',
      '    args: "-y"',
      'port: "3000"',
      'sync: batch',
      'trusted: "true"',
    ].join('\n');
    expect(messageOf(yaml, 'hintgate.yaml').split('\n')).toEqual([
      'hintgate.yaml:3:5: servers.github.comand is not a server key; did you mean "command"?',
      'hintgate.yaml:6:5: servers.local.args is "-y"; use a list.',
      'hintgate.yaml:7:1: port is "3000"; use an integer from 0 to 65535 without quotes.',
      'hintgate.yaml:8:1: sync is "batch"; use one of auto, always, batched (did you mean "batched"?).',
      'hintgate.yaml:9:1: trusted is "true"; use true or false without quotes.',
    ]);
  });

  it('places problems in a JSON file and names a bad key name without its content', () => {
    const json =
      '{\n  "servers": {\n    "My Server": { "command": 5 }\n  },\n  "prot": 1,\n  "trustd": true\n}\n';
    expect(messageOf(json, 'mcp.json').split('\n')).toEqual([
      'mcp.json:3:5: servers["My Server"] is not a usable name; write a name that matches ^[a-z]+$.',
      'mcp.json:5:3: prot is not a top-level key; use "port", "sync", "trusted" or "servers".',
      'mcp.json:6:3: trustd is not a top-level key; did you mean "trusted"?',
    ]);
  });
});
