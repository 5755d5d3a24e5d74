/**
 * Lua scripts for the queue steps that must be atomic: Redis runs a script as one command, so a
 * message is never in two places (or none) even when several workers race or one dies mid-step.
 * `ARGV` carrying a key prefix builds per-worker key names inside the script (single-node Redis).
 */

/** KEYS: queue, enqueuedAt hash, dedup key. ARGV: payload, nowMs, dedup window ms, use dedup ('1'/'0'). */
export const ENQUEUE = `
if ARGV[4] == '1' then
  if not redis.call('SET', KEYS[3], '1', 'PX', ARGV[3], 'NX') then return 0 end
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/**
 * KEYS: in-flight list, retry set. ARGV: payload, retry payload, due ms. Only a message still in
 * flight moves: one already recovered by another worker must not come back twice.
 */
export const RETRY_LATER = `
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return 1`;

/** KEYS: in-flight list, dead-letter list. ARGV: payload, entry. Same rule as RETRY_LATER. */
export const DEAD_LETTER = `
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[2])
return 1`;

/** KEYS: queue, retry set, enqueuedAt hash. ARGV: nowMs. */
export const PROMOTE_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, message in ipairs(due) do
  redis.call('ZREM', KEYS[2], message)
  redis.call('LPUSH', KEYS[1], message)
  redis.call('HSETNX', KEYS[3], message, ARGV[1])
end
return #due`;

/**
 * KEYS: workers set, queue, enqueuedAt hash. ARGV: key base ('<ns>e2e:report:'), nowMs, a worker
 * id to retire unconditionally ('' for none). Re-queued messages go to the front of the line.
 */
export const RECOVER = `
local moved = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if id == ARGV[3] or redis.call('EXISTS', ARGV[1] .. 'worker:' .. id) == 0 then
    local list = ARGV[1] .. 'processing:' .. id
    while true do
      local message = redis.call('LMOVE', list, KEYS[2], 'LEFT', 'RIGHT')
      if not message then break end
      redis.call('HSETNX', KEYS[3], message, ARGV[2])
      moved = moved + 1
    end
    redis.call('SREM', KEYS[1], id)
    redis.call('DEL', ARGV[1] .. 'worker:' .. id)
  end
end
return moved`;

/** KEYS: lock. ARGV: owner, ttl ms. */
export const EXTEND_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** KEYS: lock. ARGV: owner. */
export const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** KEYS: queue, retry set, dead-letter list, workers set, enqueuedAt hash. ARGV: key base. */
export const STATS = `
local inflight = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  inflight = inflight + redis.call('LLEN', ARGV[1] .. 'processing:' .. id)
end
local oldest = redis.call('LINDEX', KEYS[1], -1)
local at = false
if oldest then at = redis.call('HGET', KEYS[5], oldest) end
return {redis.call('LLEN', KEYS[1]), inflight, redis.call('ZCARD', KEYS[2]), redis.call('LLEN', KEYS[3]), at}`;

/** KEYS: dead-letter list, queue, enqueuedAt hash. ARGV: nowMs. Unreadable entries stay. */
export const REPLAY_DEAD_LETTERS = `
local entries = redis.call('LRANGE', KEYS[1], 0, -1)
local keep = {}
local count = 0
for i = #entries, 1, -1 do
  local ok, entry = pcall(cjson.decode, entries[i])
  if ok and type(entry) == 'table' and type(entry.message) == 'string' then
    redis.call('LPUSH', KEYS[2], entry.message)
    redis.call('HSETNX', KEYS[3], entry.message, ARGV[1])
    count = count + 1
  else
    table.insert(keep, entries[i])
  end
end
redis.call('DEL', KEYS[1])
for i = 1, #keep do redis.call('LPUSH', KEYS[1], keep[i]) end
return count`;

/** KEYS: queue, retry set, workers set. ARGV: key base. Waiting, in-flight and retry messages. */
export const HELD_MESSAGES = `
local held = redis.call('LRANGE', KEYS[1], 0, -1)
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  for _, message in ipairs(redis.call('LRANGE', ARGV[1] .. 'processing:' .. id, 0, -1)) do
    table.insert(held, message)
  end
end
for _, message in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do table.insert(held, message) end
return held`;
