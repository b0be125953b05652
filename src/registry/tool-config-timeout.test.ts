import { describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool, READ_ONLY } from '../tool/index.js';
import { createRegistry } from './tool-registry.js';

const hanging = defineTool({
  name: 'hang',
  description: 'waits until it is stopped',
  inputSchema: { type: 'object', properties: {} },
  annotations: READ_ONLY,
  timeoutMs: 600_000,
  execute: (_args, { signal }) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
});

describe('ToolConfig.timeoutMs', () => {
  it('wins over the tool own timeout, and is reported by describe()', async () => {
    const registry = createRegistry({ env: {}, tools: { hang: { timeoutMs: 30 } } });
    registry.addOrigin({ name: 'local', layer: 'bundled', tools: [hanging] });
    expect(registry.describe()[0]?.timeoutMs).toBe(30);
    const runtime = createRuntime({ registry, mode: 'auto', retry: { attempts: 1 } });
    const [result] = await runtime.execute([{ id: '1', name: 'hang', arguments: {} }]);
    expect(result?.error?.code).toBe('timeout');
    await runtime.close();
  });

  it('is refused when it is not a number of milliseconds', () => {
    expect(() => createRegistry({ tools: { hang: { timeoutMs: -1 } } })).toThrow(
      /timeoutMs must be milliseconds/,
    );
  });
});
