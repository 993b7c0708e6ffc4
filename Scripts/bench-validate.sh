#!/usr/bin/env bash
# Validation speed on one feed (default bydgoszcz-2020): wall time of `transit import
# --check`, of `transit validate` (every rule, dates included) and of gtfs-guru (PyPI),
# rounds alternating, medians and ratios; with a baseline binary (e.g. a build of the
# commit before the canonical rules), its `import --check` too.
#
#   Scripts/bench-validate.sh [--rounds N] [--baseline /path/to/old/transit] [FEED.zip]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
rounds=7
baseline=""
feed="$shared/gtfs/bydgoszcz-2020.zip"
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --baseline) baseline="$2"; shift 2 ;;
        *) feed="$1"; shift ;;
    esac
done
Scripts/setup.sh
if ! python3 -c 'import gtfs_guru' >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check gtfs-guru==1.0.0 >&2 \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages gtfs-guru==1.0.0 >&2
fi
. Scripts/lib/cluster.sh
release_transit

python3 - "$rounds" "$feed" "$bin" "$baseline" <<'EOF'
import subprocess, sys, time, statistics
rounds, feed, new, old = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
runs = {}
if old: runs["baseline import --check"] = [old, "import", feed, "--check"]
runs["import --check"] = [new, "import", feed, "--check"]
runs["validate --today 2026-11-27"] = [new, "validate", feed, "--today", "2026-11-27"]
runs["gtfs-guru 1.0.0"] = [sys.executable, "-c", f"import gtfs_guru; gtfs_guru.validate({feed!r}, date='2026-11-27')"]
times = {k: [] for k in runs}
for _ in range(rounds):
    for name, cmd in runs.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - t)
base = statistics.median(times["baseline import --check" if old else "import --check"])
print(f"{feed.split('/')[-1]}, {rounds} alternating rounds, wall time of a whole process (start included):")
print(f"{'':30} {'median s':>9} {'ratio':>7}")
for name in runs:
    m = statistics.median(times[name])
    print(f"{name:30} {m:9.3f} {m / base:6.2f}x")
EOF
