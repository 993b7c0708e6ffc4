#!/usr/bin/env bash
# The HTTP API under load: wrk (Debian) against the release `transit serve` on the largest
# shared feed (bydgoszcz-2020), with plan requests made from the same seeded random queries
# that `transit bench` times in process; and, in the same run, that in-process figure.
#
#   Scripts/bench-api.sh                         16 connections, 3 runs of 30 s, 1000 queries
#   CONNECTIONS=32 DURATION=60s RUNS=5 Scripts/bench-api.sh [FEED.zip]
#
# Each wrk run is paired with an in-process pass of `transit bench --kind answer` just
# before it (the server idle meanwhile): this machine's speed drifts by ±15% within
# minutes, so a run is compared with a pass taken under the same conditions. Prints
# requests/s, p50/p99 latency and errors (socket errors and 5xx; 4xx answers such as
# NO_CONNECTION are answers, counted apart) of each run and their medians, the in-process
# `answer` rate on one core and on all (median of the passes), and the ratio of each run's
# throughput to (its pass's one-core rate × cores) with their median. Exits 3 when a
# target is missed (median ratio >= 0.60, median p99 < 50 ms, no errors).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
connections="${CONNECTIONS:-16}"
duration="${DURATION:-30s}"
queries="${QUERIES:-1000}"
threads="${WRK_THREADS:-2}"
runs="${RUNS:-3}"

Scripts/setup.sh
. Scripts/lib/serve.sh
ensure_wrk
started_pg=0
if ! Scripts/postgres.sh status >/dev/null 2>&1; then started_pg=1; fi
eval "$(Scripts/postgres.sh start)"
work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    rm -rf "$work"
    if [ "$started_pg" = 1 ]; then Scripts/postgres.sh stop; fi
}
trap cleanup EXIT
if [ -z "${TRANSIT_BIN:-}" ]; then
    echo "==> release build" >&2
    swift build -c release --product transit >&2
fi
bin="${TRANSIT_BIN:-$root/.build/release/transit}"

psql -q "$DATABASE_URL" -c "DROP DATABASE IF EXISTS transit_bench_api WITH (FORCE)" -c "CREATE DATABASE transit_bench_api"
export DATABASE_URL="${DATABASE_URL/\/transit\?//transit_bench_api?}"
id=$(basename "$feed" .zip)
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null

echo "==> in process: transit bench --kind answer ($queries queries; also writes them as /v1/plan paths)" >&2
"$bin" bench --feed "$id" --queries "$queries" --kind answer --urls "$work/paths.txt" | tee "$work/bench-1.txt"

echo "==> serve" >&2
# wrk sends hundreds of plans a second from one address: lift the per-client limit.
start_server "$bin" "$work/serve.log" --plan-rate 0

cat > "$work/plan.lua" <<'LUA'
-- Cycles through the paths (each thread from its own offset) and counts answers by class.
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
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
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + s
  io.write(string.format("RESULT requests_per_s=%.1f p50_ms=%.2f p99_ms=%.2f requests=%d ok=%d answered_4xx=%d server_5xx=%d socket_errors=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, o, c, s, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, errors))
end
LUA

echo "==> warm-up (5 s), then $runs runs of wrk -t$threads -c$connections -d$duration" >&2
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d5s -s "$work/plan.lua" "http://127.0.0.1:$port" >/dev/null
for run in $(seq 1 "$runs"); do
    if [ "$run" -gt 1 ]; then
        echo "==> in process, pass $run" >&2
        "$bin" bench --feed "$id" --queries "$queries" --kind answer | tee "$work/bench-$run.txt"
    fi
    PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d"$duration" --latency -s "$work/plan.lua" "http://127.0.0.1:$port" | tee "$work/wrk-$run.txt"
done
kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
grep -q "internal error" "$work/serve.log" && { echo "the server logged internal errors:" >&2; grep "internal error" "$work/serve.log" | head >&2; }

# Medians over the runs and passes: the machine is shared and noisy.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { for run in $(seq 1 "$runs"); do grep -h '^RESULT' "$work/wrk-$run.txt" | sed -E "s/.*[ ]$1=([0-9.]+).*/\1/"; done; }
cores=$(nproc)
pass() { for run in $(seq 1 "$runs"); do awk -v t="$1" '$1 == "answer" && $2 == t { print $6 }' "$work/bench-$run.txt"; done; }
rps=$(field requests_per_s | median)
p50=$(field p50_ms | median)
p99=$(field p99_ms | median)
errors=$(field errors | awk '{ s += $1 } END { print s }')
answered4xx=$(field answered_4xx | awk '{ s += $1 } END { print s }')
one=$(pass 1 | median)
all=$(pass "$cores" | median)
ratios=$(paste <(field requests_per_s) <(pass 1) | awk -v c="$cores" '{ printf "%.2f\n", $1 / ($2 * c) }')
ratio=$(echo "$ratios" | median)
echo
echo "feed $id, $connections connections, $runs runs of $duration, $cores cores (wrk on the same machine)"
echo "server runs:   $(field requests_per_s | tr '\n' ' ')requests/s; p99 $(field p99_ms | tr '\n' ' ')ms"
echo "in process:    answer on 1 core before each run: $(pass 1 | tr '\n' ' ')queries/s; on $cores: $(pass "$cores" | tr '\n' ' ')"
echo "server median: $rps requests/s, p50 $p50 ms, p99 $p99 ms; errors in all runs $errors ($answered4xx answered with a 4xx reason)"
echo "in process:    answer, median of $runs passes: $one queries/s on 1 core, $all on $cores"
echo "run / (its pass's one-core rate x $cores cores): $(echo "$ratios" | tr '\n' ' ')"
awk -v ratio="$ratio" -v c="$cores" -v p99="$p99" -v e="$errors" 'BEGIN {
    printf "median throughput ratio %.2f (target >= 0.60); p99 %s ms (target < 50); errors %d (target 0)\n", ratio, p99, e
    exit (ratio >= 0.6 && p99 < 50 && e == 0) ? 0 : 3
}' || { echo "bench-api.sh: a target is missed" >&2; exit 3; }
