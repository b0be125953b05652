import { parseArgs } from 'node:util';
import { DEFAULT_HTTP_HOST } from '../mcp/early.js';
import type { HttpPrincipal } from '../mcp/index.js';
import { MODES, type Mode } from '../policy/index.js';
import { fetchAllowArg } from './fetch-allow-arg.js';
import { httpTokenCheck, MIN_TOKEN_LENGTH } from './http-token-check.js';
import { SHUTDOWN_GRACE_MS, SHUTDOWN_GRACE_USAGE, shutdownGraceArg } from './next-signal.js';
import {
  SESSION_FLAG_NAMES,
  SESSION_FLAG_OPTIONS,
  SESSION_FLAGS_USAGE,
  type SessionLimitArgs,
  sessionLimitArgs,
} from './session-limit-args.js';

/** `hintgate serve` options, checked. */
export interface ServeArgs {
  readonly help: boolean;
  /** Workspace directory as given (default: the working directory). */
  readonly workspace: string;
  readonly mode?: Mode;
  /** Policy file as given. */
  readonly policy?: string;
  readonly http: boolean;
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  /** A warning to print once serving HTTP without a token (see `httpTokenCheck`). */
  readonly tokenWarning?: string;
  /** Entries of `--fetch-allow`: private addresses and names `web_fetch` may reach. */
  readonly fetchAllow?: readonly string[];
  /** `--principal`: callers of the HTTP endpoint, each with a token from the environment. */
  readonly principals?: readonly HttpPrincipal[];
  /** `--embedder` and its model (and key from the environment): for `semantic_search`. */
  readonly embedder?: { readonly url: string; readonly model: string; readonly apiKey?: string };
  /** `--delegate`: the sub-agent command of `delegate_task`, program and arguments. */
  readonly delegate?: readonly string[];
  /** `--rate-limit MAX/WINDOW_MS`: requests one HTTP caller may send per window. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  /** `--no-instructions`: the system prompt does not reach clients as `instructions`. */
  readonly noInstructions?: boolean;
  /** `--max-sessions` and the other session flags: limits of the HTTP session table. */
  readonly sessions?: SessionLimitArgs;
  /** `--shutdown-grace-ms`: how long calls under way may finish after a signal. */
  readonly shutdownGraceMs: number;
}

/** The parsed options, or the one-line reason they are wrong. */
export type ParsedServeArgs =
  | { readonly ok: true; readonly args: ServeArgs }
  | { readonly ok: false; readonly message: string };

/** Shortest bearer token accepted (defined beside the token check). */
export { MIN_TOKEN_LENGTH };

export const SERVE_USAGE = `Usage: hintgate serve [--workspace DIR] [--mode MODE] [--policy FILE]
                      [--fetch-allow LIST] [--embedder URL --embedder-model MODEL
                      [--embedder-key-env VAR]] [--delegate COMMAND]
                      [--http [--host HOST] [--port PORT] [--token TOKEN | --insecure-no-token]
                              [--principal NAME=VAR[:SCOPE,...]]... [--rate-limit MAX/MS]
                              [--max-sessions N] [--max-sessions-per-client N]
                              [--session-idle-ms MS] [--uninitialized-session-ms MS]]
                      [--no-instructions] [--shutdown-grace-ms MS]

Serves the built-in workspace tools (read_file, write_file, edit_file, list_directory,
glob, grep_search, run_command, web_fetch) over MCP, through hintgate: conflicting calls
keep their order, and calls that need approval are put to the connected client's user
(elicitation on 2025-11-25 connections, input_required on 2026-07-28 requests). A client
that can do neither gets such calls denied. Both protocol eras are served.

Tool modules in ~/.hintgate/tools/ (HINTGATE_HOME moves it) and DIR/.hintgate/tools/ are
served too, shadowing built-in tools of the same name; the project's are loaded only once
the folder is trusted (asked on a terminal with --http, else "hintgate trust DIR"). See
"hintgate tools" and docs/discovery.md.

Options:
  --workspace DIR   Directory the tools work in; paths are confined to it.
                    Default: the current directory. "Always allow" answers are kept in
                    DIR/.hintgate/approvals.json.
  --mode MODE       plan | ask | auto | allowlist | yolo. Default: the policy file's mode,
                    else ask (reads run; writes, deletes and commands ask).
  --policy FILE     YAML or JSON file with mode and rules (see docs/policy.md).
  --fetch-allow LIST
                    Private addresses web_fetch may reach: comma-separated IP addresses
                    (127.0.0.1), CIDR ranges (10.0.0.0/8), host names (localhost) and
                    *.domains; repeatable. Default none: loopback, private, link-local
                    (cloud metadata) and other special-use addresses are refused.
  --embedder URL    Rank semantic_search by meaning with embeddings from an
                    OpenAI-compatible endpoint: https://api.openai.com/v1/embeddings,
                    http://127.0.0.1:11434/v1/embeddings (Ollama), ... Without it,
                    semantic_search ranks locally by words and says so.
  --embedder-model MODEL
                    The embedding model, e.g. text-embedding-3-small, nomic-embed-text.
  --embedder-key-env VAR
                    Environment variable holding the endpoint's API key (sent as a
                    bearer token). The key itself is never given on the command line.
  --delegate COMMAND
                    Offer delegate_task, handing tasks to this sub-agent command, run in
                    the workspace: words split on spaces ("claude -p {prompt}"), or a
                    JSON list for arguments with spaces ('["codex","exec","-"]'). An
                    argument {prompt} is replaced by the task; without one the task goes
                    to its standard input.
  --no-instructions Do not send the system prompt (the safety rules of the tools) to
                    clients as the server's MCP instructions. Default: it is sent.
  --http            Serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio.
  --host HOST       Address to listen on. Default 127.0.0.1 (this machine only).
                    Requests whose Host or Origin header names anything but localhost,
                    127.0.0.1 or [::1] are refused (403), which stops DNS rebinding; with
                    another HOST, that name is accepted too (and this machine's addresses
                    when HOST is 0.0.0.0 or ::). Set --token when others can reach HOST.
  --port PORT       Port to listen on; 0 picks a free one. Default 3000.
  --token TOKEN     Require "Authorization: Bearer TOKEN" on every request (401 without
                    it); at least ${MIN_TOKEN_LENGTH} characters. The HINTGATE_TOKEN
                    environment variable sets it too, and keeps it out of the process list.
                    Without a token, serve refuses to listen on an address other machines
                    may reach (and warns on loopback).
  --insecure-no-token
                    Listen without a token on such an address all the same.
  --principal NAME=VAR[:SCOPE,SCOPE...]
                    A caller with its own bearer token, read from environment variable
                    VAR (at least ${MIN_TOKEN_LENGTH} characters; tokens never go on the
                    command line), and the scopes it grants: it sees and may call only
                    the tools whose scopes it all holds (tools' scopes are set under
                    "tools" in the policy file). Repeatable; NAME is what the audit log
                    records. Example: --principal ci=CI_TOKEN:read --principal
                    me=MY_TOKEN:read,shell
  --rate-limit MAX/MS
                    Most requests one caller (its principal, else its address) may send
                    per window of MS milliseconds, e.g. 120/60000; over it, 429 with
                    Retry-After. Default none.
${SESSION_FLAGS_USAGE}${SHUTDOWN_GRACE_USAGE}  -h, --help        Show this help and exit.

Over stdio, stdout carries the protocol and messages go to stderr. SIGINT or SIGTERM shuts
the server down: it takes no more calls, lets the calls under way finish for up to 5 s
(--shutdown-grace-ms; a second signal stops at once) and cancels the rest. On stdio, the
client closing stdin does the same without the wait.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  workspace: { type: 'string' },
  mode: { type: 'string' },
  policy: { type: 'string' },
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  'insecure-no-token': { type: 'boolean' },
  'fetch-allow': { type: 'string', multiple: true },
  principal: { type: 'string', multiple: true },
  embedder: { type: 'string' },
  'embedder-model': { type: 'string' },
  'embedder-key-env': { type: 'string' },
  delegate: { type: 'string' },
  'rate-limit': { type: 'string' },
  'no-instructions': { type: 'boolean' },
  ...SESSION_FLAG_OPTIONS,
  'shutdown-grace-ms': { type: 'string' },
} as const;

const fail = (message: string): ParsedServeArgs => ({ ok: false, message });
const seeHelp = 'Run "hintgate serve --help" for usage.';

/** Turns parseArgs' own errors into one line that names the option. */
const parseError = (error: unknown): string => {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]*)/.exec(message ?? '')?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option "${option}". ${seeHelp}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return OPTIONS[option.replace(/^--?/, '') as keyof typeof OPTIONS]?.type === 'boolean'
        ? `option "${option}" takes no value. ${seeHelp}`
        : `option "${option}" needs a value. ${seeHelp}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const argument = /'([^']*)'/.exec(message ?? '')?.[1] ?? '';
      return `unexpected argument "${argument}"; serve takes only options. ${seeHelp}`;
    }
    default:
      return `${message ?? String(error)} ${seeHelp}`;
  }
};

/**
 * Parses the arguments of `hintgate serve` (after the word `serve`). `env` supplies
 * `HINTGATE_TOKEN` when `--token` is not given.
 */
export function parseServeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedServeArgs {
  let values: {
    help?: boolean;
    workspace?: string;
    mode?: string;
    policy?: string;
    http?: boolean;
    host?: string;
    port?: string;
    token?: string;
    'insecure-no-token'?: boolean;
    'fetch-allow'?: string[];
    principal?: string[];
    embedder?: string;
    'embedder-model'?: string;
    'embedder-key-env'?: string;
    delegate?: string;
    'rate-limit'?: string;
    'no-instructions'?: boolean;
    'max-sessions'?: string;
    'max-sessions-per-client'?: string;
    'session-idle-ms'?: string;
    'uninitialized-session-ms'?: string;
    'shutdown-grace-ms'?: string;
  };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true }));
  } catch (error) {
    return fail(parseError(error));
  }
  if (values.help === true) {
    return {
      ok: true,
      args: { help: true, workspace: '.', http: false, shutdownGraceMs: SHUTDOWN_GRACE_MS },
    };
  }

  for (const name of [
    'workspace',
    'policy',
    'host',
    'token',
    'embedder',
    'embedder-model',
    'embedder-key-env',
    'delegate',
  ] as const) {
    if (values[name] === '') return fail(`option "--${name}" needs a value. ${seeHelp}`);
  }
  const { mode } = values;
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
    return fail(`--mode "${mode}" is not a mode; use one of ${MODES.join(', ')}.`);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
    if (!(port >= 0 && port <= 65_535)) {
      return fail(
        `--port "${values.port}" is not a port; use an integer from 0 to 65535 (0 picks a free one).`,
      );
    }
  }
  const http = values.http === true;
  for (const name of [
    'host',
    'port',
    'token',
    'insecure-no-token',
    'principal',
    'rate-limit',
    ...SESSION_FLAG_NAMES,
  ] as const) {
    if (values[name] !== undefined && !http) {
      return fail(`--${name} only applies with --http. ${seeHelp}`);
    }
  }
  const fetchAllow = fetchAllowArg(values['fetch-allow']);
  if (!fetchAllow.ok) return fail(fetchAllow.message);
  const principals = principalArgs(values.principal ?? [], env);
  if (!principals.ok) return fail(principals.message);
  const embedder = embedderArgs(values, env);
  if (!embedder.ok) return fail(embedder.message);
  const delegate = delegateArg(values.delegate);
  if (!delegate.ok) return fail(delegate.message);
  let rateLimit: { max: number; windowMs: number } | undefined;
  if (values['rate-limit'] !== undefined) {
    const match = /^(\d{1,9})\/(\d{1,10})$/.exec(values['rate-limit']);
    const max = Number(match?.[1]);
    const windowMs = Number(match?.[2]);
    if (match === null || max < 1 || windowMs < 1 || windowMs > 2_147_483_647) {
      return fail(
        `--rate-limit "${values['rate-limit']}" is not MAX/MS; give the requests one caller may send per window and the window in milliseconds, as in 120/60000.`,
      );
    }
    rateLimit = { max, windowMs };
  }
  const sessions = sessionLimitArgs(values);
  if (!sessions.ok) return fail(sessions.message);
  const grace = shutdownGraceArg(values['shutdown-grace-ms']);
  if (!grace.ok) return fail(grace.message);
  const envToken = env.HINTGATE_TOKEN === '' ? undefined : env.HINTGATE_TOKEN;
  const token = values.token ?? (http ? envToken : undefined);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    const source = values.token === undefined ? 'HINTGATE_TOKEN' : '--token';
    return fail(`${source} must be at least ${MIN_TOKEN_LENGTH} characters long.`);
  }
  const verdict = http
    ? httpTokenCheck({
        host: values.host ?? DEFAULT_HTTP_HOST,
        token: token ?? principals.list[0]?.token,
        insecureNoToken: values['insecure-no-token'] === true,
      })
    : undefined;
  if (verdict !== undefined && !verdict.ok) return fail(verdict.message);
  const tokenWarning = verdict?.ok === true ? verdict.warning : undefined;
  return {
    ok: true,
    args: {
      help: false,
      workspace: values.workspace ?? '.',
      ...(mode === undefined ? {} : { mode: mode as Mode }),
      ...(values.policy === undefined ? {} : { policy: values.policy }),
      http,
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
      ...(tokenWarning === undefined ? {} : { tokenWarning }),
      ...(fetchAllow.entries.length === 0 ? {} : { fetchAllow: fetchAllow.entries }),
      ...(principals.list.length === 0 ? {} : { principals: principals.list }),
      ...(embedder.value === undefined ? {} : { embedder: embedder.value }),
      ...(delegate.command === undefined ? {} : { delegate: delegate.command }),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(values['no-instructions'] === true ? { noInstructions: true } : {}),
      ...(sessions.limits === undefined ? {} : { sessions: sessions.limits }),
      shutdownGraceMs: grace.ms,
    },
  };
}

const PRINCIPAL = /^([A-Za-z0-9_.@-]{1,64})=([A-Za-z_][A-Za-z0-9_]*)(?::(.*))?$/;

/** `--principal NAME=VAR[:SCOPE,...]`: each a caller whose token is in the environment. */
function principalArgs(
  given: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; list: HttpPrincipal[] } | { ok: false; message: string } {
  const list: HttpPrincipal[] = [];
  for (const entry of given) {
    const match = PRINCIPAL.exec(entry);
    if (match === null) {
      // Never echo what may be a token pasted in the wrong place.
      return {
        ok: false,
        message: `--principal takes NAME=VAR[:SCOPE,SCOPE...] (NAME 1-64 of A-Z a-z 0-9 _ - . @, VAR the environment variable that holds the token), as in --principal ci=CI_TOKEN:read; the token itself never goes on the command line.`,
      };
    }
    const [, name = '', variable = '', scopeList] = match;
    const token = env[variable];
    if (token === undefined || token === '') {
      return {
        ok: false,
        message: `--principal ${name}: environment variable ${variable} is not set; put ${name}'s token in it (at least ${MIN_TOKEN_LENGTH} characters).`,
      };
    }
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
      return {
        ok: false,
        message: `--principal ${name}: the token in ${variable} must be at least ${MIN_TOKEN_LENGTH} characters without spaces.`,
      };
    }
    const scopes = scopeList === undefined ? [] : scopeList.split(',').map((s) => s.trim());
    if (scopes.some((scope) => scope === '')) {
      return {
        ok: false,
        message: `--principal ${name}: "${scopeList}" has an empty scope; write scopes separated by commas, as in :read,shell.`,
      };
    }
    if (list.some((p) => p.name === name)) {
      return { ok: false, message: `--principal ${name} is given twice; name each caller once.` };
    }
    if (list.some((p) => p.token === token)) {
      return {
        ok: false,
        message: `--principal ${name}: its token (in ${variable}) is another caller's too; give each caller its own token.`,
      };
    }
    list.push({ name, token, scopes });
  }
  return { ok: true, list };
}

/** `--embedder URL --embedder-model MODEL [--embedder-key-env VAR]`. */
function embedderArgs(
  values: { embedder?: string; 'embedder-model'?: string; 'embedder-key-env'?: string },
  env: Readonly<Record<string, string | undefined>>,
):
  | { ok: true; value?: { url: string; model: string; apiKey?: string } }
  | { ok: false; message: string } {
  const url = values.embedder;
  const model = values['embedder-model'];
  const keyVariable = values['embedder-key-env'];
  if (url === undefined) {
    return model === undefined && keyVariable === undefined
      ? { ok: true }
      : {
          ok: false,
          message: `--embedder-model and --embedder-key-env need --embedder URL. ${seeHelp}`,
        };
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return {
      ok: false,
      message: `--embedder "${url}" is not an http: or https: URL; give the embeddings endpoint, such as http://127.0.0.1:11434/v1/embeddings.`,
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      message:
        '--embedder must not carry credentials in its URL; put the key in an environment variable and name it with --embedder-key-env.',
    };
  }
  if (model === undefined) {
    return {
      ok: false,
      message:
        '--embedder needs --embedder-model, such as text-embedding-3-small or nomic-embed-text.',
    };
  }
  let apiKey: string | undefined;
  if (keyVariable !== undefined) {
    apiKey = env[keyVariable];
    if (apiKey === undefined || apiKey === '') {
      return {
        ok: false,
        message: `--embedder-key-env: environment variable ${keyVariable} is not set; put the embedder's API key in it.`,
      };
    }
  }
  return { ok: true, value: { url, model, ...(apiKey === undefined ? {} : { apiKey }) } };
}

/** `--delegate COMMAND`: words split on spaces, or a JSON list of strings. */
function delegateArg(
  value: string | undefined,
): { ok: true; command?: readonly string[] } | { ok: false; message: string } {
  if (value === undefined) return { ok: true };
  const text = value.trim();
  let command: unknown;
  if (text.startsWith('[')) {
    try {
      command = JSON.parse(text);
    } catch {
      command = undefined;
    }
    if (
      !Array.isArray(command) ||
      command.length === 0 ||
      !command.every((w) => typeof w === 'string' && w !== '')
    ) {
      return {
        ok: false,
        message: `--delegate ${JSON.stringify(value)} is not a JSON list of non-empty strings; write it as '["codex","exec","-"]', or as words separated by spaces.`,
      };
    }
  } else {
    command = text.split(/\s+/).filter((word) => word !== '');
    if (/["'\\]/.test(text)) {
      return {
        ok: false,
        message: `--delegate ${JSON.stringify(value)} has quotes or backslashes, which are not read as a shell would; write the command as a JSON list, as in '["claude","-p","{prompt}"]'.`,
      };
    }
  }
  return { ok: true, command: command as string[] };
}
