#!/usr/bin/env bash
# Import speed against PostgreSQL's own bulk load, measured in the same run.
#
#   Scripts/bench-import.sh [FEED.zip] [ROUNDS]
#
# Baseline: the feed's raw .txt files loaded with `psql \copy` (CSV, HEADER) into bare
# all-text tables, one psql session for all files: no validation, no types, no indexes.
# Importer: `transit import` of the same zip: unzip, parse, validate every row, COPY into
# typed tables, keys and indexes, atomic swap. Rounds alternate between the two; the
# script prints each round, the medians, their ratio and the importer's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
rounds="${2:-5}"
[ -f "$feed" ] || { echo "bench-import.sh: no feed at $feed" >&2; exit 1; }

Scripts/setup.sh
. Scripts/lib/cluster.sh
work=$(mktemp -d)
cleanup() {
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
fresh_database transit_bench

unzip -q -o "$feed" -d "$work/feed"
# Blank lines out first (before the clock): psql reads one as a row of one empty field
# and stops, where the importer skips it (BART's transfers.txt ends in one).
sed -i '/^\r\?$/d' "$work"/feed/*.txt
copy_sql="$work/copy.sql"
{
    echo "DROP SCHEMA IF EXISTS rawcopy CASCADE; CREATE SCHEMA rawcopy;"
    for f in "$work"/feed/*.txt; do
        t=$(basename "$f" .txt)
        # Header names as columns, all text (a BOM and CR removed, spaces trimmed).
        cols=$(head -n 1 "$f" | sed 's/^\xEF\xBB\xBF//; s/\r$//' | tr ',' '\n' \
               | sed 's/^ *//; s/ *$//; s/"//g' | awk '{printf "%s\"%s\" text", (NR>1?", ":""), $0}')
        echo "CREATE TABLE rawcopy.\"$t\" ($cols);"
    done
} > "$work/create.sql"
for f in "$work"/feed/*.txt; do
    echo "\\copy rawcopy.\"$(basename "$f" .txt)\" FROM '$f' WITH (FORMAT csv, HEADER true)"
done > "$copy_sql"

now() { date +%s.%N; }
raw_times=(); imp_times=(); imp_mem=()
for r in $(seq 1 "$rounds"); do
    psql -q "$DATABASE_URL" -f "$work/create.sql" >/dev/null 2>&1
    t0=$(now); psql -q -v ON_ERROR_STOP=1 "$DATABASE_URL" -f "$copy_sql"; t1=$(now)
    raw=$(echo "$t1 - $t0" | bc)
    t0=$(now)
    /usr/bin/time -f "%M" -o "$work/mem" "$bin" import "$feed" --feed bench >/dev/null 2>"$work/import.log" \
        || { cat "$work/import.log" >&2; exit 1; }
    t1=$(now)
    imp=$(echo "$t1 - $t0" | bc)
    mem=$(tail -n 1 "$work/mem")
    raw_times+=("$raw"); imp_times+=("$imp"); imp_mem+=("$mem")
    printf 'round %d: raw \\copy %.3f s, transit import %.3f s (%.2fx), peak RSS %d MB\n' \
        "$r" "$raw" "$imp" "$(echo "$imp / $raw" | bc -l)" "$((mem / 1024))"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
raw_m=$(median "${raw_times[@]}"); imp_m=$(median "${imp_times[@]}"); mem_max=$(printf '%s\n' "${imp_mem[@]}" | sort -n | tail -n 1)
rows=$(psql -tA "$DATABASE_URL" -c "SELECT sum(n) FROM (SELECT count(*) n FROM gtfs.stop_times UNION ALL SELECT count(*) FROM gtfs.trips UNION ALL SELECT count(*) FROM gtfs.stops) x")
echo
echo "feed: $(basename "$feed"), $rounds rounds, $(nproc) cores"
printf 'median raw psql \\copy (all files, text tables): %.3f s\n' "$raw_m"
printf 'median transit import (validate, typed COPY, keys, swap): %.3f s\n' "$imp_m"
printf 'ratio import / raw copy: %.2fx (target <= 1.5x)\n' "$(echo "$imp_m / $raw_m" | bc -l)"
printf 'importer peak RSS: %d MB (target < 200 MB)\n' "$((mem_max / 1024))"
echo "rows in stops + trips + stop_times: $rows"
