import type { IncomingMessage, ServerResponse } from 'node:http';
import { HintgateError } from '../../errors/index.js';

/** Path that answers 200 while the process serves (liveness). */
export const HEALTHZ_PATH = '/healthz';
/** Path that answers 200 only while every readiness check passes, else 503. */
export const READYZ_PATH = '/readyz';

/** Longest a readiness check may take before it counts as failed, in ms. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * One named condition of `/readyz`: the gateway's `upstreams` (every configured server
 * connected), a shared state store's reachability, ... The name is shown to anyone who can
 * reach the port, so it names the kind of dependency, never a host or a server.
 */
export interface ReadinessCheck {
  /** Short name of what is checked, such as `upstreams` or `state`: `[a-z0-9_.-]`. */
  readonly name: string;
  /**
   * Resolves true when ready. Throwing, rejecting, or taking longer than
   * {@link READINESS_TIMEOUT_MS} (then `signal` aborts) counts as not ready.
   */
  check(signal: AbortSignal): boolean | Promise<boolean>;
}

const CHECK_NAME = /^[a-z0-9_.-]{1,64}$/;

/**
 * Checks a list of readiness checks.
 *
 * @throws HintgateError `invalid_option` saying what is wrong.
 */
export function checkReadinessChecks(value: unknown): readonly ReadinessCheck[] {
  if (!Array.isArray(value)) {
    throw new HintgateError(
      'invalid_option',
      'readiness must be a list of { name, check(signal) } readiness checks.',
    );
  }
  const names = new Set<string>();
  for (const entry of value as unknown[]) {
    const { name, check } = (entry ?? {}) as { name?: unknown; check?: unknown };
    if (typeof name !== 'string' || !CHECK_NAME.test(name) || typeof check !== 'function') {
      throw new HintgateError(
        'invalid_option',
        `readiness: each check must be { name, check(signal) } with a name of 1-64 of a-z 0-9 _ . - (not ${JSON.stringify(name)}).`,
      );
    }
    if (names.has(name)) {
      throw new HintgateError('invalid_option', `readiness: two checks are named "${name}".`);
    }
    names.add(name);
  }
  return value as readonly ReadinessCheck[];
}

/** Runs one check within the time limit: true only for a timely `true`. */
async function passes(check: ReadinessCheck): Promise<boolean> {
  const signal = AbortSignal.timeout(READINESS_TIMEOUT_MS);
  const timedOut = new Promise<false>((resolve) => {
    signal.addEventListener('abort', () => resolve(false), { once: true });
  });
  try {
    return (await Promise.race([Promise.resolve(check.check(signal)), timedOut])) === true;
  } catch {
    return false;
  }
}

const answer = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(req.method === 'HEAD' ? undefined : text);
};

/**
 * Answers `GET`/`HEAD` `/healthz` and `/readyz` and returns true, or returns false for any
 * other path. Both are for load balancers and orchestrators: no token, no `Host` check,
 * and nothing of the configuration in the answer. `/healthz` is 200 while the process
 * serves; `/readyz` is 200 when every check passes, else 503 with the names of those that
 * did not.
 */
export function answerHealth(
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  checks: readonly ReadinessCheck[],
): boolean {
  if (path !== HEALTHZ_PATH && path !== READYZ_PATH) return false;
  // The request's body, if any, is of no interest.
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    answer(req, res, 405, { error: `Method not allowed; use GET ${path}.` });
    return true;
  }
  if (path === HEALTHZ_PATH) {
    answer(req, res, 200, { status: 'ok' });
    return true;
  }
  void Promise.all(checks.map(passes)).then((results) => {
    const failing = checks.filter((_, index) => results[index] !== true).map((c) => c.name);
    if (failing.length === 0) answer(req, res, 200, { status: 'ready' });
    else answer(req, res, 503, { status: 'not ready', failing });
  });
  return true;
}
