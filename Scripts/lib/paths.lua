-- wrk script of bench-api.sh, soak.sh and reliability.sh: sends the request paths of the
-- file PATHS_FILE (one a line) in turn, each thread from its own offset, and counts the
-- answers by class. PAUSE_MS > 0 makes each connection wait that long after each answer
-- (wrk's delay), to hold a rate below the server's most. Ends with one line:
--   RESULT rate= p50= p90= p99= max= (ms) requests= ok= answered_4xx= server_5xx= socket_errors= errors=
-- where errors = socket errors + 5xx answers (a 4xx is an answer, counted apart).
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local pause = tonumber(os.getenv("PAUSE_MS") or "0") or 0
local threads = {}
local counter = 0
function setup(thread)
  thread:set("offset", counter * 7919)
  counter = counter + 1
  table.insert(threads, thread)
end
function init(args)
  i = offset
  ok, client, server = 0, 0, 0
end
if pause > 0 then
  function delay() return pause end
end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
function response(status, headers, body)
  if status >= 500 then server = server + 1 elseif status >= 400 then client = client + 1 else ok = ok + 1 end
end
function done(summary, latency, requests)
  local o, c, s = 0, 0, 0
  for _, t in ipairs(threads) do o = o + t:get("ok"); c = c + t:get("client"); s = s + t:get("server") end
  local sock = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("errors connect=%d read=%d write=%d timeout=%d status=%d\n", summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
  io.write(string.format("RESULT rate=%.1f p50=%.2f p90=%.2f p99=%.2f max=%.2f requests=%d ok=%d answered_4xx=%d server_5xx=%d socket_errors=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, summary.requests, o, c, s, sock, sock + s))
end
