-- One rate-limit check in Redis (crate::state::redis): every window of one subject is
-- checked, and the request is counted in all of them only if all of them admit it, in one
-- atomic step, so no window admits more than its limit across every process together and
-- a refused request uses no quota.
--
-- KEYS[1]: the subject's sliding minute (a hash); KEYS[2]: its sliding day (a hash; API
-- keys) or its calendar-month counter (a string; public subjects).
-- ARGV: now (ms since the epoch), 'k' (key) or 'p' (public), the minute limit, the long
-- window's limit, the end of the current month (ms; public subjects).
-- Returns {refused (0 admitted, 1 minute, 2 day, 3 month), limit, remaining, reset (ms),
-- retry (ms)}, the numbers of crate::limits::Decision.
--
-- A sliding-window hash holds one field per bucket (its index since the epoch: seconds
-- for the minute, minutes for the day) with the requests admitted in it, and 'lo' (no
-- bucket is older), 'hi' (the newest bucket), 'n' (the sum of the buckets); the minute's
-- hash also holds 't', the subject's clock. The window counts the buckets from
-- bucket(t) - span to bucket(t), span + 1 of them, exactly as crate::limits::window does
-- (see its documentation for why no interval of the window's length then ever holds more
-- than the limit). Each hash expires when its newest bucket stops counting, and the month
-- counter at the end of its month: an idle subject leaves nothing behind.

local now = tonumber(ARGV[1])
local is_key = ARGV[2] == 'k'
local minute_limit = tonumber(ARGV[3])
local long_limit = tonumber(ARGV[4])
local month_end = tonumber(ARGV[5])

local function window(key, bucket_ms, span)
  return { key = key, ms = bucket_ms, span = span, n = 0 }
end

-- Reads a window at t, dropping the buckets no longer counted.
local function open(w, t)
  local meta = redis.call('HMGET', w.key, 'lo', 'hi', 'n')
  if not meta[1] then return end
  local lo, hi, n = tonumber(meta[1]), tonumber(meta[2]), tonumber(meta[3])
  local first = math.floor(t / w.ms) - w.span
  if hi < first then
    redis.call('DEL', w.key)
    return
  end
  if lo < first then
    -- At most span + 1 indices: 'lo' never falls further than that behind 'hi'.
    for i = lo, first - 1 do
      local c = redis.call('HGET', w.key, i)
      if c then
        n = n - tonumber(c)
        redis.call('HDEL', w.key, i)
      end
    end
    lo = first
    redis.call('HSET', w.key, 'lo', lo, 'n', n)
  end
  w.lo, w.hi, w.n = lo, hi, n
end

-- Ms from t until at least `need` counted requests have stopped counting.
local function release_in(w, t, need)
  if not w.lo then
    return (math.floor(t / w.ms) + w.span + 1) * w.ms - t
  end
  local freed = 0
  for i = w.lo, w.hi do
    local c = redis.call('HGET', w.key, i)
    if c then
      freed = freed + tonumber(c)
      if freed >= need then return (i + w.span + 1) * w.ms - t end
    end
  end
  return (w.hi + w.span + 1) * w.ms - t
end

-- Counts one request at t.
local function add(w, t)
  local idx = math.floor(t / w.ms)
  redis.call('HINCRBY', w.key, idx, 1)
  local lo, hi = idx, idx
  if w.lo then lo, hi = math.min(w.lo, idx), math.max(w.hi, idx) end
  w.lo, w.hi, w.n = lo, hi, w.n + 1
  redis.call('HSET', w.key, 'lo', lo, 'hi', hi, 'n', w.n)
  redis.call('PEXPIREAT', w.key, (hi + w.span + 1) * w.ms)
end

-- The subject's clock never goes back (processes' clocks differ a little): a request
-- cannot be counted in a bucket already dropped.
local t = now
local last = tonumber(redis.call('HGET', KEYS[1], 't'))
if last and last > t then t = last end

local minute = window(KEYS[1], 1000, 60)
open(minute, t)
-- Shortest window first: ties on "remaining" go to it, and a refusal names the longest
-- exhausted window (the last in this order).
local evals = { { code = 1, limit = minute_limit, used = minute.n, w = minute } }
local day = nil
if is_key then
  day = window(KEYS[2], 60000, 1440)
  open(day, t)
  evals[2] = { code = 2, limit = long_limit, used = day.n, w = day }
else
  evals[2] = { code = 3, limit = long_limit, used = tonumber(redis.call('GET', KEYS[2]) or '0') }
end

local function wait_in(e)
  if e.w then return release_in(e.w, t, e.used + 1 - e.limit) end
  return month_end - t
end

local longest, retry = nil, 0
for i = 1, 2 do
  local e = evals[i]
  if e.used >= e.limit then
    longest = e
    retry = math.max(retry, wait_in(e))
  end
end
if longest then
  return { longest.code, longest.limit, 0, wait_in(longest), retry }
end

add(minute, t)
redis.call('HSET', KEYS[1], 't', t)
if day then
  add(day, t)
else
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIREAT', KEYS[2], month_end)
end
local tight = evals[1]
if evals[2].limit - evals[2].used < tight.limit - tight.used then tight = evals[2] end
local reset
if tight.w then reset = release_in(tight.w, t, 1) else reset = month_end - t end
return { 0, tight.limit, tight.limit - tight.used - 1, reset, 0 }
