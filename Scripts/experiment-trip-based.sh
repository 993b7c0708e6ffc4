#!/usr/bin/env bash
# The Trip-Based experiment (issue 24, eleventh session): Trip-Based routing's transfers
# made and reduced for a feed's busiest day, and its earliest-arrival and profile (range)
# queries timed against this router's on the same 1,000 seeded requests (stop areas: a
# stop and those within 500 m; the busiest day's trips only), their answers compared.
# Not part of the service: docs/experiments/trip-based.patch applied to the commit it was
# written against, in a temporary copy, built there (release; about 8 minutes from
# nothing). See "Routing speed" in the README for what it measured.
#
#   Scripts/experiment-trip-based.sh [FEED.zip] [--unchecked]
#     --unchecked: built with -Ounchecked and -enforce-exclusivity=unchecked, both the
#     router and the experiment (what a careful, pointer-based Trip-Based query could
#     reach; the prototype reads Swift arrays)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
base=93e2325
feed="$shared/gtfs/bydgoszcz-2020.zip"
flags=()
for a in "$@"; do
    case "$a" in
        --unchecked) flags=(-Xswiftc -Ounchecked -Xswiftc -enforce-exclusivity=unchecked) ;;
        *.zip) feed="$a" ;;
        *) echo "usage: Scripts/experiment-trip-based.sh [FEED.zip] [--unchecked]" >&2; exit 2 ;;
    esac
done
Scripts/setup.sh
work=$(mktemp -d /tmp/transit-tb-XXXXXX)
trap 'rm -rf "$work"' EXIT
git archive "$base" | tar -x -C "$work"
(cd "$work" && git apply "$root/docs/experiments/trip-based.patch")
(cd "$work" && swift build -c release --product transit ${flags[@]+"${flags[@]}"} > "$work/build.log" 2>&1) \
    || { tail -30 "$work/build.log" >&2; echo "experiment-trip-based.sh: the build failed" >&2; exit 1; }
# The range queries twice: Trip-Based as published, then pruned with this router's
# lower bounds to the destination (TB_BOUNDS).
TB_EXP=1 "$work/.build/release/transit" bench --gtfs "$feed" --queries 10
TB_EXP=1 TB_BOUNDS=1 "$work/.build/release/transit" bench --gtfs "$feed" --queries 10 | grep "^range"
