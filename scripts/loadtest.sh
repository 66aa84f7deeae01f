#!/usr/bin/env bash
# Load test of `livestate serve` on loopback: builds release, starts the server on 127.0.0.1
# with the bundled schemas, runs `wrk -t1 -c32 -d10s` against
#   POST /v1/schemas/delivery/validate?version=3   (scripts/loadtest-update.json, 670 bytes:
#        /work/shared's cs600.json content-state in an update envelope)
#   GET  /health                                   (the ceiling: routing and a tiny JSON body)
#   POST /echo                                     (the same body read and sent back: what
#        Hummingbird itself costs for a 670-byte POST, as shared/BENCHMARKING.md measures it)
#   POST /v1/schemas/delivery/validate-batch?version=3  (BATCH_LINES copies of the same payload,
#        one per NDJSON line: payloads/s is requests/s times BATCH_LINES)
# in the same run, stops the server and prints requests/s, p99 latency and errors for each.
# Traffic goes to 127.0.0.1 only; each wrk run is bounded by DURATION.
#
#   bash scripts/loadtest.sh               # one round
#   ROUNDS=3 bash scripts/loadtest.sh      # health, echo and validate in turn, three times each
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10s}"
# One wrk thread: wrk and the server share the machine's 2 cores, and a second wrk thread
# takes CPU from the server rather than adding load (THREADS=2 gave about 10% fewer requests/s
# and a p99 of 5 ms instead of 3 in runs side by side).
THREADS="${THREADS:-1}"
CONNECTIONS="${CONNECTIONS:-32}"
ROUNDS="${ROUNDS:-1}"
PAYLOAD="scripts/loadtest-update.json"
BATCH_LINES="${BATCH_LINES:-1000}"

if ! command -v wrk >/dev/null 2>&1; then
    echo "wrk missing: installing it from Debian" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk
fi
bash scripts/setup.sh

echo "== build (release)"
swift build -c release --product livestate
BINARY="$(swift build -c release --show-bin-path)/livestate"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "== start: livestate serve --host 127.0.0.1 --port 0 --schemas schemas --echo-route"
"$BINARY" serve --host 127.0.0.1 --port 0 --schemas schemas --echo-route >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 100); do
    PORT="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$WORK/server.err" | head -n 1)"
    [ -n "$PORT" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; echo "the server did not start" >&2; exit 2; }
    sleep 0.1
done
[ -n "$PORT" ] || { cat "$WORK/server.err" >&2; echo "the server did not report its port" >&2; exit 2; }
BASE="http://127.0.0.1:$PORT"
VALIDATE="$BASE/v1/schemas/delivery/validate?version=3"
echo "listening on $BASE"

if command -v curl >/dev/null 2>&1; then
    echo "== one validation, to see what is measured"
    curl -sS --max-time 5 -H 'Content-Type: application/json' --data-binary "@$PAYLOAD" "$VALIDATE" | head -c 400
    echo " ..."
fi

# The batch body: the payload on one line, BATCH_LINES times.
python3 -c 'import json,sys; line = json.dumps(json.load(open(sys.argv[1])), separators=(",", ":")); sys.stdout.write((line + "\n") * int(sys.argv[2]))' \
    "$PAYLOAD" "$BATCH_LINES" >"$WORK/batch.ndjson"

run() {  # run NAME URL [BODY] [CONTENT_TYPE]
    local name="$1" url="$2" body="${3:-}" type="${4:-}"
    echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency: $name"
    LOADTEST_BODY="$body" LOADTEST_CONTENT_TYPE="$type" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
        -s scripts/loadtest.lua "$url" | tee "$WORK/$name.out"
    grep '^RESULT' "$WORK/$name.out" | sed "s/^RESULT/$name/" >>"$WORK/results"
}

# A short warm-up, not counted.
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$BASE/health" >/dev/null
for round in $(seq 1 "$ROUNDS"); do
    run "health" "$BASE/health"
    run "echo" "$BASE/echo" "$PAYLOAD"
    run "validate" "$VALIDATE" "$PAYLOAD"
    run "batch" "$BASE/v1/schemas/delivery/validate-batch?version=3" "$WORK/batch.ndjson" "application/x-ndjson"
done

echo "== stop"
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || true
SERVER_PID=""

echo
echo "== results ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
printf '%-10s %12s %10s %10s %8s\n' endpoint requests/s p99_ms p50_ms errors
while read -r name fields; do
    eval "$fields"
    printf '%-10s %12s %10s %10s %8s\n' "$name" "$requests_per_s" "$p99_ms" "$p50_ms" "$errors"
done <"$WORK/results"
# Validate as a share of the ceilings, from the sums over every round.
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "requests_per_s") sum[$1] += kv[2]; if (kv[1] == "errors") errors += kv[2] } }
     END { if (sum["health"] > 0) printf "validate/health %.2f", sum["validate"] / sum["health"];
           if (sum["echo"] > 0) printf ", validate/echo %.2f", sum["validate"] / sum["echo"];
           printf "; errors in all runs: %d\n", errors;
           if (sum["validate"] > 0) printf "payloads/s: validate %.0f, batch %.0f (%d per request): batch/validate %.1fx\n",
               sum["validate"], sum["batch"] * lines, lines, sum["batch"] * lines / sum["validate"] }' lines="$BATCH_LINES" "$WORK/results"
