import { resolve } from 'node:path';
import type { DiscoveryStatus } from '../discovery/index.js';
import { createRegistry, type ToolDescription } from '../registry/index.js';
import { createWorkspaceTools } from '../tools/index.js';
import { discoverCliTools } from './discover-cli-tools.js';
import { parseCommandArgs } from './parse-command-args.js';
import type { CliIo } from './run-cli.js';

/** Help of `hintgate tools`. */
export const TOOLS_USAGE = `Usage: hintgate tools [--workspace DIR] [--json]

Lists what is bound to each tool name and from where: the built-in tools (bundled layer),
tool modules in ~/.hintgate/tools/ (global layer; HINTGATE_HOME moves it) and in
<DIR>/.hintgate/tools/ (project layer). A later layer shadows an earlier one by name; the
shadowed definitions are listed too. Project tools load only once the folder is trusted
("hintgate trust DIR"); until then they are listed as held back. Modules that fail to load
are listed with why. Listing runs no module's init.

Options:
  --workspace DIR   The project folder. Default: the current directory.
  --json            Print { tools, discovery } as JSON.
  -h, --help        Show this help and exit.
`;

const where = (file: string | undefined, origin: string): string =>
  file === undefined ? origin : file;

/** The table of `hintgate tools`. */
function render(tools: readonly ToolDescription[], status: DiscoveryStatus): string {
  const rows = tools.map((tool) => [
    tool.name,
    tool.layer,
    `${where(tool.file, tool.origin)}${tool.visible ? '' : ` (disabled by ${tool.disabledBy})`}`,
    tool.shadows.map((s) => `${s.layer} ${where(s.file, s.origin)}`).join('; '),
  ]);
  const head = ['NAME', 'LAYER', 'FROM', 'SHADOWS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [line(head), ...rows.map(line)];
  const held = status.heldBack;
  if (held !== undefined) {
    out.push(
      '',
      `Held back: ${held.files.length} tool module(s) in ${held.directory} (${held.status === 'new' ? 'this project folder is not trusted yet' : 'changed since the folder was trusted'}):`,
      ...held.files.map((file) => `  ${file}`),
      `Review them, then run: ${held.command}`,
    );
  }
  if (status.problems.length > 0) {
    out.push('', 'Left out:', ...status.problems.map((p) => `  ${p.message}`));
  }
  return `${out.join('\n')}\n`;
}

/** `hintgate tools`: lists every tool name, its layer, file and what it shadows. */
export async function runTools(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('tools', argv, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) {
    io.stderr(`hintgate tools: ${parsed.message}\n`);
    return 2;
  }
  const { values } = parsed;
  if (values.help === true) {
    io.stdout(TOOLS_USAGE);
    return 0;
  }
  const workspace = resolve(io.cwd ?? process.cwd(), String(values.workspace ?? '.'));
  const registry = createRegistry({ env: io.env ?? process.env });
  registry.addOrigin({
    name: 'local',
    layer: 'bundled',
    tools: createWorkspaceTools({ workspace, protectedPaths: ['.hintgate'] }),
  });
  const problems: string[] = [];
  let discovery: Awaited<ReturnType<typeof discoverCliTools>>;
  try {
    discovery = await discoverCliTools(
      { ...io, stderr: (text) => problems.push(text) },
      { registry, project: workspace, command: 'tools', mayAsk: false, lifecycle: false },
    );
  } catch (error) {
    io.stderr(`hintgate tools: ${(error as Error).message}\n`);
    return 1;
  }
  const status = discovery.status();
  if (values.json === true) {
    io.stdout(`${JSON.stringify({ tools: registry.describe(), discovery: status }, null, 2)}\n`);
  } else {
    io.stdout(render(registry.describe(), status));
  }
  await registry.close();
  return 0;
}
