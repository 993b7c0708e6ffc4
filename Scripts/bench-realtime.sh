#!/usr/bin/env bash
# GTFS-Realtime benchmarks (issue 21) on the largest shared feed (bydgoszcz-2020) with
# generated TripUpdates messages (`realtime-messages`: the generator of the randomized
# comparison with the reference: delays that make trips overtake, absolute times,
# NO_DATA, SKIPPED stops, cancellations, added and unknown trips, times going backwards):
#
# 1. In process (`transit bench --realtime`): building a message's overlay and its router
#    and swapping it in, median of 5 (target: at most 100 ms), and the p50 latency of the
#    same queries with realtime on and off, in the same run (target: on within 1.2x of off).
# 2. Under load: `transit serve` polls a local URL every second whose message is replaced
#    every second by another of the same size (4 seeds in turn), while wrk sends the plan
#    requests of `transit bench --urls`; then the same with the message held still. Every
#    request must answer (no socket error, no 5xx), and the swaps must have happened
#    (`/v1/health` realtimeState.swaps); p50/p99/max are printed side by side.
#
#   Scripts/bench-realtime.sh                                   10,000 updates, 2 x 30 s
#   UPDATES=20000 DURATION=60s CONNECTIONS=16 Scripts/bench-realtime.sh [FEED.zip]
#
# Exits 3 when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
updates="${UPDATES:-10000}"
queries="${QUERIES:-1000}"
duration="${DURATION:-30s}"
connections="${CONNECTIONS:-8}"
threads="${WRK_THREADS:-2}"

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
ensure_wrk
work=$(mktemp -d)
server_pid=""
http_pid=""
swapper_pid=""
cleanup() {
    [ -n "$swapper_pid" ] && kill "$swapper_pid" 2>/dev/null || true
    [ -n "$http_pid" ] && kill "$http_pid" 2>/dev/null || true
    stop_server
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
echo "==> release build of realtime-messages" >&2
swift build -c release --product realtime-messages >&2
gen="$root/.build/release/realtime-messages"
id=$(basename "$feed" .zip)

fresh_database transit_bench_realtime
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null
# The queries of the load test, on the feed's busiest day; the messages are for that day.
"$bin" bench --feed "$id" --queries "$queries" --kind answer --urls "$work/paths.txt" >"$work/plain.txt"
day=$(grep -oE 'busiest day [0-9-]+' "$work/plain.txt" | head -1 | awk '{ print $3 }')
echo "==> 4 messages of $updates trip updates for $id on $day" >&2
"$gen" "$feed" --feed-id "$id" --date "$day" --updates "$updates" --count 4 --out "$work/message" >&2

echo "==> in process: transit bench --realtime ($queries queries of each kind)" >&2
"$bin" bench --feed "$id" --queries "$queries" --realtime "$id=$work/message-1.pb" | tee "$work/inprocess.txt"
# What skipped stops cost (each trip that skips stops runs as a route of its own): the
# same message without them, for comparison (not judged).
"$gen" "$feed" --feed-id "$id" --date "$day" --updates "$updates" --no-skips --out "$work/no-skips.pb" >&2
"$bin" bench --feed "$id" --queries "$queries" --realtime "$id=$work/no-skips.pb" | tee "$work/no-skips.txt"

echo "==> serve, polling a local URL every second" >&2
mkdir -p "$work/www"
cp "$work/message-1.pb" "$work/www/updates.pb"
serve_files "$work/www"
url="$files_url/updates.pb"
# The recorded messages are old: accept any age (the age check has its own tests).
start_server "$bin" "$work/serve.log" --plan-rate 0 --realtime "$id=$url" --realtime-poll 1 --realtime-max-age 1000000000
swaps() { curl -sf "http://127.0.0.1:$port/v1/health" | python3 -c 'import json, sys; print(json.load(sys.stdin)["realtimeState"]["swaps"])'; }
build_ms() { curl -sf "http://127.0.0.1:$port/v1/health" | python3 -c 'import json, sys; print(json.load(sys.stdin)["realtimeState"]["buildMilliseconds"])'; }
for _ in $(seq 1 100); do [ "$(swaps)" -ge 1 ] && break; sleep 0.2; done
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d5s -s Scripts/lib/paths.lua "http://127.0.0.1:$port" >/dev/null

echo "==> wrk $duration, the message held still" >&2
before=$(swaps)
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d"$duration" --latency -s Scripts/lib/paths.lua "http://127.0.0.1:$port" | tee "$work/still.txt"
still_swaps=$(( $(swaps) - before ))

echo "==> wrk $duration, a new message every second" >&2
rotate_messages "$work" "1 2 3 4"
before=$(swaps)
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d"$duration" --latency -s Scripts/lib/paths.lua "http://127.0.0.1:$port" | tee "$work/swapping.txt"
swapping_swaps=$(( $(swaps) - before ))
last_build=$(build_ms)
kill "$swapper_pid" 2>/dev/null || true
swapper_pid=""
stop_server
grep -q "internal error" "$work/serve.log" && { echo "the server logged internal errors:" >&2; grep "internal error" "$work/serve.log" | head >&2; }

field() { grep -h '^RESULT' "$1" | sed -E "s/.*[ ]$2=([0-9.]+).*/\1/"; }
seconds=$(echo "$duration" | sed -E 's/s$//')
echo
echo "feed $id, messages of $updates trip updates for $day"
grep -E '^realtime:|overlay:|build and swap' "$work/inprocess.txt"
grep -E 'p50 on / p50 off' "$work/inprocess.txt"
echo "the same message without its skipped stops (not judged):"
grep -E 'overlay:|p50 on / p50 off' "$work/no-skips.txt"
echo "under load ($connections connections, $duration each, wrk on the same machine):"
printf "  %-22s %8s %8s %8s %9s %7s %6s\n" "" "req/s" "p50 ms" "p99 ms" "max ms" "errors" "swaps"
printf "  %-22s %8s %8s %8s %9s %7s %6s\n" "message held still" "$(field "$work/still.txt" rate)" "$(field "$work/still.txt" p50)" \
    "$(field "$work/still.txt" p99)" "$(field "$work/still.txt" max)" "$(field "$work/still.txt" errors)" "$still_swaps"
printf "  %-22s %8s %8s %8s %9s %7s %6s\n" "a new one every second" "$(field "$work/swapping.txt" rate)" "$(field "$work/swapping.txt" p50)" \
    "$(field "$work/swapping.txt" p99)" "$(field "$work/swapping.txt" max)" "$(field "$work/swapping.txt" errors)" "$swapping_swaps"
echo "  the server's last build (overlay and router, off the request path): $last_build ms"
build=$(grep -oE 'build and swap \(median of 5\): [0-9.]+' "$work/inprocess.txt" | awk '{ print $NF }')
ratios=$(grep -oE 'p50 on / p50 off: [0-9.]+' "$work/inprocess.txt" | awk '{ print $NF }' | tr '\n' ' ')
awk -v build="$build" -v ratios="$ratios" -v e1="$(field "$work/still.txt" errors)" -v e2="$(field "$work/swapping.txt" errors)" \
    -v swaps="$swapping_swaps" -v seconds="$seconds" 'BEGIN {
    n = split(ratios, r, " "); worst = 0
    for (i = 1; i <= n; i++) if (r[i] > worst) worst = r[i]
    ok = build <= 100 && worst <= 1.2 && e1 == 0 && e2 == 0 && swaps >= seconds / 2
    printf "build and swap %.1f ms (target <= 100); p50 on/off %.2fx at worst (target <= 1.2); errors %d and %d (target 0); %d swaps in %d s (target >= %d)\n",
        build, worst, e1, e2, swaps, seconds, seconds / 2
    exit ok ? 0 : 3
}' || { echo "bench-realtime.sh: a target is missed" >&2; exit 3; }
