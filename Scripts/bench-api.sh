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
# `answer` rate on one core and on all (median of the passes), the ratio of each run's
# throughput to (its pass's one-core rate × cores) with their median, and the server's CPU
# per request from its /metrics (the process's; on the planning threads the answer's and
# the rest of the plan handler's), beside the answer's in process. Exits 3 when a
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
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
ensure_wrk
work=$(mktemp -d)
server_pid=""
cleanup() {
    stop_server
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
fresh_database transit_bench_api
id=$(basename "$feed" .zip)
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null

echo "==> in process: transit bench --kind answer ($queries queries; also writes them as /v1/plan paths)" >&2
"$bin" bench --feed "$id" --queries "$queries" --kind answer --urls "$work/paths.txt" | tee "$work/bench-1.txt"

echo "==> serve" >&2
# wrk sends hundreds of plans a second from one address: lift the per-client limit.
start_server "$bin" "$work/serve.log" --plan-rate 0

echo "==> warm-up (5 s), then $runs runs of wrk -t$threads -c$connections -d$duration" >&2
PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d5s -s Scripts/lib/paths.lua "http://127.0.0.1:$port" >/dev/null
for run in $(seq 1 "$runs"); do
    if [ "$run" -gt 1 ]; then
        echo "==> in process, pass $run" >&2
        "$bin" bench --feed "$id" --queries "$queries" --kind answer | tee "$work/bench-$run.txt"
    fi
    curl -s "http://127.0.0.1:$port/metrics" > "$work/metrics-before-$run.txt"
    PATHS_FILE="$work/paths.txt" wrk -t"$threads" -c"$connections" -d"$duration" --latency -s Scripts/lib/paths.lua "http://127.0.0.1:$port" | tee "$work/wrk-$run.txt"
    curl -s "http://127.0.0.1:$port/metrics" > "$work/metrics-after-$run.txt"
done
stop_server
grep -q "internal error" "$work/serve.log" && { echo "the server logged internal errors:" >&2; grep "internal error" "$work/serve.log" | head >&2; }

# Medians over the runs and passes: the machine is shared and noisy.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { for run in $(seq 1 "$runs"); do grep -h '^RESULT' "$work/wrk-$run.txt" | sed -E "s/.*[ ]$1=([0-9.]+).*/\1/"; done; }
cores=$(nproc)
pass() { for run in $(seq 1 "$runs"); do awk -v t="$1" '$1 == "answer" && $2 == t { print $6 }' "$work/bench-$run.txt"; done; }
rps=$(field rate | median)
p50=$(field p50 | median)
p99=$(field p99 | median)
errors=$(field errors | awk '{ s += $1 } END { print s }')
answered4xx=$(field answered_4xx | awk '{ s += $1 } END { print s }')
one=$(pass 1 | median)
all=$(pass "$cores" | median)
ratios=$(paste <(field rate) <(pass 1) | awk -v c="$cores" '{ printf "%.2f\n", $1 / ($2 * c) }')
ratio=$(echo "$ratios" | median)
echo
echo "feed $id, $connections connections, $runs runs of $duration, $cores cores (wrk on the same machine)"
echo "server runs:   $(field rate | tr '\n' ' ')requests/s; p99 $(field p99 | tr '\n' ' ')ms"
echo "in process:    answer on 1 core before each run: $(pass 1 | tr '\n' ' ')queries/s; on $cores: $(pass "$cores" | tr '\n' ' ')"
echo "server median: $rps requests/s, p50 $p50 ms, p99 $p99 ms; errors in all runs $errors ($answered4xx answered with a 4xx reason)"
echo "in process:    answer, median of $runs passes: $one queries/s on 1 core, $all on $cores"
echo "run / (its pass's one-core rate x $cores cores): $(echo "$ratios" | tr '\n' ' ')"
# Where the server's CPU goes per request, from its /metrics before and after each run:
# the whole process, and on the planning threads the answer (search and itineraries) and
# the rest of the plan handler (parameters, trip tokens, JSON); what is left of the
# process's is the HTTP exchange on NIO's threads and the rest. Beside it, the same answer
# in process (one core: 1000 / its rate).
metric() { awk -v m="$1" 'index($0, m) == 1 { print $NF }' "$2"; }
cpu() {
    for run in $(seq 1 "$runs"); do
        b="$work/metrics-before-$run.txt" a="$work/metrics-after-$run.txt"
        n=$(grep -h '^RESULT' "$work/wrk-$run.txt" | sed -E 's/.* requests=([0-9]+).*/\1/')
        awk -v p0="$(metric transit_process_cpu_seconds "$b")" -v p1="$(metric transit_process_cpu_seconds "$a")" \
            -v a0="$(metric 'transit_plan_cpu_seconds_total{phase="answer"}' "$b")" -v a1="$(metric 'transit_plan_cpu_seconds_total{phase="answer"}' "$a")" \
            -v r0="$(metric 'transit_plan_cpu_seconds_total{phase="respond"}' "$b")" -v r1="$(metric 'transit_plan_cpu_seconds_total{phase="respond"}' "$a")" \
            -v n="$n" -v f="$1" 'BEGIN {
                if (n == 0) { print 0; exit }
                all = (p1 - p0) / n * 1000; answer = (a1 - a0) / n * 1000; respond = (r1 - r0) / n * 1000
                printf "%.2f\n", (f == "all") ? all : (f == "answer") ? answer : (f == "respond") ? respond : all - answer - respond
            }'
    done
}
echo "server CPU per request, ms (median of runs): $(cpu all | median) in all; answer $(cpu answer | median), the handler's rest $(cpu respond | median), HTTP and the rest $(cpu other | median); in process the answer $(awk -v q="$one" 'BEGIN { printf "%.2f", (q > 0) ? 1000 / q : 0 }')"
awk -v ratio="$ratio" -v c="$cores" -v p99="$p99" -v e="$errors" 'BEGIN {
    printf "median throughput ratio %.2f (target >= 0.60); p99 %s ms (target < 50); errors %d (target 0)\n", ratio, p99, e
    exit (ratio >= 0.6 && p99 < 50 && e == 0) ? 0 : 3
}' || { echo "bench-api.sh: a target is missed" >&2; exit 3; }
