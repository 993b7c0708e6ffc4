#!/usr/bin/env bash
# Cold start: how long a new process takes to answer, with the built network's image
# (NetworkImage, mapped) and without it (feeds read from PostgreSQL and built), in one run,
# the two taken in turn so that a noisy moment falls on both.
#
#   Scripts/bench-start.sh [RUNS]     default 9 runs of each
#
# 1. `transit plan` between two stops of bydgoszcz-2020 (release build, wall time from the
#    process's start to its exit): the median of RUNS with the image and of RUNS without.
# 2. `transit serve` on every shared feed: wall time from the process's start to its first
#    200 answer to a plan (polled every 10 ms), median of 5 with the image and 5 without.
# "Cold" is a new process; the files it reads are in the system's cache (warm), as on a
# server that restarts.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
runs="${1:-9}"

Scripts/setup.sh
. Scripts/lib/cluster.sh
work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
base_url="$DATABASE_URL"
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }

echo "==> bydgoszcz-2020 alone" >&2
fresh_database transit_bench_start
"$bin" import "$shared/gtfs/bydgoszcz-2020.zip" --feed bydgoszcz-2020 >/dev/null 2>&1
# Podkowa - początkowy to Garbary: 44 minutes, a bus and a tram.
stops=(1002 2057)
plan=("$bin" plan "stop:bydgoszcz-2020:${stops[0]}" "stop:bydgoszcz-2020:${stops[1]}" --at 2020-05-04T08:00)
# The image written once, before the timed runs; the answer has a ride.
answer=$(TRANSIT_IMAGE_DIR="$work/images" "${plan[@]}" 2>/dev/null)
case "$answer" in *"bus, tram"*) ;; *) echo "bench-start.sh: the plan did not answer as expected:" >&2; echo "$answer" >&2; exit 1 ;; esac
: > "$work/plan-image.txt"; : > "$work/plan-build.txt"
for _ in $(seq 1 "$runs"); do
    s=$(now); TRANSIT_IMAGE_DIR="$work/images" "${plan[@]}" >/dev/null 2>&1; e=$(now)
    echo "$e - $s" | bc >> "$work/plan-image.txt"
    s=$(now); TRANSIT_IMAGE_DIR=none "${plan[@]}" >/dev/null 2>&1; e=$(now)
    echo "$e - $s" | bc >> "$work/plan-build.txt"
done

echo "==> every shared feed" >&2
DATABASE_URL="$base_url"
fresh_database transit_bench_start_all
for f in "$shared"/gtfs/*.zip; do "$bin" import "$f" --feed "$(basename "$f" .zip)" >/dev/null 2>&1; done
stop_times=$(psql -At "$DATABASE_URL" -c "SELECT sum((row_counts->>'stop_times')::bigint) FROM gtfs.feeds")
path="/v1/plan?from=stop:bydgoszcz-2020:${stops[0]}&to=stop:bydgoszcz-2020:${stops[1]}&time=2020-05-04T08:00:00"
first_answer() {  # first_answer IMAGE_DIR: seconds from start to the first 200 plan answer
    local port s e
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    s=$(now)
    TRANSIT_IMAGE_DIR="$1" "$bin" serve --port "$port" 2>>"$work/serve.log" >/dev/null &
    server_pid=$!
    for _ in $(seq 1 6000); do
        if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$path")" = 200 ]; then break; fi
        sleep 0.01
    done
    e=$(now)
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    echo "$e - $s" | bc
}
first_answer "$work/images" >/dev/null   # writes the image
: > "$work/serve-image.txt"; : > "$work/serve-build.txt"
for _ in 1 2 3 4 5; do
    first_answer "$work/images" >> "$work/serve-image.txt"
    first_answer none >> "$work/serve-build.txt"
done

image_bytes=$(du -cb "$work"/images/*.image | tail -1 | cut -f1)
pi=$(median < "$work/plan-image.txt"); pb=$(median < "$work/plan-build.txt")
si=$(median < "$work/serve-image.txt"); sb=$(median < "$work/serve-build.txt")
echo
echo "cold start, $(nproc) cores; medians (runs in turn, image and build)"
printf "transit plan, bydgoszcz-2020 (583,164 stop times), %s runs each: with the image %.3f s, built from PostgreSQL %.3f s (%.1fx)\n" \
    "$runs" "$pi" "$pb" "$(echo "$pb / $pi" | bc -l)"
printf "transit serve, all shared feeds (%s stop times), first plan answered after start, 5 runs each: with the image %.3f s, built %.3f s (%.1fx)\n" \
    "$(echo "$stop_times" | sed -E ':a;s/([0-9])([0-9]{3})($|,)/\1,\2\3/;ta')" "$si" "$sb" "$(echo "$sb / $si" | bc -l)"
printf "images: %.1f MB for both (bydgoszcz alone, all feeds)\n" "$(echo "$image_bytes / 1000000" | bc -l)"
echo "plan runs with the image:  $(tr '\n' ' ' < "$work/plan-image.txt")"
echo "plan runs built:           $(tr '\n' ' ' < "$work/plan-build.txt")"
echo "serve runs with the image: $(tr '\n' ' ' < "$work/serve-image.txt")"
echo "serve runs built:          $(tr '\n' ' ' < "$work/serve-build.txt")"
