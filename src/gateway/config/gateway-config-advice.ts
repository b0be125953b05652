// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration values with ${VAR} references, not templates
import { describe, type SchemaAdvice } from '../../config-problems/index.js';
import { POLICY_KEY_ADVICE } from '../../policy/index.js';
import { HINT_NAMES, MAX_TIMER_MS } from '../../tool/index.js';

const MISPLACED = (key: string, where: string): string =>
  `is not a top-level key; "${key}" belongs under ${where}.`;

const SERVER_ENTRY =
  'write a mapping with "command" (and args, env, cwd) for a server run over stdio, or "url" (and headers) for Streamable HTTP';

/** Keys other clients and people write into a server entry, mapped to the key they mean. */
const SERVER_SYNONYMS = {
  arguments: 'args',
  argv: 'args',
  environment: 'env',
  workingDirectory: 'cwd',
  workdir: 'cwd',
  dir: 'cwd',
  serverUrl: 'url',
  endpoint: 'url',
  transport: 'type',
  transportType: 'type',
  trust: 'trusted',
  maxConcurrency: 'concurrency',
  quota: 'rateLimit',
  limit: 'rateLimit',
  connectTimeout: 'connectTimeoutMs',
  startupTimeoutMs: 'connectTimeoutMs',
  overrides: 'tools',
};

const ENV_FILE = `is not supported: hintgate reads no env files; put the variables under "env", or refer to the environment with \${NAME}.`;

const transportType = (value: unknown): string =>
  value === 'sse'
    ? 'is "sse"; hintgate speaks stdio and Streamable HTTP only: use type: http when the server also serves Streamable HTTP (often at /mcp), or run it over stdio.'
    : `is ${describe(value)}; use "stdio" (with "command") or "http" (with "url").`;

const SERVER_NAME = (name: unknown): string => {
  const suggestion =
    String(name)
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .slice(0, 64)
      .replace(/^_+$/, '') || 'server';
  return `is not a usable server name; use 1-64 characters of A-Z, a-z, 0-9, "_" and "-" (it prefixes tool names when two servers share one), such as "${suggestion}".`;
};

const STRING_VALUE = {
  rule: 'a string such as "value"',
  text: { pattern: 'holds a line break or NUL character; remove it.' },
};

const MS = `milliseconds, a number in (0, ${MAX_TIMER_MS}]`;

const RATE_LIMIT = {
  what: 'a rateLimit key',
  rule: 'a mapping, as in { max: 5, windowMs: 60000 }',
  synonyms: { window: 'windowMs', limit: 'max', calls: 'max', maxWait: 'maxWaitMs' },
  text: {
    required: (key: unknown) =>
      `has no "${String(key)}"; write both, as in { max: 5, windowMs: 60000 }.`,
  },
};
const RATE_LIMIT_VALUES = (at: string): SchemaAdvice => ({
  [at]: RATE_LIMIT,
  [`${at}/properties/max`]: { rule: 'a positive integer, the calls allowed per window' },
  [`${at}/properties/windowMs`]: { rule: `${MS}, such as 60000` },
  [`${at}/properties/maxWaitMs`]: {
    rule: `milliseconds from 0 to ${MAX_TIMER_MS} (0: never wait)`,
  },
});

const STATE_EXAMPLE =
  '"redis://127.0.0.1:6379" or { url: "redis://redis:6379", secret: "${HINTGATE_STATE_SECRET}" }';

const SERVER_KEYS = (other: 'stdio' | 'http') => {
  const wrongSide =
    other === 'http'
      ? 'only applies to a Streamable HTTP server (one with "url"); this one is run over stdio.'
      : 'only applies to a server run over stdio (one with "command"); this one is reached over Streamable HTTP.';
  const keys = other === 'http' ? ['url', 'headers'] : ['command', 'args', 'env', 'cwd'];
  return {
    what: 'a server key',
    synonyms: SERVER_SYNONYMS,
    keys: { envFile: ENV_FILE, ...Object.fromEntries(keys.map((key) => [key, wrongSide])) },
  };
};

/**
 * What the problems of `schema/hintgate.schema.json` say beyond the schema, by JSON pointer
 * of the schema object: what each mapping's keys are called, the keys people write instead
 * (other clients' formats, near synonyms), and advice for known mistakes. `mode`, `rules`
 * and `tools` get the words of a policy file's.
 */
export const GATEWAY_CONFIG_ADVICE: SchemaAdvice = {
  ...POLICY_KEY_ADVICE,
  '': {
    what: 'a hintgate configuration key',
    synonyms: {
      upstreams: 'servers',
      upstream: 'servers',
      lock: 'pin',
      pinning: 'pin',
      log: 'audit',
      webConsole: 'console',
      ui: 'console',
      otel: 'telemetry',
      opentelemetry: 'telemetry',
      tracing: 'telemetry',
      redis: 'state',
    },
    keys: {
      policy: 'is not a hintgate configuration key; write "mode" and "rules" at the top level.',
      mcp: 'is not a hintgate configuration key; VS Code settings nest servers under "mcp": point hintgate at .vscode/mcp.json instead, or move "servers" to the top level.',
      http: MISPLACED('http', '"downstream", as in downstream: { http: { port: 3000 } }'),
      host: MISPLACED('host', 'downstream.http'),
      port: MISPLACED('port', 'downstream.http'),
      token: MISPLACED('token', 'downstream.http'),
      trusted: MISPLACED('trusted', 'each server'),
      concurrency: MISPLACED('concurrency', 'each server'),
      connectTimeoutMs: MISPLACED('connectTimeoutMs', 'each server'),
    },
    text: {
      type: (value) =>
        `is ${describe(value)}; write a mapping with "servers" (and optionally mode, rules, audit, pin).`,
      oneOf:
        'has no servers; add them under "servers" (or "mcpServers", as Claude Desktop and Cursor write it), each with "command" or "url".',
      'oneOf.many': 'has both "servers" and "mcpServers"; keep one mapping of servers.',
    },
  },
  '/properties/$schema': { rule: "the schema's URL or path as a string" },
  '/properties/inputs': { rule: 'a list, as VS Code writes inputs' },
  '/$defs/servers': {
    text: {
      type: (value) =>
        value === null
          ? 'is empty; add at least one server, with "command" (stdio) or "url" (Streamable HTTP).'
          : `is ${describe(value)}; write a mapping from server names to servers, as in { github: { command: "npx", args: [...] } }.`,
      minProperties:
        'is empty; add at least one server, with "command" (stdio) or "url" (Streamable HTTP).',
      propertyNames: SERVER_NAME,
    },
  },
  '/$defs/server': {
    text: {
      oneOf: (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? 'says neither "command" nor "url"; add "command" (with optional args, env, cwd) for a server run over stdio, or "url" (with optional headers) for Streamable HTTP.'
          : `is ${describe(value)}; ${SERVER_ENTRY}.`,
    },
  },
  '/$defs/stdioServer': {
    ...SERVER_KEYS('http'),
    text: { required: 'has no "command"; add the program to run, such as "npx".' },
  },
  '/$defs/httpServer': {
    ...SERVER_KEYS('stdio'),
    text: {
      required: 'has no "url"; add the server\'s MCP endpoint, such as "https://example.com/mcp".',
    },
  },
  '/$defs/stdioServer/properties/type': { text: { const: transportType } },
  '/$defs/httpServer/properties/type': { text: { const: transportType } },
  '/$defs/stdioServer/properties/command': { rule: 'the program to run, such as "npx"' },
  '/$defs/stdioServer/properties/args': {
    rule: 'a list of strings, such as ["-y", "some-mcp-server"]',
  },
  '/$defs/stdioServer/properties/args/items': { rule: 'a string for each argument' },
  '/$defs/stdioServer/properties/cwd': { rule: 'a directory, such as "./server"' },
  '/$defs/httpServer/properties/url': {
    text: {
      pattern: (value) =>
        `is ${describe(value)}, not an http(s) URL; write the full endpoint, such as "https://example.com/mcp".`,
    },
  },
  '/$defs/env': {
    rule: `a mapping of variables to strings, as in { API_KEY: "\${API_KEY}" }`,
    text: { propertyNames: 'is not a usable name; write a variable name without "=" in it.' },
  },
  '/$defs/env/additionalProperties': STRING_VALUE,
  '/$defs/httpServer/properties/headers/additionalProperties': STRING_VALUE,
  '/$defs/httpServer/properties/headers': {
    rule: 'a mapping of header names to strings, as in { Authorization: "Bearer ${TOKEN}" }',
    text: {
      propertyNames:
        "is not a usable name; a header name has letters, digits and !#$%&'*+.^_`|~- only.",
    },
  },
  '/$defs/concurrency': { rule: 'a positive integer, the most calls to this server at once' },
  '/$defs/connectTimeoutMs': {
    rule: 'a positive integer, the milliseconds one connection attempt may take',
  },
  '/$defs/autoApprove': {
    text: {
      type: (value) =>
        `is ${describe(value)}; another client's list of tool names, which hintgate ignores (its mode, rules and pins decide), so write a list of strings or leave it out.`,
    },
  },
  '/$defs/tools': {
    text: {
      propertyNames:
        'is not a tool name; use the name the server gives the tool (1-128 characters of A-Z, a-z, 0-9, "_", "-" and ".").',
    },
  },
  '/$defs/toolOverride': {
    what: 'a tool override key',
    rule: 'a mapping, as in { timeoutMs: 30000, disabled: false }',
    synonyms: { hints: 'annotations', timeout: 'timeoutMs', limit: 'rateLimit', keys: 'resources' },
    keys: Object.fromEntries(
      HINT_NAMES.map((hint) => [
        hint,
        `is not a tool override key; put hints under "annotations", as in annotations: { ${hint}: true }.`,
      ]),
    ),
  },
  '/$defs/toolOverride/properties/annotations': {
    what: 'an MCP annotation',
    rule: 'a mapping, as in { readOnlyHint: true }',
  },
  '/$defs/toolOverride/properties/timeoutMs': { rule: `${MS}, such as 30000` },
  '/$defs/toolOverride/properties/resources': {
    rule: 'a list of resource key templates, such as ["file:{path}"]',
  },
  '/$defs/toolOverride/properties/scopes': {
    rule: 'a list of scope names, such as [records.read]',
  },
  ...RATE_LIMIT_VALUES('/$defs/serverRateLimit'),
  ...RATE_LIMIT_VALUES('/$defs/toolOverride/properties/rateLimit'),
  ...RATE_LIMIT_VALUES('/properties/downstream/properties/http/properties/rateLimit'),
  '/properties/audit': {
    what: 'an audit key',
    rule: 'a mapping, as in { path: "logs/audit.jsonl" }',
  },
  '/properties/audit/properties/maxSyncDelayMs': {
    rule: 'a whole number of milliseconds from 0 to 60000',
  },
  '/properties/audit/properties/rotate': {
    what: 'a rotate key',
    rule: 'a mapping, as in { maxBytes: 10000000, keep: 5 }',
    text: {
      anyOf: 'says no time to rotate; add maxBytes (such as 10000000), daily: true, or both.',
      required: 'says no time to rotate; add maxBytes (such as 10000000), daily: true, or both.',
    },
  },
  '/properties/audit/properties/rotate/properties/maxBytes': {
    rule: 'a whole number of bytes, at least 1024 (10 MB: 10000000)',
  },
  '/properties/audit/properties/rotate/properties/keep': {
    rule: 'a whole number of files from 1 to 1000',
  },
  '/properties/approvals': {
    what: 'an approvals key',
    rule: 'a mapping, as in { path: ".hintgate/approvals.json" }',
  },
  '/properties/pin': { what: 'a pin key', rule: 'a mapping, as in { newTools: pending }' },
  '/properties/downstream': {
    what: 'a downstream transport',
    rule: 'a mapping, as in { http: { port: 3000 } }',
    synonyms: { streamableHttp: 'http' },
    keys: {
      stdio:
        'is the default downstream transport; leave it out, or use "http" for Streamable HTTP.',
    },
  },
  '/properties/downstream/properties/http': {
    what: 'a downstream.http key',
    rule: 'a mapping, as in { host: "127.0.0.1", port: 3000 }',
    synonyms: { address: 'host', bind: 'host', bearer: 'token' },
  },
  '/properties/downstream/properties/http/properties/port': {
    rule: 'an integer from 0 to 65535 (0 picks a free port)',
  },
  '/properties/downstream/properties/http/properties/principals/items': {
    what: 'a principal key',
    text: { required: (key) => `has no "${String(key)}".` },
  },
  '/properties/downstream/properties/http/properties/principals/items/properties/name': {
    text: { pattern: 'must be 1-64 of A-Z a-z 0-9 _ - . @.' },
  },
  '/properties/console': {
    text: {
      oneOf: (value) => `is ${describe(value)}; use true, or settings as in { port: 7777 }.`,
    },
  },
  '/properties/console/oneOf/1': {
    what: 'a console key',
    keys: { host: 'is not a console key; the console listens on 127.0.0.1 only.' },
  },
  '/properties/console/oneOf/1/properties/port': {
    rule: 'an integer from 0 to 65535 (0 picks a free port)',
  },
  '/properties/telemetry': {
    text: {
      oneOf: (value) =>
        `is ${describe(value)}; use true, false, or settings as in { endpoint: "http://otel-collector:4318" }.`,
    },
  },
  '/properties/telemetry/oneOf/1': {
    what: 'a telemetry key',
    synonyms: { enable: 'enabled', service: 'serviceName', url: 'endpoint' },
    keys: {
      protocol:
        'is not a telemetry key; hintgate exports OTLP over HTTP. Set OTEL_EXPORTER_OTLP_PROTOCOL for another encoding.',
      headers:
        'is not a telemetry key; set OTEL_EXPORTER_OTLP_HEADERS in the environment (it usually holds a secret).',
    },
  },
  '/properties/telemetry/oneOf/1/properties/endpoint': {
    text: {
      pattern:
        'is not an http:// or https:// URL; use the base URL of an OTLP/HTTP receiver, such as "http://otel-collector:4318" (the paths /v1/traces and /v1/metrics are added).',
    },
  },
  '/properties/state': {
    text: { oneOf: (value) => `is ${describe(value)}; write ${STATE_EXAMPLE}.` },
  },
  '/properties/state/oneOf/2': {
    what: 'a state key',
    synonyms: { prefix: 'keyPrefix', redis: 'url', key: 'secret', requestStateKey: 'secret' },
    text: { required: `has no "url"; write ${STATE_EXAMPLE}.` },
  },
  '/properties/state/oneOf/2/properties/keyPrefix': {
    text: { pattern: 'must be 1-64 characters of A-Z a-z 0-9 _ : . -, such as "hintgate:prod:".' },
  },
  '/properties/state/oneOf/2/properties/keyEnv': {
    text: {
      pattern:
        'must be the name of an environment variable (letters, digits and _, not starting with a digit), such as "HINTGATE_STATE_SECRET"; the key itself never goes in the file.',
    },
  },
  '/properties/state/oneOf/2/properties/secret': {
    text: {
      pattern:
        'is written in the file; keep it out: write a reference to the environment variable that holds it, such as "${HINTGATE_STATE_SECRET}".',
    },
  },
};
