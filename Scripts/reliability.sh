#!/usr/bin/env bash
# Reliability under bad input, faults and load, in one run (about 30 minutes on 2 cores),
# ending in a table of cases tried, passed and failed with the figures:
#
#   Scripts/reliability.sh
#   FUZZ_SECONDS=120 SOAK_MINUTES=10 MUTATION_FEEDS=all Scripts/reliability.sh
#
#   fuzzing       Scripts/fuzz.sh: each libFuzzer target for FUZZ_SECONDS (default 120; the
#                 10-minute runs in the README are `Scripts/fuzz.sh 600`)
#   mutated feeds MutatedFeedTests on every shared feed (MUTATION_FEEDS=all, else the bundled
#                 ones), importing with the release binary: every case one of the
#                 importer's three outcomes, the place named, nothing half-changed
#   faults        PostgreSQL stopped (fast and like a crash) during an import; an import
#                 killed with -9; the server killed under load and restarted; the database
#                 lost while the server runs (the tests); and PostgreSQL stopped for real
#                 while the server is under load (here, with wrk)
#   security      SecurityTests: parameters only, size and rate limits, loopback, no files
#   soak          Scripts/soak.sh: SOAK_MINUTES (default 10) of mixed requests
#
# Everything runs against a PostgreSQL cluster of its own (TRANSIT_PG_BASE), stopped and
# deleted at the end; the checkout's usual cluster is not touched. Logs of each part go to
# .build-reliability/. Exit 1 if any case failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
fuzz_seconds="${FUZZ_SECONDS:-120}"
soak_minutes="${SOAK_MINUTES:-10}"
mutation_feeds="${MUTATION_FEEDS:-all}"
logs="$root/.build-reliability"
rm -rf "$logs"
mkdir -p "$logs"
started=$(date +%s)

section() { echo "==> [$(($(date +%s) - started)) s] $*" >&2; }
rows=()   # "part|tried|passed|failed|figures"
row() { rows+=("$1|$2|$3|$4|$5"); }

section setup
Scripts/setup.sh
. Scripts/lib/serve.sh
ensure_wrk
if [ -z "${TRANSIT_SHARED_DATA:-}" ] && [ -d ../shared/data ]; then
    TRANSIT_SHARED_DATA=$(cd ../shared/data && pwd -P)
fi
export TRANSIT_SHARED_DATA="${TRANSIT_SHARED_DATA:-}"

export TRANSIT_PG_BASE="/tmp/transit-pg-rel-$(printf '%s' "$root" | sha256sum | cut -c1-8)"
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
    Scripts/postgres.sh stop --purge >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
eval "$(Scripts/postgres.sh start)"
export DATABASE_URL

section "build: the tests (debug) and transit (release)"
swift build --build-tests --explicit-target-dependency-import-check error >"$logs/build.log" 2>&1 || { tail -30 "$logs/build.log" >&2; exit 1; }
swift build -c release --product transit >>"$logs/build.log" 2>&1 || { tail -30 "$logs/build.log" >&2; exit 1; }
export TRANSIT_BIN="$root/.build/release/transit"

# Counts a swift-testing run's tests from its summary line: "tried passed failed".
test_counts() {
    local summary tried failed
    summary=$(grep -E 'Test run with [0-9]+ tests?' "$1" | tail -n 1 || true)
    tried=$(echo "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p')
    failed=$(grep -cE '^✘ Test ".*" (with [0-9]+ test cases? )?failed after' "$1" || true)
    [ -n "$tried" ] || { tried=0; failed=1; }
    echo "$tried $((tried - failed)) $failed"
}
# Runs some suites; their output to a log; never stops this script.
suites() {
    local name=$1 filter=$2
    shift 2
    env "$@" swift test --skip-build --filter "$filter" >"$logs/$name.log" 2>&1 || true
}

section "fuzzing: each target for $fuzz_seconds s"
if Scripts/fuzz.sh "$fuzz_seconds" >"$logs/fuzz.log" 2>&1; then fuzz_ok=1; else fuzz_ok=0; fi
# fuzz.sh's table: target, seconds, executions, exec/s, corpus, cov, ft, outcome.
fuzz_rows=$(grep -E '^fuzz-[a-z]+ +[0-9]' "$logs/fuzz.log" || true)
tried=$(echo "$fuzz_rows" | grep -c . || true)
failed=$(echo "$fuzz_rows" | awk '$8 != "ok"' | grep -c . || true)
[ "$fuzz_ok" = 1 ] || [ "$failed" -gt 0 ] || failed=1
execs=$(echo "$fuzz_rows" | awk '{ s += $3 } END { printf "%d", s }')
row "fuzzing (libFuzzer, $fuzz_seconds s per target)" "$tried" $((tried - failed)) "$failed" "$execs executions$([ "$failed" = 0 ] && echo ", no crash, no hang" || echo "; see .build-reliability/fuzz.log")"
tail -n 20 "$logs/fuzz.log" >&2

section "mutated feeds ($mutation_feeds)"
suites mutations MutatedFeedTests TRANSIT_MUTATION_FEEDS="$mutation_feeds"
cases=$(grep -c '^RELIABILITY	mutation' "$logs/mutations.log" || true)
bad=$(grep -cE '^RELIABILITY	mutation	[^	]*	FAIL' "$logs/mutations.log" || true)
refused=$(grep -cE '^RELIABILITY	mutation	[^	]*	ok	refused' "$logs/mutations.log" || true)
imported=$(grep -cE '^RELIABILITY	mutation	[^	]*	ok	imported' "$logs/mutations.log" || true)
feeds=$(grep '^RELIABILITY	mutation' "$logs/mutations.log" | cut -f3 | cut -d: -f1 | sort -u | grep -c . || true)
read -r t p f < <(test_counts "$logs/mutations.log")
[ "$f" = 0 ] || [ "$bad" -gt 0 ] || bad=1
row "mutated real feeds ($feeds feeds × 16 ways)" "$cases" $((cases - bad)) "$bad" "$refused refused with the place named and tables unchanged, $imported imported with every skipped row or warning named"
grep -E '^RELIABILITY	mutation	[^	]*	FAIL' "$logs/mutations.log" >&2 || true

section "faults (tests)"
suites faults 'PostgresStopTests|KillTests|FaultsUnderLoadTests|ReloadTests'
read -r t p f < <(test_counts "$logs/faults.log")
back=$(grep -oE 'back in [0-9.]+ s' "$logs/faults.log" | head -n 1 || true)
row "faults: import and server (tests)" "$t" "$p" "$f" "PostgreSQL stopped fast and immediate mid-import, import killed -9, server killed -9 under load ($back), database lost and back"

section "faults: PostgreSQL stopped while the server is under load"
# Served from memory: a database restart must cost no request, and health must say so.
fault_ok=1
fault_notes=""
psql -q "$DATABASE_URL" -c "DROP DATABASE IF EXISTS transit_fault WITH (FORCE)" -c "CREATE DATABASE transit_fault"
fault_url="${DATABASE_URL/\/transit\?//transit_fault?}"
DATABASE_URL="$fault_url" "$TRANSIT_BIN" import Data/bart-2018.zip --feed bart >/dev/null 2>"$logs/fault-import.log"
DATABASE_URL="$fault_url" start_server "$TRANSIT_BIN" "$logs/fault-serve.log" --plan-rate 0
health() { curl -s "http://127.0.0.1:$port/v1/health" | python3 -c 'import json,sys; h=json.load(sys.stdin); print(h["status"], h["database"]["reachable"])'; }
printf '%s\n' "/v1/plan?from=stop:12TH&to=stop:SFIA&time=2018-06-05T08:30:00" "/v1/stops?query=embarcadero" \
    "/v1/stops?near=37.8044,-122.2712&radius=800" "/v1/plan?from=37.7936,-122.3950&to=37.7211,-122.4474&time=2018-06-05T17:10:00" \
    >"$logs/fault-paths.txt"
PATHS_FILE="$logs/fault-paths.txt" wrk -t2 -c8 -d40s -s Scripts/lib/paths.lua "http://127.0.0.1:$port" >"$logs/fault-wrk.txt" &
wrk_pid=$!
sleep 5
before=$(health)
Scripts/postgres.sh stop >/dev/null 2>&1
sleep 12
during=$(health)
eval "$(Scripts/postgres.sh start 2>/dev/null)"
export DATABASE_URL
after=""
for _ in $(seq 1 60); do
    after=$(health)
    [ "$after" = "ok True" ] && break
    sleep 1
done
wait "$wrk_pid" || true
stop_server
result=$(grep '^RESULT' "$logs/fault-wrk.txt" || echo "RESULT requests=0 errors=-1")
requests=$(echo "$result" | sed -E 's/.*requests=([0-9]+).*/\1/')
# Any answer but a 2xx is a failure here: the four requests are good ones.
errors=$(echo "$result" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } print v["errors"] + v["answered_4xx"] }')
[ "$before" = "ok True" ] || { fault_ok=0; fault_notes+=" health before: $before;"; }
[ "$during" = "degraded False" ] || { fault_ok=0; fault_notes+=" health while stopped: $during;"; }
[ "$after" = "ok True" ] || { fault_ok=0; fault_notes+=" health after the restart: $after;"; }
[ "$errors" = 0 ] || { fault_ok=0; fault_notes+=" $errors failed requests;"; }
row "faults: PostgreSQL stopped 12 s under load (wrk, 40 s)" 1 "$fault_ok" $((1 - fault_ok)) "$requests requests, $errors failed; health ok → degraded (unreachable) → ok${fault_notes}"

section "security"
suites security SecurityTests
read -r t p f < <(test_counts "$logs/security.log")
row "security (tests)" "$t" "$p" "$f" "SQL with parameters only, read-only sessions, size and rate limits, loopback by default, no file reads"

section "soak: $soak_minutes minutes"
if MINUTES="$soak_minutes" Scripts/soak.sh >"$logs/soak.log" 2>&1; then soak_ok=1; else soak_ok=0; fi
grep -E '^(minute|window)' "$logs/soak.log" >&2 || true
soak=$(grep '^SOAK' "$logs/soak.log" || echo "SOAK verdict=FAIL")
get() { echo "$soak" | sed -nE "s/.* $1=([^ ]+).*/\1/p"; }
row "soak ($soak_minutes min of mixed requests)" 1 "$soak_ok" $((1 - soak_ok)) \
    "$(get requests) requests at $(get rate)/s, $(get errors) errors; RSS $(get rss_first) → max $(get rss_max) MB; p99 $(get p99_first) → $(get p99_last) ms"

total=$(($(date +%s) - started))
echo
printf '| %s | %s | %s | %s | %s |\n' part tried passed failed figures
printf '| --- | ---: | ---: | ---: | --- |\n'
all_failed=0
for r in "${rows[@]}"; do
    IFS='|' read -r part tried passed failed figures <<<"$r"
    printf '| %s | %s | %s | %s | %s |\n' "$part" "$tried" "$passed" "$failed" "$figures"
    all_failed=$((all_failed + failed))
done
echo
echo "reliability.sh: $(date -u +%Y-%m-%d), $((total / 60)) min $((total % 60)) s, $(nproc) cores; logs in .build-reliability/"
[ "$all_failed" = 0 ] || { echo "reliability.sh: $all_failed failed" >&2; exit 1; }
