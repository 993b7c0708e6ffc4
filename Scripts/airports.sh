#!/usr/bin/env bash
# Regenerates Sources/Planner/Resources/airports-iata.csv: the airports with an IATA code,
# as `iata,lat,lon` (one a line, sorted by code), read by the stop search to find an
# airport's stop by its code ("SFO": San Francisco International Airport).
#
# Source: the PyPI package `airportsdata` (https://github.com/mborsetti/airportsdata),
# its airports.csv; MIT licence, copyright (c) 2020- Mike Borsetti. Version pinned below
# (AIRPORTSDATA_VERSION=… overrides it); the file keeps only the rows with an IATA code.
#
# Usage: Scripts/airports.sh            (needs pip and python3; downloads one wheel)
set -euo pipefail
VERSION="${AIRPORTSDATA_VERSION:-20260905}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/Sources/Planner/Resources/airports-iata.csv"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pip download "airportsdata==$VERSION" --no-deps -d "$tmp" >/dev/null
python3 - "$tmp"/airportsdata-*.whl "$out" <<'PY'
import csv, io, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    text = z.read("airportsdata/airports.csv").decode("utf-8")
rows = {}
for r in csv.DictReader(io.StringIO(text)):
    code = r["iata"].strip().upper()
    if len(code) != 3 or not code.isalpha():
        continue
    lat, lon = float(r["lat"]), float(r["lon"])
    rows.setdefault(code, []).append((lat, lon))
with open(out, "w", newline="\n") as f:
    f.write("iata,lat,lon\n")
    for code in sorted(rows):
        for lat, lon in rows[code]:
            f.write(f"{code},{lat:.5f},{lon:.5f}\n")
print(f"{out}: {sum(len(v) for v in rows.values())} airports", file=sys.stderr)
PY
