import { createRequire } from 'node:module';

/** Where the CLI writes, and what it reads from its environment; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Environment variables (`HINTGATE_TOKEN`). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Directory `gateway`, `pin`, `check` and `init` look for `hintgate.yaml` in. Default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Standard input, read for answers to questions on a terminal (`hintgate pin` asks before
   * it pins changes). Questions are asked only when it and stdout are terminals. Default:
   * none, so nothing is asked.
   */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /**
   * Whether stdout is a terminal: `check` then shows progress, `pin` colours and questions.
   * Default false.
   */
  readonly stdoutIsTTY?: boolean;
}

/** The commands, for suggestions when a word is misspelled. */
const COMMANDS = ['gateway', 'pin', 'check', 'init', 'serve', 'tools', 'trust'] as const;

const USAGE = `Usage: hintgate <command> [options]
       hintgate [--help] [--version]

hintgate makes MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint,
openWorldHint) govern how tool calls run: read-only calls overlap, conflicting calls keep
their order, destructive calls wait for approval.

Commands:
  gateway         Front other MCP servers: every call follows annotations, rules and
                  approvals; tools are pinned (stdio or Streamable HTTP).
  pin             Record the tool definitions of the gateway's servers in hintgate.lock.
  check           Lint servers' tool annotations, probe them for side effects in a
                  sandbox (--probe), and report as a table, JSON or SARIF.
  init            Write a commented starter hintgate.yaml in the current directory, or
                  with --from claude|cursor|vscode|FILE make a gateway of a client's
                  servers: check, probe and pin them, and tell what runs and what asks.
  serve           Serve the built-in workspace tools over MCP (stdio or Streamable HTTP).
  tools           List what is bound to each tool name and from where: built-in, global
                  (~/.hintgate/tools/) and project (.hintgate/tools/) tool modules.
  trust           Trust a project folder's tool modules (.hintgate/tools/), so that
                  serve and gateway load them; a changed file asks again.

Run "hintgate <command> --help" for a command's options.

Options:
  -h, --help      Show this help and exit.
  -V, --version   Print the version and exit.

As a library:

  import { createRuntime, defineTool, READ_ONLY, WRITE, DESTRUCTIVE } from 'hintgate';
  import { createMcpToolServer } from 'hintgate/mcp';

Documentation: README.md and docs/ in the package.
`;

const version = (): string => {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
};

/**
 * Runs the `hintgate` command with `args` (without the node and script paths) and resolves
 * to the exit code: 0 on success, 1 on a failure while running, 2 on a usage error (`check`:
 * 1 for findings at or above --fail-on, 3 when a server could not be checked). `serve`
 * and `gateway` resolve once the server has shut down (SIGINT, SIGTERM, or stdin closed on
 * stdio).
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if ((first === '-V' || first === '--version') && rest.length === 0) {
    io.stdout(`${version()}\n`);
    return 0;
  }
  // Loaded on demand: --help and --version stay free of the MCP SDK and of each other command.
  if (first === 'serve') {
    const { runServe } = await import('./run-serve.js');
    return runServe(rest, io);
  }
  if (first === 'gateway') {
    const { runGateway } = await import('./run-gateway.js');
    return runGateway(rest, io);
  }
  if (first === 'pin') {
    const { runPin } = await import('./run-pin.js');
    return runPin(rest, io);
  }
  if (first === 'check') {
    const { runCheck } = await import('./run-check.js');
    return runCheck(rest, io);
  }
  if (first === 'init') {
    const { runInit } = await import('./run-init.js');
    return runInit(rest, io);
  }
  if (first === 'tools') {
    const { runTools } = await import('./run-tools.js');
    return runTools(rest, io);
  }
  if (first === 'trust') {
    const { runTrust } = await import('./run-trust.js');
    return runTrust(rest, io);
  }
  const what = first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`;
  // Loaded only here: --help and --version load nothing but this file.
  const { closest } = await import('../config-problems/index.js');
  const near = first.startsWith('-') ? undefined : closest(first, COMMANDS);
  const hint = near === undefined ? '' : ` Did you mean "hintgate ${near}"?`;
  io.stderr(`hintgate: ${what}.${hint} Run "hintgate --help" for usage.\n`);
  return 2;
}
