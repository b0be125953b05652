import type { IncomingMessage } from 'node:http';

/** Largest request body read, in bytes: the SDK's Node adapter's default. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body read and parsed, or why not. */
export type JsonBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'too-large' };

/**
 * Reads a request's body to its end and parses it as JSON. A body over
 * {@link MAX_BODY_BYTES} is not read further (`too-large`); one that is not JSON is
 * `invalid`. Rejects when the request stream fails.
 */
export function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.once('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
    req.once('end', () => {
      if (done) return;
      done = true;
      const text =
        chunks.length === 1
          ? (chunks[0] as Buffer).toString('utf8')
          : Buffer.concat(chunks).toString('utf8');
      try {
        resolve({ kind: 'json', value: JSON.parse(text) as unknown });
      } catch {
        resolve({ kind: 'invalid' });
      }
    });
  });
}
