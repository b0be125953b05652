import { dirname, join, resolve } from 'node:path';
import {
  mergeProblems,
  type ConfigSource as PolicySource,
  type ConfigProblem as Problem,
  throwProblems,
} from '../../config-problems/index.js';
import { readPolicy, readToolSettings } from '../../policy/index.js';
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
  type LoadedSessionLimits,
  NEW_TOOLS_POLICIES,
} from './gateway-config.js';
import {
  asBoolean,
  asChoice,
  asInteger,
  asMapping,
  type ReadContext,
  readExpanded,
  readPath,
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
  // The shipped schema is checked first and every error it finds is reported (in the words
  // of GATEWAY_CONFIG_ADVICE); the readers then expand, tolerate client formats and
  // normalise, and say only what a schema cannot: what an expanded value lacks, values
  // that depend on each other. Where both speak of one value, the readers' words win.
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
  if (!isPlainObject(value)) return undefined;
  // VS Code's `servers` and Claude Desktop's and Cursor's `mcpServers` are read alike, so
  // that their configuration files can be used as they are.
  const key = value.servers === undefined ? 'mcpServers' : 'servers';
  const servers = readServers(value[key], [key], context);
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
  const audit = asMapping(value.audit) ?? {};
  const rotate = readAuditRotate(audit.rotate);
  const approvals = asMapping(value.approvals) ?? {};
  const pin = asMapping(value.pin) ?? {};
  const http = readDownstream(value.downstream, context);
  const webConsole = readConsole(value.console, context);
  const telemetry = readTelemetry(value.telemetry, context);
  const state = readStateConfig(value.state, context);
  const instructions = asBoolean(value.instructions);
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
      path: readPath(audit.path, context) ?? at(DEFAULT_STATE_PATHS.audit),
      arguments: asBoolean(audit.arguments) ?? false,
      sync: asChoice(audit.sync, AUDIT_SYNC_POLICIES) ?? 'auto',
      maxSyncDelayMs: asInteger(audit.maxSyncDelayMs) ?? DEFAULT_AUDIT_MAX_SYNC_DELAY_MS,
      ...(rotate === undefined ? {} : { rotate }),
    },
    approvals: {
      path: readPath(approvals.path, context) ?? at(DEFAULT_STATE_PATHS.approvals),
    },
    ...(state === undefined ? {} : { state }),
    pin: {
      path: readPath(pin.path, context) ?? at(DEFAULT_STATE_PATHS.pin),
      newTools: asChoice(pin.newTools, NEW_TOOLS_POLICIES) ?? 'pending',
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
  if (value === true) return {};
  const settings = asMapping(value);
  if (settings === undefined) return undefined;
  const port = asInteger(settings.port);
  let token = readExpanded(settings.token, ['console', 'token'], context);
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
function readAuditRotate(value: unknown): GatewayAuditRotate | undefined {
  const rotate = asMapping(value);
  if (rotate === undefined) return undefined;
  const maxBytes = asInteger(rotate.maxBytes);
  const daily = asBoolean(rotate.daily);
  const keep = asInteger(rotate.keep);
  return {
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(daily === undefined ? {} : { daily }),
    ...(keep === undefined ? {} : { keep }),
  };
}

function readDownstream(value: unknown, context: ReadContext): LoadedDownstreamHttp | undefined {
  const http = asMapping(asMapping(value)?.http);
  if (http === undefined) return undefined;
  const path = ['downstream', 'http'];
  const host = typeof http.host === 'string' ? http.host : undefined;
  const port = asInteger(http.port);
  let token = readExpanded(http.token, [...path, 'token'], context);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    report(
      context,
      [...path, 'token'],
      `is ${token.length} characters long; use at least ${MIN_TOKEN_LENGTH} (for example from "openssl rand -hex 32", kept in an environment variable: "\${HINTGATE_TOKEN}").`,
    );
    token = undefined;
  }
  const principals = readPrincipals(http.principals, [...path, 'principals'], context);
  const limit = readRateLimit(http.rateLimit);
  const sessions = readSessionLimits(http.sessions);
  return {
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(token === undefined ? {} : { token }),
    ...(principals === undefined || principals.length === 0 ? {} : { principals }),
    ...(limit === undefined ? {} : { rateLimit: { max: limit.max, windowMs: limit.windowMs } }),
    ...(sessions === undefined ? {} : { sessions }),
  };
}

/** Keys of `downstream.http.sessions`, by the name `startMcpHttpServer` takes each under. */
const SESSION_LIMITS = {
  max: 'maxSessions',
  perClient: 'maxSessionsPerClient',
  idleMs: 'sessionIdleMs',
  uninitializedMs: 'uninitializedSessionMs',
} as const;

/** `downstream.http.sessions` (the schema has checked the values): the limits it states. */
function readSessionLimits(value: unknown): LoadedSessionLimits | undefined {
  const map = asMapping(value);
  if (map === undefined) return undefined;
  const limits: Record<string, number> = {};
  for (const [key, option] of Object.entries(SESSION_LIMITS)) {
    const limit = asInteger(map[key]);
    if (limit !== undefined) limits[option] = limit;
  }
  return Object.keys(limits).length === 0 ? undefined : limits;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
