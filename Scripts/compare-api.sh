#!/usr/bin/env bash
# Two `transit` builds' API answers, byte for byte: both serve the same database (the feeds
# imported by A into a database of their own, transit_compare_api), and every request of a
# seeded list is sent to both. The list: `transit bench --urls` plan queries (stops and
# points near stops across the busiest day, with their alternatives), on every feed given.
# Prints how many answers were compared and differ; lists the first differences.
#
#   Scripts/compare-api.sh A_BIN B_BIN [FEED.zip…]      default: bart-2018 and bydgoszcz-2020
#   QUERIES=N per feed (default 400)
#
# Exit 1 when any answer differs (or a server does not come up).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
a=${1:?usage: Scripts/compare-api.sh A_BIN B_BIN [FEED.zip…]}
b=${2:?usage: Scripts/compare-api.sh A_BIN B_BIN [FEED.zip…]}
shift 2
shared="${TRANSIT_SHARED_DATA:-../shared/data}"
feeds=("$@")
[ ${#feeds[@]} -eq 0 ] && feeds=(Data/bart-2018.zip "$shared/gtfs/bydgoszcz-2020.zip")
queries=${QUERIES:-400}

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
work=$(mktemp -d)
cleanup() {
    for p in ${pid_a:-} ${pid_b:-}; do kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
fresh_database transit_compare_api
: > "$work/paths"
for f in "${feeds[@]}"; do
    id=$(basename "$f" .zip)
    "$a" import "$f" --feed "$id" >/dev/null 2>&1 || { echo "compare-api.sh: import of $f failed" >&2; exit 1; }
    "$a" bench --gtfs "$f" --queries "$queries" --kind answer --urls "$work/urls-$id" >/dev/null 2>&1
    cat "$work/urls-$id" >> "$work/paths"
done

start_server "$a" "$work/a.log" --plan-rate 0; pid_a=$server_pid; port_a=$port
start_server "$b" "$work/b.log" --plan-rate 0; pid_b=$server_pid; port_b=$port

total=0 differ=0 ok=0
while IFS= read -r path; do
    [ -z "$path" ] && continue
    total=$((total + 1))
    status=$(curl -s -w '%{http_code}' "http://127.0.0.1:$port_a$path" -o "$work/ra")
    [ "$status" = 200 ] && ok=$((ok + 1))
    curl -s "http://127.0.0.1:$port_b$path" -o "$work/rb"
    if ! cmp -s "$work/ra" "$work/rb"; then
        differ=$((differ + 1))
        if [ "$differ" -le 5 ]; then
            echo "differs: $path" >&2
            echo "  A: $(head -c 300 "$work/ra")" >&2
            echo "  B: $(head -c 300 "$work/rb")" >&2
        fi
    fi
done < "$work/paths"
echo "API answers compared: $total ($ok with itineraries, the rest reasons), differing: $differ"
[ "$differ" -eq 0 ]
