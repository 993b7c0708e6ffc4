#!/usr/bin/env bash
# Routing speed: `transit bench` (release build) on feeds imported into a database of
# their own (transit_bench_routing), through the same path the service uses (PostgreSQL
# -> snapshot -> timetable).
#
#   Scripts/bench.sh                      bydgoszcz-2020 (the issue's target feed), 1000 queries
#   Scripts/bench.sh --all [QUERIES]      every shared feed together
#   Scripts/bench.sh --each [QUERIES]     every shared feed alone, one line per feed (scaling)
#   Scripts/bench.sh FEED.zip… [QUERIES]  these feeds together
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
mode=one
feeds=()
queries=1000
for a in "$@"; do
    case "$a" in
        --all) mode=all ;;
        --each) mode=each ;;
        *.zip) feeds+=("$a") ;;
        *) queries="$a" ;;
    esac
done
if [ "$mode" = one ] && [ ${#feeds[@]} -eq 0 ]; then feeds=("$shared/gtfs/bydgoszcz-2020.zip"); fi
if [ "$mode" != one ]; then feeds=("$shared"/gtfs/*.zip); fi

Scripts/setup.sh
. Scripts/lib/cluster.sh
trap release_cluster EXIT
use_cluster
release_transit
fresh_database transit_bench_routing
ids=()
for f in "${feeds[@]}"; do
    id=$(basename "$f" .zip)
    "$bin" import "$f" --feed "$id" >/dev/null 2>&1 || { echo "bench.sh: import of $f failed" >&2; exit 1; }
    ids+=("$id")
done

if [ "$mode" = each ]; then
    for id in "${ids[@]}"; do
        echo "=== $id"
        "$bin" bench --feed "$id" --queries "$queries"
    done
else
    "$bin" bench --queries "$queries"
fi
