import { describe, expect, it } from 'vitest';
import { importGraph } from '../import-graph.test-helpers.js';

// What a hintgate process loads before its code runs (dynamic imports not followed). An MCP
// client starts `hintgate serve` and `hintgate gateway` for every session, so what they load
// and never use is paid on every start; and a command that refuses its options or files
// should answer before it loads what it would have worked with.

const HTTP_PACKAGES = ['@modelcontextprotocol/node', 'hono', '@hono/node-server'];

/** What `entry` loads before its code runs: its static import graph. */
const loadedFirst = (entry: string) => importGraph(entry, { dynamic: false });

/** The MCP SDK's packages and its schema library among `packages`. */
const sdk = (packages: readonly string[]): string[] =>
  packages.filter((name) => name.startsWith('@modelcontextprotocol/') || name === 'zod');

describe('hintgate startup', () => {
  it('--help and --version load the command dispatcher alone', () => {
    const { files, packages } = loadedFirst('src/cli/main.ts');
    expect(files).toEqual(['src/cli/main.ts', 'src/cli/run-cli.ts']);
    expect(packages).toEqual([]);
  });

  it.each([
    'src/cli/run-serve.ts',
    'src/cli/run-gateway.ts',
    'src/mcp.ts',
    'src/testing/fixture-server-process.ts',
  ])('%s loads the HTTP adapter only when it serves HTTP', (entry) => {
    const { packages } = loadedFirst(entry);
    expect(packages.filter((name) => HTTP_PACKAGES.includes(name))).toEqual([]);
    // Followed into what it loads on demand, it is there: the test looks at the right place.
    expect(importGraph(entry).packages).toContain('@modelcontextprotocol/node');
  });

  it('the gateway starts its stdio servers before it loads the MCP SDK', () => {
    // What loads before `startUpstreamsEarly` runs: the rest comes by import() after it.
    const { packages } = loadedFirst('src/cli/run-gateway.ts');
    expect(sdk(packages)).toEqual([]);
    expect(packages).toContain('cross-spawn');
  });

  it('hintgate serve loads the MCP server and never the MCP client', () => {
    // Everything `serve` may load, on demand included: its tools and the tool server.
    const { packages } = importGraph('src/cli/run-serve.ts');
    expect(packages).toContain('@modelcontextprotocol/server');
    expect(packages).not.toContain('@modelcontextprotocol/client');
  });

  it('the gateway checks pins without loading the lint and the probe', () => {
    const { files } = importGraph('src/gateway/index.ts');
    expect(files).toContain('src/check/pin/compare-pins.ts');
    expect(files.filter((file) => /^src\/check\/(lint|probe|report)\//.test(file))).toEqual([]);
  });

  it.each([
    {
      command: 'serve',
      entry: 'src/cli/run-serve.ts',
      reads: 'src/policy/node.ts',
      notYet: ['src/tools/index.ts', 'src/runtime/index.ts', 'src/mcp/index.ts'],
    },
    {
      command: 'check',
      entry: 'src/cli/run-check.ts',
      reads: 'src/check/probe/load-probe-fixtures.ts',
      notYet: ['src/check/index.ts', 'src/check/lint/index.ts', 'src/check/probe/index.ts'],
    },
    {
      command: 'pin',
      entry: 'src/cli/run-pin.ts',
      reads: 'src/cli/gateway-config-file.ts',
      notYet: ['src/gateway/pin.ts', 'src/check/pin.ts', 'src/mcp/pin.ts'],
    },
  ])(
    '$command reads its options and files before it loads the rest and the MCP SDK',
    ({ entry, reads, notYet }) => {
      const { files, packages } = loadedFirst(entry);
      expect(sdk(packages)).toEqual([]);
      expect(files.filter((file) => notYet.includes(file))).toEqual([]);
      expect(files).toContain(reads);
      // Loaded on demand, once the checks pass: the test looks at the right place.
      expect(importGraph(entry).files).toEqual(expect.arrayContaining(notYet.slice(0, 1)));
    },
  );
});
