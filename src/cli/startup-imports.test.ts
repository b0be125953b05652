import { describe, expect, it } from 'vitest';
import { importGraph } from '../import-graph.test-helpers.js';

// What a hintgate process loads before its code runs (dynamic imports not followed). An MCP
// client starts `hintgate serve` and `hintgate gateway` for every session, so what they load
// and never use is paid on every start.

const HTTP_PACKAGES = ['@modelcontextprotocol/node', 'hono', '@hono/node-server'];

describe('hintgate startup', () => {
  it('--help and --version load the command dispatcher alone', () => {
    const { files, packages } = importGraph('src/cli/main.ts', { dynamic: false });
    expect(files).toEqual(['src/cli/main.ts', 'src/cli/run-cli.ts']);
    expect(packages).toEqual([]);
  });

  it.each([
    'src/cli/run-serve.ts',
    'src/cli/run-gateway.ts',
    'src/mcp.ts',
    'src/testing/fixture-server-process.ts',
  ])('%s loads the HTTP adapter only when it serves HTTP', (entry) => {
    const { packages } = importGraph(entry, { dynamic: false });
    expect(packages.filter((name) => HTTP_PACKAGES.includes(name))).toEqual([]);
    // Followed into what it loads on demand, it is there: the test looks at the right place.
    expect(importGraph(entry).packages).toContain('@modelcontextprotocol/node');
  });

  it('the gateway starts its stdio servers before it loads the MCP SDK', () => {
    // What loads before `startUpstreamsEarly` runs: the rest comes by import() after it.
    const { packages } = importGraph('src/cli/run-gateway.ts', { dynamic: false });
    expect(
      packages.filter((name) => name.startsWith('@modelcontextprotocol/') || name === 'zod'),
    ).toEqual([]);
    expect(packages).toContain('cross-spawn');
  });

  it('serve checks its options, workspace and policy file before it loads the tools, runtime and MCP SDK', () => {
    const { files, packages } = importGraph('src/cli/run-serve.ts', { dynamic: false });
    expect(
      packages.filter((name) => name.startsWith('@modelcontextprotocol/') || name === 'zod'),
    ).toEqual([]);
    expect(
      files.filter((file) =>
        ['src/tools/index.ts', 'src/runtime/index.ts', 'src/mcp/index.ts'].includes(file),
      ),
    ).toEqual([]);
    expect(files).toContain('src/policy/node.ts');
  });

  it('check reads its options and files before it loads the lint, the probe and the MCP SDK', () => {
    const { files, packages } = importGraph('src/cli/run-check.ts', { dynamic: false });
    expect(
      packages.filter((name) => name.startsWith('@modelcontextprotocol/') || name === 'zod'),
    ).toEqual([]);
    expect(
      files.filter(
        (file) =>
          file === 'src/check/index.ts' ||
          file.startsWith('src/check/lint/') ||
          file === 'src/check/probe/index.ts',
      ),
    ).toEqual([]);
    expect(files).toContain('src/check/probe/load-probe-fixtures.ts');
  });

  it('pin reads its options and configuration before it loads the MCP client', () => {
    const { packages } = importGraph('src/cli/run-pin.ts', { dynamic: false });
    expect(
      packages.filter((name) => name.startsWith('@modelcontextprotocol/') || name === 'zod'),
    ).toEqual([]);
  });
});
