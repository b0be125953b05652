import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Directory of the fixture configurations: `valid/` and `invalid/`. */
export const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The environment the fixtures' `${VAR}` references are expanded from. */
export const FIXTURE_ENV: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: 'ghp_fixture',
  API_BASE: 'https://api.example.com',
  HINTGATE_TOKEN: 'fixture-token-0123',
};

/** Names of the fixture files of one kind, sorted. */
export function fixtureNames(kind: 'valid' | 'invalid'): string[] {
  return readdirSync(new URL(`./fixtures/${kind}/`, import.meta.url)).sort();
}

/**
 * What the loader says of each invalid fixture: one line of its message, after the file
 * name. Every file in `fixtures/invalid/` must be listed here.
 */
export const INVALID_FIXTURES: Readonly<Record<string, string>> = {
  'args-not-a-list.yaml':
    '4:5: servers.local.args is "-y some-server"; use a list of strings, such as ["-y", "some-mcp-server"].',
  'audit-not-a-mapping.yaml':
    '3:1: audit is "logs/audit.jsonl"; use a mapping, as in { path: "logs/audit.jsonl" }.',
  'bad-annotation.yaml':
    '6:24: servers.local.tools.search.annotations.readOnly is not an MCP annotation; did you mean "readOnlyHint"?',
  'bad-mode.yaml': '3:1: mode is "careful"; use one of plan, ask, auto, allowlist, yolo.',
  'bad-audit-sync.yaml':
    '4:3: audit.sync is "batch"; use one of auto, always, batched (did you mean "batched"?).',
  'bad-new-tools.yaml': '4:3: pin.newTools is "deny"; use one of pending, ask, allow.',
  'bad-port.yaml':
    '5:5: downstream.http.port is 70000; use an integer from 0 to 65535 (0 picks a free port).',
  'bad-resource-template.yaml':
    '6:21: servers.local.tools.read.resources[0] is not a valid template: resource template "file:{path" has an unbalanced brace. Write placeholders as "{argumentName}".',
  'bad-rule-decision.yaml': '5:5: rules[0].decision is "block"; use one of allow, ask, deny.',
  'bad-server-name.yaml':
    '2:3: servers["my server"] is not a usable server name; use 1-64 characters of A-Z, a-z, 0-9, "_" and "-" (it prefixes tool names when two servers share one), such as "my_server".',
  'bad-tool-name.yaml':
    '5:7: servers.local.tools["search issues"] is not a tool name; use the name the server gives the tool (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
  'command-and-url.yaml':
    '2:3: servers.both has both "command" and "url"; keep "command" for a server run over stdio, or "url" for a Streamable HTTP server.',
  'empty-servers.yaml':
    '1:1: servers is empty; add at least one server, with "command" (stdio) or "url" (Streamable HTTP).',
  'env-number.yaml':
    '5:7: servers.local.env.PORT is 3000; use a string such as "value" (quoted: "3000").',
  'ftp-url.yaml':
    '3:5: servers.remote.url is "ftp://example.com/mcp", not an http(s) URL; write the full endpoint, such as "https://example.com/mcp".',
  'headers-on-stdio.yaml':
    '4:5: servers.local.headers only applies to a Streamable HTTP server (one with "url"); this one is run over stdio.',
  'http-type-with-command.json':
    '3:28: servers.x.command only applies to a server run over stdio (one with "command"); this one is reached over Streamable HTTP.',
  'misspelled-server-key.yaml':
    '3:5: servers.local.comand is not a server key; did you mean "command"?',
  'neither-command-nor-url.yaml':
    '2:3: servers.nothing says neither "command" nor "url"; add "command" (with optional args, env, cwd) for a server run over stdio, or "url" (with optional headers) for Streamable HTTP.',
  'no-servers.yaml':
    '1:1: the configuration has no servers; add them under "servers" (or "mcpServers", as Claude Desktop and Cursor write it), each with "command" or "url".',
  'quoted-boolean.yaml': '4:5: servers.local.trusted is "true"; use true or false without quotes.',
  'rate-limit-without-window.yaml':
    '6:9: servers.local.tools.search.rateLimit has no "windowMs"; write both, as in { max: 5, windowMs: 60000 }.',
  'servers-and-mcpservers.json':
    '1:1: the configuration has both "servers" and "mcpServers"; keep one mapping of servers.',
  'short-token.yaml': `5:5: downstream.http.token is 5 characters long; use at least 8 (for example from "openssl rand -hex 32", kept in an environment variable: "\${HINTGATE_TOKEN}").`,
  'sse-type.json':
    '3:14: mcpServers.old.type is "sse"; hintgate speaks stdio and Streamable HTTP only: use type: http when the server also serves Streamable HTTP (often at /mcp), or run it over stdio.',
  'timeout-zero.yaml':
    '5:17: servers.local.tools.search.timeoutMs is 0; use milliseconds, a number in (0, 2147483647], such as 30000.',
  'unknown-tool-override-key.yaml':
    '6:9: servers.local.tools.search.timeout is not a tool override key; did you mean "timeoutMs"?',
  'unknown-top-level-key.yaml':
    '3:1: rule is not a hintgate configuration key; did you mean "rules"?',
  'zero-concurrency.yaml':
    '4:5: servers.local.concurrency is 0; use a positive integer, the most calls to this server at once.',
};
