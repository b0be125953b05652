import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import FindMyWay from 'find-my-way';
import type { AuditEvent } from '../audit/index.js';
import { HintgateError } from '../errors/index.js';
import type { GatewayToolState } from '../gateway/index.js';
import { allowedHostnames, checkRequestHosts, normalizeAllowedHosts } from '../mcp/index.js';
import { MODES, type Mode } from '../policy/index.js';
import { type ConsoleAsset, loadConsoleAssets } from './console-assets.js';
import type { ConsoleAuditTrail } from './console-audit-trail.js';
import { cookieValue, readObjectBody, secure, sendError, sendJson } from './console-http.js';
import type { ConsoleChoice, ConsoleInbox } from './console-inbox.js';
import { type ConsoleSession, ConsoleSessions, sameSecret } from './console-sessions.js';

/** What the console needs of a gateway (a `Gateway` from `createGateway` has it all). */
export interface ConsoleGateway {
  readonly runtime: { readonly mode: Mode | undefined };
  readonly toolServer: {
    setMode(mode: Mode): void;
    onToolsChanged(listener: () => void): () => void;
  };
  toolStates(): GatewayToolState[];
  recordEvent(event: AuditEvent): void;
}

/** Options of {@link startConsoleServer}. */
export interface ConsoleServerOptions {
  /** The gateway whose tools and mode the console shows. */
  readonly gateway: ConsoleGateway;
  /** The inbox given to the gateway as an approval channel. */
  readonly inbox: ConsoleInbox;
  /** The audit trail given to the gateway as an audit sink. */
  readonly trail: ConsoleAuditTrail;
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  readonly port?: number;
  /**
   * The login token, at least 16 characters. Default: 32 random bytes, new on every start
   * (then {@link ConsoleServer.loginUrl} carries it).
   */
  readonly token?: string;
  /** The gateway's configuration file, for the `hintgate pin` command the tools page shows. */
  readonly configFile?: string;
}

/** A running console. */
export interface ConsoleServer {
  /** `http://127.0.0.1:PORT/console/`. */
  readonly url: string;
  /**
   * The address to open: with a random token, `.../console/login#token=TOKEN` (the token
   * in the fragment, which browsers never send to a server); with a configured token, the
   * login page, where it is typed in.
   */
  readonly loginUrl: string;
  /** Stops listening, ends the live streams and denies what waits in the inbox. */
  close(): Promise<void>;
}

/** Shortest configured token. */
export const MIN_CONSOLE_TOKEN_LENGTH = 16;
/** Most live streams at once. */
const MAX_STREAMS = 16;
const HEARTBEAT_MS = 15_000;

type Access = 'public' | 'session' | 'change';
interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly session: ConsoleSession | undefined;
}
interface Route {
  readonly access: Access;
  readonly handle: (context: RouteContext) => void | Promise<void>;
}

const isMode = (value: unknown): value is Mode =>
  typeof value === 'string' && (MODES as readonly string[]).includes(value);

/**
 * Serves the gateway's web console on 127.0.0.1: the approvals inbox, the audit trail and
 * the tools, live over server-sent events, and the mode switch. A person signs in with the
 * login token once and gets an HttpOnly, SameSite=Strict session cookie; every request's
 * `Host` and `Origin` are checked as on the MCP endpoint (DNS rebinding), every
 * state-changing request must come from the console's own origin with the session's CSRF
 * token and a JSON body, and every response carries a strict Content-Security-Policy. The
 * page loads nothing from elsewhere and puts every string it shows in as text.
 *
 * @throws HintgateError `invalid_option` for a bad port or a short token.
 */
export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new HintgateError(
      'invalid_option',
      `console port ${String(port)} is not a port; use an integer from 0 to 65535 (0 picks a free one).`,
    );
  }
  if (
    options.token !== undefined &&
    (typeof options.token !== 'string' || options.token.length < MIN_CONSOLE_TOKEN_LENGTH)
  ) {
    throw new HintgateError(
      'invalid_option',
      `the console token must be at least ${MIN_CONSOLE_TOKEN_LENGTH} characters long (for example from "openssl rand -hex 24").`,
    );
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  const { gateway, inbox, trail } = options;
  const assets = await loadConsoleAssets();
  const sessions = new ConsoleSessions(token);
  const allowed = normalizeAllowedHosts(allowedHostnames('127.0.0.1'));
  let cookieName = 'hintgate_console';
  let origins: ReadonlySet<string> = new Set();

  // Live streams, and the audit events numbered so that a page can join history and stream.
  const streams = new Set<ServerResponse>();
  let seq = 0;
  const numbered: { seq: number; event: AuditEvent }[] = trail
    .events()
    .map((event) => ({ seq: ++seq, event }));
  const MAX_NUMBERED = 5000;
  const send = (name: string, data: unknown): void => {
    const frame = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };
  const unsubscribes = [
    trail.onEvent((event) => {
      const entry = { seq: ++seq, event };
      numbered.push(entry);
      if (numbered.length > MAX_NUMBERED) numbered.splice(0, numbered.length - MAX_NUMBERED);
      send('audit', entry);
    }),
    inbox.onChange(() => send('inbox', inbox.pending())),
    gateway.toolServer.onToolsChanged(() => send('tools', {})),
  ];
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const asset = (res: ServerResponse, found: ConsoleAsset): void => {
    res.writeHead(200, { 'Content-Type': found.type, 'Content-Length': found.body.length });
    res.end(found.body);
  };
  const page = (name: string) => (context: RouteContext) => {
    const found = assets.get(name);
    if (found === undefined) sendError(context.res, 404, 'No such page.');
    else asset(context.res, found);
  };
  const redirect = (res: ServerResponse, location: string): void => {
    res.writeHead(303, { Location: location });
    res.end();
  };
  const sessionCookie = (value: string, maxAge?: number): string =>
    `${cookieName}=${value}; Path=/console; HttpOnly; SameSite=Strict${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;

  const routes: [string, string, Route][] = [
    ['GET', '/console', { access: 'public', handle: ({ res }) => redirect(res, '/console/') }],
    [
      'GET',
      '/console/',
      {
        access: 'public',
        handle: (context) => {
          if (context.session === undefined) redirect(context.res, '/console/login');
          else page('index.html')(context);
        },
      },
    ],
    ['GET', '/console/login', { access: 'public', handle: page('login.html') }],
    [
      'GET',
      '/console/assets/:name',
      {
        access: 'public',
        handle: (context) => {
          const name = context.params.name ?? '';
          const found = name.endsWith('.html') ? undefined : assets.get(name);
          if (found === undefined) sendError(context.res, 404, 'No such file.');
          else asset(context.res, found);
        },
      },
    ],
    [
      'POST',
      '/console/api/login',
      {
        access: 'public',
        handle: async ({ req, res }) => {
          const body = await readObjectBody(req);
          if (!body.ok) return sendError(res, body.status, body.error);
          const presented = typeof body.value.token === 'string' ? body.value.token : '';
          const session = sessions.signIn(presented);
          if (session === undefined) {
            return sendError(
              res,
              401,
              'That is not the login token. Use the one "hintgate gateway" printed when the console started (or the configured console.token).',
            );
          }
          res.setHeader('Set-Cookie', sessionCookie(session.id));
          sendJson(res, 200, { ok: true });
        },
      },
    ],
    [
      'POST',
      '/console/api/logout',
      {
        access: 'change',
        handle: ({ res, session }) => {
          if (session !== undefined) sessions.signOut(session.id);
          res.setHeader('Set-Cookie', sessionCookie('', 0));
          sendJson(res, 200, { ok: true });
        },
      },
    ],
    [
      'GET',
      '/console/api/session',
      {
        access: 'session',
        handle: ({ res, session }) =>
          sendJson(res, 200, {
            csrf: session?.csrf,
            who: session?.label,
            mode: gateway.runtime.mode ?? null,
            modes: MODES,
          }),
      },
    ],
    [
      'GET',
      '/console/api/inbox',
      { access: 'session', handle: ({ res }) => sendJson(res, 200, inbox.pending()) },
    ],
    [
      'GET',
      '/console/api/audit',
      { access: 'session', handle: ({ res }) => sendJson(res, 200, numbered) },
    ],
    [
      'GET',
      '/console/api/tools',
      {
        access: 'session',
        handle: ({ res }) =>
          sendJson(res, 200, {
            tools: gateway.toolStates(),
            pinCommand:
              options.configFile === undefined
                ? 'hintgate pin'
                : `hintgate pin --config ${options.configFile}`,
          }),
      },
    ],
    [
      'POST',
      '/console/api/inbox/:id',
      {
        access: 'change',
        handle: async ({ req, res, params, session }) => {
          const body = await readObjectBody(req);
          if (!body.ok) return sendError(res, body.status, body.error);
          const { decision, remember, reason } = body.value;
          if (decision !== 'allow' && decision !== 'deny') {
            return sendError(res, 400, 'decision must be "allow" or "deny".');
          }
          if (
            remember !== undefined &&
            remember !== 'once' &&
            remember !== 'session' &&
            remember !== 'always'
          ) {
            return sendError(res, 400, 'remember must be "once", "session" or "always".');
          }
          if (reason !== undefined && typeof reason !== 'string') {
            return sendError(res, 400, 'reason must be a string.');
          }
          const choice: ConsoleChoice = {
            decision,
            ...(remember === undefined ? {} : { remember }),
            ...(reason === undefined ? {} : { reason }),
          };
          const answered = inbox.answer(params.id ?? '', choice, session?.label ?? 'console');
          if (!answered) {
            return sendError(
              res,
              409,
              'This request is no longer waiting: it was answered elsewhere, timed out or was cancelled.',
            );
          }
          sendJson(res, 200, { ok: true });
        },
      },
    ],
    [
      'POST',
      '/console/api/mode',
      {
        access: 'change',
        handle: async ({ req, res, session }) => {
          const body = await readObjectBody(req);
          if (!body.ok) return sendError(res, body.status, body.error);
          const { mode } = body.value;
          if (!isMode(mode)) return sendError(res, 400, `mode must be one of ${MODES.join(', ')}.`);
          const previousMode = gateway.runtime.mode;
          if (previousMode === undefined) {
            return sendError(res, 409, 'This gateway has no mode to switch (a custom policy).');
          }
          gateway.toolServer.setMode(mode);
          const changedBy = { channel: 'console', who: session?.label ?? 'console' } as const;
          gateway.recordEvent({
            type: 'mode.changed',
            time: new Date().toISOString(),
            mode,
            previousMode,
            changedBy,
          });
          send('mode', { mode, previousMode, changedBy });
          sendJson(res, 200, { mode });
        },
      },
    ],
    [
      'GET',
      '/console/api/events',
      {
        access: 'session',
        handle: ({ req, res }) => {
          if (streams.size >= MAX_STREAMS) {
            return sendError(res, 503, 'Too many console pages are open; close one.');
          }
          res.writeHead(200, {
            'Content-Type': 'text/event-stream; charset=utf-8',
            Connection: 'keep-alive',
          });
          streams.add(res);
          req.once('close', () => streams.delete(res));
          res.write(`event: inbox\ndata: ${JSON.stringify(inbox.pending())}\n\n`);
          res.write(`event: mode\ndata: ${JSON.stringify({ mode: gateway.runtime.mode })}\n\n`);
        },
      },
    ],
  ];
  const router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true });
  for (const [method, path, route] of routes) {
    router.on(method as FindMyWay.HTTPMethod, path, () => {}, route);
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    secure(res);
    const refusal = checkRequestHosts(req, allowed);
    if (refusal !== undefined) return sendError(res, refusal.status, refusal.message);
    const target = req.url ?? '';
    if (!target.startsWith('/')) return sendError(res, 400, 'The request target must be a path.');
    const path = target.split('?')[0] ?? '';
    const found = router.find(req.method as FindMyWay.HTTPMethod, path);
    if (found === null) return sendError(res, 404, 'No such page of the console.');
    const route = found.store as Route;
    const session = sessions.find(cookieValue(req, cookieName));
    if (route.access !== 'public' || req.method === 'POST') {
      // Requests that change something, and the login, come only from the console's pages.
      const origin = req.headers.origin;
      if (req.method === 'POST' && (origin === undefined || !origins.has(origin))) {
        return sendError(
          res,
          403,
          'Forbidden: a request that changes something must come from the console page itself (its Origin).',
        );
      }
    }
    if (route.access !== 'public' && session === undefined) {
      return sendError(res, 401, 'Sign in first: open the login address the gateway printed.');
    }
    if (route.access === 'change') {
      const csrf = req.headers['x-csrf-token'];
      if (typeof csrf !== 'string' || session === undefined || !sameSecret(csrf, session.csrf)) {
        return sendError(
          res,
          403,
          'Forbidden: the CSRF token is missing or wrong; reload the console page.',
        );
      }
    }
    await route.handle({ req, res, params: found.params, session });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendError(res, 500, `The console failed: ${error instanceof Error ? error.message : ''}`);
      } else {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  // Cookies are not kept apart by port: one name per console.
  cookieName = `hintgate_console_${bound}`;
  origins = new Set([`http://127.0.0.1:${bound}`, `http://localhost:${bound}`]);
  const url = `http://127.0.0.1:${bound}/console/`;
  let closing: Promise<void> | undefined;
  return {
    url,
    loginUrl:
      options.token === undefined
        ? `http://127.0.0.1:${bound}/console/login#token=${token}`
        : `http://127.0.0.1:${bound}/console/login`,
    close() {
      closing ??= (async () => {
        clearInterval(heartbeat);
        for (const unsubscribe of unsubscribes) unsubscribe();
        inbox.close();
        for (const stream of streams) stream.end();
        streams.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
