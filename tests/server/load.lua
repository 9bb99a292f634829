-- load.lua: the request mix that load.sh sends with wrk to `errata serve`.
--
--   70%  POST /api/v1/lookup, JSON body holding a 40-line pytest trace
--   10%  GET  /api/v1/lookup?q=<the seed error>
--   10%  POST /api/v1/lookup with JSON that does not parse or has the wrong shape   (400)
--    5%  GET  /api/v1/records/<an unknown id>                                       (404)
--    5%  invalid UTF-8 in q or in a JSON body (400), and bodies over 1 MiB          (413)
--
-- With the script argument "trace" (wrk ... -s load.lua URL -- trace) every request is the
-- trace lookup: the pure run whose throughput and latency load.sh reports.
-- done() prints one line per status seen ("status 200: N") and "unexpected: N", the number of
-- answers whose status is none of 200, 400, 404, 413.

local TRACE = [==[
============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.1, pluggy-1.5.0
rootdir: /home/ci/work/inventory-service
configfile: pyproject.toml
plugins: cov-5.0.0, asyncio-0.23.7, mock-3.14.0
collected 48 items

tests/test_api.py ..........                                             [ 20%]
tests/test_models.py ...............                                     [ 52%]
tests/test_orders.py ....F.....                                          [ 72%]
tests/test_stock.py .............                                        [100%]

=================================== FAILURES ===================================
________________________ test_order_total_with_discount ________________________

client = <starlette.testclient.TestClient object at 0x7f3a2c1d5e10>
db_session = <sqlalchemy.orm.session.Session object at 0x7f3a2c1d6a90>

    def test_order_total_with_discount(client, db_session):
        order = create_order(db_session, items=[("SKU-1", 2), ("SKU-7", 1)])
>       total = compute_total(order, coupon=lookup_coupon(db_session, "SPRING24"))

tests/test_orders.py:57:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

order = <Order id=12 status='open'>, coupon = None

    def compute_total(order, coupon=None):
        subtotal = sum(line.price * line.quantity for line in order.lines)
>       rate = coupon.get("rate", 0)
E       AttributeError: 'NoneType' object has no attribute 'get'

inventory/pricing.py:31: AttributeError
=============================== warnings summary ===============================
tests/test_stock.py::test_reorder_threshold
  /home/ci/work/inventory-service/inventory/stock.py:88: DeprecationWarning: datetime.datetime.utcnow() is deprecated
-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_orders.py::test_order_total_with_discount - AttributeError: 'NoneType' object has no attribute 'get'
========================= 1 failed, 47 passed in 3.42s =========================
]==]

local SEED = "RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"

local function json_string(s)
  s = s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' end
    if c == '\\' then return '\\\\' end
    if c == '\n' then return '\\n' end
    if c == '\t' then return '\\t' end
    if c == '\r' then return '\\r' end
    return string.format('\\u%04x', c:byte())
  end)
  return '"' .. s .. '"'
end

local function urlencode(s)
  return (s:gsub('[^%w%-%._~]', function(c) return string.format('%%%02X', c:byte()) end))
end

local JSON = { ["Content-Type"] = "application/json" }
local PLAIN = { ["Content-Type"] = "text/plain" }

local trace_req, seed_req
local bad_json, unknown, bad_utf8, oversized = {}, {}, {}, {}
local mode = "mix"

function init(args)
  if args[1] == "trace" then
    mode = "trace"
    response = nil -- no per-answer callback: the pure run measures the server, not this script
  end
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 100000)

  trace_req = wrk.format("POST", "/api/v1/lookup", JSON,
    '{"text": ' .. json_string(TRACE) .. ', "limit": 3}')
  seed_req = wrk.format("GET", "/api/v1/lookup?q=" .. urlencode(SEED) .. "&limit=3")

  local broken = {
    '{"text": "unterminated',
    '{"text": ' .. json_string(TRACE:sub(1, 400)),
    '{"text": "x", "limit": }',
    '{"text": 42}',
    '["not", "an", "object"]',
    '{"items": [{"text": "x"}]',
    'null',
    '{"text": "a",,}',
  }
  for i, b in ipairs(broken) do
    local path = (i == 6) and "/api/v1/lookup/batch" or "/api/v1/lookup"
    bad_json[#bad_json + 1] = wrk.format("POST", path, JSON, b)
  end

  for i = 1, 16 do
    unknown[#unknown + 1] = wrk.format("GET", "/api/v1/records/python/no-such-record-" .. i)
  end
  unknown[#unknown + 1] = wrk.format("GET", "/api/v1/records/nope")
  unknown[#unknown + 1] = wrk.format("GET", "/api/v1/chain/rust/no-such-record")

  bad_utf8[#bad_utf8 + 1] = wrk.format("GET", "/api/v1/lookup?q=%FF")
  bad_utf8[#bad_utf8 + 1] = wrk.format("GET", "/api/v1/lookup?q=caf%C3%28%E9")
  bad_utf8[#bad_utf8 + 1] = wrk.format("POST", "/api/v1/lookup", JSON, '{"text": "bad \255\254 bytes"}')
  bad_utf8[#bad_utf8 + 1] = wrk.format("GET", "/api/v1/search?q=%C0%AF")
  -- just over the default --max-body of 1 MiB
  oversized[1] = wrk.format("POST", "/api/v1/lookup", PLAIN, string.rep("E", 1024 * 1024 + 1))
  oversized[2] = wrk.format("POST", "/api/v1/lookup", JSON,
    '{"text": "' .. string.rep("x", 1024 * 1024) .. '"}')
end

local function pick(list) return list[math.random(#list)] end

function request()
  if mode == "trace" then return trace_req end
  local r = math.random(100)
  if r <= 70 then return trace_req end
  if r <= 80 then return seed_req end
  if r <= 90 then return pick(bad_json) end
  if r <= 95 then return pick(unknown) end
  -- invalid UTF-8 and oversized bodies, half and half
  if math.random(2) == 1 then return pick(bad_utf8) end
  return pick(oversized)
end

statuses = {}

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function done(summary, latency, requests)
  local total, expected = {}, { [200] = true, [400] = true, [404] = true, [413] = true }
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses") or {}) do
      total[status] = (total[status] or 0) + n
    end
  end
  local keys, unexpected = {}, 0
  for status, n in pairs(total) do
    keys[#keys + 1] = status
    if not expected[status] then unexpected = unexpected + n end
  end
  table.sort(keys)
  for _, status in ipairs(keys) do
    io.write(string.format("status %d: %d\n", status, total[status]))
  end
  io.write(string.format("unexpected: %d\n", unexpected))
  io.write(string.format("p50_ms: %.3f\n", latency:percentile(50) / 1000))
  io.write(string.format("p90_ms: %.3f\n", latency:percentile(90) / 1000))
  io.write(string.format("p99_ms: %.3f\n", latency:percentile(99) / 1000))
  io.write(string.format("max_ms: %.3f\n", latency.max / 1000))
  io.write(string.format("requests_per_s: %.1f\n", summary.requests / (summary.duration / 1e6)))
end
