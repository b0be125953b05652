import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../mcp/server/mcp-clients.test-helpers.js';
import { nodeScriptArgs } from '../testing/index.js';
import { createGateway } from './create-gateway.js';
import { REPO_ROOT, tempDir, writeConfig } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';

// The system prompt reaches the gateway's clients as the server's MCP instructions.

const FIXTURE = fileURLToPath(new URL('./fixtures/raw-json-rpc-server.ts', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function instructionsOf(extra: Record<string, unknown>) {
  const { dir, remove } = await tempDir();
  cleanups.push(remove);
  const config = await writeConfig(dir, {
    servers: {
      records: { command: process.execPath, args: nodeScriptArgs(FIXTURE), cwd: REPO_ROOT },
    },
    ...extra,
  });
  await pinGateway({ config });
  const gateway = await createGateway({
    config,
    onNotice: () => {},
    onError: () => {},
    watchPins: false,
  });
  cleanups.push(() => gateway.close());
  const client = await connectInMemory(gateway.toolServer);
  cleanups.push(() => client.close());
  return { instructions: client.client.getInstructions(), prompt: gateway.runtime.systemPrompt() };
}

describe('the gateway system prompt as MCP instructions', () => {
  it('sends the system prompt of the offered tools as the instructions', async () => {
    const { instructions, prompt } = await instructionsOf({});
    expect(instructions).toBe(prompt);
    expect(instructions).toContain('search');
    // The server is untrusted: its tools count as destructive, and the rule says so.
    expect(instructions?.toLowerCase()).toContain('never call without explicit user confirmation');
  }, 30_000);

  it('sends none with instructions: false', async () => {
    const { instructions } = await instructionsOf({ instructions: false });
    expect(instructions).toBeUndefined();
  }, 30_000);
});
