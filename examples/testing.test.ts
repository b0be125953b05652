import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime, READ_ONLY, WRITE } from 'hintgate';
import { createGateway, loadGatewayConfig, pinGateway } from 'hintgate/gateway';
import { createFakeClock, createFixtureServer, createTempWorkspace, scriptedTool } from 'hintgate/testing';
import { expect, it } from 'vitest';

it('runs the reads together and the write after them, in exact fake time', async () => {
  const clock = createFakeClock();
  const fetch = scriptedTool({ name: 'fetch_page', annotations: READ_ONLY, steps: [{ delayMs: 20 }], clock });
  const save = scriptedTool({ name: 'save_page', annotations: WRITE, steps: [{ result: 'saved', delayMs: 5 }], clock });
  const runtime = createRuntime({ tools: [fetch.tool, save.tool], mode: 'yolo', clock });
  const done = runtime.execute([
    { id: 'a', name: 'fetch_page', arguments: {} },
    { id: 'b', name: 'fetch_page', arguments: {} },
    { id: 'c', name: 'save_page', arguments: {} }, // no resource keys: waits for every call before it
  ]);
  await clock.advance(25);
  const results = await done;
  expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
  expect(fetch.calls.map((call) => call.startedAt)).toEqual([0, 0]);
  expect(save.calls[0]?.startedAt).toBe(20);
  await runtime.close();
});

it('puts a gateway in front of a fixture MCP server and calls through it', async () => {
  const workspace = await createTempWorkspace();
  try {
    const notes = await createFixtureServer({
      dir: workspace.workspace, name: 'notes',
      tools: [{ name: 'read_note', description: 'Reads a note.', annotations: { readOnlyHint: true } }],
      extra: { trusted: true },
    });
    const file = join(workspace.workspace, 'hintgate.yaml');
    await writeFile(file, JSON.stringify({ servers: { notes: notes.entry } }));
    const config = await loadGatewayConfig(file);
    await pinGateway({ config }); // what `hintgate pin --yes` does: new tools wait for it
    const gateway = await createGateway({ config, mode: 'auto' });
    try {
      const [result] = await gateway.runtime.execute([{ id: 'c1', name: 'read_note', arguments: { id: 7 } }]);
      expect(result?.content).toEqual([{ type: 'text', text: 'notes read_note {"id":7}' }]);
    } finally {
      await gateway.close(); // stops the fixture server's process
    }
  } finally {
    await workspace.remove();
  }
});
