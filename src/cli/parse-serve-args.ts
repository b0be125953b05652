import { parseArgs } from 'node:util';
import { DEFAULT_HTTP_HOST } from '../mcp/index.js';
import { MODES, type Mode } from '../policy/index.js';
import { fetchAllowArg } from './fetch-allow-arg.js';
import { httpTokenCheck } from './http-token-check.js';

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
}

/** The parsed options, or the one-line reason they are wrong. */
export type ParsedServeArgs =
  | { readonly ok: true; readonly args: ServeArgs }
  | { readonly ok: false; readonly message: string };

/** Shortest bearer token accepted. */
export const MIN_TOKEN_LENGTH = 8;

export const SERVE_USAGE = `Usage: hintgate serve [--workspace DIR] [--mode MODE] [--policy FILE]
                      [--fetch-allow LIST]
                      [--http [--host HOST] [--port PORT] [--token TOKEN | --insecure-no-token]]

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
  -h, --help        Show this help and exit.

Over stdio, stdout carries the protocol and messages go to stderr. SIGINT or SIGTERM shuts
the server down: it takes no more calls, lets the calls under way finish for up to 5 s (a
second signal stops at once) and cancels the rest. On stdio, the client closing stdin does
the same without the wait.
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
  };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true }));
  } catch (error) {
    return fail(parseError(error));
  }
  if (values.help === true) return { ok: true, args: { help: true, workspace: '.', http: false } };

  for (const name of ['workspace', 'policy', 'host', 'token'] as const) {
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
  for (const name of ['host', 'port', 'token', 'insecure-no-token'] as const) {
    if (values[name] !== undefined && !http) {
      return fail(`--${name} only applies with --http. ${seeHelp}`);
    }
  }
  const fetchAllow = fetchAllowArg(values['fetch-allow']);
  if (!fetchAllow.ok) return fail(fetchAllow.message);
  const envToken = env.HINTGATE_TOKEN === '' ? undefined : env.HINTGATE_TOKEN;
  const token = values.token ?? (http ? envToken : undefined);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    const source = values.token === undefined ? 'HINTGATE_TOKEN' : '--token';
    return fail(`${source} must be at least ${MIN_TOKEN_LENGTH} characters long.`);
  }
  const verdict = http
    ? httpTokenCheck({
        host: values.host ?? DEFAULT_HTTP_HOST,
        token,
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
    },
  };
}
