import { isAbsolute, resolve } from 'node:path';
import { closest, describe, type ConfigPath as PolicyPath } from '../../config-problems/index.js';
import { readChoice } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';
import {
  type LoadedGatewayServer,
  type LoadedServerCommon,
  SERVER_NAME_PATTERN,
} from './gateway-config.js';
import {
  checkKeys,
  type KeySet,
  type ReadContext,
  readBoolean,
  readExpanded,
  readInteger,
  readPath,
  readStringMap,
  report,
} from './read-config-value.js';
import { readRateLimit, readToolOverrides } from './read-tool-overrides.js';

type Transport = 'stdio' | 'http';

const STDIO_KEYS = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_KEYS = ['url', 'headers'] as const;
const EXTRA_KEYS = [
  'type',
  'trusted',
  'concurrency',
  'rateLimit',
  'connectTimeoutMs',
  'era',
  'tools',
] as const;
/** Values of a server's `era`. */
const ERAS = ['auto', 'legacy', 'modern'] as const;
/**
 * Keys other MCP clients write into their server entries (Cline, Roo, Windsurf), accepted
 * so that their configurations can be used as they are: `disabled: true` leaves the server
 * out; `autoApprove` / `alwaysAllow` are read and ignored, since hintgate's mode, rules and
 * pins decide what runs without asking.
 */
const CLIENT_KEYS = ['disabled', 'autoApprove', 'alwaysAllow'] as const;

const SYNONYMS: Readonly<Record<string, string>> = {
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

const ADVICE: Readonly<Record<string, string>> = {
  envFile: `is not supported: hintgate reads no env files; put the variables under "env", or refer to the environment with \${NAME}.`,
};

const ENV_NAME = {
  example: `{ API_KEY: "\${API_KEY}" }`,
  name: /^[^=\0]+$/,
  nameRule: 'write a variable name without "=" in it',
};
const HEADER_NAME = {
  example: `{ Authorization: "Bearer \${TOKEN}" }`,
  name: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/,
  nameRule: "a header name has letters, digits and !#$%&'*+.^_`|~- only",
};

/**
 * Reads the servers mapping (`servers` or `mcpServers`) into loaded servers, in file order.
 * Reports an empty mapping: a gateway needs at least one server.
 */
export function readServers(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): LoadedGatewayServer[] {
  if (value === null || (isPlainObject(value) && Object.keys(value).length === 0)) {
    report(
      context,
      path,
      'is empty; add at least one server, with "command" (stdio) or "url" (Streamable HTTP).',
    );
    return [];
  }
  if (!isPlainObject(value)) {
    report(
      context,
      path,
      `is ${describe(value)}; write a mapping from server names to servers, as in { github: { command: "npx", args: [...] } }.`,
    );
    return [];
  }
  const servers: LoadedGatewayServer[] = [];
  // Objects list integer-like keys first; the file's order is the one people expect.
  const at = (name: string) => context.locate?.([...path, name]) ?? { line: 0, column: 0 };
  const entries = Object.entries(value).sort(([a], [b]) => {
    const [first, second] = [at(a), at(b)];
    return first.line - second.line || first.column - second.column;
  });
  for (const [name, entry] of entries) {
    const server = readServer(name, entry, [...path, name], context);
    if (server !== undefined) servers.push(server);
  }
  if (entries.every(([, entry]) => isPlainObject(entry) && entry.disabled === true)) {
    report(
      context,
      path,
      'has every server disabled (disabled: true); turn at least one on for the gateway to serve.',
    );
  }
  return servers;
}

function readServer(
  name: string,
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): LoadedGatewayServer | undefined {
  if (!SERVER_NAME_PATTERN.test(name)) {
    const suggestion =
      name
        .replace(/[^A-Za-z0-9_-]+/g, '_')
        .slice(0, 64)
        .replace(/^_+$/, '') || 'server';
    report(
      context,
      path,
      `is not a usable server name; use 1-64 characters of A-Z, a-z, 0-9, "_" and "-" (it prefixes tool names when two servers share one), such as "${suggestion}".`,
    );
  }
  if (!isPlainObject(value)) {
    report(
      context,
      path,
      `is ${describe(value)}; write a mapping with "command" (and args, env, cwd) for a server run over stdio, or "url" (and headers) for Streamable HTTP.`,
    );
    return undefined;
  }
  const transport = transportOf(value, path, context);
  const own: readonly string[] =
    transport === 'stdio'
      ? STDIO_KEYS
      : transport === 'http'
        ? HTTP_KEYS
        : [...STDIO_KEYS, ...HTTP_KEYS];
  const other: readonly string[] =
    transport === 'stdio' ? HTTP_KEYS : transport === 'http' ? STDIO_KEYS : [];
  const wrongSide = Object.fromEntries(
    other.map((key) => [
      key,
      transport === 'stdio'
        ? 'only applies to a Streamable HTTP server (one with "url"); this one is run over stdio.'
        : 'only applies to a server run over stdio (one with "command"); this one is reached over Streamable HTTP.',
    ]),
  );
  checkKeys(
    value,
    path,
    {
      keys: [...own, ...EXTRA_KEYS, ...CLIENT_KEYS],
      what: 'a server key',
      synonyms: SYNONYMS,
      advice: { ...ADVICE, ...wrongSide },
    } satisfies KeySet,
    context,
  );
  const disabled = readBoolean(value.disabled, [...path, 'disabled'], context) ?? false;
  for (const key of ['autoApprove', 'alwaysAllow'] as const) {
    const list = value[key];
    if (
      list !== undefined &&
      !(Array.isArray(list) && list.every((item) => typeof item === 'string'))
    ) {
      report(
        context,
        [...path, key],
        `is ${describe(list)}; another client's list of tool names, which hintgate ignores (its mode, rules and pins decide), so write a list of strings or leave it out.`,
      );
    }
  }
  const trusted = readBoolean(value.trusted, [...path, 'trusted'], context) ?? false;
  const concurrency = readInteger(
    value.concurrency,
    [...path, 'concurrency'],
    {
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
      rule: 'a positive integer, the most calls to this server at once',
    },
    context,
  );
  const connectTimeoutMs = readInteger(
    value.connectTimeoutMs,
    [...path, 'connectTimeoutMs'],
    {
      min: 1,
      max: 2_147_483_647,
      rule: 'a positive integer, the milliseconds one connection attempt may take',
    },
    context,
  );
  const rateLimit = readRateLimit(value.rateLimit, [...path, 'rateLimit'], context);
  const era =
    value.era === undefined
      ? undefined
      : readChoice(value.era, [...path, 'era'], ERAS, context.problems);
  const common: LoadedServerCommon = {
    name,
    trusted,
    ...(era === undefined ? {} : { era }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    tools: readToolOverrides(value.tools, [...path, 'tools'], context),
  };
  // A disabled server is still checked, so that turning it on later holds no surprise.
  const server =
    transport === 'stdio'
      ? readStdio(value, path, common, context)
      : transport === 'http'
        ? readHttp(value, path, common, context)
        : undefined;
  return disabled ? undefined : server;
}

function transportOf(
  value: Record<string, unknown>,
  path: PolicyPath,
  context: ReadContext,
): Transport | undefined {
  const { type, command, url } = value;
  if (type === 'sse') {
    report(
      context,
      [...path, 'type'],
      'is "sse"; hintgate speaks stdio and Streamable HTTP only: use type: http when the server also serves Streamable HTTP (often at /mcp), or run it over stdio.',
    );
    return undefined;
  }
  const stated =
    type === undefined
      ? undefined
      : readChoice(type, [...path, 'type'], ['stdio', 'http'] as const, context.problems);
  if (type !== undefined && stated === undefined) return undefined;
  if (stated !== undefined) return stated;
  if (command !== undefined && url !== undefined) {
    report(
      context,
      path,
      'has both "command" and "url"; keep "command" for a server run over stdio, or "url" for a Streamable HTTP server.',
    );
    return undefined;
  }
  if (command !== undefined) return 'stdio';
  if (url !== undefined) return 'http';
  // A misspelled "command" or "url" is reported as such; saying neither is there adds nothing.
  const misspelled = Object.keys(value).some((key) => {
    const meant = Object.hasOwn(SYNONYMS, key) ? SYNONYMS[key] : closest(key, ['command', 'url']);
    return meant === 'command' || meant === 'url';
  });
  if (misspelled) return undefined;
  report(
    context,
    path,
    'says neither "command" nor "url"; add "command" (with optional args, env, cwd) for a server run over stdio, or "url" (with optional headers) for Streamable HTTP.',
  );
  return undefined;
}

function readStdio(
  value: Record<string, unknown>,
  path: PolicyPath,
  common: LoadedServerCommon,
  context: ReadContext,
): LoadedGatewayServer | undefined {
  const before = context.problems.length;
  const { command } = value;
  if (typeof command !== 'string' || command.trim() === '') {
    report(
      context,
      command === undefined ? path : [...path, 'command'],
      command === undefined
        ? 'has type stdio but no "command"; add the program to run, such as "npx".'
        : `is ${describe(command)}; use the program to run, such as "npx".`,
    );
  }
  const args: string[] = [];
  if (value.args !== undefined && value.args !== null) {
    if (Array.isArray(value.args)) {
      value.args.forEach((arg: unknown, index) => {
        if (typeof arg === 'string') {
          const expanded = readExpanded(arg, [...path, 'args', index], '"--flag"', context);
          if (expanded !== undefined) args.push(expanded);
        } else {
          const hint =
            typeof arg === 'number' || typeof arg === 'boolean' ? ` (quoted: "${arg}")` : '';
          report(
            context,
            [...path, 'args', index],
            `is ${describe(arg)}; write each argument as a string${hint}.`,
          );
        }
      });
    } else {
      report(
        context,
        [...path, 'args'],
        `is ${describe(value.args)}; use a list of strings, such as ["-y", "some-mcp-server"].`,
      );
    }
  }
  const env = readStringMap(value.env, [...path, 'env'], ENV_NAME, context);
  const cwdText =
    typeof value.cwd === 'string'
      ? readExpanded(value.cwd, [...path, 'cwd'], '"./server"', context)
      : value.cwd;
  const cwd = readPath(cwdText, [...path, 'cwd'], '"./server"', context) ?? context.directory;
  const commandText =
    typeof command === 'string'
      ? readExpanded(command, [...path, 'command'], '"npx"', context)
      : undefined;
  if (context.problems.length > before || commandText === undefined) return undefined;
  // A relative program path means the file it sits beside, not wherever the gateway was started.
  const program =
    /^\.\.?[\\/]/.test(commandText) && !isAbsolute(commandText)
      ? resolve(context.directory, commandText)
      : commandText;
  return {
    ...common,
    transport: 'stdio',
    command: program,
    args,
    ...(env === undefined ? {} : { env }),
    cwd,
  };
}

function readHttp(
  value: Record<string, unknown>,
  path: PolicyPath,
  common: LoadedServerCommon,
  context: ReadContext,
): LoadedGatewayServer | undefined {
  const before = context.problems.length;
  if (value.url === undefined) {
    report(
      context,
      path,
      'has type http but no "url"; add the server\'s MCP endpoint, such as "https://example.com/mcp".',
    );
  }
  const url = readExpanded(value.url, [...path, 'url'], '"https://example.com/mcp"', context);
  if (url !== undefined && !isHttpUrl(url)) {
    report(
      context,
      [...path, 'url'],
      `is ${describe(value.url)}${url === value.url ? '' : ' with its variables replaced'}, not an http(s) URL; write the full endpoint, such as "https://example.com/mcp".`,
    );
  }
  const headers = readStringMap(value.headers, [...path, 'headers'], HEADER_NAME, context) ?? {};
  if (context.problems.length > before || url === undefined) return undefined;
  return { ...common, transport: 'http', url, headers };
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
