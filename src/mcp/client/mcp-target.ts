import { HintgateError } from '../../errors/index.js';
import { isPlainObject } from '../../tool/index.js';

/** A server run as a child process, spoken to over stdin/stdout. */
export interface McpStdioTarget {
  /** Program to run, for example `npx` or an absolute path. Not run through a shell. */
  readonly command: string;
  /** Its arguments. Default none. */
  readonly args?: readonly string[];
  /**
   * Environment variables, merged over a minimal inherited set (HOME, LOGNAME, PATH, SHELL,
   * TERM, USER on POSIX). Pass `{ ...process.env }` to hand over everything.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of the process. Default the current one. */
  readonly cwd?: string;
  /** Not with `command`: a server has either a command or a URL. */
  readonly url?: never;
  /** Only for a `url` server. */
  readonly headers?: never;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpTarget {
  /** The server's MCP endpoint, `http:` or `https:`, for example `http://127.0.0.1:3000/mcp`. */
  readonly url: string | URL;
  /** Headers sent with every request, for example `{ Authorization: 'Bearer ...' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Not with `url`: a server has either a command or a URL. */
  readonly command?: never;
  /** Only for a `command` server. */
  readonly args?: never;
  /** Only for a `command` server. */
  readonly env?: never;
  /** Only for a `command` server. */
  readonly cwd?: never;
}

/** Where the server is, after checking. */
export type CheckedTarget =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      readonly kind: 'http';
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
    };

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', message);
};

const stringRecord = (value: unknown, where: string): Readonly<Record<string, string>> => {
  if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    return invalid(`${where} must be an object of string values, for example { TOKEN: "..." }.`);
  }
  return Object.freeze({ ...(value as Record<string, string>) });
};

/**
 * Checks where the server is: exactly one of `command` (with args, env, cwd) and `url` (with
 * headers). `where` names the server in messages.
 *
 * @throws HintgateError `invalid_option` saying what to write instead.
 */
export const checkTarget = (o: Record<string, unknown>, where: string): CheckedTarget => {
  const hasCommand = o.command !== undefined;
  const hasUrl = o.url !== undefined;
  if (hasCommand === hasUrl) {
    return invalid(
      hasCommand
        ? `${where}: give either "command" (a server run as a child process) or "url" (a Streamable HTTP server), not both.`
        : `${where}: say how to reach the server: "command" (with optional args, env, cwd) for a child process over stdio, or "url" (with optional headers) for Streamable HTTP.`,
    );
  }
  if (hasCommand) {
    if (o.headers !== undefined) invalid(`${where}: "headers" only applies to a "url" server.`);
    if (typeof o.command !== 'string' || o.command.trim() === '') {
      invalid(`${where}: command must be a non-empty string, for example "npx".`);
    }
    const args = o.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
      invalid(
        `${where}: args must be a list of strings, for example ["-y", "@modelcontextprotocol/server-everything"]; write numbers as strings.`,
      );
    }
    if (o.cwd !== undefined && (typeof o.cwd !== 'string' || o.cwd === '')) {
      invalid(`${where}: cwd must be a directory path.`);
    }
    return {
      kind: 'stdio',
      command: o.command as string,
      args: Object.freeze([...(args as string[])]),
      ...(o.env === undefined ? {} : { env: stringRecord(o.env, `${where}: env`) }),
      ...(o.cwd === undefined ? {} : { cwd: o.cwd as string }),
    };
  }
  for (const key of ['args', 'env', 'cwd'] as const) {
    if (o[key] !== undefined) invalid(`${where}: "${key}" only applies to a "command" server.`);
  }
  let url: URL | undefined;
  try {
    url = new URL(o.url instanceof URL ? o.url.href : String(o.url));
  } catch {
    url = undefined;
  }
  if (
    (typeof o.url !== 'string' && !(o.url instanceof URL)) ||
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:')
  ) {
    return invalid(
      `${where}: url ${JSON.stringify(String(o.url))} is not an http(s) URL; write the full endpoint, for example "http://127.0.0.1:3000/mcp".`,
    );
  }
  return {
    kind: 'http',
    url,
    headers: o.headers === undefined ? {} : stringRecord(o.headers, `${where}: headers`),
  };
};
