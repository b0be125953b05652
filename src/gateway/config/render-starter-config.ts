/** Where editors find the schema of the configuration unless told otherwise. */
export const DEFAULT_SCHEMA_URL = 'https://unpkg.com/hintgate/schema/hintgate.schema.json';

/** Options of {@link renderStarterConfig}. */
export interface RenderStarterConfigOptions {
  /**
   * URL or path of `hintgate.schema.json` for the `yaml-language-server` line, for example
   * `./node_modules/hintgate/schema/hintgate.schema.json`. Default {@link DEFAULT_SCHEMA_URL}.
   */
  readonly schemaUrl?: string;
}

/**
 * The commented starter `hintgate.yaml` that `hintgate init` writes: one stdio server to
 * try, an HTTP server and further settings commented out, the mode, two rules and the
 * pin and audit defaults. Comments are `# ` and a word; a setting that is commented out
 * is `#` in the first column followed by the setting as written, indentation included,
 * so that deleting the `#` switches it on.
 */
export function renderStarterConfig(options: RenderStarterConfigOptions = {}): string {
  const schemaUrl = options.schemaUrl ?? DEFAULT_SCHEMA_URL;
  return `# yaml-language-server: $schema=${schemaUrl}
#
# hintgate gateway configuration. Point your MCP client at "hintgate gateway" instead of
# at the servers below: every tool call then follows the tools' annotations, the mode and
# rules here, and your approvals. Relative paths are relative to this file.
#
# A line whose "#" is followed by a setting with its indentation is commented out: delete
# the "#" to use it.

# The MCP servers to front, by name (1-64 characters of A-Z a-z 0-9 _ -). When two servers
# offer a tool of the same name, the tools are told apart by "<server>__" prefixes. An
# "mcpServers" block from Claude Desktop or Cursor can be pasted here as it is.
servers:
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

# What runs without asking: plan (read-only tools only), ask (reads run, the rest asks),
# auto (reads and non-destructive writes run), allowlist (only what a rule allows), yolo.
mode: ask

# Rules: of the rules that match a call, the highest priority wins; at equal priority deny
# beats ask beats allow. Globs: * within a name, ** across "/", {a,b} alternatives.
rules:
  - annotations: { destructiveHint: true }
    decision: ask
    priority: 10
    reason: irreversible actions are confirmed, also in auto mode
  - origin: everything
    tool: "{echo,get-sum}"
    decision: allow
    reason: harmless tools of the example server

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
