import { afterEach, describe, expect, it } from 'vitest';
import { updateLockFile } from '../check/pin/index.js';
import { createGateway } from './create-gateway.js';
import {
  type FixtureTool,
  tempDir,
  toolsFileServer,
  until,
  writeConfig,
} from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// A running gateway in front of a real upstream (the tools-file fixture) sees its pin file
// change and says what it serves from then on.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const READ = { readOnlyHint: true, openWorldHint: false };

describe('a gateway applying a changed pin file', () => {
  it('logs one line with what it now serves, per server, and what it holds back', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    const lookup: FixtureTool = { name: 'lookup', description: 'Reads.', annotations: READ };
    const fixture = await toolsFileServer(dir, 'fixture', [
      lookup,
      { name: 'save', description: 'Saves.' },
    ]);
    const config = await writeConfig(dir, { servers: { fixture: fixture.entry } });
    await pinGateway({ config });
    const notices: string[] = [];
    const gateway = await createGateway({
      config,
      onNotice: (line) => notices.push(line),
      onError: () => {},
      watchPins: { intervalMs: 50 },
    });
    cleanups.push(() => gateway.close());
    expect(notices).toEqual([]);

    // `hintgate check --probe --write-pin` elsewhere: lookup is verified, save drops out of
    // the pins (so it is held back as not pinned).
    await updateLockFile(config.pin.path, (lock) => {
      const pinned = lock.servers.fixture?.tools.lookup;
      if (pinned === undefined) throw new Error('lookup is not pinned');
      return {
        version: lock.version,
        servers: { fixture: { tools: { lookup: { ...pinned, verdict: 'verified' } } } },
      };
    });
    await until(() => notices.some((line) => line.startsWith('applied the changed pin file')));
    expect(notices.filter((line) => line.startsWith('applied'))).toEqual([
      `applied the changed pin file ${config.pin.path}: now serving 1 tool (fixture: 1 (1 verified)); held back: save.`,
    ]);
    expect(gateway.blockedTools().has('save')).toBe(true);
  });
});
