import { describe, expect, it } from 'vitest';
import { HintgateError } from '../errors/hintgate-error.js';
import {
  DESTRUCTIVE,
  defineTool,
  READ_ONLY,
  SPEC_DEFAULT_HINTS,
  type ToolAnnotations,
} from '../tool/index.js';
import { createRegistry } from './tool-registry.js';

const makeTool = (name: string, annotations: ToolAnnotations = READ_ONLY, scopes: string[] = []) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations,
    scopes,
    execute: () => name,
  });

const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

describe('TOOL_<NAME>_DISABLED', () => {
  it('hides the name in every layer, so the shadowed definition does not resurface', () => {
    const registry = createRegistry({ env: { TOOL_WEB_FETCH_DISABLED: 'true' } });
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('web.fetch')] });
    registry.addOrigin({ name: 'proj', layer: 'project', tools: [makeTool('web.fetch')] });
    registry.addOrigin({
      name: 'other',
      layer: 'global',
      tools: [makeTool('web-fetch'), makeTool('ls')],
    });

    expect(registry.resolve('web.fetch')).toBeUndefined();
    expect(registry.resolve('web-fetch')).toBeUndefined();
    expect(names(registry.list())).toEqual(['ls']);
    expect(registry.describe().find((d) => d.name === 'web.fetch')).toMatchObject({
      origin: 'proj',
      visible: false,
      disabledBy: 'env',
      shadows: [{ origin: 'core', layer: 'bundled' }],
    });
  });

  it('disables only on the value "true" (any case, trimmed)', () => {
    const registry = createRegistry({
      env: { TOOL_A_DISABLED: ' True ', TOOL_B_DISABLED: '1', TOOL_C_DISABLED: 'false' },
    });
    registry.addOrigin({
      name: 'core',
      layer: 'bundled',
      tools: ['a', 'b', 'c'].map((n) => makeTool(n)),
    });
    expect(names(registry.list())).toEqual(['b', 'c']);
  });

  it('reads the environment at creation and again only on reloadEnv()', () => {
    const env: Record<string, string | undefined> = {};
    const registry = createRegistry({ env });
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('shell')] });
    env.TOOL_SHELL_DISABLED = 'true';
    expect(registry.resolve('shell')).toBeDefined();
    registry.reloadEnv();
    expect(registry.resolve('shell')).toBeUndefined();
    registry.reloadEnv({});
    expect(registry.resolve('shell')).toBeDefined();
  });

  it('is not overridden by config enabled: true', () => {
    const registry = createRegistry({
      env: { TOOL_SHELL_DISABLED: 'true' },
      tools: { shell: { enabled: true } },
    });
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('shell')] });
    expect(registry.resolve('shell')).toBeUndefined();
  });
});

describe('config enabled: false', () => {
  it('hides the name in every layer and reports disabledBy config', () => {
    const registry = createRegistry({ env: {}, tools: { deploy: { enabled: false } } });
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('deploy')] });
    registry.addOrigin({
      name: 'proj',
      layer: 'project',
      tools: [makeTool('deploy'), makeTool('ls')],
    });
    expect(registry.resolve('deploy')).toBeUndefined();
    expect(names(registry.list())).toEqual(['ls']);
    expect(registry.describe().find((d) => d.name === 'deploy')).toMatchObject({
      visible: false,
      disabledBy: 'config',
    });

    registry.configure('deploy', undefined);
    expect(registry.resolve('deploy')).toMatchObject({ origin: 'proj' });
  });

  it('rejects a malformed configuration with invalid_option and keeps the old one', () => {
    const registry = createRegistry({ env: {}, tools: { deploy: { enabled: false } } });
    registry.addOrigin({ name: 'core', layer: 'bundled', tools: [makeTool('deploy')] });
    const bad: unknown[] = [
      { enabled: 'no' },
      { scopes: 'admin' },
      { scopes: [''] },
      { annotations: { readOnlyHint: 'yes' } },
      { annotations: { safeHint: true } },
      { enable: false },
    ];
    for (const config of bad) {
      expect(() => registry.configure('deploy', config as never)).toThrow(HintgateError);
    }
    expect(() => registry.configure('bad name', {})).toThrow(/cannot name a tool/);
    expect(() => createRegistry({ tools: { x: { enabled: 0 as never } } })).toThrow(
      /enabled must be true or false/,
    );
    expect(registry.resolve('deploy')).toBeUndefined();
  });
});

describe('scopes', () => {
  const setup = () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'crm',
      layer: 'project',
      tools: [
        makeTool('list_customers', READ_ONLY, ['customers.read']),
        makeTool('update_customer', DESTRUCTIVE, ['customers.read', 'customers.write']),
        makeTool('ping'),
      ],
    });
    return registry;
  };

  it('hides a tool from a caller that lacks any of its scopes', () => {
    const registry = setup();
    expect(names(registry.list())).toEqual(['ping']);
    expect(registry.resolve('list_customers')).toBeUndefined();
    expect(names(registry.list({ scopes: ['customers.read'] }))).toEqual([
      'list_customers',
      'ping',
    ]);
    expect(registry.resolve('update_customer', { scopes: ['customers.write'] })).toBeUndefined();
    const both = { scopes: ['customers.write', 'customers.read'] };
    expect(registry.resolve('update_customer', both)?.name).toBe('update_customer');
    expect(names(registry.list(both))).toEqual(['list_customers', 'ping', 'update_customer']);
    // describe() ignores callers' scopes.
    expect(registry.describe().every((d) => d.visible)).toBe(true);
  });

  it('lets configured scopes replace the tool scopes', () => {
    const registry = setup();
    registry.configure('list_customers', { scopes: [] });
    registry.configure('ping', { scopes: ['admin'] });
    expect(names(registry.list())).toEqual(['list_customers']);
    expect(registry.resolve('ping', { scopes: ['admin'] })?.scopes).toEqual(['admin']);
  });
});

describe('trust', () => {
  it('reports the claims of an untrusted origin but uses the spec defaults', () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'remote',
      layer: 'global',
      trusted: false,
      tools: [makeTool('peek')],
    });
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [makeTool('look')] });

    expect(registry.resolve('peek')).toMatchObject({
      trusted: false,
      claimed: READ_ONLY,
      effective: SPEC_DEFAULT_HINTS,
      class: 'destructive',
    });
    expect(registry.resolve('look')).toMatchObject({
      trusted: true,
      claimed: READ_ONLY,
      effective: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      class: 'read',
    });
  });

  it('trusts only the hints a configuration override states for an untrusted origin', () => {
    const registry = createRegistry({ env: {} });
    registry.addOrigin({
      name: 'remote',
      layer: 'global',
      trusted: false,
      tools: [makeTool('save', { readOnlyHint: false, openWorldHint: false, title: 'Save' })],
    });
    expect(registry.resolve('save')?.class).toBe('destructive');

    registry.configure('save', { annotations: { destructiveHint: false, idempotentHint: true } });
    const save = registry.resolve('save');
    expect(save).toMatchObject({
      trusted: true,
      claimed: {
        title: 'Save',
        readOnlyHint: false,
        openWorldHint: false,
        destructiveHint: false,
        idempotentHint: true,
      },
      effective: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        // Claimed false by the untrusted tool, not stated by the override: spec default.
        openWorldHint: true,
      },
      class: 'write',
    });
    expect(registry.describe()[0]).toMatchObject({ trusted: true, class: 'write' });
  });
});
