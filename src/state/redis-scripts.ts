/**
 * Lua scripts run atomically by Redis. Times come from the server's own clock (`TIME`), so
 * replicas whose clocks differ still share one window and one lease deadline.
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Sliding-window reservation. KEYS[1]: the window's sorted set (member -> time taken);
 * ARGV: windowMs, max, member. Returns -1 when a unit was taken, else the milliseconds
 * until the oldest unit leaves the window.
 */
export const RESERVE_SCRIPT = `${NOW}
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return -1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(0, tonumber(oldest[2]) + window - now)`;

/**
 * Takes a concurrency slot. KEYS[1]: the slots' sorted set (holder -> lease deadline);
 * ARGV: max, leaseMs, holder. Expired leases are dropped first. Returns 1 when taken.
 */
export const ACQUIRE_SCRIPT = `${NOW}
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], lease * 2)
  return 1
end
return 0`;

/**
 * Renews a held slot's lease. KEYS[1]: the slots' sorted set; ARGV: leaseMs, holder.
 * Returns 0 when the lease had already run out (the slot may be someone else's now).
 */
export const RENEW_SCRIPT = `${NOW}
local lease = tonumber(ARGV[1])
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not deadline or tonumber(deadline) < now then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease * 2)
return 1`;
