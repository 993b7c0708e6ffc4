#!/usr/bin/env bash
# Builds everything (tests included) and runs the tests against a throwaway PostgreSQL.
#
#   Scripts/test.sh [swift test arguments…]     e.g. Scripts/test.sh --filter GTFSTests
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

section build
swift build --build-tests --explicit-target-dependency-import-check error

section test
status=0
swift test --skip-build "$@" || status=$?
exit "$status"
