import { describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/index.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { applyToolSettings } from './apply-tool-settings.js';
import { parsePolicyText } from './parse-policy-text.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: `${name} tool`,
    inputSchema: { type: 'object', properties: {} },
    annotations: READ_ONLY,
    execute: () => name,
  });

const registryOf = () => {
  const registry = createRegistry({ env: {} });
  registry.addOrigin({
    name: 'local',
    layer: 'bundled',
    tools: [tool('read_file'), tool('run_command')],
  });
  registry.addOrigin({ name: 'global:extra.mjs', layer: 'global', tools: [tool('weather')] });
  return registry;
};

describe('tools: of a policy file', () => {
  it('disables a built-in tool and sets the timeout of a global one by name', () => {
    const policy = parsePolicyText(
      'mode: ask\ntools:\n  read_file: { enabled: false }\n  weather:\n    timeoutMs: 1500\n',
      'policy.yaml',
    );
    const registry = registryOf();
    applyToolSettings(registry, policy.tools);
    const described = new Map(registry.describe().map((entry) => [entry.name, entry]));
    expect(described.get('read_file')?.visible).toBe(false);
    expect(described.get('read_file')?.disabledBy).toBe('config');
    expect(described.get('weather')?.timeoutMs).toBe(1500);
    expect(registry.list().map((entry) => entry.name)).toEqual(['run_command', 'weather']);
  });

  it('takes disabled: true as enabled: false, and annotations and scopes', () => {
    const policy = parsePolicyText(
      'tools:\n  run_command: { disabled: true }\n  weather: { annotations: { openWorldHint: true }, scopes: [web] }\n',
      'policy.yaml',
    );
    expect(policy.tools?.byName).toEqual({
      run_command: { enabled: false },
      weather: { annotations: { openWorldHint: true }, scopes: ['web'] },
    });
  });

  it('refuses a name no loaded tool has, with its file and line and the name it likely means', () => {
    const policy = parsePolicyText(
      'mode: ask\ntools:\n  read_fil: { enabled: false }\n  weather: { timeoutMs: 10 }\n',
      'policy.yaml',
    );
    const registry = registryOf();
    expect(() => applyToolSettings(registry, policy.tools)).toThrow(
      /^policy\.yaml:3:3: tools\.read_fil names no tool; did you mean "read_file"\? Tools: read_file, run_command, weather\.$/,
    );
    // Nothing is configured when a name is wrong.
    expect(registry.config('weather')).toBeUndefined();
  });

  it('only warns about an unknown name while project tools are held back, and configures it', () => {
    const policy = parsePolicyText('tools:\n  deploy: { enabled: false }\n', 'policy.yaml');
    const registry = registryOf();
    const warnings: string[] = [];
    applyToolSettings(registry, policy.tools, {
      someHeldBack: true,
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^policy\.yaml:2:3: tools\.deploy names no tool\..*held back/),
    ]);
    expect(registry.config('deploy')).toEqual({ enabled: false });
  });

  it('says where a tool of an upstream server is configured instead', () => {
    const registry = registryOf();
    registry.addOrigin({ name: 'github', layer: 'bundled', tools: [tool('search_code')] });
    const policy = parsePolicyText('tools:\n  search_code: { timeoutMs: 10 }\n', 'hintgate.yaml');
    expect(() =>
      applyToolSettings(registry, policy.tools, { otherOrigins: new Set(['github']) }),
    ).toThrow(
      'hintgate.yaml:2:3: tools.search_code is a tool of server "github"; configure it under servers.github.tools.search_code.',
    );
  });

  it('reports wrong keys and values of an entry, each at its line', () => {
    expect(() =>
      parsePolicyText(
        'tools:\n  read_file:\n    timeout: 5\n    readOnlyHint: true\n    timeoutMs: -1\n    enabled: "no"\n    rateLimit: { max: 1, windowMs: 10 }\n',
        'policy.yaml',
      ),
    ).toThrow(
      [
        'policy.yaml:3:5: tools.read_file.timeout is not a key of a tool; did you mean "timeoutMs"?',
        'policy.yaml:4:5: tools.read_file.readOnlyHint is not a key of a tool; put hints under "annotations", as in annotations: { readOnlyHint: true }.',
        'policy.yaml:5:5: tools.read_file.timeoutMs is -1; use milliseconds, a number in (0, 2147483647], such as 30000.',
        'policy.yaml:6:5: tools.read_file.enabled is "no"; use true or false.',
        'policy.yaml:7:5: tools.read_file.rateLimit is not a key of a tool here: a local tool states its rateLimit in defineTool, an upstream tool gets one under servers.<server>.tools.<name>.',
      ].join('\n'),
    );
  });

  it('checks the names again once per change of the tools, and the entry applies to a tool that appears later', async () => {
    const policy = parsePolicyText(
      'tools:\n  weather: { timeoutMs: 1500 }\n  read_file: { enabled: false }\n',
      'policy.yaml',
    );
    const registry = registryOf();
    const later: string[] = [];
    const stop = applyToolSettings(registry, policy.tools, {
      onLaterProblem: (message) => later.push(message),
    });
    // The module of weather changed: it now defines "weathers".
    registry.setTools('global:extra.mjs', [tool('weathers')]);
    await Promise.resolve();
    expect(later).toEqual([
      'policy.yaml:2:3: tools.weather names no tool now; did you mean "weathers"? Tools: read_file, run_command, weathers.',
    ]);
    // Several changes in one go are one check; a change that keeps the names tells nothing.
    registry.setTools('local', [tool('run_command')]);
    registry.setTools('local', [tool('read_file'), tool('run_command')]);
    registry.setTrusted('local', false);
    await Promise.resolve();
    expect(later).toHaveLength(1);
    // Back under its name, the entry applies to the new tool.
    registry.setTools('global:extra.mjs', [tool('weather')]);
    await Promise.resolve();
    expect(later).toHaveLength(1);
    expect(registry.resolve('weather')?.timeoutMs).toBe(1500);
    registry.setTools('global:extra.mjs', []);
    await Promise.resolve();
    expect(later).toHaveLength(2);
    expect(later[1]).toMatch(/^policy\.yaml:2:3: tools\.weather names no tool now\./);
    stop();
    registry.setTools('global:extra.mjs', [tool('weathers')]);
    await Promise.resolve();
    expect(later).toHaveLength(2);
  });

  it("tells when a name becomes an upstream server's tool later, with the place of its configuration", async () => {
    const registry = registryOf();
    registry.addOrigin({ name: 'github', layer: 'bundled', tools: [] });
    const policy = parsePolicyText(
      'tools:\n  weather: { timeoutMs: 1500 }\n  deploy: { enabled: false }\n',
      'hintgate.yaml',
    );
    const later: string[] = [];
    const warnings: string[] = [];
    let held = true;
    applyToolSettings(registry, policy.tools, {
      otherOrigins: new Set(['github']),
      someHeldBack: () => held,
      onWarning: (message) => warnings.push(message),
      onLaterProblem: (message) => later.push(message),
    });
    expect(warnings).toHaveLength(1);
    held = false;
    registry.setTools('github', [tool('search_code')]);
    await Promise.resolve();
    expect(later).toEqual([
      expect.stringMatching(/^hintgate\.yaml:3:3: tools\.deploy names no tool now\./),
    ]);
    registry.setTools('github', [tool('deploy')]);
    await Promise.resolve();
    expect(later[1]).toBe(
      'hintgate.yaml:3:3: tools.deploy is now the name of a tool of server "github", and applies to it; configure that tool under servers.github.tools.deploy instead.',
    );
    expect(registry.resolve('deploy')).toBeUndefined();
  });
});
