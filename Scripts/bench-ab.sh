#!/usr/bin/env bash
# Two `transit` builds' routing speed, measured alternately in one sitting (A, B, A, B, …)
# so that the machine's drift falls on both alike: `transit bench --gtfs FEED` for each,
# ROUNDS times, then per query kind the median single-thread p50 and queries/s of each
# build and the ratio B/A.
#
#   Scripts/bench-ab.sh A_BIN B_BIN [FEED.zip] [QUERIES]
#   ROUNDS=N (default 5), PASSES=N (transit bench --passes; default 1)
#
# Typical use: a release build of the commit before a change as A (e.g. in a worktree:
# `git worktree add /tmp/base REV && (cd /tmp/base && swift build -c release --product transit)`)
# and of the change as B.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
a=${1:?usage: Scripts/bench-ab.sh A_BIN B_BIN [FEED.zip] [QUERIES]}
b=${2:?usage: Scripts/bench-ab.sh A_BIN B_BIN [FEED.zip] [QUERIES]}
feed=${3:-${TRANSIT_SHARED_DATA:-../shared/data}/gtfs/bydgoszcz-2020.zip}
queries=${4:-1000}
rounds=${ROUNDS:-5}
passes=${PASSES:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
    for side in A B; do
        bin=$a; [ "$side" = B ] && bin=$b
        # Only the single-thread rows: "kind 1 p50 p95 p99 q/s …" ("range 60" is two words).
        "$bin" bench --gtfs "$feed" --queries "$queries" --passes "$passes" 2>/dev/null \
            | awk -v side="$side" '$0 ~ /^(depart-at|arrive-by|range 60|answer) +1 / {
                  kind = $1; if ($1 == "range") { kind = "range-60"; $0 = substr($0, 10) } else { $0 = substr($0, length($1) + 1) }
                  print side, kind, $2, $5 }' >> "$out/rows"
    done
    echo "round $r of $rounds done" >&2
done
python3 - "$out/rows" "$a" "$b" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print(f"A = {sys.argv[2]}\nB = {sys.argv[3]}")
print(f"{'kind':<10} {'A p50 ms':>9} {'B p50 ms':>9} {'B/A':>6} {'A q/s':>7} {'B q/s':>7} {'B/A':>6}  (medians of {len(rows)//8} rounds)")
for kind in ["depart-at", "arrive-by", "range-60", "answer"]:
    p = {s: [float(r[2]) for r in rows if r[0] == s and r[1] == kind] for s in "AB"}
    q = {s: [float(r[3]) for r in rows if r[0] == s and r[1] == kind] for s in "AB"}
    if not p["A"] or not p["B"]: continue
    pa, pb, qa, qb = (statistics.median(x) for x in (p["A"], p["B"], q["A"], q["B"]))
    print(f"{kind:<10} {pa:>9.3f} {pb:>9.3f} {pb/pa:>6.2f} {qa:>7.0f} {qb:>7.0f} {qb/qa:>6.2f}")
PY
