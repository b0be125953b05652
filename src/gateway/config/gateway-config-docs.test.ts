import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfigSchema as validate } from './config-text.test-helpers.js';
import { parseGatewayConfigText } from './load-gateway-config.js';

const docs = await readFile(new URL('../../../docs/gateway-config.md', import.meta.url), 'utf8');
const blocks = (language: string) =>
  [...docs.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );

const env = { GITHUB_TOKEN: 'ghp_x', DOCS_TOKEN: 'd', REMOTE_TOKEN: 'r', API_KEY: 'k' };
const yaml = blocks('yaml');
const json = blocks('json');
const text = blocks('text');
const broken = yaml.filter((block) => block.includes('comand'));
const examples = [
  ...yaml
    .filter((block) => !broken.includes(block))
    .map((block) => ({ block, file: 'hintgate.yaml' })),
  ...json.map((block) => ({ block, file: 'mcp.json' })),
];

describe('docs/gateway-config.md', () => {
  it('has configuration examples that load and match the schema', () => {
    expect(examples.length).toBe(5);
    for (const { block, file } of examples) {
      expect(() => parseGatewayConfigText(block, `/project/${file}`, { env })).not.toThrow();
      expect(validate(file.endsWith('.json') ? JSON.parse(block) : parse(block))).toBe(true);
    }
  });

  it('shows the messages the loader gives', () => {
    expect(broken).toHaveLength(1);
    const messages = (source: string, variables: Record<string, string>) => {
      try {
        parseGatewayConfigText(source, 'hintgate.yaml', { env: variables });
      } catch (error) {
        return `${(error as Error).message}\n`;
      }
      throw new Error('the example loaded');
    };
    expect(text).toContain(messages(broken[0] ?? '', env));
    const { GITHUB_TOKEN: _unset, ...withoutToken } = env;
    expect(text).toContain(messages(examples[0]?.block ?? '', withoutToken));
  });
});
