#!/usr/bin/env bash
# Counts the instructions one operation takes, with valgrind's callgrind on the release
# DecodeDriver: the same binary and input give the same count whatever else the machine is
# doing, unlike wall time on the shared 2-core machines. Each figure is
# (instructions for COUNT operations - instructions for none) / COUNT.
#
#   ./instructions.sh [COUNT]      COUNT operations per measurement (default 200)
#   ./instructions.sh --check      the speed gate: LiveState's counts for the operations in
#                                  Thresholds/instructions.txt must not pass their limits
#   ./instructions.sh --update     rewrites those limits from this machine's counts, plus 5%
#
# Exits non-zero when the build or a run fails, or when --check finds a count over its limit.
set -euo pipefail

cd "$(dirname "$0")"
mode=report
case "${1:-}" in
    --check) mode=check; shift ;;
    --update) mode=update; shift ;;
esac
count=${1:-200}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
build_log=$(mktemp /tmp/livestate-driver-build.XXXXXX)
if ! swift build -c release --product DecodeDriver >"$build_log" 2>&1; then
    echo "instructions.sh: building DecodeDriver failed:" >&2
    tail -n 40 "$build_log" >&2
    exit 1
fi
rm -f "$build_log"
driver=.build/release/DecodeDriver
# Every contender must decode every payload to the same state before any is counted.
"$driver" check >/dev/null
scratch=$(mktemp -d /tmp/livestate-callgrind.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# instructions CONTENDER PAYLOAD N: the total instructions of one driver run. Swift seeds its
# hashing at random in each process, which moves a count by up to about 100 instructions
# between runs of one binary (sets and dictionaries probe differently); a fixed seed makes a
# count repeat exactly.
export SWIFT_DETERMINISTIC_HASHING=1
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$scratch/out" "$driver" "$1" "$2" "$3" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : *//p' | tr -d ','
}

# per_operation CONTENDER PAYLOAD: instructions per operation, measured once per pair.
declare -A measured
per_operation() {
    local key="$1/$2" none many
    if [[ -z ${measured[$key]:-} ]]; then
        none=$(instructions "$1" "$2" 0)
        many=$(instructions "$1" "$2" "$count")
        measured[$key]=$(( (many - none) / count ))
    fi
    echo "${measured[$key]}"
}

row() {
    local operation=$1 payload=$2 ours=$3 theirs=$4 label=$5
    local a b
    per_operation "$ours" "$payload" >/dev/null
    per_operation "$theirs" "$payload" >/dev/null
    a=$(per_operation "$ours" "$payload")
    b=$(per_operation "$theirs" "$payload")
    python3 -c "import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); print(f'{sys.argv[3]} {sys.argv[4]}: livestate {a:,} {sys.argv[5]} {b:,} instructions, ratio {b / a:.1f}x')" \
        "$a" "$b" "$operation" "$payload" "$label"
}

# The gate: each line of Thresholds/instructions.txt is "CONTENDER PAYLOAD LIMIT".
if [[ $mode != report ]]; then
    thresholds=Thresholds/instructions.txt
    over=0
    limits=()
    while read -r contender payload limit; do
        [[ -n $contender ]] || continue
        measured=$(per_operation "$contender" "$payload")
        if [[ $mode == update ]]; then
            limits+=("$contender $payload $(( measured * 105 / 100 ))")
            echo "$contender $payload: $measured instructions, limit now $(( measured * 105 / 100 ))"
        elif (( measured > limit )); then
            echo "SLOWER: $contender $payload: $measured instructions per operation, over the limit of $limit" >&2
            over=$((over + 1))
        else
            echo "ok: $contender $payload: $measured instructions per operation (limit $limit)"
        fi
    done < <(grep -v '^#' "$thresholds")
    if [[ $mode == update ]]; then
        { grep '^#' "$thresholds"; printf '%s\n' "${limits[@]}"; } >"$thresholds.new" && mv "$thresholds.new" "$thresholds"
    elif (( over > 0 )); then
        echo "instructions.sh: the speed gate failed (limits in Benchmarks/$thresholds; ./instructions.sh --update after a change that is meant to cost more)" >&2
        exit 1
    fi
    exit 0
fi

echo "instructions per operation (callgrind, $count operations, release)"
for payload in cs200 cs600 cs4k; do row decode-view "$payload" view jsondecoder foundation; done
for payload in cs200 cs600 cs4k; do row decode-view-read-all "$payload" view-read jsondecoder foundation; done
for payload in cs200 cs600 cs4k; do row decode "$payload" value jsondecoder foundation; done
row scan cs600 scan jsondecoder foundation
# The issue's reference: JSONDecoder into a hand-written tolerant type (TolerantDelivery).
row decode-view-vs-tolerant cs600 view jsondecoder-tolerant tolerant
row decode-view-read-all-vs-tolerant cs600 view-read jsondecoder-tolerant tolerant
row decode-vs-tolerant cs600 value jsondecoder-tolerant tolerant
row decode-then-findings-vs-tolerant cs600 value-findings jsondecoder-tolerant tolerant
row decode-to-struct-view-vs-tolerant cs600 view-struct jsondecoder-tolerant tolerant
for payload in cs200 cs600 cs4k; do row decode-to-struct-view "$payload" view-struct jsondecoder foundation; done
for payload in cs200 cs600 cs4k; do row serialization "$payload" value serialization jsonserialization; done
row body body600 body jsondecoder-body foundation
row lint body600 lint jsondecoder-body foundation
row lint-then-state body600 lint-state jsondecoder-body foundation
# What an older app version gets (a fallback and a default taken): JSONDecoder throws on it
# into the synthesized type; the hand-written decodes default as LiveState does.
row decode-view-with-findings cs600-fallback view jsondecoder-tolerant tolerant
row decode-with-findings cs600-fallback value jsondecoder-tolerant tolerant
row decode-view-with-findings cs600-fallback view serialization jsonserialization
row decode-with-findings cs600-fallback value serialization jsonserialization
# What an older app version gets when a later schema allows more (a string too long, a number
# out of range): both take their default. The hand-written tolerant type checks the same bounds.
row decode-view-with-findings cs600-tightened view jsondecoder-tolerant tolerant
row decode-with-findings cs600-tightened value jsondecoder-tolerant tolerant
# An activity the speed work was not measured on (GrocerySchema): an array of objects, an enum,
# a date, a key the version no longer has; the issue's targets are stated on it too.
row decode-view-vs-tolerant grocery500 view jsondecoder-tolerant tolerant
row decode-view-read-all-vs-tolerant grocery500 view-read jsondecoder-tolerant tolerant
row decode-vs-tolerant grocery500 value jsondecoder-tolerant tolerant
row decode-then-findings-vs-tolerant grocery500 value-findings jsondecoder-tolerant tolerant
row decode-to-struct-view-vs-tolerant grocery500 view-struct jsondecoder-tolerant tolerant
row decode-to-struct-view grocery500 view-struct jsondecoder foundation
row lint grocery500-body lint jsondecoder-body foundation
# The floor under two of the issue's targets: what the result alone costs, with no JSON read.
# value-floor makes the payload's Value tree again from its parts (each string from its UTF-8
# bytes, the field names shared); read-floor makes every string the view's nodes make. The
# Value tree cannot cost less than the view plus value-floor, nor the view read in full less
# than the view plus read-floor, so the best ratio either can reach is the tolerant type's
# count over that sum.
ceiling() {
    local operation=$1 payload=$2 floor=$3 ours=$4 view floor_count ours_count tolerant
    view=$(per_operation view "$payload")
    floor_count=$(per_operation "$floor" "$payload")
    ours_count=$(per_operation "$ours" "$payload")
    tolerant=$(per_operation jsondecoder-tolerant "$payload")
    python3 -c "import sys; v, f, o, t = map(int, sys.argv[1:5]); print(f'{sys.argv[5]} {sys.argv[6]}: view {v:,} + {sys.argv[7]} {f:,} = {v + f:,} at the least (livestate {o:,}); tolerant {t:,}, best ratio {t / (v + f):.1f}x (livestate {t / o:.1f}x)')" \
        "$view" "$floor_count" "$ours_count" "$tolerant" "$operation" "$payload" "$floor"
}
for payload in cs600 grocery500; do
    ceiling decode-view-read-all-ceiling "$payload" read-floor view-read
    ceiling decode-ceiling "$payload" value-floor value
done
for payload in cs200 cs600 cs4k; do row encode "$payload" encoder jsonencoder foundation; done
for payload in cs200 cs600 cs4k; do row encode-value "$payload" encoder-value jsonencoder foundation; done
