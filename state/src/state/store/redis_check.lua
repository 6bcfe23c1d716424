-- One rate-limit check in Redis (crate::state::store::redis): reads and counts one subject's
-- windows in one atomic step, so no window admits more than its limit across every process
-- together and a refused request uses no quota. It only counts: the decision (which window
-- answers, its headers) is made from its answer by crate::limits::rules, as for the sled
-- store. The windows' geometry (the names in braces below) is written in by the Rust code
-- from crate::limits::window::Span.
--
-- KEYS[1]: the subject's hash: its sliding minute, its clock and, for an API key, its
-- sliding day. KEYS[2] (public subjects only): the hash holding its calendar-month count.
-- ARGV: now (ms since the epoch), 'k' (key) or 'p' (public), the minute limit, the long
-- window's limit, the end of the current month (ms) and the subject's field in the month
-- hash (public subjects).
-- Returns {the subject's clock t (ms), the minute's requests before this one, the minute's
-- releasing bucket, the same two of the long window (a month has no bucket: 0)}. A
-- window's releasing bucket is the one whose end of counting leaves as many of its
-- requests released as crate::limits::rules::WindowCount::releases_needed says, this
-- request included when it was counted. Or {t, -1}, nothing done, when t is past the month
-- the caller named (see below).
--
-- A sliding window with prefix P ('m' for the minute, 'd' for the day) is the fields
-- P<index> (the requests admitted in one bucket: the index of the second or minute since
-- the epoch), P:lo (no bucket is older), P:hi (the newest bucket) and P:n (their sum); 't'
-- is the subject's clock. The window counts the buckets from bucket(t) - span to
-- bucket(t), span + 1 of them, exactly as crate::limits::window does (see its
-- documentation for why no interval of the window's length then ever holds more than the
-- limit). The subject's hash expires when its newest bucket stops counting, a month hash
-- at the end of its month: an idle subject leaves nothing behind.
--
-- Cost: a write costs Redis several times a read (it is propagated to the append-only
-- file), so an admitted request writes the subject's hash once (one HSET of every field
-- that changed) and the month once; PEXPIREAT only when the newest bucket changes.
--
-- Order: the reads first, then the writes that Redis refuses when it is out of memory (the
-- month, then the subject's hash), then the deletions. A script stopped by an error keeps
-- the writes made before it: a full Redis stops this one before its first write, and an
-- error between two writes can at worst count a request in the month and not in the minute
-- (more careful, never less); a window's sum never loses its buckets.

local now = tonumber(ARGV[1])
local is_key = ARGV[2] == 'k'
local minute_limit = tonumber(ARGV[3])
local long_limit = tonumber(ARGV[4])
local month_end = tonumber(ARGV[5])
local month_field = ARGV[6]
local key = KEYS[1]

local MINUTE = { p = 'm', ms = {minute_bucket_ms}, span = {minute_buckets} }
local DAY = { p = 'd', ms = {day_bucket_ms}, span = {day_buckets} }

-- The fields read at once: the clock, then per window its meta fields and the bucket of now.
local fields = { 't' }
local windows = { MINUTE }
if is_key then windows[2] = DAY end
for _, g in ipairs(windows) do
  local p = g.p
  fields[#fields + 1] = p .. ':lo'
  fields[#fields + 1] = p .. ':hi'
  fields[#fields + 1] = p .. ':n'
  fields[#fields + 1] = p .. math.floor(now / g.ms)
end
local got = redis.call('HMGET', key, unpack(fields))
-- Fields to delete, after every other write.
local dels = {}

-- The subject's clock never goes back (processes' clocks differ a little): a request
-- cannot be counted in a bucket already dropped.
local t = now
local last = tonumber(got[1])
if last and last > t then t = last end

-- A public request counts in the month of the subject's clock. When that clock is past the
-- month the caller named (the caller's clock is behind), nothing is done: {t, -1} asks the
-- caller to try again with the month of t.
if not is_key and t >= month_end then return { t, -1 } end

-- Window i read at t, dropping the buckets no longer counted (deleted at the end) and
-- moving 'lo' to the oldest bucket left, so that the oldest is found with one read.
local function open(i, g)
  local at = 2 + (i - 1) * 4
  local w = { p = g.p, ms = g.ms, span = g.span, n = 0, idx = math.floor(t / g.ms) }
  -- The bucket of t is nearly always the bucket of now, read above with its name.
  w.field, w.count = fields[at + 3], tonumber(got[at + 3]) or 0
  if w.idx ~= math.floor(now / g.ms) then
    w.field = w.p .. w.idx
    w.count = tonumber(redis.call('HGET', key, w.field)) or 0
  end
  if not got[at] then return w end
  local lo, hi, n = tonumber(got[at]), tonumber(got[at + 1]), tonumber(got[at + 2])
  local first = w.idx - g.span
  if lo < first then
    -- At most span + 1 indices: 'lo' never falls further than that behind 'hi'.
    while lo <= hi do
      local c = redis.call('HGET', key, w.p .. lo)
      if c and lo >= first then break end
      if c then
        n = n - tonumber(c)
        dels[#dels + 1] = w.p .. lo
      end
      lo = lo + 1
    end
    w.pruned = true
  end
  if hi < first then return w end
  w.lo, w.hi, w.n = lo, hi, n
  return w
end

-- The bucket whose release leaves at least `need` counted requests released (the bucket of
-- t when none is counted). For one, that is 'lo' (see open), read all the same: a process
-- of an earlier release may have left 'lo' on a bucket already dropped.
local function releasing_bucket(w, need)
  if not w.lo then return w.idx end
  local freed = 0
  for b = w.lo, w.hi do
    local c = redis.call('HGET', key, w.p .. b)
    if c then
      freed = freed + tonumber(c)
      if freed >= need then return b end
    end
  end
  return w.hi
end

-- The fields of window w that change (after pruning, and with one more request if `add`):
-- only those, as every number written is formatted and logged to the append-only file.
local function changes(w, add, out)
  local moved = w.pruned
  if add then
    out[#out + 1] = w.field
    out[#out + 1] = w.count + 1
    w.n = w.n + 1
    if not w.lo or w.idx < w.lo then
      w.lo, moved = w.idx, true
    end
    if not w.hi or w.idx > w.hi then
      w.hi = w.idx
      out[#out + 1] = w.p .. ':hi'
      out[#out + 1] = w.hi
    end
    out[#out + 1] = w.p .. ':n'
    out[#out + 1] = w.n
  elseif not moved then
    return
  elseif not w.lo then
    -- Nothing counted any more: the meta fields go (their buckets are gone already).
    dels[#dels + 1] = w.p .. ':lo'
    dels[#dels + 1] = w.p .. ':hi'
    dels[#dels + 1] = w.p .. ':n'
    return
  else
    out[#out + 1] = w.p .. ':n'
    out[#out + 1] = w.n
  end
  if moved then
    out[#out + 1] = w.p .. ':lo'
    out[#out + 1] = w.lo
  end
end

local minute = open(1, MINUTE)
minute.limit, minute.used = minute_limit, minute.n
local long = { limit = long_limit }
if is_key then
  long = open(2, DAY)
  long.limit, long.used = long_limit, long.n
else
  long.used = tonumber(redis.call('HGET', KEYS[2], month_field) or '0')
end

-- The one rule applied here, as it must be in the same atomic step as the counting: a
-- request is counted in every window or in none (crate::limits::rules::admits).
local admitted = minute.used < minute.limit and long.used < long.limit

local out = {}
if admitted then
  if not is_key then
    redis.call('HINCRBY', KEYS[2], month_field, 1)
    -- Every count in this hash ends with the month: set by each subject's first count.
    if long.used == 0 then redis.call('PEXPIREAT', KEYS[2], month_end) end
  end
  -- The clock as given when it did not move back (no number to format).
  out = { 't', t == now and ARGV[1] or t }
end
local newest = is_key and long or minute
local old_hi = newest.hi
changes(minute, admitted, out)
if is_key then changes(long, admitted, out) end
if #out > 0 then redis.call('HSET', key, unpack(out)) end
if #dels > 0 then redis.call('HDEL', key, unpack(dels)) end
-- The hash lives until its longest window's newest bucket stops counting.
if admitted and newest.hi ~= old_hi then
  redis.call('PEXPIREAT', key, (newest.hi + newest.span + 1) * newest.ms)
end

-- As many requests as crate::limits::rules::WindowCount::releases_needed says.
local function release(w)
  if not w.p then return 0 end
  return releasing_bucket(w, math.max(1, w.used + 1 - w.limit))
end
return { t, minute.used, release(minute), long.used, release(long) }
