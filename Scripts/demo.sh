#!/usr/bin/env bash
# The main job on the bundled default feed: imports it into a throwaway PostgreSQL
# (Scripts/postgres.sh) with a release build of `transit`, lists the stored feeds, prints
# their coverage regions, and plans trips on it.
#
#   Scripts/demo.sh                     DEMO_FEED / DEMO_FEED_ID below can be overridden
#   KEEP_POSTGRES=1 Scripts/demo.sh     leave PostgreSQL, and the trip planner page, running afterwards
#
# It ends by serving the trip planner page (`transit serve`) and printing its address; with
# KEEP_POSTGRES=1 the server keeps serving it (DEMO_PORT, default 8080, else a free port).
#
# PostgreSQL is stopped on exit if this script started it, unless KEEP_POSTGRES=1.
set -euo pipefail

DEMO_FEED="${DEMO_FEED:-Data/bart-2018.zip}"   # GTFS zip, relative to the repository root
DEMO_FEED_ID="${DEMO_FEED_ID:-bart}"           # feed id it is stored under
DEMO_PLACE="${DEMO_PLACE:-San Francisco Bay Area}"  # the place it serves, named with its region
# A trip to plan on it: 12th St. Oakland City Center to San Francisco International Airport.
DEMO_FROM="${DEMO_FROM:-stop:12TH}"
DEMO_TO="${DEMO_TO:-stop:SFIA}"
DEMO_AT="${DEMO_AT:-2018-06-05T08:30:00}"        # a Tuesday inside the feed's service period

cd "$(dirname "${BASH_SOURCE[0]}")/.."

section() { echo "==> $*" >&2; }

if [ ! -f "$DEMO_FEED" ]; then
    echo "demo.sh: feed $DEMO_FEED not found (in $(pwd -P))" >&2
    exit 1
fi

section setup
Scripts/setup.sh

section postgres
started_postgres=0
if ! Scripts/postgres.sh status >/dev/null 2>&1; then
    started_postgres=1
fi
server_pid=""
finish() {
    if [ -n "$server_pid" ] && [ "${KEEP_POSTGRES:-0}" != 1 ]; then
        kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    fi
    [ "$started_postgres" -eq 1 ] || return 0
    if [ "${KEEP_POSTGRES:-0}" = 1 ]; then
        echo "==> PostgreSQL keeps running; connect with: eval \"\$(Scripts/postgres.sh start)\"; stop with: Scripts/postgres.sh stop" >&2
    else
        Scripts/postgres.sh stop
        echo "==> PostgreSQL stopped; KEEP_POSTGRES=1 Scripts/demo.sh keeps it running" >&2
    fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
eval "$(Scripts/postgres.sh start)"
export DATABASE_URL

section build
swift build -c release --product transit
transit=.build/release/transit

section "import $DEMO_FEED as $DEMO_FEED_ID"
"$transit" import "$DEMO_FEED" --feed "$DEMO_FEED_ID" --place "$DEMO_PLACE"

section feeds
"$transit" feeds

section "coverage: where the loaded feeds serve"
"$transit" coverage

section "plan $DEMO_FROM to $DEMO_TO at $DEMO_AT"
"$transit" plan "$DEMO_FROM" "$DEMO_TO" --at "$DEMO_AT"

section "street corner to street corner (downtown Oakland to the Mission), arriving by 09:30"
"$transit" plan 37.8044,-122.2712 37.7700,-122.4180 --arrive-by 2018-06-05T09:30:00

section "by name, as a person types it (a typo, no date: the feed's dates are used), with its map"
"$transit" plan "downtown berkley" "Dublin/Pleasanton" --at "tuesday 10:00" --map "${TMPDIR:-/tmp}/transit-demo-trip.svg"

# Walking on OpenStreetMap's streets: Milan's ATM feed with the Milan extract, when the
# shared data sits beside the checkout (../shared/data, or TRANSIT_SHARED_DATA); neither
# is bundled (sizes; the extract is ODbL, © OpenStreetMap contributors).
shared="${TRANSIT_SHARED_DATA:-../shared/data}"
if [ -f "$shared/gtfs/milan-atm-2014.zip" ] && [ -f "$shared/osm/milan-small.osm.pbf" ]; then
    section "Milan: the feed, then its streets (osm2pgsql into PostGIS)"
    "$transit" import "$shared/gtfs/milan-atm-2014.zip" --feed milan-atm-2014 --place Milan
    "$transit" import-osm "$shared/osm/milan-small.osm.pbf" --region milan
    section "from Piazza del Duomo to Castello Sforzesco: every walk along streets, its turns under it, with its map"
    "$transit" plan 45.46420,9.19040 45.46990,9.17990 --at 2014-10-28T10:00:00 --map "${TMPDIR:-/tmp}/transit-demo-milan.svg"
else
    section "skipped Milan's streets: $shared/gtfs/milan-atm-2014.zip or $shared/osm/milan-small.osm.pbf not found"
fi

section "the same trip in Chinese (--lang zh-Hans; LANG=zh_CN.UTF-8 does the same)"
"$transit" plan "downtown berkley" "Dublin/Pleasanton" --at "tuesday 10:00" --lang zh-Hans

section "the trip planner page"
port="${DEMO_PORT:-8080}"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then port=0; fi   # taken: a free one
log="${TMPDIR:-/tmp}/transit-demo-serve.log"
"$transit" serve --port "$port" 2>"$log" &
server_pid=$!
url=""
for _ in $(seq 1 600); do
    url=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$log" | head -1 | sed 's/listening on //' || true)
    if [ -n "$url" ] && curl -sf "$url/v1/health" >/dev/null; then break; fi
    sleep 0.2
done
# (Read whole, then looked at: `curl | grep -q` fails under pipefail when grep stops reading early.)
page=$(curl -sf "$url/" || true)
case "$page" in
    *"<title>"*) ;;
    *) echo "demo.sh: the page did not answer at $url/" >&2; tail -20 "$log" >&2; exit 1 ;;
esac
link="$url/?from=stop:$DEMO_FEED_ID:DBRK&to=stop:$DEMO_FEED_ID:DUBL&time=2018-06-05T10:00"
if [ "${KEEP_POSTGRES:-0}" = 1 ]; then
    echo "==> the page keeps being served (its log: $log); stop it with: kill $server_pid" >&2
    echo "Trip planner page: $url/   (a planned trip: $link)"
else
    echo "==> KEEP_POSTGRES=1 Scripts/demo.sh keeps serving it" >&2
    echo "Trip planner page (served until this script ends): $url/   (a planned trip: $link)"
fi
