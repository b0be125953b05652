import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject } from '../tool/index.js';

/**
 * The Content-Security-Policy of every console response: scripts, styles and requests only
 * from the console itself, no inline script or style, no frames, no plugins, no forms to
 * elsewhere. With it a tool argument that holds markup cannot run anything even if it were
 * ever put into the page as markup (the page only ever sets text).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers every console response carries. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Sets the security headers on a response. */
export function secure(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answers with an error: `{ error }`, a sentence saying what is wrong and what to do. */
export function sendError(res: ServerResponse, status: number, error: string): void {
  sendJson(res, status, { error });
}

/** Largest body a console request may have, in bytes. */
const MAX_BODY = 16 * 1024;

/** A JSON object body, or the reason it is refused (status and message). */
export type ObjectBody =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly error: string };

/** Reads a request's body as one JSON object of at most 16 KiB, sent as `application/json`. */
export function readObjectBody(req: IncomingMessage): Promise<ObjectBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return Promise.resolve({
      ok: false,
      status: 415,
      error: 'Send the body as Content-Type: application/json.',
    });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: ObjectBody): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        finish({ ok: false, status: 413, error: `The body is over ${MAX_BODY} bytes.` });
        return;
      }
      if (!done) chunks.push(chunk);
    });
    req.once('error', () => finish({ ok: false, status: 400, error: 'The body was cut off.' }));
    req.once('end', () => {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        finish({ ok: false, status: 400, error: 'The body is not JSON.' });
        return;
      }
      if (!isPlainObject(value)) {
        finish({ ok: false, status: 400, error: 'The body must be a JSON object.' });
        return;
      }
      finish({ ok: true, value });
    });
  });
}

/** The value of one cookie of a request, or undefined. */
export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
