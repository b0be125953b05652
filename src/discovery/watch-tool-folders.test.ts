import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry, type ToolRegistry } from '../registry/index.js';
import { type DiscoveryDirs, discoveryDirs, readToolModule } from './discovery.test-helpers.js';
import { findToolFiles } from './find-tool-files.js';
import { createToolDiscovery, type ToolDiscovery } from './tool-discovery.js';
import { createTrustStore } from './trust-store.js';
import { MISSING_PATH_POLL_MS, watchToolFolders } from './watch-tool-folders.js';

// With watch on, tool modules added, changed or removed in a real temp folder are picked up
// by a reload between turns, and a changed project file is held back until trusted again.

let dirs: DiscoveryDirs;
let discovery: ToolDiscovery | undefined;
beforeEach(async () => {
  dirs = await discoveryDirs();
});
afterEach(async () => {
  await discovery?.close();
  discovery = undefined;
  await dirs.cleanup();
});

/** Waits (generously: a shared, busy machine) until `check` holds. */
async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const description = (registry: ToolRegistry, name: string): string | undefined =>
  registry.list().find((entry) => entry.name === name)?.tool.description;

/** A module of one tool that says `text`; importing it records `text` as the last loaded. */
const moduleWith = (name: string, text: string): string =>
  readToolModule(name, text, `globalThis.hintgateWatchLoaded = ${JSON.stringify(text)};`).replace(
    "'answers a fixed text'",
    JSON.stringify(`says ${text}`),
  );

const lastLoaded = (): unknown =>
  (globalThis as { hintgateWatchLoaded?: unknown }).hintgateWatchLoaded;

describe('watching the tool folders', () => {
  it('picks up a global module added, changed and removed', async () => {
    const registry = createRegistry({ env: {} });
    discovery = await createToolDiscovery({ registry, home: dirs.home, watch: { debounceMs: 20 } });
    expect(registry.list()).toEqual([]);

    const file = await dirs.writeGlobal('weather.mjs', moduleWith('weather', 'sunny'));
    await until(() => description(registry, 'weather') === 'says sunny', 'the added module');

    await writeFile(file, moduleWith('weather', 'rainy'));
    await until(() => description(registry, 'weather') === 'says rainy', 'the changed module');

    await rm(file);
    await until(() => description(registry, 'weather') === undefined, 'the removed module');
  }, 30_000);

  it('applies a change made during a turn only once the turn ends', async () => {
    const registry = createRegistry({ env: {} });
    const file = await dirs.writeGlobal('weather.mjs', moduleWith('weather', 'sunny'));
    discovery = await createToolDiscovery({ registry, home: dirs.home, watch: { debounceMs: 20 } });
    const endTurn = registry.holdTurn();
    await writeFile(file, moduleWith('weather', 'rainy'));
    // The reload imported the changed module; its swap waits for the turn to end.
    await until(() => lastLoaded() === 'rainy', 'the reload to import the changed module');
    expect(description(registry, 'weather')).toBe('says sunny');
    endTurn();
    await until(() => description(registry, 'weather') === 'says rainy', 'the next turn');
  }, 30_000);

  it('holds a trusted project back once one of its files changes, until it is trusted again', async () => {
    const registry = createRegistry({ env: {} });
    await dirs.writeProject('deploy.mjs', moduleWith('deploy', 'v1'));
    const problems: string[] = [];
    discovery = await createToolDiscovery({
      registry,
      home: dirs.home,
      project: dirs.project,
      askTrust: () => 'always',
      watch: { debounceMs: 20 },
    });
    expect(description(registry, 'deploy')).toBe('says v1');
    // The project is trusted now. Stop the discovery that would trust it again when asked,
    // so that only the one below sees the change.
    await discovery.close();
    discovery = undefined;

    // From now on nobody is there to ask: a changed file waits for "hintgate trust".
    const held = await createToolDiscovery({
      registry: createRegistry({ env: {} }),
      home: dirs.home,
      project: dirs.project,
      onProblem: (message) => problems.push(message),
      watch: { debounceMs: 20 },
    });
    const heldRegistryTools = () => held.status().modules.flatMap((module) => module.tools);
    expect(heldRegistryTools()).toEqual(['deploy']);
    await writeFile(
      join(dirs.project, '.hintgate', 'tools', 'deploy.mjs'),
      moduleWith('deploy', 'v2'),
    );
    await until(() => held.status().heldBack !== undefined, 'the project held back');
    expect(heldRegistryTools()).toEqual([]);
    expect(problems.join('\n')).toMatch(/its tool files changed since it was trusted/);

    // `hintgate trust` writes the trust file: the watcher sees it and loads the new files.
    const files = await findToolFiles(join(dirs.project, '.hintgate', 'tools'));
    await createTrustStore({ home: dirs.home }).trust(dirs.project, files?.hash ?? '');
    await until(() => heldRegistryTools().includes('deploy'), 'the trusted project');
    expect(held.status().heldBack).toBeUndefined();
    await held.close();
  }, 30_000);
});

describe('watchToolFolders on a folder not there yet', () => {
  it('polls it rather than its parent: writes beside it (the audit log) change nothing, its creation does', async () => {
    const parent = join(dirs.project, '.hintgate');
    await mkdir(parent, { recursive: true });
    let changes = 0;
    const watcher = watchToolFolders([{ path: join(parent, 'tools'), kind: 'folder' }], {
      onChange: () => {
        changes += 1;
      },
      debounceMs: 50,
    });
    try {
      for (let i = 0; i < 20; i += 1) await appendFile(join(parent, 'audit.jsonl'), `{"n":${i}}\n`);
      await new Promise((resolve) => setTimeout(resolve, MISSING_PATH_POLL_MS + 300));
      expect(changes).toBe(0);
      await mkdir(join(parent, 'tools'));
      await until(() => changes >= 1, 'the folder polled to appear');
      // Armed again, the folder is watched itself: a module added in it counts.
      watcher.rearm();
      const seen = changes;
      await writeFile(join(parent, 'tools', 'a.mjs'), 'export default [];\n');
      await until(() => changes > seen, 'the module added in the folder');
    } finally {
      watcher.close();
    }
  }, 30_000);
});
