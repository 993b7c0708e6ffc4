#!/usr/bin/env bash
# Soak test: the release `transit serve` on the largest shared feed (bydgoszcz-2020) under a
# steady mix of API requests for 10 minutes, measured minute by minute.
#
#   Scripts/soak.sh [FEED.zip]
#   RATE=300 MINUTES=10 WINDOW=60 CONNECTIONS=16 Scripts/soak.sh
#   STEADY_FACTOR=1.5 STEADY_SLACK_MS=2 QUERIES=400
#
# The mix (seeded, 4,000 requests cycled): 60% plans (the seeded random queries of
# `transit bench --kind answer`), 15% stop searches by name (some with a typo), 10% stops
# near a point, 10% a stop's departures, 5% health and coverage. RATE (requests/s, default
# 300) is about half of what Scripts/bench-api.sh measured the server to sustain on this
# 2-core machine (620–690 plans/s with wrk beside it): a service is run with headroom, and
# the point here is whether it holds steady, not how fast it goes. wrk paces each of the
# CONNECTIONS connections with a pause after each answer, so the rate reached is a little
# under RATE; it is printed.
#
# Each minute is one wrk run against the same server process; after each, the server's
# resident memory is read from /proc. Targets (exit 3 when one is missed):
#   - zero errors: no socket error, no 5xx, no "internal error" in the server's log
#     (4xx answers such as NO_CONNECTION are answers and counted apart);
#   - memory bound: resident memory never above its value after the first minute + 10%
#     + 16 MB (the first minute warms the allocator and the caches);
#   - steady: the last minute's p50 and p99 within STEADY_FACTOR × (+ STEADY_SLACK_MS) of
#     the first minute's (1.5× + 2 ms);
#   - kept up: every minute reached at least 80% of RATE.
# JUDGE_TIMING=0 leaves out the last two (latency and rate are still printed): for a short
# soak on a debug build on a shared machine (Scripts/test.sh), where timing says little and
# only errors and memory are judged.
# Prints one line per minute and a summary; the last line starts with SOAK (for
# Scripts/reliability.sh). TRANSIT_BIN=PATH uses that binary instead of a release build.
# The request mix, wrk's output per minute and the server's log stay in .build-soak/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
rate="${RATE:-300}"
minutes="${MINUTES:-10}"
window="${WINDOW:-60}"
connections="${CONNECTIONS:-16}"
steady_factor="${STEADY_FACTOR:-1.5}"
steady_slack="${STEADY_SLACK_MS:-2}"
judge_timing="${JUDGE_TIMING:-1}"
queries="${QUERIES:-400}"
label=$([ "$window" = 60 ] && echo minute || echo window)

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
ensure_wrk
work="$root/.build-soak"
rm -rf "$work"
mkdir -p "$work"
server_pid=""
cleanup() {
    stop_server
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
fresh_database transit_soak
id=$(basename "$feed" .zip)
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null

echo "==> the request mix" >&2
"$bin" bench --feed "$id" --queries "$queries" --kind answer --urls "$work/plans.txt" >/dev/null
psql -At -F $'\t' "$DATABASE_URL" -c "SELECT stop_id, stop_name, stop_lat, stop_lon FROM gtfs.stops WHERE feed_id = '$id' AND stop_lat IS NOT NULL ORDER BY stop_id" > "$work/stops.tsv"
python3 - "$work/plans.txt" "$work/stops.tsv" "$id" > "$work/paths.txt" <<'PY'
import random, sys, urllib.parse
plans = [l.strip() for l in open(sys.argv[1]) if l.strip()]
stops = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
feed = sys.argv[3]
rng = random.Random(20261122)
q = lambda s: urllib.parse.quote(s, safe="")
for i in range(4000):
    r = rng.random()
    sid, name, lat, lon = rng.choice(stops)
    if r < 0.60:
        print(rng.choice(plans))
    elif r < 0.75:
        word = name if rng.random() < 0.7 else name[:-1] if len(name) > 4 else name   # a typo: the last letter lost
        print(f"/v1/stops?query={q(word)}")
    elif r < 0.85:
        print(f"/v1/stops?near={float(lat) + rng.uniform(-0.002, 0.002):.5f},{float(lon) + rng.uniform(-0.002, 0.002):.5f}&radius={rng.choice([300, 500, 1000])}")
    elif r < 0.95:
        print(f"/v1/stops/{q(sid)}?feed={q(feed)}&limit={rng.choice([5, 10, 20])}")
    else:
        print(rng.choice(["/v1/health", "/v1/coverage"]))
PY

echo "==> serve" >&2
# One address sends everything: lift the per-client limit on plans.
start_server "$bin" "$work/serve.log" --plan-rate 0
# Coverage regions are worked out after the timetable is served (503 NOT_READY meanwhile):
# the clock starts once the server answers everything.
for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/v1/coverage" >/dev/null && break
    sleep 0.2
done
# Every request of the mix once before the clock starts: a path that fails fails here too.
bad=$(awk -v base="http://127.0.0.1:$port" '{ print base $0 }' "$work/paths.txt" | head -400 |
    xargs -n 50 curl -s -o /dev/null -w '%{http_code}\n' | grep -cE '^(5..|000)$' || true)
[ "$bad" = 0 ] || echo "soak.sh: $bad of the first 400 requests failed before the soak" >&2

# Pause after each answer so that CONNECTIONS connections send RATE requests/s in all.
# less the typical answer time (about 5 ms), which is part of each connection's cycle
pause_ms=$(awk -v c="$connections" -v r="$rate" 'BEGIN { p = c * 1000 / r - 5; printf "%d", (p > 0 ? p : 0) }')
rss_mb() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status"; }
echo "==> $minutes × ${window} s at $rate requests/s ($connections connections, ${pause_ms} ms pause after each answer); RSS before: $(rss_mb) MB" >&2
: > "$work/minutes.txt"
for m in $(seq 1 "$minutes"); do
    PATHS_FILE="$work/paths.txt" PAUSE_MS="$pause_ms" wrk -t2 -c"$connections" -d"${window}s" -s Scripts/lib/paths.lua "http://127.0.0.1:$port" > "$work/wrk-$m.txt"
    kill -0 "$server_pid" 2>/dev/null || { echo "soak.sh: the server died in minute $m" >&2; tail -20 "$work/serve.log" >&2; exit 1; }
    line="$(grep '^RESULT' "$work/wrk-$m.txt") rss=$(rss_mb)"
    echo "minute=$m $line" >> "$work/minutes.txt"
    echo "$m $line" | awk -v label="$label" '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%s %2d: %6.1f req/s  p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %7.2f ms  errors %d  4xx %d  RSS %d MB\n",
            label, $1, v["rate"], v["p50"], v["p90"], v["p99"], v["max"], v["server_5xx"] + v["socket_errors"], v["answered_4xx"], v["rss"] }'
done
stop_server
internal=$(grep -c "internal error" "$work/serve.log" || true)

awk -v target="$rate" -v internal="$internal" -v f="$steady_factor" -v slack="$steady_slack" -v label="$label" -v timing="$judge_timing" '
{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  m = NR; rate[m] = v["rate"]; p50[m] = v["p50"]; p99[m] = v["p99"]; rss[m] = v["rss"]
  requests += v["requests"]; errors += v["server_5xx"] + v["socket_errors"]; answered += v["answered_4xx"]
  if (v["rate"] < slowest || m == 1) slowest = v["rate"]
  if (m > 1 && v["rss"] > rssmax) rssmax = v["rss"] }
END {
  if (m < 2) rssmax = rss[1]
  bound = rss[1] * 1.10 + 16
  okerr = (errors == 0 && internal == 0)
  okmem = (rssmax <= bound)
  oksteady = (p50[m] <= f * p50[1] + slack && p99[m] <= f * p99[1] + slack)
  okrate = (slowest >= 0.8 * target)
  if (timing == 0) { oksteady = 1; okrate = 1 }
  printf "\n%d requests in %d %ss, %d answered with a 4xx reason; errors %d, internal errors logged %d (target 0)\n", requests, m, label, answered, errors, internal
  printf "memory: RSS %d MB after %s 1, at most %d MB afterwards (bound %.0f MB)\n", rss[1], label, rssmax, bound
  printf "latency: %s 1 p50 %.2f ms p99 %.2f ms; %s %d p50 %.2f ms p99 %.2f ms (%s)\n", label, p50[1], p99[1], label, m, p50[m], p99[m], (timing == 0 ? "not judged" : "bound " f "x + " slack " ms")
  printf "rate: slowest %s %.1f requests/s (%s)\n", label, slowest, (timing == 0 ? "not judged" : sprintf("target >= %.0f", 0.8 * target))
  verdict = (okerr && okmem && oksteady && okrate) ? "ok" : "FAIL"
  printf "SOAK verdict=%s minutes=%d rate=%s requests=%d errors=%d rss_first=%d rss_max=%d p50_first=%.2f p50_last=%.2f p99_first=%.2f p99_last=%.2f slowest=%.1f\n",
    verdict, m, target, requests, errors + internal, rss[1], rssmax, p50[1], p50[m], p99[1], p99[m], slowest
  exit verdict == "ok" ? 0 : 3
}' "$work/minutes.txt" || { echo "soak.sh: a target is missed" >&2; exit 3; }
