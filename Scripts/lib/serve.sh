# Sourced by Scripts/bench-api.sh, Scripts/soak.sh and Scripts/reliability.sh: wrk, and a
# `transit serve` in the background on a free loopback port. The requests are sent with
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
