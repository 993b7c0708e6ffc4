#!/usr/bin/env bash
# A fleet on existing parts: N `transit serve` replicas on loopback behind HAProxy (Debian),
# all reading one PostgreSQL; wrk (Debian) sends the seeded plan requests of `transit bench`.
#
#   Scripts/fleet.sh                      3 replicas, bydgoszcz-2020, runs of 20 s (release build)
#   REPLICAS=4 DURATION=30s Scripts/fleet.sh [FEED.zip]
#   SHORT=1 Scripts/fleet.sh              2 replicas, bart-2018, runs of 5 s (Scripts/test.sh)
#
# Measures, in one run: requests/s and latency against one replica alone, then through
# HAProxy to all of them; then a feed swap: the same feed imported again (a new version)
# while wrk runs against HAProxy, until every replica serves it (each replica's /metrics
# says so). Prints each figure and exits 3 when a request failed during the swap (a socket
# error or a 5xx; a 4xx answer such as NO_CONNECTION is an answer) or a replica did not
# take the new version. HAProxy checks each replica's /v1/health (200 once a timetable is
# served) every second, so a replica still loading gets no request.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
if [ "${SHORT:-0}" = 1 ]; then
    replicas="${REPLICAS:-2}"; duration="${DURATION:-5s}"; queries="${QUERIES:-200}"
    feed="${1:-Data/bart-2018.zip}"
else
    replicas="${REPLICAS:-3}"; duration="${DURATION:-20s}"; queries="${QUERIES:-1000}"
    feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
fi
connections="${CONNECTIONS:-16}"
threads="${WRK_THREADS:-2}"

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
ensure_wrk
command -v haproxy >/dev/null || { echo "fleet.sh: haproxy is missing (Scripts/setup.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
# The replicas share one image folder: the first to start builds the timetable and writes
# its image, the others (and every restart) map it.
export TRANSIT_IMAGE_DIR="${TRANSIT_IMAGE_DIR:-$work/images}"
pids=()
haproxy_pid=""
wrk_pid=""
cleanup() {
    for p in "${pids[@]}" $haproxy_pid $wrk_pid; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}" $haproxy_pid $wrk_pid; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
fresh_database transit_fleet
id=$(basename "$feed" .zip)
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null 2>"$work/import-1.log"

echo "==> the plan requests: transit bench --kind answer ($queries queries, written as /v1/plan paths)" >&2
"$bin" bench --feed "$id" --queries "$queries" --kind answer --urls "$work/paths.txt" > "$work/bench.txt"

echo "==> $replicas replicas" >&2
ports=()
started=$(date +%s.%N)
for i in $(seq 1 "$replicas"); do
    # wrk sends hundreds of plans a second from one address (HAProxy's): no per-client limit.
    start_server "$bin" "$work/serve-$i.log" --plan-rate 0
    pids+=("$server_pid"); ports+=("$port")
    server_pid=""
done
ready=$(date +%s.%N)

# A free loopback port for HAProxy: the kernel's pick for a socket closed at once.
front=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
{
    echo "global"
    echo "    maxconn 4096"
    echo "defaults"
    echo "    mode http"
    echo "    timeout connect 2s"
    echo "    timeout client 30s"
    echo "    timeout server 30s"
    # A request that meets a closed connection (a replica restarting) is sent to another.
    echo "    retries 2"
    echo "    option redispatch"
    echo "frontend transit"
    echo "    bind 127.0.0.1:$front"
    echo "    default_backend replicas"
    echo "backend replicas"
    echo "    balance leastconn"
    echo "    option httpchk GET /v1/health"
    echo "    http-check expect status 200"
    echo "    http-reuse safe"
    for i in $(seq 1 "$replicas"); do
        echo "    server r$i 127.0.0.1:${ports[$((i - 1))]} check inter 1s fall 2 rise 1 maxconn 64"
    done
} > "$work/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg"
haproxy -db -f "$work/haproxy.cfg" > "$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$front/v1/health" >/dev/null 2>&1 && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$front/v1/health" >/dev/null || { echo "fleet.sh: HAProxy does not answer:" >&2; cat "$work/haproxy.log" >&2; exit 1; }

run_wrk() {  # run_wrk URL OUT [DURATION]
    PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d"${3:-$duration}" --latency -s Scripts/lib/paths.lua "$1" > "$2"
}
field() { grep -h '^RESULT' "$1" | sed -E "s/.*[ ]$2=([0-9.]+).*/\1/"; }

echo "==> warm-up through HAProxy (3 s)" >&2
run_wrk "http://127.0.0.1:$front" "$work/warm.txt" 3s
echo "==> one replica alone ($duration)" >&2
run_wrk "http://127.0.0.1:${ports[0]}" "$work/one.txt"
echo "==> through HAProxy, $replicas replicas ($duration)" >&2
run_wrk "http://127.0.0.1:$front" "$work/fleet.txt"

version_of() {  # the feed's version a replica serves, from its /metrics
    curl -sf "http://127.0.0.1:$1/metrics" | sed -nE "s/^transit_feed_version\{feed=\"$id\"\} ([0-9]+).*/\1/p"
}
before=$(version_of "${ports[0]}")
echo "==> feed swap: wrk through HAProxy while version $((before + 1)) is imported" >&2
# Long enough for the import and every replica's reload; ended once all have the new one.
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d600s --latency -s Scripts/lib/paths.lua "http://127.0.0.1:$front" > "$work/swap.txt" &
wrk_pid=$!
sleep 2
swap_start=$(date +%s.%N)
"$bin" import "$feed" --feed "$id" >/dev/null 2>"$work/import-2.log"
imported=$(date +%s.%N)
all=0
for _ in $(seq 1 600); do
    all=1
    for p in "${ports[@]}"; do [ "$(version_of "$p")" = "$((before + 1))" ] || all=0; done
    [ "$all" = 1 ] && break
    sleep 0.2
done
swapped=$(date +%s.%N)
sleep 2
# wrk prints its summary on SIGINT.
kill -INT "$wrk_pid"; wait "$wrk_pid" || true; wrk_pid=""
versions=""
for p in "${ports[@]}"; do versions+="$(version_of "$p") "; done
for i in $(seq 1 "$replicas"); do
    if grep -q "internal error" "$work/serve-$i.log"; then echo "replica $i logged internal errors:" >&2; grep "internal error" "$work/serve-$i.log" | head >&2; fi
done

cores=$(nproc)
inprocess=$(awk '$1 == "answer" && $2 == 1 { print $6 }' "$work/bench.txt")
one=$(field "$work/one.txt" rate); fleet=$(field "$work/fleet.txt" rate)
echo
case "$bin" in */debug/*) build=debug ;; *) build=release ;; esac
echo "fleet: $replicas replicas of transit serve ($build) behind HAProxy $(haproxy -v | head -1 | awk '{ print $3 }'), one PostgreSQL; feed $id; $cores cores, wrk on the same machine"
printf "replicas up (each loads the timetable itself): %.1f s\n" "$(echo "$ready - $started" | bc)"
echo "in process, one core: $inprocess answers/s"
echo "one replica alone:  $one requests/s, p50 $(field "$work/one.txt" p50) ms, p99 $(field "$work/one.txt" p99) ms, errors $(field "$work/one.txt" errors)"
echo "through HAProxy:    $fleet requests/s, p50 $(field "$work/fleet.txt" p50) ms, p99 $(field "$work/fleet.txt" p99) ms, errors $(field "$work/fleet.txt" errors)"
awk -v a="$fleet" -v b="$one" 'BEGIN { printf "HAProxy / one replica: %.2f\n", a / b }'
printf "feed swap: import %.1f s; every replica on version %s %.1f s after the import began\n" \
    "$(echo "$imported - $swap_start" | bc)" "$((before + 1))" "$(echo "$swapped - $swap_start" | bc)"
swap_errors=$(field "$work/swap.txt" errors)
echo "during the swap:    $(field "$work/swap.txt" requests) requests, $(field "$work/swap.txt" ok) answered 200, $(field "$work/swap.txt" answered_4xx) with a 4xx reason, failed $swap_errors ($(grep '^errors' "$work/swap.txt"))"
echo "replicas' versions after: $versions"
[ "$all" = 1 ] && [ "$swap_errors" = 0 ] || { echo "fleet.sh: a request failed during the swap, or a replica did not take the new version" >&2; exit 3; }
