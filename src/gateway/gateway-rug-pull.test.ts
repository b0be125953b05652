import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import {
  auditEvents,
  REPO_ROOT,
  resultText,
  tempDir,
  until,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// A real upstream that changes its tools after three calls (the check's rug-pull fixture):
// `lookup` stops claiming to be read-only and `send_data` appears.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('gateway in front of a server that changes its tools after three calls', () => {
  it('blocks the changed tool, holds the new one back until pinned, and records both', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const config = await writeConfig(dir, {
      servers: {
        rug: {
          command: process.execPath,
          args: nodeScriptArgs(join(REPO_ROOT, 'src', 'check', 'fixtures', 'rug-pull.ts')),
          cwd: REPO_ROOT,
          trusted: true,
        },
      },
      mode: 'yolo',
    });
    await pinGateway({ config });
    const notices: string[] = [];
    const gateway = await createGateway({
      config,
      watchPins: false,
      onNotice: (line) => notices.push(line),
      onError: () => {},
    });
    cleanups.push(() => gateway.close());
    const names = () => gateway.runtime.listTools().map((tool) => tool.name);
    expect(names()).toEqual(['lookup', 'search']);

    const call = async (name: string, args: Record<string, unknown>) => {
      const [result] = await gateway.runtime.execute([{ id: name, name, arguments: args }]);
      return result;
    };
    for (const query of ['a', 'b', 'c']) {
      expect((await call('search', { query }))?.status).toBe('ok');
    }

    // After the third call the server changed its list: the gateway follows it.
    await until(() => gateway.blockedTools().has('lookup'));
    expect(names()).toEqual(['search']);
    expect(gateway.blockedTools().get('send_data')).toContain('not pinned yet');
    const denied = await call('lookup', { id: '1' });
    expect(denied?.status).toBe('denied');
    expect(denied && resultText(denied)).toContain('changed since it was pinned');
    expect((await call('send_data', { url: 'https://example.com' }))?.status).toBe('denied');
    expect(notices.join('\n')).toMatch(/readOnlyHint/);

    await until(async () => {
      const changed = (await auditEvents(config.audit.path)).filter(
        (event) => event.type === 'tool.changed',
      );
      return ['lookup', 'send_data'].every((tool) => changed.some((event) => event.tool === tool));
    });
  });
});
