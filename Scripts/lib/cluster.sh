# Sourced by the benchmark and load scripts (bench.sh, bench-import.sh, bench-api.sh,
# soak.sh), run from the checkout's top folder: the checkout's PostgreSQL cluster, a
# database of a script's own in it, and the release `transit`.

# use_cluster: starts the checkout's cluster unless it runs already, and exports its
# DATABASE_URL. release_cluster (for the caller's EXIT trap) stops it again only if
# use_cluster started it, so a developer's running cluster is left running.
use_cluster() {
    started_pg=0
    Scripts/postgres.sh status >/dev/null 2>&1 || started_pg=1
    eval "$(Scripts/postgres.sh start)"
    export DATABASE_URL
}
release_cluster() {
    if [ "${started_pg:-0}" = 1 ]; then Scripts/postgres.sh stop; fi
}

# fresh_database NAME: drops and creates the database NAME in the cluster and points
# DATABASE_URL at it, so that a script neither sees nor touches other feeds.
fresh_database() {
    psql -q "$DATABASE_URL" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"
    export DATABASE_URL="${DATABASE_URL/\/transit\?//$1?}"
}

# release_transit: sets bin to TRANSIT_BIN when it is set, else to a release build of
# transit made now.
release_transit() {
    if [ -z "${TRANSIT_BIN:-}" ]; then
        echo "==> release build" >&2
        swift build -c release --product transit >&2
    fi
    bin="${TRANSIT_BIN:-$PWD/.build/release/transit}"
}
