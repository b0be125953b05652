import { describe, expect, it } from 'vitest';
import { importGraph } from '../import-graph.test-helpers.js';

// `hintgate pin` loads what pinning needs (the MCP client, pins and lock files), through
// the layers' pin.ts, and not the rest: no MCP server code, no gateway runtime, no checker
// probe. A process that loads less starts sooner and holds less memory while it pins.

describe('hintgate pin', () => {
  it('loads neither the MCP server SDK nor the gateway, runtime or probe', () => {
    const { files, packages } = importGraph('src/cli/run-pin.ts');
    expect(packages).not.toContain('@modelcontextprotocol/server');
    const loaded = files.filter(
      (file) =>
        file.startsWith('src/check/probe/') ||
        file.startsWith('src/check/lint/') ||
        file.startsWith('src/console/') ||
        [
          'src/mcp/server/index.ts',
          'src/mcp/server/create-mcp-tool-server.ts',
          'src/gateway/create-gateway.ts',
          'src/runtime/create-runtime.ts',
          'src/mcp/index.ts',
          'src/check/index.ts',
          'src/gateway/index.ts',
        ].includes(file),
    );
    expect(loaded).toEqual([]);
    expect(files).toContain('src/gateway/pin-gateway.ts');
  });
});
