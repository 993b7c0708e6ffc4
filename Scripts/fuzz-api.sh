#!/usr/bin/env bash
# Fuzzes the HTTP API from its own OpenAPI document with schemathesis: `transit serve` on the
# bundled feeds (Data/bart-2018.zip as bart, Data/caltrain.zip as caltrain) imported into a
# database of their own (transit_fuzz, created fresh), then `st run` against /openapi.json
# with valid and invalid (negative) inputs.
#
#   Scripts/fuzz-api.sh [EXAMPLES] [--seed N] [-- ST_RUN_ARGS…]
#
#   EXAMPLES              at most this many generated cases per operation (st --max-examples;
#                         default 200; env FUZZ_EXAMPLES); the coverage phase (boundary
#                         values, missing and extra parameters) adds its own on top
#   --seed N              fixed seed, to reproduce a run (env FUZZ_SEED; default: random,
#                         printed in the summary)
#   -- ST_RUN_ARGS…       passed on to `st run`, e.g. -- --include-operation-id plan
#   TRANSIT_BIN=PATH      use this `transit` binary instead of a release build
#   TRANSIT_SCRATCH=DIR   build folder for the release build (default .build)
#   FUZZ_WORKERS=N        schemathesis workers (default 1)
#   FUZZ_KEEP_EVENTS=1    keep schemathesis' NDJSON event stream (every request and answer;
#                         large) as .build-fuzz-report/events.ndjson
#   KEEP_POSTGRES=1       leave PostgreSQL running afterwards
#
# Fails (exit 1) if schemathesis finds anything, if the server does not answer /v1/health
# with 200 afterwards, does not exit 0 on SIGTERM, or logged an "internal error" (a 500).
#
# Checks: every check schemathesis 4 has (`--checks all`): no 5xx (not_a_server_error), the
# response's status code, content type, headers and body as the document says
# (status_code_conformance, content_type_conformance, response_headers_conformance,
# response_schema_conformance), schema-invalid input rejected with a 4xx
# (negative_data_rejection), schema-valid input accepted (positive_data_acceptance), 405
# with Allow for methods the document lacks (unsupported_method, allow_header_conformance);
# the auth and resource-lifecycle checks have nothing to test here. The document says
# exactly what the server accepts (it is generated from the same declarations the server
# checks with, patterns included), so a schema-valid request is answered 2xx, 404 (a feed
# or stop that is not served: no static document can list them) or 422 (well formed, but
# no itinerary, or parameters that do not go together); those are the accepted statuses.
#
# Random stop ids and coordinates almost never name a real place, so the plan and stop
# answers (200) would go untested: dictionaries in the generated schemathesis.toml offer
# real stops, places, times and feeds for some of the cases (the rest stay random).
#
# Everything a run writes goes to .build-fuzz-report/ (git-ignored, replaced each run):
# schemathesis.log, server.log, import.log, junit.xml, report.json, schemathesis.toml.
# schemathesis lives in a venv in .build-fuzz-venv/ (created when missing).
set -euo pipefail
# A relative TRANSIT_BIN is relative to where this was started.
if [ -n "${TRANSIT_BIN:-}" ] && [[ "$TRANSIT_BIN" != /* ]]; then TRANSIT_BIN="$PWD/$TRANSIT_BIN"; fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

# The pinned schemathesis; 4.32.5 is what pip picked on Python 3.11 when this was written.
SCHEMATHESIS_VERSION=4.32.5
venv="$root/.build-fuzz-venv"
out="$root/.build-fuzz-report"

examples="${FUZZ_EXAMPLES:-200}"
seed="${FUZZ_SEED:-}"
workers="${FUZZ_WORKERS:-1}"
st_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seed) [ $# -ge 2 ] || { echo "fuzz-api.sh: --seed needs a number" >&2; exit 2; }; seed="$2"; shift 2 ;;
        --seed=*) seed="${1#--seed=}"; shift ;;
        --) shift; st_args=("$@"); break ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]* | "") echo "usage: $0 [EXAMPLES] [--seed N] [-- ST_RUN_ARGS…]" >&2; exit 2 ;;
        *) examples="$1"; shift ;;
    esac
done
case "$examples" in "" | *[!0-9]* | 0) echo "fuzz-api.sh: EXAMPLES must be a positive number, not '$examples'" >&2; exit 2 ;; esac
case "$seed" in *[!0-9]*) echo "fuzz-api.sh: the seed must be a number, not '$seed'" >&2; exit 2 ;; esac

section() { echo "==> $*" >&2; }

section setup
Scripts/setup.sh
if [ ! -x "$venv/bin/st" ] || [ "$("$venv/bin/st" --version 2>/dev/null)" != "st, version $SCHEMATHESIS_VERSION" ]; then
    section "schemathesis $SCHEMATHESIS_VERSION into $venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv" || { echo "fuzz-api.sh: cannot create a venv; install python3-venv (Python 3.9+)" >&2; exit 1; }
    fi
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
fi
py="$venv/bin/python"

server_pid=""
started_postgres=0
finish() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    [ "$started_postgres" -eq 1 ] || return 0
    if [ "${KEEP_POSTGRES:-0}" = 1 ]; then
        echo "==> PostgreSQL keeps running; stop with: Scripts/postgres.sh stop" >&2
    else
        Scripts/postgres.sh stop
    fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

section postgres
if ! Scripts/postgres.sh status >/dev/null 2>&1; then started_postgres=1; fi
eval "$(Scripts/postgres.sh start)"

if [ -n "${TRANSIT_BIN:-}" ]; then
    bin="$TRANSIT_BIN"
    [ -x "$bin" ] || { echo "fuzz-api.sh: TRANSIT_BIN=$bin is not an executable" >&2; exit 1; }
else
    section "release build"
    scratch="${TRANSIT_SCRATCH:-.build}"
    [[ "$scratch" = /* ]] || scratch="$root/$scratch"
    swift build -c release --product transit --scratch-path "$scratch" >&2
    bin="$scratch/release/transit"
fi
section "binary $bin"

rm -rf "$out"
mkdir -p "$out"

section "import into transit_fuzz"
psql -X -q -v ON_ERROR_STOP=1 "$DATABASE_URL" -c "DROP DATABASE IF EXISTS transit_fuzz WITH (FORCE)" -c "CREATE DATABASE transit_fuzz"
export DATABASE_URL="${DATABASE_URL/\/transit\?//transit_fuzz?}"
for feed in bart:Data/bart-2018.zip caltrain:Data/caltrain.zip; do
    if ! "$bin" import "${feed#*:}" --feed "${feed%%:*}" --place "San Francisco Bay Area" >>"$out/import.log" 2>&1; then
        tail -n 20 "$out/import.log" >&2
        echo "fuzz-api.sh: import of ${feed#*:} failed (log: $out/import.log)" >&2
        exit 1
    fi
done

section "transit serve"
# schemathesis sends thousands of plans from one address: lift the per-client limit
# (a 429 there would hide what the fuzzer is looking for).
"$bin" serve --port 0 --plan-rate 0 >"$out/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9][0-9]*\)$#\1#p' "$out/server.log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    cat "$out/server.log" >&2
    echo "fuzz-api.sh: the server did not say where it listens (log: $out/server.log)" >&2
    exit 1
fi
base="http://127.0.0.1:$port"

# Ready: both feeds served and the coverage regions built (coverage answers need them).
ready() {
    curl -s --max-time 5 "$base/v1/health" | "$py" -c '
import json, sys
try:
    h = json.load(sys.stdin)
except ValueError:
    sys.exit(1)
ids = {f.get("id") for f in h.get("feeds", [])}
sys.exit(0 if {"bart", "caltrain"} <= ids and h.get("timetable", {}).get("coverage") == "ready" else 1)'
}
for _ in $(seq 1 120); do
    ready && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out/server.log" >&2; echo "fuzz-api.sh: the server died" >&2; exit 1; }
    sleep 1
done
if ! ready; then
    curl -s --max-time 5 "$base/v1/health" >&2 || true
    echo >&2
    echo "fuzz-api.sh: the server did not serve both feeds with coverage ready within 120 s (log: $out/server.log)" >&2
    exit 1
fi
section "serving on $base"

# Real values, offered with some probability instead of random ones (positive cases only
# take those that match the parameter's schema; negative cases those that do not).
cat >"$out/schemathesis.toml" <<'EOF'
[dictionaries.places]
values = ["stop:12TH", "stop:SFIA", "stop:EMBR", "stop:MONT", "stop:bart:MLBR", "stop:19TH_N",
          "stop:San Francisco Caltrain", "stop:caltrain:Palo Alto Caltrain", "stop:Millbrae Caltrain",
          "37.8044,-122.2712", "37.7700,-122.4180", "37.4436,-122.1651", " 37.7764 , -122.3943 ",
          "37.6,-122.4", "+37.80,-122.27", "37.803768,-122.271450", "0,0", "90,180", "-90,-180"]
[dictionaries.near]
values = ["37.8044,-122.2712", "37.7764,-122.3943", "37.4436,-122.1651", "37.6,-122.4", "0,0"]
[dictionaries.times]
values = ["2018-06-05T08:30:00", "2018-06-05T17:45", "2018-06-05 23:50", "2018-06-05T15:30:00Z",
          "2018-06-09T10:00:00-07:00", "2018-06-10T00:00", "2018-05-26T00:00:00", "2019-07-01T23:30:00",
          "2019-08-31T12:00:00+02:00", "2018-02-31T08:00", "2018-06-05T25:00"]
[dictionaries.feeds]
values = ["bart", "caltrain"]
[dictionaries.stop_ids]
values = ["12TH", "SFIA", "19TH_N", "MCAR_S", "San Francisco Caltrain", "Palo Alto Caltrain", "Tamien Caltrain"]
[dictionaries.names]
values = ["12th", "Caltrain", "embarcadero", "Millbrae", "san fran", "Oakland", "Mission"]
[dictionaries.modes]
values = ["SUBWAY", "RAIL", "-BUS", "-SUBWAY", "RAIL,SUBWAY", "BUS,FERRY", "-rail", "walk"]
[dictionaries.transfer_walks]
values = [0, 1, 150, 500, 1000, 1300]

[parameters]
"query.from" = { dictionary = "places", probability = 0.9 }
"query.to" = { dictionary = "places", probability = 0.9 }
"query.near" = { dictionary = "near", probability = 0.6 }
"query.time" = { dictionary = "times", probability = 0.9 }
"query.feed" = { dictionary = "feeds", probability = 0.8 }
"path.feed" = { dictionary = "feeds", probability = 0.5 }
"path.id" = { dictionary = "stop_ids", probability = 0.6 }
"query.query" = { dictionary = "names", probability = 0.5 }
"query.modes" = { dictionary = "modes", probability = 0.7 }
# The document allows up to 5000 m; this timetable up to its footpath radius × walkDetourFactor
# (beyond: 422 PARAMETER_CONFLICT). Real values most of the time, so that plans get answered.
"query.maxTransferWalk" = { dictionary = "transfer_walks", probability = 0.8 }

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "404", "422"]
EOF

checks=(--checks all)
seed_args=()
if [ -n "$seed" ]; then seed_args=(--seed "$seed"); fi
section "schemathesis $SCHEMATHESIS_VERSION: $examples examples per operation${seed:+, seed $seed}"
started=$(date +%s)
# From $out: schemathesis keeps its caches (.schemathesis/, .hypothesis/) in the working folder.
set +e
(cd "$out" && "$venv/bin/st" --config-file "$out/schemathesis.toml" run "$base/openapi.json" \
    "${checks[@]}" --mode all --max-examples "$examples" "${seed_args[@]}" \
    --request-timeout 10 --workers "$workers" --continue-on-failure \
    --generation-database none --no-color \
    --report junit,json,ndjson --report-dir "$out" \
    --report-junit-path "$out/junit.xml" --report-json-path "$out/report.json" \
    --report-ndjson-path "$out/events.ndjson" \
    "${st_args[@]}") 2>&1 | tee "$out/schemathesis.log"
st_status=${PIPESTATUS[0]}
set -e
seconds=$(($(date +%s) - started))

failed=0
section "after the run"
health=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/v1/health" || true)
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "FAIL: the server is no longer running" >&2
    failed=1
elif [ "$health" != 200 ]; then
    echo "FAIL: /v1/health answers $health, not 200" >&2
    failed=1
fi
kill -TERM "$server_pid" 2>/dev/null || true
server_status=0
wait "$server_pid" || server_status=$?
server_pid=""
if [ "$server_status" -ne 0 ]; then
    echo "FAIL: the server exited with status $server_status after SIGTERM, not 0" >&2
    failed=1
fi
internal=$(grep -c "internal error" "$out/server.log" || true)
if [ "$internal" -gt 0 ]; then
    echo "FAIL: the server logged $internal internal error(s):" >&2
    grep "internal error" "$out/server.log" | sort | uniq -c | sort -rn | head -n 20 >&2
    failed=1
fi

# Per operation: the requests sent (all phases), positive and negative, and the answers'
# status codes; then schemathesis' failures. Read from the NDJSON event stream, which
# holds every response body and so is deleted afterwards unless FUZZ_KEEP_EVENTS=1.
echo
echo "=== summary (${seconds} s; reports in ${out#"$root"/}/)"
"$py" - "$out/events.ndjson" "$out/report.json" <<'EOF' || true
import collections, json, sys
events, report = sys.argv[1], sys.argv[2]
ops = collections.defaultdict(lambda: {"positive": 0, "negative": 0, "phase": collections.Counter(), "status": collections.Counter()})
try:
    with open(events) as f:
        for line in f:
            s = json.loads(line).get("ScenarioFinished")
            if not s or not s.get("recorder"):
                continue
            r = s["recorder"]
            for case_id, interaction in r.get("interactions", {}).items():
                case = r["cases"].get(case_id, {}).get("value", {})
                op = ops[f"{case.get('method')} {case.get('path')}"]
                mode = ((case.get("meta") or {}).get("generation") or {}).get("mode")
                if mode in ("positive", "negative"):
                    op[mode] += 1
                op["phase"][s.get("phase")] += 1
                response = interaction.get("response")
                op["status"][response["status_code"] if response else "none"] += 1
except OSError as e:
    print(f"(no event stream: {e})")
# Methods the document lacks (the unsupported_method probes) on one line.
documented = {k: v for k, v in ops.items() if k.startswith("GET ")}
others = collections.Counter()
for k, v in ops.items():
    if not k.startswith("GET "):
        others.update(v["status"])
# requests: all phases; fuzzing: the phase --max-examples bounds; valid/invalid: generated
# positive (schema-valid) or negative.
print(f"{'operation':32} {'requests':>8} {'fuzzing':>7} {'valid':>6} {'invalid':>7}  statuses")
for name in sorted(documented):
    v = documented[name]
    statuses = " ".join(f"{code}:{n}" for code, n in sorted(v["status"].items(), key=str))
    print(f"{name:32} {sum(v['phase'].values()):8} {v['phase']['fuzzing']:7} {v['positive']:6} {v['negative']:7}  {statuses}")
if others:
    print(f"{'other methods (expect 405)':32} {sum(others.values()):8} {'':7} {'':6} {'':7}  "
          + " ".join(f"{c}:{n}" for c, n in sorted(others.items(), key=str)))
try:
    with open(report) as f:
        r = json.load(f)
except (OSError, ValueError) as e:
    print(f"(no report: {e})")
    sys.exit(0)
tc = r.get("test_cases", {})
print(f"test cases: {tc.get('generated', '?')} generated, {tc.get('with_failures', '?')} with failures, "
      f"{tc.get('errored', '?')} errored; seed {r.get('seed')}")
for failure in r.get("failures", []):
    print(f"FAILURE {failure['code']} {failure['title']}: {failure['count']}× in {', '.join(failure['operations'])}")
for error in r.get("errors", []) if isinstance(r.get("errors"), list) else []:
    print(f"ERROR {json.dumps(error)[:300]}")
EOF
if [ "${FUZZ_KEEP_EVENTS:-0}" != 1 ]; then rm -f "$out/events.ndjson"; fi
echo "schemathesis exit status: $st_status; server: /v1/health ${health:-none}, exit $server_status after SIGTERM, $internal internal error(s)"
if [ "$st_status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    echo "fuzz-api.sh: FAILED (details above and in ${out#"$root"/}/schemathesis.log)"
    exit 1
fi
echo "fuzz-api.sh: passed"
