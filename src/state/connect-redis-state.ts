import { createHash, randomUUID } from 'node:crypto';
import type { Redis as RedisClient } from 'ioredis';
import { HintgateError } from '../errors/index.js';
import { redactUrl } from '../mcp/index.js';
import { isTimerMs, MAX_TIMER_MS } from '../tool/index.js';
import { RELEASE_SCRIPT, RENEW_SCRIPT, TAKE_SCRIPT } from './redis-scripts.js';
import {
  type ApprovalMemo,
  type ReserveOutcome,
  type SharedState,
  type SharedStateStatus,
  SharedStateUnavailableError,
  type SlotLease,
  type StoredApproval,
  type TakeOutcome,
  type TakeRequest,
  type WindowLimit,
  type WindowReservation,
} from './shared-state.js';

/** Options of {@link connectRedisState}. */
export interface RedisStateOptions {
  /** Prefix of every key this state uses, so that several deployments may share a Redis. Default `hintgate:`. */
  readonly prefix?: string;
  /** How long a concurrency slot's lease lasts without renewal, in ms. Default 10000. */
  readonly leaseMs?: number;
  /** How long one command may take before it fails closed, in ms. Default 2000. */
  readonly commandTimeoutMs?: number;
  /** Told each time the store becomes reachable or unreachable, with why. */
  readonly onStatus?: (status: SharedStateStatus, detail: string) => void;
}

interface Scripts {
  /** Number of keys, the keys, then the arguments; see `TAKE_SCRIPT`. */
  hgTake(...keysAndArgs: (string | number)[]): Promise<[number, number, number]>;
  hgRenew(key: string, leaseMs: number, holder: string): Promise<number>;
  hgRelease(
    key: string,
    holder: string,
    channel: string,
    message: string,
    max: number,
  ): Promise<number>;
}

const RELEASED_CHANNEL = 'released';

/** The shortest lease: it is renewed every third of it. */
export const MIN_LEASE_MS = 30;

/**
 * Throws `invalid_option` unless `value` is a lease a slot can keep: a whole number of
 * milliseconds from {@link MIN_LEASE_MS} to the longest a timer waits (its renewal runs on
 * one). `name` is the option as the caller wrote it.
 */
export function checkLeaseMs(value: unknown, name: string): void {
  if (!(Number.isInteger(value) && (value as number) >= MIN_LEASE_MS && isTimerMs(value))) {
    throw new HintgateError(
      'invalid_option',
      `${name} must be a whole number of milliseconds from ${MIN_LEASE_MS} to ${MAX_TIMER_MS}, such as 10000; it is ${String(value)}.`,
    );
  }
}
/** ioredis's errors for a command sent on a connection that is gone. */
const CONNECTION_LOST = /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE/;
/** Longest pause between reconnection attempts, in ms. */
const MAX_RECONNECT_DELAY_MS = 5000;

/**
 * Shared state on Redis (`redis://` or `rediss://` URL). Connects in the background: the
 * returned state works at once and fails closed with {@link SharedStateUnavailableError}
 * until Redis answers; after a loss it reconnects with capped exponential backoff and
 * jitter. Nothing is queued while Redis is away. Throws `invalid_config` for a URL that is
 * not a Redis URL, `invalid_option` for a lease or command timeout no timer can keep.
 */
export async function connectRedisState(
  url: string,
  options: RedisStateOptions = {},
): Promise<SharedState> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HintgateError(
      'invalid_config',
      `state: "${redactUrl(url)}" is not a URL; write it as redis://host:6379 (or rediss:// for TLS).`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new HintgateError(
      'invalid_config',
      `state: "${redactUrl(url)}" is not a Redis URL; write it as redis://host:6379 (or rediss:// for TLS).`,
    );
  }
  if (options.leaseMs !== undefined) checkLeaseMs(options.leaseMs, 'leaseMs');
  if (options.commandTimeoutMs !== undefined && !isTimerMs(options.commandTimeoutMs)) {
    throw new HintgateError(
      'invalid_option',
      `commandTimeoutMs must be a number of milliseconds in (0, ${MAX_TIMER_MS}], such as 2000; it is ${String(options.commandTimeoutMs)}.`,
    );
  }
  const prefix = options.prefix ?? 'hintgate:';
  const leaseMs = options.leaseMs ?? 10_000;
  const where = redactUrl(parsed);
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    keyPrefix: prefix,
    retryStrategy: (times) =>
      Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(times, 10)) * (0.5 + Math.random() / 2),
  });
  // hgTake has no fixed number of keys: its first argument says how many follow.
  redis.defineCommand('hgTake', { lua: TAKE_SCRIPT });
  redis.defineCommand('hgRenew', { numberOfKeys: 1, lua: RENEW_SCRIPT });
  redis.defineCommand('hgRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  const scripts = redis as unknown as Scripts;

  let status: SharedStateStatus = 'unavailable';
  let lastError = 'not connected yet';
  const setStatus = (next: SharedStateStatus, detail: string): void => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next, detail);
  };
  redis.on('ready', () => setStatus('ready', `connected to ${where}`));
  redis.on('error', (error: Error) => {
    lastError = error.message;
  });
  redis.on('close', () => setStatus('unavailable', `lost ${where}: ${lastError}`));
  redis.connect().catch((error: unknown) => {
    lastError = error instanceof Error ? error.message : String(error);
    options.onStatus?.('unavailable', `cannot reach ${where} yet (${lastError}); retrying`);
  });

  const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The connection may be gone before the client has told of it ('close' comes later).
      const problem =
        status === 'unavailable'
          ? `is unreachable (${lastError}), so it could not ${what}`
          : redis.status !== 'ready' || CONNECTION_LOST.test(message)
            ? `is unreachable (${message}), so it could not ${what}`
            : `could not ${what} (${message})`;
      throw new SharedStateUnavailableError(
        `Shared state at ${where} ${problem}; the call needs it and was not run.`,
        { cause: error },
      );
    }
  };

  // Waiters for a slot hear about releases on a channel of their own connection.
  let subscriber: RedisClient | undefined;
  const slotWaiters = new Map<string, Set<() => void>>();
  const subscribe = (): void => {
    if (subscriber !== undefined) return;
    // Subscribed again here on each reconnect: the client's own resubscription leaves its
    // command's failure unhandled when the connection is closed meanwhile.
    const listener = redis.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
    });
    subscriber = listener;
    const listen = (): void => {
      listener.subscribe(`${prefix}${RELEASED_CHANNEL}`).catch(() => {});
    };
    listener.on('error', () => {});
    listener.on('message', (_channel: string, key: string) => {
      for (const wake of slotWaiters.get(key) ?? []) wake();
    });
    let connectedBefore = false;
    listener.on('ready', () => {
      if (connectedBefore) listen();
      connectedBefore = true;
    });
    listen();
  };

  const held = new Set<{ key: string; holder: string; timer: NodeJS.Timeout }>();
  let closed = false;

  /** Keeps the lease of a slot just taken alive until it is released or lost. */
  const hold = (key: string, max: number, holder: string): SlotLease => {
    let lost = false;
    const entry = {
      key,
      holder,
      timer: setInterval(() => {
        scripts.hgRenew(`slots:${key}`, leaseMs, holder).then(
          (renewed) => {
            if (renewed !== 1) lost = true;
          },
          () => {},
        );
      }, leaseMs / 3),
    };
    entry.timer.unref();
    held.add(entry);
    let released = false;
    return {
      get lost() {
        return lost;
      },
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(entry.timer);
        held.delete(entry);
        // One script frees the slot and wakes any waiters; on failure the lease runs out.
        await scripts
          .hgRelease(`slots:${key}`, holder, `${prefix}${RELEASED_CHANNEL}`, key, max)
          .catch(() => {});
      },
    };
  };

  const state: SharedState = {
    get status() {
      return status;
    },
    take: (request: TakeRequest): Promise<TakeOutcome> =>
      guard(
        request.slot === undefined
          ? 'reserve rate-limit quota'
          : request.windows.length === 0
            ? 'take a concurrency slot'
            : 'take a concurrency slot and rate-limit quota',
        async () => {
          const { slot } = request;
          const holder = randomUUID();
          const members = request.windows.map(() => randomUUID());
          const keys = [
            ...(slot === undefined ? [] : [`slots:${slot.key}`]),
            ...request.windows.map((w) => `rate:${w.key}`),
          ];
          const args = [
            slot === undefined ? '0' : '1',
            ...(slot === undefined ? [] : [slot.max, leaseMs, holder]),
            ...request.windows.flatMap((w, i) => [w.limit.windowMs, w.limit.max, members[i] ?? '']),
          ];
          const [outcome, index, wait] = await scripts.hgTake(keys.length, ...keys, ...args);
          if (outcome === 1) return { slotFull: true };
          if (outcome === 2) {
            return { windowFull: Number(index) - 1, retryAfterMs: Math.max(1, Number(wait)) };
          }
          return {
            taken: {
              ...(slot === undefined ? {} : { slot: hold(slot.key, slot.max, holder) }),
              reservations: request.windows.map((w, i) => ({
                key: w.key,
                member: members[i] ?? '',
              })),
            },
          };
        },
      ),
    reserve: async (key: string, limit: WindowLimit): Promise<ReserveOutcome> => {
      const outcome = await state.take({ windows: [{ key, limit }] });
      if ('taken' in outcome) {
        const [reservation] = outcome.taken.reservations;
        if (reservation !== undefined) return { reservation };
      }
      return { retryAfterMs: 'retryAfterMs' in outcome ? outcome.retryAfterMs : 1 };
    },
    rollback: (reservation: WindowReservation): Promise<void> =>
      guard('return rate-limit quota', async () => {
        await redis.zrem(`rate:${reservation.key}`, reservation.member);
      }),
    tryAcquireSlot: async (key: string, max: number): Promise<SlotLease | undefined> => {
      const outcome = await state.take({ slot: { key, max }, windows: [] });
      return 'taken' in outcome ? outcome.taken.slot : undefined;
    },
    waitForSlot: (key: string, timeoutMs: number): Promise<void> => {
      subscribe();
      return new Promise((resolve) => {
        let waiters = slotWaiters.get(key);
        if (waiters === undefined) {
          waiters = new Set();
          slotWaiters.set(key, waiters);
        }
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(done);
          if (waiters.size === 0) slotWaiters.delete(key);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
    hasApprovals: (scope: string, tool: string, keys: readonly string[]): Promise<boolean> =>
      guard('read approvals', async () => {
        if (keys.length === 0) return false;
        const values = await redis.hmget(
          `approvals:${scope}`,
          ...keys.map((key) => approvalField(tool, key)),
        );
        return values.every((value) => value !== null);
      }),
    addApprovals: (
      scope: string,
      tool: string,
      keys: readonly string[],
      record: ApprovalMemo,
      ttlMs?: number,
    ): Promise<void> =>
      guard('remember an approval', async () => {
        const hash = `approvals:${scope}`;
        const batch = redis.multi();
        const memo = JSON.stringify(record);
        for (const key of keys) batch.hsetnx(hash, approvalField(tool, key), memo);
        if (ttlMs !== undefined) batch.pexpire(hash, ttlMs);
        await batch.exec();
      }),
    listApprovals: (scope: string): Promise<StoredApproval[]> =>
      guard('list approvals', async () => {
        const all = await redis.hgetall(`approvals:${scope}`);
        const out: StoredApproval[] = [];
        for (const [field, value] of Object.entries(all)) {
          const parsed = parseApproval(field, value);
          if (parsed !== undefined) out.push(parsed);
        }
        return out.sort((a, b) =>
          a.tool === b.tool ? a.key.localeCompare(b.key) : a.tool.localeCompare(b.tool),
        );
      }),
    useOnce: (token: string, ttlMs: number): Promise<boolean> =>
      guard('check a one-time token', async () => {
        const digest = createHash('sha256').update(token).digest('hex');
        const set = await redis.set(`used:${digest}`, '1', 'PX', Math.max(1, ttlMs), 'NX');
        return set === 'OK';
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...held].map((entry) => redis.zrem(`slots:${entry.key}`, entry.holder)))
        .then(() => undefined)
        .catch(() => undefined);
      for (const entry of held) clearInterval(entry.timer);
      held.clear();
      subscriber?.disconnect();
      redis.disconnect();
    },
  };
  return state;
}

/** The hash field of one approval: unambiguous for any tool and key strings. */
const approvalField = (tool: string, key: string): string => JSON.stringify([tool, key]);

const parseApproval = (field: string, value: string): StoredApproval | undefined => {
  try {
    const pair: unknown = JSON.parse(field);
    const memo: unknown = JSON.parse(value);
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      return undefined;
    }
    if (typeof memo !== 'object' || memo === null) return undefined;
    const { grantedAt, reason } = memo as { grantedAt?: unknown; reason?: unknown };
    if (typeof grantedAt !== 'string') return undefined;
    return {
      tool: pair[0],
      key: pair[1],
      grantedAt,
      ...(typeof reason === 'string' ? { reason } : {}),
    };
  } catch {
    return undefined;
  }
};
