// The Lua script that makes one rate-limit decision atomically inside Redis.
//
// KEYS[i]          sorted set of admission timestamps (score = ms) of check i
// ARGV[1]          time in ms, or '' to use the Redis server's TIME (the default: one clock for
//                  every gateway replica, so skew between replicas cannot distort windows)
// ARGV[2]          unique member added on admission (process id + sequence; short to save memory), or ''
//                  to decide without recording anything (a peek)
// ARGV[3]          extra TTL in ms: 0 with server time; with caller time a margin, because the
//                  key's TTL runs on the Redis clock while its scores are on the caller's
// ARGV[2i+2..2i+3] limit and window (ms) of check i
// Returns { allowed (0|1), now, then per key: count, oldestScore|'', blockScore|'' }.
// Scripts that call TIME and then write are replicated by effects (the default since Redis 5).
export const DECIDE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
local n = #KEYS
local allowed = 1
local counts = {}
for i = 1, n do
  local limit = tonumber(ARGV[2 * i + 2])
  local window = tonumber(ARGV[2 * i + 3])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local c = redis.call('ZCARD', KEYS[i])
  counts[i] = c
  if c >= limit then allowed = 0 end
end
local nowText = string.format('%.3f', now)
local out = { allowed, nowText }
for i = 1, n do
  local key = KEYS[i]
  local limit = tonumber(ARGV[2 * i + 2])
  local window = tonumber(ARGV[2 * i + 3])
  local c = counts[i]
  local block = ''
  if c >= limit then
    block = redis.call('ZRANGE', key, c - limit, c - limit, 'WITHSCORES')[2]
  end
  if allowed == 1 and ARGV[2] ~= '' then
    local score = now
    local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]
    if newest and tonumber(newest) > score then score = tonumber(newest) end
    redis.call('ZADD', key, score, ARGV[2])
    redis.call('PEXPIRE', key, math.ceil(score - now + window + tonumber(ARGV[3])))
    c = c + 1
  end
  local oldest = ''
  if c > 0 then oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2] end
  out[#out + 1] = c
  out[#out + 1] = oldest
  out[#out + 1] = block
end
return out
`;
