#!/usr/bin/env bash
# The trip planner page in a real browser (Tests/Browser/test_page.py): headless Chromium
# (Debian's chromium and chromium-driver, driven by Selenium from PyPI) against the page
# served by a real `transit serve` on a real feed, in English and Chinese; axe-core's
# accessibility check in the same browser.
#
#   Scripts/browser-test.sh                         bart-2018 (bundled): the short run Scripts/test.sh makes
#   ALL_FEEDS=1 Scripts/browser-test.sh             every shared feed loaded too (../shared/data/gtfs), and
#                                                   the page's load and plan times measured (5 runs each)
#   SCREENSHOTS=docs/screenshots Scripts/browser-test.sh   also the README's screenshots (phone and desktop, both languages)
#
# TRANSIT_BIN picks the binary (default: a release build). A throwaway database in the
# private PostgreSQL (Scripts/postgres.sh), stopped at the end if this script started it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
work="$root/.build-browser"
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
fresh_database transit_browser

echo "==> import Data/bart-2018.zip" >&2
"$bin" import Data/bart-2018.zip --feed bart-2018 --place "San Francisco Bay Area" >/dev/null
timings=0
if [ "${ALL_FEEDS:-0}" = 1 ]; then
    for feed in "$shared"/gtfs/*.zip; do
        id=$(basename "$feed" .zip)
        echo "==> import $feed" >&2
        "$bin" import "$feed" --feed "$id" >/dev/null
    done
    timings=5
fi

echo "==> serve" >&2
start_server "$bin" "$work/serve.log"
echo "==> the page at http://127.0.0.1:$port/ in headless Chromium" >&2
args=(--url "http://127.0.0.1:$port" --timings "$timings")
if [ -n "${SCREENSHOTS:-}" ]; then
    mkdir -p "$SCREENSHOTS"
    args+=(--screenshots "$SCREENSHOTS")
fi
python3 Tests/Browser/test_page.py "${args[@]}"
