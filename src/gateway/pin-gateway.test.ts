import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { processAlive } from '../testing/index.js';
import { tempDir, toolsFileServer, writeConfig } from './gateway.test-helpers.js';
import { type PinPlan, pinGateway } from './pin-gateway.js';

// pinGateway's review step against a real upstream process (the tools-file fixture).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setUp = async () => {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const notes = await toolsFileServer(dir, 'notes', [
    { name: 'search', description: 'Searches notes.', annotations: { readOnlyHint: true } },
  ]);
  const config = await writeConfig(dir, { servers: { notes: notes.entry } });
  await pinGateway({ config });
  await notes.setTools([
    { name: 'search', description: 'Searches all notes.', annotations: { readOnlyHint: true } },
  ]);
  return { config, text: () => readFile(config.pin.path, 'utf8') };
};

describe('pinGateway with a review', () => {
  it('shows the review what would change, and writes nothing when it declines', async () => {
    const { config, text } = await setUp();
    const before = await text();
    const plans: PinPlan[] = [];
    const result = await pinGateway({
      config,
      review: (plan) => {
        plans.push(plan);
        return false;
      },
    });
    expect(result).toMatchObject({ written: false, changed: false });
    expect(await text()).toBe(before);
    expect(plans).toHaveLength(1);
    expect(plans[0]?.changes).toBe(true);
    expect(plans[0]?.reports[0]?.tools).toEqual([
      expect.objectContaining({
        tool: 'search',
        status: 'changed',
        changedFields: ['description'],
      }),
    ]);
    expect(plans[0]?.listings[0]?.[0]?.description).toBe('Searches all notes.');
    expect(plans[0]?.lock.servers.notes?.tools.search?.definition?.description).toBe(
      'Searches notes.',
    );
  });

  it('writes what was reviewed once the review agrees', async () => {
    const { config, text } = await setUp();
    const result = await pinGateway({ config, review: () => true });
    expect(result).toMatchObject({ written: true, changed: true });
    expect(JSON.parse(await text()).servers.notes.tools.search.definition.description).toBe(
      'Searches all notes.',
    );
  });

  it('refuses to write when the pin file changed during the review', async () => {
    const { config, text } = await setUp();
    const failure = pinGateway({
      config,
      review: async () => {
        // Another writer pins meanwhile (here: the file gains a server's pins).
        const data = JSON.parse(await text());
        data.servers.other = { tools: {} };
        await writeFile(config.pin.path, JSON.stringify(data));
        return true;
      },
    });
    await expect(failure).rejects.toMatchObject({ code: 'lock_file_changed' });
    await expect(failure).rejects.toThrow(/run "hintgate pin" again/);
    expect(JSON.parse(await text()).servers.notes.tools.search.definition.description).toBe(
      'Searches notes.',
    );
  });
});

describe('pinGateway and the servers it lists', () => {
  it('reviews while a server that outlives its stdin is given its grace, and settles once it ended', async () => {
    const { dir, remove } = await tempDir();
    cleanups.push(remove);
    // The server records its process id, and a timer keeps it running once its stdin ends,
    // so that it ends only when stopped after its grace period.
    const starts = join(dir, 'starts.txt');
    const linger = join(dir, 'linger.mjs');
    await writeFile(
      linger,
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(starts)}, process.pid + '\\n');\nsetInterval(() => {}, 1000);\n`,
    );
    const notes = await toolsFileServer(dir, 'notes', [
      { name: 'search', description: 'Searches notes.', annotations: { readOnlyHint: true } },
    ]);
    const entry = notes.entry as { args: string[] };
    const server = { ...entry, args: ['--import', pathToFileURL(linger).href, ...entry.args] };
    const config = await writeConfig(dir, { servers: { notes: server } });
    let aliveAtReview: boolean | undefined;
    const result = await pinGateway({
      config,
      review: async () => {
        const pid = Number((await readFile(starts, 'utf8')).trim());
        aliveAtReview = processAlive(pid);
        return true;
      },
    });
    expect(result.written).toBe(true);
    // Reviewed before the server ended: its close did not hold the review back.
    expect(aliveAtReview).toBe(true);
    // Settled only once it ended: no server outlives the pinning.
    const pid = Number((await readFile(starts, 'utf8')).trim());
    expect(processAlive(pid)).toBe(false);
  });
});
