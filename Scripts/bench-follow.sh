#!/usr/bin/env bash
# Following trips at scale (issue 22): 1,000 followed trips on one `transit serve` while its
# realtime state is replaced every second.
#
# bydgoszcz-2020 with generated TripUpdates messages (`realtime-messages`, 4 seeds in turn,
# a new one every second from a local URL). 1,000 trips are planned through the API (the
# queries of `transit bench --urls`, on the busiest day) and each followed by a client
# (Scripts/lib/follow-clients.py); PAIRS of them are followed a second time by a client that
# drops its connection every few seconds and comes back with Last-Event-ID. Reported:
#   - the server's memory before and with the streams open (per stream), and what it counts
#     per followed trip (`/v1/health` following.bytesPerTrip);
#   - the pass over the followed trips that each new realtime state makes (median and
#     longest of the last 100, against the build of the state itself);
#   - events told by type, streams refused, and events lost on reconnection (target 0).
#
#   Scripts/bench-follow.sh                    1,000 trips, 60 s
#   TRIPS=200 SECONDS_=20 Scripts/bench-follow.sh [FEED.zip]
#
# Exits 3 when a target is missed (no event lost; every stream opened; pass median <= 20 ms).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${TRANSIT_SHARED_DATA:-$root/../shared/data}"
feed="${1:-$shared/gtfs/bydgoszcz-2020.zip}"
updates="${UPDATES:-10000}"
trips="${TRIPS:-1000}"
seconds="${SECONDS_:-60}"
pairs="${PAIRS:-50}"

Scripts/setup.sh
. Scripts/lib/cluster.sh
. Scripts/lib/serve.sh
work=$(mktemp -d)
server_pid=""
http_pid=""
swapper_pid=""
cleanup() {
    [ -n "$swapper_pid" ] && kill "$swapper_pid" 2>/dev/null || true
    [ -n "$http_pid" ] && kill "$http_pid" 2>/dev/null || true
    stop_server
    rm -rf "$work"
    release_cluster
}
trap cleanup EXIT
use_cluster
release_transit
echo "==> release build of realtime-messages" >&2
swift build -c release --product realtime-messages >&2
gen="$root/.build/release/realtime-messages"
id=$(basename "$feed" .zip)

fresh_database transit_bench_follow
echo "==> import $feed" >&2
"$bin" import "$feed" --feed "$id" >/dev/null
"$bin" bench --feed "$id" --queries "$((trips * 2))" --kind answer --urls "$work/paths.txt" >"$work/plain.txt"
day=$(grep -oE 'busiest day [0-9-]+' "$work/plain.txt" | head -1 | awk '{ print $3 }')
echo "==> 4 messages of $updates trip updates for $id on $day" >&2
"$gen" "$feed" --feed-id "$id" --date "$day" --updates "$updates" --count 4 --out "$work/message" >&2

mkdir -p "$work/www"
cp "$work/message-1.pb" "$work/www/updates.pb"
serve_files "$work/www"
url="$files_url/updates.pb"
# The server's clock at the start of the busiest day: the trips planned on it are ahead.
start_server "$bin" "$work/serve.log" --plan-rate 0 --realtime "$id=$url" --realtime-poll 1 --realtime-max-age 1000000000 \
    --clock "${day}T00:00:00Z" --max-streams $((trips * 2 + 100)) --max-streams-per-client $((trips * 2 + 100))
health() { curl -sf "http://127.0.0.1:$port/v1/health"; }
rss() { health | python3 -c 'import json, sys; print(json.load(sys.stdin)["memory"]["residentBytes"])'; }

echo "==> plan $trips trips through the API, keep each one's token" >&2
python3 - "$port" "$work/paths.txt" "$trips" >"$work/tokens.txt" <<'PY'
import http.client, json, sys
port, paths, want = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
n = 0
for path in open(paths):
    if n >= want: break
    conn.request("GET", path.strip()); r = conn.getresponse(); body = r.read()
    if r.status != 200: continue
    a = json.loads(body); its = a["itineraries"]
    token = its[a["recommended"]].get("tripToken") or next((i.get("tripToken") for i in its if i.get("tripToken")), None)
    if token: print(token); n += 1
PY
planned=$(wc -l <"$work/tokens.txt")
echo "$planned tokens" >&2

sleep 5
rss_before=$(rss)
echo "==> $planned followers (+ $pairs reconnecting) for $seconds s: the message held still for 15 s, then a new one every second" >&2
python3 Scripts/lib/follow-clients.py "$port" "$work/tokens.txt" "$seconds" "$pairs" 5 >"$work/clients.json" &
clients_pid=$!
sleep 12
rss_calm=$(rss)
health >"$work/health-calm.json"
rotate_messages "$work" "2 3 4 1"
sleep 3
build_alone=$(health | python3 -c 'import json, sys; print(json.load(sys.stdin)["realtimeState"]["buildMilliseconds"])')
sleep $((seconds / 2 - 15))
rss_during=$(rss)
health >"$work/health-during.json"
wait "$clients_pid"
kill "$swapper_pid" 2>/dev/null || true
swapper_pid=""
stop_server
grep -q "internal error" "$work/serve.log" && { echo "the server logged internal errors:" >&2; grep "internal error" "$work/serve.log" | head >&2; }

python3 - "$work/clients.json" "$work/health-during.json" "$rss_before" "$rss_during" "$build_alone" "$planned" "$pairs" "$rss_calm" "$work/health-calm.json" <<'PY' || { echo "bench-follow.sh: a target is missed" >&2; exit 3; }
import json, sys
clients = json.load(open(sys.argv[1])); h = json.load(open(sys.argv[2]))
calm, hc = int(sys.argv[8]), json.load(open(sys.argv[9]))["following"]
before, during, build, planned, pairs = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
f = h["following"]
streams = f["streams"]
print("followed trips: %d planned, %d streams open at mid-run (%d trips), %d opened in all, refused %s, client errors %d"
      % (planned, streams, f["trips"], clients["opened"], clients["refused"], clients["errors"]))
print("memory, the message held still: resident %.1f MB before, %.1f MB with %d streams: %.1f KB per stream; the hub counts %d bytes per followed trip"
      % (before / 1e6, calm / 1e6, hc["streams"], (calm - before) / max(1, hc["streams"]) / 1024, hc["bytesPerTrip"]))
print("memory, a new message every second: %.1f MB with %d streams: %.1f KB per stream; the hub counts %d bytes per followed trip (its log of events, at most 64 KB)"
      % (during / 1e6, streams, (during - before) / max(1, streams) / 1024, f["bytesPerTrip"]))
print("pass over the followed trips per realtime state: median %.2f ms, longest %.2f ms of the last 100 (%d passes); the state's own build: %.1f ms"
      % (f["medianPassMilliseconds"], f["maxPassMilliseconds"], f["passes"], build))
print("events told: %s" % json.dumps(clients["events"], sort_keys=True))
print("reconnecting clients: %d, compared %d, events lost: %d" % (clients["reconnecting"], clients["compared"], clients["lost"]))
ok = clients["lost"] == 0 and not clients["refused"] and f["medianPassMilliseconds"] <= 20 and clients["compared"] > 0
print("targets: no event lost, every stream opened, pass median <= 20 ms: %s" % ("met" if ok else "MISSED"))
sys.exit(0 if ok else 3)
PY
