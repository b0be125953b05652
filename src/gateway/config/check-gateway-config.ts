import { dirname, join, resolve } from 'node:path';
import { MIN_AUDIT_ROTATE_BYTES } from '../../audit/node.js';
import {
  describe,
  mergeProblems,
  type ConfigSource as PolicySource,
  type ConfigProblem as Problem,
  throwProblems,
} from '../../config-problems/index.js';
import { readChoice, readPolicy, readToolSettings } from '../../policy/index.js';
import { isPlainObject } from '../../tool/index.js';
import type { EnvironmentVariables } from './expand-env.js';
import {
  AUDIT_SYNC_POLICIES,
  DEFAULT_AUDIT_MAX_SYNC_DELAY_MS,
  DEFAULT_STATE_PATHS,
  type GatewayAuditRotate,
  type LoadedConsole,
  type LoadedDownstreamHttp,
  type LoadedGatewayConfig,
  NEW_TOOLS_POLICIES,
} from './gateway-config.js';
import {
  checkKeys,
  type KeySet,
  type ReadContext,
  readBoolean,
  readExpanded,
  readInteger,
  readMapping,
  readPath,
  readText,
  report,
} from './read-config-value.js';
import { readPrincipals } from './read-principals.js';
import { readServers } from './read-servers.js';
import { readStateConfig } from './read-state-config.js';
import { readTelemetry } from './read-telemetry.js';
import { readRateLimit } from './read-tool-overrides.js';
import { validateGatewayConfig } from './validate-gateway-config.js';

/** Where a configuration came from and what it may refer to. */
export interface GatewayConfigSource extends PolicySource {
  /** Absolute path of the file: relative paths in it are resolved against its directory. */
  readonly path: string;
  /** Where `${VAR}` references are looked up. Default `process.env`. */
  readonly env?: EnvironmentVariables | undefined;
}

/** Shortest downstream bearer token, as `startMcpHttpServer` requires. */
const MIN_TOKEN_LENGTH = 8;

const MISPLACED = (key: string, where: string): string =>
  `is not a top-level key; "${key}" belongs under ${where}.`;

const TOP_LEVEL: KeySet = {
  keys: [
    'servers',
    'mcpServers',
    'mode',
    'rules',
    'audit',
    'approvals',
    'pin',
    'downstream',
    'console',
    'instructions',
    'telemetry',
    'tools',
    'state',
  ],
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
  advice: {
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
};

/**
 * Checks a parsed gateway configuration and returns it loaded: defaults applied, paths
 * absolute, `${VAR}` references replaced, frozen.
 *
 * @param value The file's content, as parsed from YAML or JSON.
 * @param source The file and how to find positions in it, for the messages.
 * @throws HintgateError `invalid_config` listing every problem, one per line in file order:
 *   `hintgate.yaml:7:5: servers.github.concurrency is 0; use a positive integer, ...`
 */
export function checkGatewayConfig(
  value: unknown,
  source: GatewayConfigSource,
): LoadedGatewayConfig {
  const file = resolve(source.path);
  const context: ReadContext = {
    problems: [],
    env: source.env ?? process.env,
    directory: dirname(file),
    locate: source.locate,
  };
  // The shipped schema is checked first and every error it finds is reported; the readers
  // then expand, tolerate client formats and normalise, and say what the schema cannot
  // (where a misplaced key belongs, what an expanded token lacks) in their own words.
  const schema = validateGatewayConfig(value);
  const config = readConfig(value, file, context, source);
  const problems = mergeProblems(schema, context.problems);
  throwProblems(problems, { source, code: 'invalid_config', root: 'the configuration' });
  if (config === undefined)
    throw new Error('unreachable: a configuration that was not read has problems');
  return deepFreeze(config);
}

function readConfig(
  value: unknown,
  file: string,
  context: ReadContext,
  source: GatewayConfigSource,
): LoadedGatewayConfig | undefined {
  if (!isPlainObject(value)) {
    report(
      context,
      [],
      `is ${describe(value)}; write a mapping with "servers" (and optionally mode, rules, audit, pin).`,
    );
    return undefined;
  }
  // VS Code's prompt inputs and Claude Desktop's shortcut are tolerated so that their
  // configuration files can be used as they are.
  checkKeys(
    value,
    [],
    { ...TOP_LEVEL, keys: [...TOP_LEVEL.keys, '$schema', 'inputs', 'globalShortcut'] },
    context,
  );
  if (value.$schema !== undefined && typeof value.$schema !== 'string') {
    report(
      context,
      ['$schema'],
      `is ${describe(value.$schema)}; use the schema's URL or path as a string.`,
    );
  }
  if (value.inputs !== undefined && !Array.isArray(value.inputs)) {
    report(context, ['inputs'], `is ${describe(value.inputs)}; VS Code writes inputs as a list.`);
  }
  const key = serversKey(value, context);
  const servers = key === undefined ? [] : readServers(value[key], [key], context);
  const problems: Problem[] = [];
  const policy = readPolicy(
    {
      ...(value.mode === undefined ? {} : { mode: value.mode }),
      ...(value.rules === undefined ? {} : { rules: value.rules }),
    },
    problems,
  );
  const tools = readToolSettings(value.tools, ['tools'], problems, source);
  context.problems.push(...problems);
  const audit = readMapping(value.audit, ['audit'], '{ path: "logs/audit.jsonl" }', context) ?? {};
  checkKeys(
    audit,
    ['audit'],
    { keys: ['path', 'arguments', 'sync', 'maxSyncDelayMs', 'rotate'], what: 'an audit key' },
    context,
  );
  const auditSync =
    audit.sync === undefined
      ? undefined
      : readChoice(audit.sync, ['audit', 'sync'], AUDIT_SYNC_POLICIES, context.problems);
  const rotate = readAuditRotate(audit.rotate, context);
  const approvals =
    readMapping(value.approvals, ['approvals'], '{ path: ".hintgate/approvals.json" }', context) ??
    {};
  checkKeys(approvals, ['approvals'], { keys: ['path'], what: 'an approvals key' }, context);
  const pin = readMapping(value.pin, ['pin'], '{ newTools: pending }', context) ?? {};
  checkKeys(pin, ['pin'], { keys: ['path', 'newTools'], what: 'a pin key' }, context);
  const newTools =
    pin.newTools === undefined
      ? undefined
      : readChoice(pin.newTools, ['pin', 'newTools'], NEW_TOOLS_POLICIES, context.problems);
  const http = readDownstream(value.downstream, context);
  const webConsole = readConsole(value.console, context);
  const telemetry = readTelemetry(value.telemetry, context);
  const state = readStateConfig(value.state, context);
  const instructions = readBoolean(value.instructions, ['instructions'], context);
  const directory = context.directory;
  const at = (path: string) => join(directory, path);
  return {
    file,
    directory,
    servers,
    ...(policy.mode === undefined ? {} : { mode: policy.mode }),
    ...(instructions === false ? { instructions: false } : {}),
    rules: policy.rules ?? [],
    ...(tools === undefined ? {} : { tools }),
    audit: {
      path:
        readPath(audit.path, ['audit', 'path'], '"logs/audit.jsonl"', context) ??
        at(DEFAULT_STATE_PATHS.audit),
      arguments: readBoolean(audit.arguments, ['audit', 'arguments'], context) ?? false,
      sync: auditSync ?? 'auto',
      maxSyncDelayMs:
        readInteger(
          audit.maxSyncDelayMs,
          ['audit', 'maxSyncDelayMs'],
          { min: 0, max: 60_000, rule: 'a whole number of milliseconds from 0 to 60000' },
          context,
        ) ?? DEFAULT_AUDIT_MAX_SYNC_DELAY_MS,
      ...(rotate === undefined ? {} : { rotate }),
    },
    approvals: {
      path:
        readPath(approvals.path, ['approvals', 'path'], '".hintgate/approvals.json"', context) ??
        at(DEFAULT_STATE_PATHS.approvals),
    },
    ...(state === undefined ? {} : { state }),
    pin: {
      path:
        readPath(pin.path, ['pin', 'path'], '"hintgate.lock"', context) ??
        at(DEFAULT_STATE_PATHS.pin),
      newTools: newTools ?? 'pending',
    },
    downstream: http === undefined ? {} : { http },
    ...(webConsole === undefined ? {} : { console: webConsole }),
    ...(telemetry === undefined ? {} : { telemetry }),
  };
}

/** Shortest console login token, as `startConsoleServer` requires. */
const MIN_CONSOLE_TOKEN_LENGTH = 16;

/** `console`: `true`, or `{ port, token }`; `false` or absent: no console. */
function readConsole(value: unknown, context: ReadContext): LoadedConsole | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return {};
  const example = '{ port: 7777 } (or true)';
  const settings = readMapping(value, ['console'], example, context);
  if (settings === undefined) return undefined;
  checkKeys(
    settings,
    ['console'],
    {
      keys: ['port', 'token'],
      what: 'a console key',
      advice: {
        host: 'is not a console key; the console listens on 127.0.0.1 only.',
      },
    },
    context,
  );
  const port = readInteger(
    settings.port,
    ['console', 'port'],
    { min: 0, max: 65_535, rule: 'an integer from 0 to 65535 (0 picks a free port)' },
    context,
  );
  let token = readExpanded(
    settings.token,
    ['console', 'token'],
    `"\${HINTGATE_CONSOLE_TOKEN}"`,
    context,
  );
  if (token !== undefined && token.length < MIN_CONSOLE_TOKEN_LENGTH) {
    report(
      context,
      ['console', 'token'],
      `is ${token.length} characters long; use at least ${MIN_CONSOLE_TOKEN_LENGTH} (for example from "openssl rand -hex 24", kept in an environment variable: "\${HINTGATE_CONSOLE_TOKEN}"), or leave it out for a new random token on every start.`,
    );
    token = undefined;
  }
  return {
    ...(port === undefined ? {} : { port }),
    ...(token === undefined ? {} : { token }),
  };
}

/** Reads `audit.rotate`: `maxBytes`, `daily` or both, and `keep`. */
function readAuditRotate(value: unknown, context: ReadContext): GatewayAuditRotate | undefined {
  const path = ['audit', 'rotate'];
  const rotate = readMapping(value, path, '{ maxBytes: 10000000, keep: 5 }', context);
  if (rotate === undefined) return undefined;
  checkKeys(rotate, path, { keys: ['maxBytes', 'daily', 'keep'], what: 'a rotate key' }, context);
  const maxBytes = readInteger(
    rotate.maxBytes,
    [...path, 'maxBytes'],
    {
      min: MIN_AUDIT_ROTATE_BYTES,
      max: Number.MAX_SAFE_INTEGER,
      rule: `a whole number of bytes, at least ${MIN_AUDIT_ROTATE_BYTES} (10 MB: 10000000)`,
    },
    context,
  );
  const daily = readBoolean(rotate.daily, [...path, 'daily'], context);
  const keep = readInteger(
    rotate.keep,
    [...path, 'keep'],
    { min: 1, max: 1000, rule: 'a whole number of files from 1 to 1000' },
    context,
  );
  if (rotate.maxBytes === undefined && (rotate.daily === undefined || rotate.daily === false)) {
    report(
      context,
      path,
      'says no time to rotate; add maxBytes (such as 10000000), daily: true, or both.',
    );
    return undefined;
  }
  return {
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(daily === undefined ? {} : { daily }),
    ...(keep === undefined ? {} : { keep }),
  };
}

function serversKey(
  value: Record<string, unknown>,
  context: ReadContext,
): 'servers' | 'mcpServers' | undefined {
  const hasServers = value.servers !== undefined;
  const hasMcpServers = value.mcpServers !== undefined;
  if (hasServers && hasMcpServers) {
    report(context, ['mcpServers'], 'is given besides "servers"; keep one mapping of servers.');
    return undefined;
  }
  if (hasServers) return 'servers';
  if (hasMcpServers) return 'mcpServers';
  report(
    context,
    [],
    'has no servers; add them under "servers" (or "mcpServers", as Claude Desktop and Cursor write it), each with "command" or "url".',
  );
  return undefined;
}

function readDownstream(value: unknown, context: ReadContext): LoadedDownstreamHttp | undefined {
  const downstream = readMapping(value, ['downstream'], '{ http: { port: 3000 } }', context);
  if (downstream === undefined) return undefined;
  checkKeys(
    downstream,
    ['downstream'],
    {
      keys: ['http'],
      what: 'a downstream transport',
      synonyms: { streamableHttp: 'http' },
      advice: {
        stdio:
          'is the default downstream transport; leave it out, or use "http" for Streamable HTTP.',
      },
    },
    context,
  );
  if (downstream.http === undefined) return undefined;
  const path = ['downstream', 'http'];
  const http =
    readMapping(downstream.http, path, '{ host: "127.0.0.1", port: 3000 }', context) ?? {};
  checkKeys(
    http,
    path,
    {
      keys: ['host', 'port', 'token', 'principals', 'rateLimit'],
      what: 'a downstream.http key',
      synonyms: { address: 'host', bind: 'host', bearer: 'token' },
    },
    context,
  );
  const host = readText(http.host, [...path, 'host'], '"127.0.0.1"', context);
  const port = readInteger(
    http.port,
    [...path, 'port'],
    { min: 0, max: 65_535, rule: 'an integer from 0 to 65535 (0 picks a free port)' },
    context,
  );
  let token = readExpanded(http.token, [...path, 'token'], `"\${HINTGATE_TOKEN}"`, context);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    report(
      context,
      [...path, 'token'],
      `is ${token.length} characters long; use at least ${MIN_TOKEN_LENGTH} (for example from "openssl rand -hex 32", kept in an environment variable: "\${HINTGATE_TOKEN}").`,
    );
    token = undefined;
  }
  const principals = readPrincipals(http.principals, [...path, 'principals'], context);
  const limit = readRateLimit(http.rateLimit, [...path, 'rateLimit'], context);
  return {
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(token === undefined ? {} : { token }),
    ...(principals === undefined || principals.length === 0 ? {} : { principals }),
    ...(limit === undefined ? {} : { rateLimit: { max: limit.max, windowMs: limit.windowMs } }),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
