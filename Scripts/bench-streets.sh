#!/usr/bin/env bash
# Street walks against beeline walks: `transit bench --streets` (release build) on a feed and
# its OpenStreetMap extract imported into a database of their own (transit_bench_streets),
# the same path the service uses (PostgreSQL -> snapshot + streets -> timetable).
#
#   Scripts/bench-streets.sh [QUERIES]          milan-atm-2014 + milan-small, 1000 queries
#   Scripts/bench-streets.sh --porto [QUERIES]  also the Porto Alegre pair, in a second run
#
# Prints, per city: timetable build time with and without streets (median of 3), load and
# build with the database reads, the walk graph's memory per edge, and for depart-at and
# the full answer (`transit plan` / the API) the p50/p95/p99 with the request's streets
# option off and on over the same queries, and their difference. Issue 20's bar: the
# answer's p50 grows by at most 1 ms, the load and build at most 2x.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
queries=1000
porto=0
for a in "$@"; do
    case "$a" in
        --porto) porto=1 ;;
        *) queries="$a" ;;
    esac
done

Scripts/setup.sh
. Scripts/lib/cluster.sh
trap release_cluster EXIT
use_cluster
release_transit
base_url="$DATABASE_URL"

# city NAME OSM FEED.zip…: imports the feeds, then the streets, and runs the comparison.
city() {
    local name=$1 osm=$2
    shift 2
    export DATABASE_URL="$base_url"
    fresh_database "transit_bench_streets_$name"
    for f in "$@"; do
        "$bin" import "$f" --feed "$(basename "$f" .zip)" >/dev/null 2>&1 || { echo "bench-streets.sh: import of $f failed" >&2; exit 1; }
    done
    local t0 t1
    t0=$(date +%s.%N)
    "$bin" import-osm "$osm" >/dev/null 2>&1 || { echo "bench-streets.sh: import-osm of $osm failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    echo "=== $name ($(basename "$osm") imported in $(echo "$t1 - $t0" | bc) s)"
    # Settle the fresh tables first (hint bits, statistics), so that autovacuum's first
    # pass over them does not fall inside the timed loads.
    psql -q "$DATABASE_URL" -c "VACUUM (ANALYZE)"
    "$bin" bench --streets --queries "$queries"
    echo
}

city milan "$shared/osm/milan-small.osm.pbf" "$shared/gtfs/milan-atm-2014.zip"
if [ "$porto" = 1 ]; then
    city porto_alegre "$shared/osm/porto-alegre.osm.pbf" \
        "$shared/gtfs/porto-alegre-eptc-2019.zip" "$shared/gtfs/porto-alegre-trensurb-2019.zip"
fi
