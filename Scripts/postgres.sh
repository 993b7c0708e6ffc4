#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for this checkout: tests and the demo only.
#
#   Scripts/postgres.sh start          start (idempotent); prints one line for eval:
#                                      export DATABASE_URL='postgresql://…'
#   Scripts/postgres.sh stop [--purge | --immediate]
#                                      fast stop (idempotent); --purge also deletes the folder;
#                                      --immediate stops like a crash (no shutdown checkpoint:
#                                      the next start recovers from the write-ahead log)
#   Scripts/postgres.sh status         running/stopped and the URL; exit 0 if running, else 3
#
# Usage: eval "$(Scripts/postgres.sh start)"
#
# Everything lives in /tmp/transit-pg-<hash>, where <hash> is the first 8 hex digits of
# the SHA-256 of the repository's absolute path: data/ (the cluster), the unix socket and
# the logs. The path stays short because a socket path may not exceed 107 bytes. The
# server also listens on 127.0.0.1 at a port derived from the same hash (20000-29999);
# set TRANSIT_PG_PORT to choose another. TRANSIT_PG_BASE=/tmp/DIR puts a second, separate
# cluster there (its port then derives from that path): the fault tests and
# Scripts/reliability.sh stop and restart a cluster of their own, never the one other tests
# share. As root, the cluster belongs to the `postgres`
# user (initdb and pg_ctl refuse to run as root); otherwise to the user running this.
#
# Durability is switched off (fsync, synchronous_commit, full_page_writes): a crash can
# lose the cluster, which is fine for throwaway test data and nothing else.
# Only stdout carries the export line; every other message goes to stderr.
set -euo pipefail

usage() {
    echo "usage: $0 start | stop [--purge | --immediate] | status" >&2
    exit 2
}

die() {
    echo "postgres.sh: $*" >&2
    exit 1
}

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

hash_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        printf '%s' "$1" | sha256sum | cut -c1-8
    else
        printf '%s' "$1" | shasum -a 256 | cut -c1-8
    fi
}
if [ -n "${TRANSIT_PG_BASE:-}" ]; then
    case "$TRANSIT_PG_BASE" in /*) ;; *) die "TRANSIT_PG_BASE must be an absolute path" ;; esac
    base="${TRANSIT_PG_BASE%/}"
    hash=$(hash_of "$base")
else
    hash=$(hash_of "$repo_root")
    base="/tmp/transit-pg-$hash"   # socket folder, logs and data/
fi
data="$base/data"
default_port=$((20000 + 16#$hash % 10000))
port="${TRANSIT_PG_PORT:-$default_port}"

# Server binaries: PG_BINDIR, else Debian's newest /usr/lib/postgresql/N/bin, else PATH.
find_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then
        echo "$PG_BINDIR"
        return
    fi
    local newest
    newest=$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/initdb' 2>/dev/null |
        sort -V | tail -n 1)
    if [ -n "$newest" ]; then
        dirname "$newest"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    else
        die "no PostgreSQL server binaries (initdb) found; run Scripts/setup.sh or set PG_BINDIR"
    fi
}
bindir=$(find_bindir)

# Runs a command as the cluster's owner, from / so that `postgres` never trips over a
# working directory it cannot read.
if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    as_owner() { (cd / && runuser -u postgres -- "$@"); }
else
    owner=$(id -un)
    as_owner() { "$@"; }
fi

# A folder found in /tmp must belong to the cluster's owner: never start a server in,
# or delete, somebody else's folder.
check_owner() {
    if [ -e "$base" ] && ! as_owner test -O "$base"; then
        die "$base exists but does not belong to $owner; remove it (as its owner or root) and retry"
    fi
}

# The port of the running server, from postmaster.pid (line 4), else the configured one.
running_port() {
    local p
    p=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null || true)
    echo "${p:-$port}"
}

url_for() {
    echo "postgresql://postgres@localhost:$1/transit?host=$base"
}

# Whether the postmaster named in postmaster.pid is alive. Not `pg_ctl status`: it only
# asks kill(pid, 0), which succeeds for a zombie, and in containers whose pid 1 reaps
# nothing a postmaster killed with -9 stays a zombie for good.
is_running() {
    local pid stat comm
    pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
    case "$pid" in "" | *[!0-9]*) return 1 ;; esac
    stat=$(ps -o stat= -p "$pid" 2>/dev/null || true)
    comm=$(ps -o comm= -p "$pid" 2>/dev/null || true)
    [ -n "$stat" ] && [[ "$stat" != Z* ]] && [[ "$comm" == *postgres* ]]
}

# Server processes that outlived their postmaster (killed with -9 while a backend was
# busy) keep its shared memory attached, and a new server refuses to start beside them.
# Every server process works in the data folder, which is how they are recognised here
# (Linux /proc; elsewhere this does nothing). Only called when no postmaster is alive.
kill_orphans() {
    [ -d /proc/self ] || return 0
    local tries p pids
    for tries in 1 2 3 4 5 6 7 8 9 10; do
        pids=()
        for p in /proc/[0-9]*; do
            if [ "$(readlink "$p/cwd" 2>/dev/null)" = "$data" ]; then
                pids+=("${p#/proc/}")
            fi
        done
        [ ${#pids[@]} -gt 0 ] || return 0
        if [ "$tries" -eq 1 ]; then
            echo "postgres.sh: killing leftover server processes ${pids[*]}" >&2
        fi
        kill -9 "${pids[@]}" 2>/dev/null || true
        sleep 0.2
    done
}

psql_admin() {
    "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$base" -p "$1" -U postgres -d postgres "${@:2}"
}

init_cluster() {
    if [ ! -d "$base" ]; then
        mkdir -m 0755 "$base"   # no -p: fails rather than reuse a folder created meanwhile
        if [ "$owner" != "$(id -un)" ]; then
            chown "$owner:" "$base"
        fi
    fi
    if [ -f "$data/PG_VERSION" ]; then
        return
    fi
    rm -rf "$data"   # left over from an interrupted initdb
    echo "postgres.sh: initdb $data" >&2
    if ! as_owner "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 \
        --locale=C.UTF-8 --no-sync >"$base/initdb.log" 2>&1; then
        cat "$base/initdb.log" >&2
        die "initdb failed (log: $base/initdb.log)"
    fi
}

start() {
    check_owner
    if ! is_running; then
        init_cluster
        # A postmaster killed with -9 leaves postmaster.pid and the socket's lock file
        # behind. The server checks the pids inside with kill(pid, 0), which a zombie or a
        # recycled pid passes, so it would refuse to start: they are stale, remove them.
        kill_orphans
        rm -f "$data/postmaster.pid" "$base"/.s.PGSQL.*
        local opts="-p $port -k $base -c listen_addresses=127.0.0.1"
        opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        opts+=" -c max_connections=50 -c shared_buffers=128MB -c maintenance_work_mem=256MB"
        # wal_level=minimal: a table created and filled in one transaction (as every import
        # does) skips the write-ahead log; it needs max_wal_senders=0.
        opts+=" -c wal_level=minimal -c max_wal_senders=0"
        echo "postgres.sh: starting on port $port, socket in $base" >&2
        if ! as_owner "$bindir/pg_ctl" -D "$data" -l "$base/server.log" -w -t 60 -s \
            -o "$opts" start >&2; then
            tail -n 10 "$base/server.log" >&2 || true
            die "could not start PostgreSQL (log: $base/server.log); if port $port is taken, set TRANSIT_PG_PORT"
        fi
    fi
    local p
    p=$(running_port)
    if [ "$(psql_admin "$p" -tAc "SELECT 1 FROM pg_database WHERE datname = 'transit'")" != 1 ]; then
        psql_admin "$p" -c 'CREATE DATABASE transit' >&2
    fi
    echo "export DATABASE_URL='$(url_for "$p")'"
}

stop() {
    local purge=0 mode=fast
    case "${1:-}" in
        "") ;;
        --purge) purge=1 ;;
        --immediate) mode=immediate ;;
        *) usage ;;
    esac
    check_owner
    if is_running; then
        as_owner "$bindir/pg_ctl" -D "$data" -m "$mode" -w -s stop >&2
        echo "postgres.sh: stopped ($mode)" >&2
    fi
    if [ "$purge" -eq 1 ] && [ -e "$base" ]; then
        rm -rf "$base"
        echo "postgres.sh: removed $base" >&2
    fi
}

status() {
    check_owner
    if is_running; then
        echo "running: $(url_for "$(running_port)")"
    else
        echo "stopped: $(url_for "$port")"
        exit 3
    fi
}

case "${1:-}" in
    start) [ $# -eq 1 ] || usage; start ;;
    stop) [ $# -le 2 ] || usage; stop "${2:-}" ;;
    status) [ $# -eq 1 ] || usage; status ;;
    *) usage ;;
esac
