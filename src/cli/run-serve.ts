import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Policy } from '../policy/index.js';
import { loadPolicy } from '../policy/node.js';
import { parseServeArgs, SERVE_USAGE } from './parse-serve-args.js';
import type { CliIo } from './run-cli.js';
import { messageOf, oneLine } from './serve-messages.js';

/** Why `workspace` cannot be served, or undefined when it can. */
const workspaceProblem = async (workspace: string): Promise<string | undefined> => {
  try {
    if (!(await stat(workspace)).isDirectory())
      return `workspace "${workspace}" is not a directory.`;
    await access(workspace, constants.R_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ENOENT'
      ? `workspace "${workspace}" does not exist.`
      : `workspace "${workspace}" cannot be read (${code ?? messageOf(error)}).`;
  }
};

/**
 * `hintgate serve`: parses the options, checks the workspace and the policy file, then
 * serves the built-in workspace tools (see `serveWorkspace`) until SIGINT, SIGTERM or
 * (stdio) the end of stdin. Resolves to the exit code.
 */
export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseServeArgs(argv, io.env ?? process.env);
  if (!parsed.ok) {
    io.stderr(`hintgate serve: ${parsed.message}\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    io.stdout(SERVE_USAGE);
    return 0;
  }
  const workspace = resolve(args.workspace);
  const problem = await workspaceProblem(workspace);
  if (problem !== undefined) {
    io.stderr(`hintgate serve: ${problem}\n`);
    return 2;
  }
  let policy: Policy = {};
  if (args.policy !== undefined) {
    try {
      policy = await loadPolicy(args.policy);
    } catch (error) {
      io.stderr(`hintgate serve: ${oneLine(messageOf(error))}\n`);
      return 2;
    }
  }

  // Loaded once the options, the workspace and the policy file are checked: a refusal
  // answers without loading the tools, the runtime and the MCP SDK.
  const { serveWorkspace } = await import('./serve-workspace.js');
  return serveWorkspace({ args, workspace, policy, io });
}
