import {
  createToolDiscovery,
  type ToolDiscovery,
  type TrustAnswer,
  type TrustRequest,
} from '../discovery/index.js';
import type { ToolRegistry } from '../registry/index.js';
import { askTrustInTerminal } from './ask-trust-in-terminal.js';
import type { CliIo } from './run-cli.js';

/** Options of {@link discoverCliTools}. */
export interface DiscoverCliToolsOptions {
  /** The registry to fill. */
  readonly registry: ToolRegistry;
  /** The project folder (the workspace, or the directory of `hintgate.yaml`). */
  readonly project: string;
  /** The command, for messages: `serve`, `gateway`, `tools`. */
  readonly command: string;
  /**
   * Whether a person may be asked on the terminal: only when stdin and stdout are
   * terminals and stdin does not carry MCP (stdio transport).
   */
  readonly mayAsk: boolean;
  /** Run modules' `init`/`dispose`. Default true. */
  readonly lifecycle?: boolean;
  /**
   * Watch the tool folders and reload between turns when a module is added, changed or
   * removed (`serve`, `gateway`). Default false.
   */
  readonly watch?: boolean;
}

/**
 * Loads the global and project tool layers for a CLI command: modules left out and a
 * project held back are reported on stderr with what to do; the project's trust is asked
 * on the terminal when one is there.
 */
export function discoverCliTools(
  io: CliIo,
  options: DiscoverCliToolsOptions,
): Promise<ToolDiscovery> {
  const { stdin } = io;
  const ask =
    options.mayAsk && stdin?.isTTY === true && io.stdoutIsTTY === true
      ? askTrustInTerminal({ input: stdin })
      : undefined;
  return createToolDiscovery({
    registry: options.registry,
    project: options.project,
    env: io.env ?? process.env,
    lifecycle: options.lifecycle ?? true,
    ...(options.watch === true ? { watch: true } : {}),
    onProblem: (message) => io.stderr(`hintgate ${options.command}: ${message}\n`),
    ...(ask === undefined
      ? {}
      : { askTrust: (request: TrustRequest): Promise<TrustAnswer> => ask(request) }),
  });
}
