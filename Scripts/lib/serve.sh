# Sourced by Scripts/bench-api.sh, Scripts/soak.sh, Scripts/reliability.sh, Scripts/bench-realtime.sh and
# Scripts/bench-follow.sh: wrk, a `transit serve` in the background on a free loopback port, and
# files served over HTTP (realtime messages replaced while it runs). The requests are sent with
# wrk and Scripts/lib/paths.lua.

# Installs wrk (Debian) when it is missing.
ensure_wrk() {
    command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
}

# start_server BIN LOG [serve arguments…]: starts `BIN serve --port 0 …` with its stderr in
# LOG; sets server_pid at once and port once /v1/health answers 200 (a timetable is loaded).
# Returns 1, with the log's tail, if that does not happen within 2 minutes.
start_server() {
    local bin=$1 log=$2
    shift 2
    "$bin" serve --port 0 "$@" 2>"$log" &
    server_pid=$!
    port=""
    for _ in $(seq 1 600); do
        port=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
        if [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null; then return 0; fi
        sleep 0.2
    done
    echo "the server did not come up:" >&2
    tail -20 "$log" >&2
    return 1
}

# stop_server: stops the server start_server started, if it runs, and waits for it.
stop_server() {
    if [ -n "${server_pid:-}" ]; then
        kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}

# serve_files DIR: serves DIR over HTTP on a free loopback port in the background (Python's
# http.server, without its log); sets http_pid and files_url (http://127.0.0.1:PORT).
serve_files() {
    local dir=$1 portfile
    portfile=$(mktemp)
    python3 - "$dir" "$portfile" <<'PY' &
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
handler = functools.partial(Quiet, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(sys.argv[2], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
    http_pid=$!
    for _ in $(seq 1 50); do [ -s "$portfile" ] && break; sleep 0.1; done
    files_url="http://127.0.0.1:$(cat "$portfile")"
    rm -f "$portfile"
}

# rotate_messages WORK "K…": in the background, every second the next of WORK/message-K.pb
# (in the order given, round and round) replaces WORK/www/updates.pb whole; sets swapper_pid.
rotate_messages() {
    local work=$1 order=$2
    (
        while true; do
            for k in $order; do
                cp "$work/message-$k.pb" "$work/www/.next" && mv "$work/www/.next" "$work/www/updates.pb"
                sleep 1
            done
        done
    ) &
    swapper_pid=$!
}
