#!/usr/bin/env bash
# Builds everything (tests included) and runs the tests against a throwaway PostgreSQL.
#
#   Scripts/test.sh [swift test arguments…]     e.g. Scripts/test.sh --filter GTFSTests
#
# Without arguments it also runs a short soak (Scripts/soak.sh, 30 s on the debug build), a
# short fleet (Scripts/fleet.sh: two replicas behind HAProxy, a feed swap under load) and the
# page's browser tests (Scripts/browser-test.sh, headless Chromium).
#
# Exports DATABASE_URL (from Scripts/postgres.sh) and, when ../shared/data exists next to
# the repository, TRANSIT_SHARED_DATA (its absolute path) to the tests. Stops PostgreSQL
# on exit if this script started it. Exits with the status of `swift test`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

section() { echo "==> $*" >&2; }

section setup
Scripts/setup.sh

section postgres
if ! Scripts/postgres.sh status >/dev/null 2>&1; then
    trap 'Scripts/postgres.sh stop' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
fi
eval "$(Scripts/postgres.sh start)"
export DATABASE_URL

if [ -z "${TRANSIT_SHARED_DATA:-}" ] && [ -d ../shared/data ]; then
    TRANSIT_SHARED_DATA=$(cd ../shared/data && pwd -P)
    export TRANSIT_SHARED_DATA
fi

# The built timetables' images (`NetworkImage`) of this run, in a folder of its own, so that
# a run starts with none and leaves none in the user's cache.
export TRANSIT_IMAGE_DIR="$PWD/.build/test-images"
rm -rf "$TRANSIT_IMAGE_DIR"

section build
swift build --build-tests --explicit-target-dependency-import-check error

section test
status=0
swift test --skip-build "$@" || status=$?

# The short soak (the 10-minute one is in Scripts/reliability.sh): 3 windows of 10 s of mixed
# requests at 40/s to the debug build on BART. Judged on zero errors and bounded memory only:
# latency and rate on a debug build on a shared machine are left to the benchmarks and the
# full soak (JUDGE_TIMING=0). Only on a full run, not a --filter.
if [ $# -eq 0 ]; then
    section "short soak"
    TRANSIT_BIN="$(swift build --show-bin-path)/transit" MINUTES=3 WINDOW=10 RATE=40 QUERIES=100 \
        JUDGE_TIMING=0 Scripts/soak.sh Data/bart-2018.zip || status=1
    # Two replicas behind HAProxy, a feed swap under load with no failed request (the
    # figures are Scripts/fleet.sh's own, on the release build).
    section "fleet"
    TRANSIT_BIN="$(swift build --show-bin-path)/transit" SHORT=1 Scripts/fleet.sh || status=1
    # The trip planner page in headless Chromium, English and Chinese, on bart-2018 (the
    # timings and screenshots are Scripts/browser-test.sh's own, with ALL_FEEDS=1).
    section "browser tests"
    TRANSIT_BIN="$(swift build --show-bin-path)/transit" Scripts/browser-test.sh || status=1
fi
exit "$status"
