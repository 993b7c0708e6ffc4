#!/usr/bin/env bash
# The long randomized comparison of the router against the reference implementation:
# the same test as in Scripts/test.sh, with more queries per feed (default 2000; the test
# suite runs 250), and four larger feeds the suite leaves out for time.
#
#   Scripts/compare.sh [QUERIES_PER_FEED]
set -euo pipefail
cd "$(dirname "$0")/.."
export TRANSIT_COMPARE_QUERIES="${1:-2000}"
# Also the larger feeds (untimed stop times, stations, calendar_dates-only service).
export TRANSIT_COMPARE_EXTRA=1
if [ -z "${TRANSIT_SHARED_DATA:-}" ] && [ -d ../shared/data ]; then
    TRANSIT_SHARED_DATA=$(cd ../shared/data && pwd -P)
    export TRANSIT_SHARED_DATA
fi
Scripts/setup.sh
# The comparisons with street walks read the streets from PostgreSQL: the checkout's
# cluster (started here unless it runs already, and stopped again if so).
. Scripts/lib/cluster.sh
trap release_cluster EXIT
use_cluster
echo "==> build (release, tests included)" >&2
swift build -c release --build-tests -Xswiftc -enable-testing >&2
swift test -c release -Xswiftc -enable-testing --skip-build --filter ReferenceComparisonTests
