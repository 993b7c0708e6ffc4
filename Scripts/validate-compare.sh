#!/usr/bin/env bash
# Our validator (`transit validate`) beside gtfs-guru (PyPI; a validator that follows
# MobilityData's canonical GTFS rules) on every shared feed, judged on the same day: per
# canonical code, the notices each raises, and the time each takes.
#
#   Scripts/validate-compare.sh [--today YYYY-MM-DD] [FEED.zip ...]
#
# gtfs-guru's count is given as it reports it and, in brackets when different, as the
# distinct places (file, row, field) it names: it reports some rows twice (number_out_of_range
# on wmata-rail-2026's pathways: once as "positive integer", once as "integer"). A line is
# marked "=" when our count equals its distinct places, "ours+" when we raise more, and
# "MISSING" when it raises a canonical ERROR that we raise fewer times.
# Needs no database. Installs gtfs-guru (pinned) with pip when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
today=2026-11-27
feeds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --today) today="$2"; shift 2 ;;
        *) feeds+=("$1"); shift ;;
    esac
done
if [ ${#feeds[@]} -eq 0 ]; then feeds=("$shared"/gtfs/*.zip); fi

Scripts/setup.sh
if ! python3 -c 'import gtfs_guru' >/dev/null 2>&1; then
    echo "validate-compare.sh: installing gtfs-guru 1.0.0 (PyPI)" >&2
    python3 -m pip install --quiet --disable-pip-version-check gtfs-guru==1.0.0 >&2 \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages gtfs-guru==1.0.0 >&2
fi
. Scripts/lib/cluster.sh
release_transit

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "${feeds[@]}"; do
    name=$(basename "$f" .zip)
    # Ours: every sample kept, so that the places can be compared too.
    start=$(date +%s.%N)
    "$bin" validate "$f" --today "$today" --format json --samples 10000 > "$out/$name.ours.json" || true
    end=$(date +%s.%N)
    echo "$(echo "$end - $start" | bc)" > "$out/$name.ours.seconds"
done

python3 - "$out" "$today" "${feeds[@]}" <<'EOF'
import json, sys, time, collections, os
import gtfs_guru
out, today, feeds = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"Judged on {today}; gtfs-guru {gtfs_guru.version()}.")
print()
print(f"{'feed':30} {'code':52} {'severity':8} {'gtfs-guru':>12} {'ours':>7}  ")
totals = collections.Counter()
all_codes = collections.defaultdict(list)   # code -> [(gtfs-guru distinct places, ours)] per feed raising it
all_severity = {}
missing = []
times = []
for path in feeds:
    name = os.path.basename(path)[:-4]
    t = time.time()
    r = gtfs_guru.validate(path, date=today)
    guru_seconds = time.time() - t
    ours_seconds = float(open(f"{out}/{name}.ours.seconds").read())
    ours = json.load(open(f"{out}/{name}.ours.json"))
    times.append((name, ours_seconds, guru_seconds))
    raw = collections.Counter(n.code for n in r.notices)
    places = collections.defaultdict(set)
    severity = {}
    for n in r.notices:
        ctx = n.context()
        row = n.row or ctx.get("csvRowNumber")
        # A place: file, row and field; a notice with no row is told apart by its context.
        places[n.code].add((n.file or ctx.get("filename"), row, n.field or ctx.get("fieldName")) if row else str(sorted(ctx.items())))
        severity[n.code] = n.severity
    mine = collections.Counter()
    for n in ours["notices"]:
        if n.get("code"):
            mine[n["code"]] += n["count"]
            severity.setdefault(n["code"], n.get("severity") or "")
    for code in sorted(set(raw) | set(mine), key=lambda c: ({"ERROR": 0, "WARNING": 1, "INFO": 2}.get(severity[c], 3), c)):
        g, d, m = raw[code], len(places[code]), mine[code]
        shown = f"{g}" if g == d else f"{g} ({d})"
        mark = "=" if d == m else ("ours+" if m > d else ("MISSING" if severity[code] == "ERROR" else "fewer"))
        if mark == "MISSING":
            missing.append(f"{name} {code}: gtfs-guru {d}, ours {m}")
        totals[(severity[code], mark)] += 1
        all_codes[code].append((d, m))
        all_severity[code] = severity[code] or "-"
        print(f"{name:30} {code:52} {severity[code]:8} {shown:>12} {m:>7}  {mark}")
print()
print("All feeds, per canonical code (gtfs-guru's distinct places):")
print(f"{'code':52} {'severity':8} {'gtfs-guru':>10} {'ours':>8}  feeds equal")
for code in sorted(all_codes, key=lambda c: ({"ERROR": 0, "WARNING": 1, "INFO": 2}.get(all_severity[c], 3), c)):
    g, m = sum(x[0] for x in all_codes[code]), sum(x[1] for x in all_codes[code])
    equal = sum(1 for x in all_codes[code] if x[0] == x[1])
    print(f"{code:52} {all_severity[code]:8} {g:>10} {m:>8}  {equal}/{len(all_codes[code])}")
print()
print(f"{'feed':30} {'ours s':>8} {'gtfs-guru s':>12}")
for name, o, g in times:
    print(f"{name:30} {o:8.2f} {g:12.2f}")
print()
for (sev, mark), n in sorted(totals.items()):
    print(f"{sev:8} {mark:8} {n} codes-by-feed")
if missing:
    print("canonical ERRORs we raise fewer times:")
    for m in missing: print("  " + m)
    sys.exit(1)
print("every canonical ERROR gtfs-guru raises on these feeds, we raise as often")
EOF
