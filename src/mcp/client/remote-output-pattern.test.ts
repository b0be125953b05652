import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, type ToolRegistry } from '../../registry/index.js';
import { createRuntime } from '../../runtime/index.js';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpServerConnection } from './connection-events.js';
import { stdioFixture } from './fixtures/fixtures.test-helpers.js';

// A server's result is checked against the server's own output schema by the MCP client.
// The fixture's `backtrack` tool pairs a pattern and a result on which a backtracking engine
// would spend hours (2^40 steps), holding every other call of the process meanwhile.
describe.each([{ era: 'auto' }, { era: undefined }] as const)(
  'a remote result checked against its output schema pattern (era $era)',
  ({ era }) => {
    let registry: ToolRegistry;
    let connection: McpServerConnection;

    beforeAll(async () => {
      registry = createRegistry();
      connection = await connectMcpServer({
        name: 'fixture',
        registry,
        trusted: true,
        ...(era === undefined ? {} : { era }),
        ...stdioFixture({ FIXTURE_BACKTRACK: '1' }),
      });
    });
    afterAll(() => connection.close());

    it('is refused in linear time instead of freezing the process', async () => {
      const runtime = createRuntime({ registry, mode: 'yolo' });
      const [result] = await runtime.execute([{ id: 'b', name: 'backtrack', arguments: {} }]);
      expect(result?.isError).toBe(true);
      expect(JSON.stringify(result?.content)).toMatch(/pattern|structured/i);
      await runtime.close();
    }, 60_000);
  },
);
