// The Lua scripts that change budget counters atomically inside Redis (one script runs alone: no other
// command of any replica interleaves), so budgets are exact across every gateway replica.

/**
 * Reserve: checks every counter, then adds the amount to every one, or changes nothing.
 * KEYS[i]      counter i (an integer string; absent = 0)
 * ARGV[1]      the amount (minor units, a positive integer)
 * ARGV[2i]     limit of counter i
 * ARGV[2i+1]   TTL of counter i in ms (until its window ends, plus a margin)
 * Returns { 1 } when reserved, { 0, i, used } naming the first counter without room.
 */
export const RESERVE_SCRIPT = `
local amount = tonumber(ARGV[1])
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used + amount > tonumber(ARGV[2 * i]) then
    return { 0, i, used }
  end
end
for i = 1, #KEYS do
  redis.call('INCRBY', KEYS[i], amount)
  redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1])
end
return { 1 }
`;

/**
 * Release, once per reservation: the mark KEYS[1] is set only if absent; then the amount comes off every
 * counter that still exists (a counter whose window ended has expired and is left alone); one reaching
 * zero is deleted.
 * KEYS[1]      the reservation's release mark
 * KEYS[2..]    the counters
 * ARGV[1]      the amount
 * ARGV[2]      TTL of the mark in ms
 * Returns 1 when released now, 0 when the reservation had already been released.
 */
export const RELEASE_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[2]) then
  return 0
end
local amount = tonumber(ARGV[1])
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if redis.call('DECRBY', KEYS[i], amount) <= 0 then
      redis.call('DEL', KEYS[i])
    end
  end
end
return 1
`;
