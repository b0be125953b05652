import { renderServerEntries, type ServerEntry } from './render-server-entries.js';

/** Where editors find the schema of the configuration unless told otherwise. */
export const DEFAULT_SCHEMA_URL = 'https://unpkg.com/hintgate/schema/hintgate.schema.json';

/** Options of {@link renderStarterConfig}. */
export interface RenderStarterConfigOptions {
  /**
   * URL or path of `hintgate.schema.json` for the `yaml-language-server` line, for example
   * `./node_modules/hintgate/schema/hintgate.schema.json`. Default {@link DEFAULT_SCHEMA_URL}.
   */
  readonly schemaUrl?: string;
  /**
   * The servers to write, as an MCP client's configuration has them (`hintgate init
   * --from`). Absent: one example server (`@modelcontextprotocol/server-everything`) with
   * rules for it. Given: these servers, and rules only as commented-out examples.
   */
  readonly servers?: readonly ServerEntry[];
  /** Where `servers` came from (a client's configuration file), named in a comment. */
  readonly source?: string;
}

/** The example server of the starter without `servers`. */
const EXAMPLE_SERVERS = `servers:
  everything:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
#    env:
#      API_KEY: \${API_KEY}              # \${NAME} is read from hintgate's environment
    # An untrusted server's annotations are shown but not used: its tools count as
    # destructive, run one call at a time and ask first. Trust a server you have checked.
    trusted: false
#    concurrency: 4                     # most calls to this server at once
#    tools:                             # per-tool overrides, by the server's tool names
#      echo:
#        annotations: { readOnlyHint: true, openWorldHint: false }
#        resources: ["echo:{message}"]  # calls on the same keys are ordered
#        timeoutMs: 10000
#        rateLimit: { max: 60, windowMs: 60000 }
#      dangerous_tool:
#        disabled: true                 # neither listed nor callable

  # A server reached over Streamable HTTP:
#  remote:
#    url: https://example.com/mcp
#    headers:
#      Authorization: Bearer \${REMOTE_TOKEN}
`;

// The allow rule outranks the ask rule: the ask rule matches every tool of a server that is
// not trusted (their hints count as destructive), and would otherwise decide these too.
const EXAMPLE_RULES = `rules:
  - annotations: { destructiveHint: true }
    decision: ask
    priority: 10
    reason: irreversible actions are confirmed, also in auto mode
  - origin: everything
    tool: "{echo,get-sum}"
    decision: allow
    priority: 20
    reason: harmless tools of the example server, allowed before it is trusted
`;

const EXAMPLE_RULES_COMMENTED = `rules:
#  - tool: "*delete*"
#    decision: deny
#    reason: nothing is deleted through the gateway
#  - origin: my-server
#    tool: "{search,fetch_*}"
#    decision: allow
#    reason: these only read
`;

const importedServers = (servers: readonly ServerEntry[], source: string | undefined): string => {
  const from = source === undefined ? '' : `# Imported from ${source}.\n`;
  return `# The MCP servers to front, by name (1-64 characters of A-Z a-z 0-9 _ -).
${from}# Servers are not trusted until you say so: their annotations are shown but not used, so
# their tools count as destructive, run one call at a time and ask first. A tool that
# "hintgate check --probe --write-pin" verified (as "hintgate init" does) is trusted as it
# is pinned. Under a server's name you can add "trusted: true", "concurrency" (calls at
# once) and per-tool overrides under "tools" (docs/gateway-config.md).
servers:
${renderServerEntries(servers, 2)}`;
};

const EXAMPLE_INTRO = `# The MCP servers to front, by name (1-64 characters of A-Z a-z 0-9 _ -). When two servers
# offer a tool of the same name, the tools are told apart by "<server>__" prefixes. An
# "mcpServers" block from Claude Desktop or Cursor can be pasted here as it is.
`;

/**
 * The commented starter `hintgate.yaml` that `hintgate init` writes: one stdio server to
 * try, an HTTP server and further settings commented out, the mode, two rules and the
 * pin and audit defaults; or, with `servers`, those servers (`hintgate init --from`) and
 * rules only as commented-out examples. Every rule it writes decides some call of its
 * servers: no rule is shadowed by another. Comments are `# ` and a word; a setting that is
 * commented out is `#` in the first column followed by the setting as written, indentation
 * included, so that deleting the `#` switches it on.
 */
export function renderStarterConfig(options: RenderStarterConfigOptions = {}): string {
  const schemaUrl = options.schemaUrl ?? DEFAULT_SCHEMA_URL;
  const { servers } = options;
  const serversBlock =
    servers === undefined
      ? `${EXAMPLE_INTRO}${EXAMPLE_SERVERS}`
      : importedServers(servers, options.source);
  const rulesBlock = servers === undefined ? EXAMPLE_RULES : EXAMPLE_RULES_COMMENTED;
  return `# yaml-language-server: $schema=${schemaUrl}
#
# hintgate gateway configuration. Point your MCP client at "hintgate gateway" instead of
# at the servers below: every tool call then follows the tools' annotations, the mode and
# rules here, and your approvals. Relative paths are relative to this file.
#
# A line whose "#" is followed by a setting with its indentation is commented out: delete
# the "#" to use it.

${serversBlock}
# What runs without asking: plan (read-only tools only), ask (reads run, the rest asks),
# auto (reads and non-destructive writes run), allowlist (only what a rule allows), yolo.
mode: ask

# Rules: of the rules that match a call, the highest priority wins; at equal priority deny
# beats ask beats allow. Globs: * within a name, ** across "/", {a,b} alternatives.
${rulesBlock}
# Pinning: "hintgate pin" records each tool's definition here; a tool whose definition
# changes is blocked until it is pinned again.
pin:
  path: hintgate.lock
  newTools: pending                    # a tool not pinned yet waits (pending), asks first (ask) or runs (allow)

# The audit log: one JSON line per call, decision and approval.
audit:
  path: .hintgate/audit.jsonl
  arguments: false                     # true also records arguments, secrets redacted
  sync: auto                           # read-only calls wait for their events in the file, others on disk (always: all on disk)
#  rotate: { maxBytes: 10000000, keep: 5 }  # past 10 MB the log moves to audit.jsonl.1 (daily: true for one file a day)

# "Always allow" answers:
#approvals:
#  path: .hintgate/approvals.json

# Serve MCP clients over Streamable HTTP instead of stdio:
#downstream:
#  http:
#    host: 127.0.0.1
#    port: 3000
#    token: \${HINTGATE_TOKEN}          # at least 8 characters; keep it in the environment
`;
}
