/**
 * Lua scripts run atomically by Redis. Times come from the server's own clock (`TIME`), so
 * replicas whose clocks differ still share one window and one lease deadline.
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Takes everything one call needs in one step, or nothing: a concurrency slot and one unit
 * of each sliding window.
 *
 * KEYS: the slots' sorted set (holder -> lease deadline) when ARGV[1] is `1`, then one sorted
 * set per window (member -> time taken). ARGV: `1` or `0` (a slot is wanted); when it is,
 * max, leaseMs and holder; then windowMs, max and member for each window.
 *
 * Expired leases and units that left their window are dropped first; then every limit is
 * checked before anything is written. Returns `{0, 0, 0}` when all was taken, `{1, 0, 0}`
 * when every slot is held, `{2, i, ms}` when window `i` (1-based, among the windows) is full
 * and its oldest unit leaves it in `ms` milliseconds.
 */
export const TAKE_SCRIPT = `${NOW}
local slot = ARGV[1] == '1'
local first, a = 1, 2
if slot then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
    return {1, 0, 0}
  end
  first, a = 2, 5
end
for k = first, #KEYS do
  local i = a + (k - first) * 3
  local window = tonumber(ARGV[i])
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now - window)
  if redis.call('ZCARD', KEYS[k]) >= tonumber(ARGV[i + 1]) then
    local oldest = redis.call('ZRANGE', KEYS[k], 0, 0, 'WITHSCORES')
    local wait = window
    if oldest[2] then
      wait = math.max(0, tonumber(oldest[2]) + window - now)
    end
    return {2, k - first + 1, wait}
  end
end
if slot then
  local lease = tonumber(ARGV[3])
  redis.call('ZADD', KEYS[1], now + lease, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], lease * 2)
end
for k = first, #KEYS do
  local i = a + (k - first) * 3
  redis.call('ZADD', KEYS[k], now, ARGV[i + 2])
  redis.call('PEXPIRE', KEYS[k], tonumber(ARGV[i]))
end
return {0, 0, 0}`;

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

/**
 * Frees a slot and, when every slot was held (so that others may be waiting), tells the
 * waiters of every replica. KEYS[1]: the slots' sorted set; ARGV: holder, the channel, the
 * message (the slots' key), max.
 */
export const RELEASE_SCRIPT = `local held = redis.call('ZCARD', KEYS[1])
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 and held >= tonumber(ARGV[4]) then
  redis.call('PUBLISH', ARGV[2], ARGV[3])
end
return 1`;
