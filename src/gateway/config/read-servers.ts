import { isAbsolute, resolve } from 'node:path';
import { describe, type ConfigPath as PolicyPath } from '../../config-problems/index.js';
import type { LoadedGatewayServer, LoadedServerCommon } from './gateway-config.js';
import {
  asBoolean,
  asChoice,
  asInteger,
  asMapping,
  type ReadContext,
  readExpanded,
  readPath,
  readStringMap,
  report,
} from './read-config-value.js';
import { readRateLimit, readToolOverrides } from './read-tool-overrides.js';

/** Values of a server's `era`. */
const ERAS = ['auto', 'legacy', 'modern'] as const;

/**
 * Reads the servers mapping (`servers` or `mcpServers`) into loaded servers, in file order.
 * Keys other MCP clients write (Cline, Roo, Windsurf) are accepted so that their files can
 * be used as they are: `disabled: true` leaves the server out; `autoApprove` /
 * `alwaysAllow` are ignored, since hintgate's mode, rules and pins decide what runs. The
 * schema has checked names, types and keys; this reports what it cannot: every server
 * disabled, `command` and `url` together, what `${VAR}` references expand to.
 */
export function readServers(
  value: unknown,
  path: PolicyPath,
  context: ReadContext,
): LoadedGatewayServer[] {
  const map = asMapping(value);
  if (map === undefined) return [];
  const servers: LoadedGatewayServer[] = [];
  // Objects list integer-like keys first; the file's order is the one people expect.
  const at = (name: string) => context.locate?.([...path, name]) ?? { line: 0, column: 0 };
  const entries = Object.entries(map).sort(([a], [b]) => {
    const [first, second] = [at(a), at(b)];
    return first.line - second.line || first.column - second.column;
  });
  for (const [name, entry] of entries) {
    const server = readServer(name, entry, [...path, name], context);
    if (server !== undefined) servers.push(server);
  }
  if (entries.length > 0 && entries.every(([, entry]) => asMapping(entry)?.disabled === true)) {
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
  const map = asMapping(value);
  if (map === undefined) return undefined;
  if (map.type === undefined && map.command !== undefined && map.url !== undefined) {
    report(
      context,
      path,
      'has both "command" and "url"; keep "command" for a server run over stdio, or "url" for a Streamable HTTP server.',
    );
    return undefined;
  }
  const concurrency = asInteger(map.concurrency);
  const connectTimeoutMs = asInteger(map.connectTimeoutMs);
  const rateLimit = readRateLimit(map.rateLimit);
  const era = asChoice(map.era, ERAS);
  const common: LoadedServerCommon = {
    name,
    trusted: asBoolean(map.trusted) ?? false,
    ...(era === undefined ? {} : { era }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    tools: readToolOverrides(map.tools, [...path, 'tools'], context),
  };
  // A disabled server is still checked, so that turning it on later holds no surprise.
  const server =
    map.command !== undefined
      ? readStdio(map, path, common, context)
      : readHttp(map, path, common, context);
  return map.disabled === true ? undefined : server;
}

function readStdio(
  value: Record<string, unknown>,
  path: PolicyPath,
  common: LoadedServerCommon,
  context: ReadContext,
): LoadedGatewayServer | undefined {
  const before = context.problems.length;
  const args: string[] = [];
  if (Array.isArray(value.args)) {
    value.args.forEach((arg: unknown, index) => {
      const expanded = readExpanded(arg, [...path, 'args', index], context);
      if (expanded !== undefined) args.push(expanded);
    });
  }
  const env = readStringMap(value.env, [...path, 'env'], context);
  const cwd = readPath(readExpanded(value.cwd, [...path, 'cwd'], context), context);
  const command = readExpanded(value.command, [...path, 'command'], context);
  if (context.problems.length > before || command === undefined) return undefined;
  // A relative program path means the file it sits beside, not wherever the gateway was started.
  const program =
    /^\.\.?[\\/]/.test(command) && !isAbsolute(command)
      ? resolve(context.directory, command)
      : command;
  return {
    ...common,
    transport: 'stdio',
    command: program,
    args,
    ...(env === undefined ? {} : { env }),
    cwd: cwd ?? context.directory,
  };
}

function readHttp(
  value: Record<string, unknown>,
  path: PolicyPath,
  common: LoadedServerCommon,
  context: ReadContext,
): LoadedGatewayServer | undefined {
  const before = context.problems.length;
  const url = readExpanded(value.url, [...path, 'url'], context);
  if (url !== undefined && !isHttpUrl(url)) {
    report(
      context,
      [...path, 'url'],
      `is ${describe(value.url)}${url === value.url ? '' : ' with its variables replaced'}, not an http(s) URL; write the full endpoint, such as "https://example.com/mcp".`,
    );
  }
  const headers = readStringMap(value.headers, [...path, 'headers'], context) ?? {};
  if (context.problems.length > before || url === undefined || !isHttpUrl(url)) return undefined;
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
