import { createRequire } from 'node:module';

/** Where the CLI writes; injectable for tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `Usage: hintgate [--help] [--version]

hintgate makes MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint,
openWorldHint) govern how tool calls run: read-only calls overlap, conflicting calls keep
their order, destructive calls wait for approval.

This release ships the runtime library:

  import { createRuntime, defineTool, READ_ONLY, WRITE, DESTRUCTIVE } from 'hintgate';

Options:
  -h, --help      Show this help and exit.
  -V, --version   Print the version and exit.

Documentation: README.md and docs/ in the package.
`;

const version = (): string => {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
};

/**
 * Runs the `hintgate` command with `args` (without the node and script paths) and returns
 * the exit code: 0 on success, 2 on a usage error.
 */
export function runCli(args: readonly string[], io: CliIo): number {
  const [first, ...rest] = args;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if ((first === '-V' || first === '--version') && rest.length === 0) {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const what = first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`;
  io.stderr(`hintgate: ${what}. Run "hintgate --help" for usage.\n`);
  return 2;
}
