#!/usr/bin/env bash
# Builds every fuzz target in release with the fuzzer and address sanitizers, then runs each for
# SECONDS (default 60) on a scratch copy of its seeds. Exits non-zero when any target crashes,
# leaks, times out or runs out of memory, printing the reproducer's path.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]     e.g. Fuzz/run.sh 900 FuzzJSON
#
# FUZZ_WORK=DIR keeps the scratch corpora, logs and reproducers there (default: a new temp dir);
# run again with the same DIR to go on from the corpus an earlier run grew.
# The recipe and its pitfalls: shared FUZZING.md (SwiftPM's --sanitize fuzzer plus
# -Xswiftc -sanitize=fuzzer,address, one --product at a time, SWIFT_BACKTRACE=enable=no).
set -uo pipefail
cd "$(dirname "$0")"

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzJSON FuzzDecode FuzzSchemaYAML FuzzEnvelope FuzzSwiftImport)

case "$seconds" in
    '' | *[!0-9]*) echo "usage: Fuzz/run.sh [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac

max_len() {
    case "$1" in
        FuzzSchemaYAML | FuzzSwiftImport) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

dict() {
    case "$1" in
        FuzzSchemaYAML) echo yaml.dict ;;
        FuzzSwiftImport) echo swift.dict ;;
        *) echo json.dict ;;
    esac
}

# ld.gold warns about every ASan check symbol it cannot export: harmless, thousands of lines.
quiet_build() {
    grep -v -e "ld.gold: warning: Cannot export local symbol" || true
}

python3 scripts/bundle-schemas.py

flags=(-c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address)
for target in "${targets[@]}"; do
    echo "== build $target"
    swift build "${flags[@]}" --product "$target" 2>&1 | quiet_build
    if [ "${PIPESTATUS[0]}" -ne 0 ]; then
        echo "FAILED: building $target" >&2
        exit 2
    fi
done
bin="$(swift build "${flags[@]}" --show-bin-path)"

# Every input that ever made a target fail runs once first (libFuzzer runs files given by name
# and exits), as swift-protobuf's --run-regressions does.
for target in "${targets[@]}"; do
    cases=(FailCases/"$target"/*)
    [ -e "${cases[0]}" ] || continue
    echo "== replay ${#cases[@]} fail case(s) of $target"
    if ! SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/lsan.supp:print_suppressions=0" \
        "$bin/$target" -timeout=10 -rss_limit_mb=2048 "${cases[@]}" > /dev/null 2>&1; then
        echo "FAILED: a fail case of $target fails again; replay each with: $bin/$target FailCases/$target/NAME" >&2
        exit 1
    fi
done

work="${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/livestate-fuzz.XXXXXX")}"
mkdir -p "$work"
echo "== scratch folder $work"

failed=0
summary=()
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target/"
    log="$work/$target.log"
    # A FUZZ_WORK folder from an earlier run keeps its corpus: the seeds are copied over it.
    mkdir -p "$corpus" "$artifacts"
    cp Corpus/"$target"/* "$corpus"/
    # The importer's seeds are also the import tests' fidelity corpus, read where it is.
    if [ "$target" = FuzzSwiftImport ]; then
        find ../Tests/LiveStateImportTests/Corpus -name '*.swift' -exec cp {} "$corpus"/ \;
    fi
    echo "== run $target for ${seconds}s (log $log)"
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/lsan.supp:print_suppressions=0" "$bin/$target" \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 \
        -dict="$(dict "$target")" -artifact_prefix="$artifacts" -print_final_stats=1 \
        "$corpus" > "$log" 2>&1
    status=$?
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)"
    runs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)"
    speed="$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -n 1)"
    cov="$(sed -nE 's/.* cov: ([0-9]+) .*/\1/p' <<< "$done_line")"
    ft="$(sed -nE 's/.* ft: ([0-9]+) .*/\1/p' <<< "$done_line")"
    line="$target: exit $status, ${runs:-?} runs, ${speed:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}"
    summary+=("$line")
    echo "$line"
    if [ "$status" -ne 0 ]; then
        failed=1
        grep -E 'ERROR: |error in line|Fatal error|Swift runtime failure|SUMMARY|Test unit written to' "$log" | head -n 20 >&2 \
            || tail -n 20 "$log" >&2
        for reproducer in "$artifacts"*; do
            [ -e "$reproducer" ] || continue
            echo "REPRODUCER ($target): $reproducer" >&2
            echo "  replay: SWIFT_BACKTRACE=enable=no $bin/$target $reproducer" >&2
            echo "  keep it: cp $reproducer Fuzz/FailCases/$target/" >&2
        done
    fi
done

echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
