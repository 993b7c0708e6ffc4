#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer of the readers that take outside bytes: the CSV
# parser (fuzz-csv), every GTFS file reader through the loader (fuzz-gtfs), time and date
# parsing (fuzz-time), the API's query parsing (fuzz-query) and the GTFS-Realtime reader
# (fuzz-realtime, protocol buffers). The checks are in
# Sources/FuzzChecks (FuzzChecksTests run them on every `Scripts/test.sh`); Fuzz/ holds one
# libFuzzer executable per target.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET…]
#
#   SECONDS              how long each target runs (default 600; env FUZZ_SECONDS)
#   TARGET…              fuzz-csv fuzz-gtfs fuzz-time fuzz-query fuzz-realtime (default: all; the
#                        "fuzz-" may be left off)
#   FUZZ_JOBS=N          targets run at once (default 2, one per core here)
#   FUZZ_TIMEOUT=S       an input taking longer than S seconds is a hang, a finding
#                        (libFuzzer -timeout; default 10)
#   FUZZ_RSS_MB=N        libFuzzer -rss_limit_mb (default 2048)
#   FUZZ_MAX_LEN=N       libFuzzer -max_len (default 8192: room for a seed file of a real feed;
#                        fuzz-realtime 49152: room for the 40 KB BART TripUpdates message)
#   FUZZ_SEED=N          libFuzzer -seed, to repeat a run (default: random, in each log)
#   FUZZ_KEEP_CORPUS=1   start from the corpus the last run grew, not the seeds alone
#   FUZZ_ADDRESS=0       build without AddressSanitizer (faster; finds less)
#
# Builds Fuzz/ in release with `-sanitize=fuzzer,address` into .build-fuzz/,
# writes the seed corpora and dictionaries from real feed rows (Data/*.zip and, when it is
# there, ../shared/data/gtfs/*.zip: each file's header, its first lines and lines drawn
# from further in; for fuzz-realtime also the real messages ../shared/data/gtfs-rt/*/*.pb,
# whole and cut into messages of a few entities), then runs each target for SECONDS. Everything goes to .build-libfuzzer/
# (git-ignored): seeds/, corpus/<target>/ (what the run added), findings/<target>/
# (crash-*, timeout-*, oom-* inputs), <target>.log and summary.txt, the table printed at
# the end. Replay a finding with `.build-fuzz/release/<target> FILE`; each one becomes a
# regression test in the tests of the module at fault.
#
# Exits 1 if any target crashed, hung or ran out of memory; 2 on a usage error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

all_targets=(fuzz-csv fuzz-gtfs fuzz-time fuzz-query fuzz-realtime)
seconds="${FUZZ_SECONDS:-600}"
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then seconds="$1"; shift; fi
case "$seconds" in "" | *[!0-9]* | 0) echo "fuzz.sh: SECONDS must be a positive number, not '$seconds'" >&2; exit 2 ;; esac
targets=()
for t in "$@"; do
    case "$t" in -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
    [[ "$t" == fuzz-* ]] || t="fuzz-$t"
    [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: no target '$t' (known: ${all_targets[*]})" >&2; exit 2; }
    targets+=("$t")
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
jobs_at_once="${FUZZ_JOBS:-2}"
timeout="${FUZZ_TIMEOUT:-10}"
rss="${FUZZ_RSS_MB:-2048}"
max_len="${FUZZ_MAX_LEN:-8192}"

section() { echo "==> $*" >&2; }

section setup
Scripts/setup.sh

scratch="$root/.build-fuzz"
out="$root/.build-libfuzzer"
# SwiftPM's --sanitize flags reach swiftc as one -sanitize= option each, and swiftc keeps
# only the last: with both, Swift code got AddressSanitizer but no coverage counters, and
# libFuzzer fuzzed blind. The combined -Xswiftc option comes after them and wins; the
# --sanitize flags still instrument the C targets and link the runtimes.
sanitizers=(--sanitize=fuzzer)
swift_sanitize=fuzzer
if [ "${FUZZ_ADDRESS:-1}" != 0 ]; then sanitizers+=(--sanitize=address); swift_sanitize=fuzzer,address; fi
section "release build of Fuzz/ (-sanitize=$swift_sanitize) into .build-fuzz"
swift build -c release "${sanitizers[@]}" -Xswiftc -sanitize="$swift_sanitize" --package-path Fuzz --scratch-path "$scratch" >&2
# Refuse to fuzz blind: the parser's object must call into the coverage runtime.
if [ "$(nm "$scratch/x86_64-unknown-linux-gnu/release/GTFS.build/CSVParser.swift.o" | grep -c __sanitizer_cov)" = 0 ]; then
    echo "fuzz.sh: the Swift code has no coverage counters (check the -sanitize options reaching swiftc)" >&2
    exit 1
fi
bin="$scratch/release"

# LeakSanitizer stays on: a leak is a finding too. A hang is reported by -timeout.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:symbolize=1}"

section "seeds from real feeds into .build-libfuzzer/seeds"
mkdir -p "$out"
rm -rf "$out/seeds" "$out/findings"
# A feed in both folders is read once (the shared copy).
feeds=()
for zip in Data/*.zip; do
    shared="../shared/data/gtfs/$(basename "$zip")"
    [ -f "$shared" ] || feeds+=("$root/$zip")
done
if [ -d ../shared/data/gtfs ]; then
    for zip in ../shared/data/gtfs/*.zip; do feeds+=("$(cd "$(dirname "$zip")" && pwd -P)/$(basename "$zip")"); done
fi
# The real GTFS-Realtime messages (fuzz-realtime's seeds), when the shared data is there.
messages=()
if [ -d ../shared/data/gtfs-rt ]; then
    for pb in ../shared/data/gtfs-rt/*/*.pb; do [ -f "$pb" ] && messages+=("$(cd "$(dirname "$pb")" && pwd -P)/$(basename "$pb")"); done
fi
# ZIPFoundation leaves a few hundred bytes behind per archive: not what is fuzzed here.
TRANSIT_FUZZ_FEEDS=$(IFS=:; echo "${feeds[*]}") TRANSIT_FUZZ_REALTIME=$(IFS=:; echo "${messages[*]}") \
    TRANSIT_FUZZ_SEEDS="$out/seeds" ASAN_OPTIONS=detect_leaks=0 "$bin/fuzz-csv" >&2

run_target() {
    local t="$1" corpus="$out/corpus/$1" findings="$out/findings/$1" log="$out/$1.log"
    [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] || rm -rf "$corpus"
    mkdir -p "$corpus" "$findings"
    local len="$max_len"
    [ "$t" != fuzz-realtime ] || len="${FUZZ_MAX_LEN:-49152}"
    local args=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" -max_len="$len"
                -dict="$out/seeds/$t.dict" -artifact_prefix="$findings/" -print_final_stats=1)
    [ -z "${FUZZ_SEED:-}" ] || args+=(-seed="$FUZZ_SEED")
    local start rc=0
    start=$(date +%s)
    "$bin/$t" "${args[@]}" "$corpus" "$out/seeds/$t" >"$log" 2>&1 </dev/null || rc=$?
    echo "$rc $(( $(date +%s) - start ))" >"$out/$t.status"
}

section "fuzzing ${targets[*]} for $seconds s each, $jobs_at_once at a time (logs in .build-libfuzzer/)"
running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$jobs_at_once" ]; then wait -n || true; running=$((running - 1)); fi
    echo "    $t started $(date -u +%H:%M:%S)" >&2
    run_target "$t" &
    running=$((running + 1))
done
wait || true

# One row per target: libFuzzer's final stats and its last status line (cov, ft, corp).
failed=0
{
    printf '%-13s %8s %12s %8s %14s %7s %8s  %s\n' target seconds executions "exec/s" corpus cov ft outcome
    for t in "${targets[@]}"; do
        log="$out/$t.log"
        read -r rc took <"$out/$t.status"
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
        last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
        cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
        ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
        corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
        finding=$(ls "$out/findings/$t" 2>/dev/null | grep -E '^(crash|timeout|oom|leak)-' | head -n 1 || true)
        if [ "$rc" = 0 ] && [ -z "$finding" ]; then
            outcome=ok
        else
            failed=1
            kind=${finding%%-*}
            outcome="${kind:-exit $rc}: ${finding:+.build-libfuzzer/findings/$t/$finding}"
        fi
        printf '%-13s %8s %12s %8s %14s %7s %8s  %s\n' "$t" "$took" "${execs:-?}" "${rate:-?}" "${corp:-?}" "${cov:-?}" "${ft:-?}" "$outcome"
    done
    echo "($(date -u +%Y-%m-%d) $(uname -m), $(nproc) cores, $jobs_at_once at a time, -timeout=$timeout -rss_limit_mb=$rss -max_len=$max_len (fuzz-realtime ${FUZZ_MAX_LEN:-49152}), -sanitize=$swift_sanitize)"
} | tee "$out/summary.txt"

if [ "$failed" = 1 ]; then
    echo "fuzz.sh: a target found something; see its log in .build-libfuzzer/ and replay with .build-fuzz/release/TARGET FILE" >&2
    exit 1
fi
