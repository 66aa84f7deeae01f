#!/usr/bin/env bash
# Sets up a fresh machine, builds livestate, and runs it on the bundled schemas and examples:
# every schema loads and passes or fails its compatibility gate as marked, every clean example
# lints clean for the version it was written for and decodes for it, and every example under
# failing/ produces the code its "_expect" names.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# LIVESTATE_BUILD_FLAGS (CI sets warnings as errors) must match between the scripts so that
# SwiftPM reuses one build.
swift build ${LIVESTATE_BUILD_FLAGS:-} --product livestate >&2
livestate="$(swift build ${LIVESTATE_BUILD_FLAGS:-} --show-bin-path)/livestate"

# flash-sale and pizza evolve safely and pass their gates. delivery, grocery and match-score
# fail theirs on purpose: they keep the changes that made those teams' old app versions drop
# updates, and the gate must name them.
for schema in schemas/flash-sale.yaml schemas/pizza.yaml; do
    echo "== livestate check $schema"
    "$livestate" check "$schema"
done
failures=0
# fails_with CODE WHAT COMMAND...: COMMAND must exit 1 and print [CODE] (on either stream).
fails_with() {
    local code=$1 what=$2 output status
    shift 2
    set +e
    output="$("$@" 2>&1)"
    status=$?
    set -e
    printf '%s\n' "$output"
    if [ "$status" -ne 1 ] || ! printf '%s' "$output" | grep -qF "[$code]"; then
        echo "FAILED: $what should fail with [$code] (exit $status)" >&2
        failures=$((failures + 1))
    fi
}
for expected in "delivery field-renamed-alias-unknown" "grocery strict-client-omittable-key" \
    "match-score strict-client-omittable-key"; do
    set -- $expected
    echo "== expected to fail its gate with [$2]: livestate check schemas/$1.yaml"
    fails_with "$2" "schemas/$1.yaml's gate" "$livestate" check "schemas/$1.yaml"
done

for schema in schemas/*.yaml; do
    activity="$(basename "$schema" .yaml)"
    for payload in schemas/examples/"$activity"/v*.json; do
        [ -e "$payload" ] || continue
        version="$(basename "$payload" | sed -E 's/^v([0-9]+)-.*/\1/')"
        echo "== livestate lint --schema $schema --version $version $payload"
        if ! "$livestate" lint --schema "$schema" --version "$version" "$payload" \
            || ! "$livestate" decode --schema "$schema" --version "$version" "$payload" > /dev/null 2>&1; then
            echo "FAILED: $payload should lint clean and decode for app version $version" >&2
            failures=$((failures + 1))
        fi
    done
    for payload in schemas/examples/"$activity"/failing/*.json; do
        [ -e "$payload" ] || continue
        expect="$(sed -nE 's/.*"_expect" *: *"([a-z-]+)".*/\1/p' "$payload" | head -n 1)"
        echo "== expected to fail with [$expect]: livestate lint --schema $schema $payload"
        set +e
        output="$("$livestate" lint --schema "$schema" "$payload")"
        json="$("$livestate" lint --format json --fail-on warning --schema "$schema" "$payload")"
        status=$?
        set -e
        printf '%s\n' "$output" | grep -F "[$expect]" || true
        if [ "$status" -ne 1 ] || ! printf '%s' "$json" | grep -qF "\"code\":\"$expect\""; then
            echo "FAILED: $payload should be reported with [$expect] (exit $status)" >&2
            failures=$((failures + 1))
        fi
    done
done

# A push as `livestate send` would send it (--dry-run: checked, then printed, nothing sent), with
# a throwaway key: accepted for app version 3, refused when strict app version 1 must decode it too.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$scratch/AuthKey_ABC123DEFG.p8" 2>/dev/null
send=("$livestate" send --schema schemas/delivery.yaml --key "$scratch/AuthKey_ABC123DEFG.p8" --key-id ABC123DEFG
    --team-id TEAM123456 --topic com.example.delivery --token "$(printf '5e%.0s' {1..32})" --sandbox --dry-run)
# The example's content-state as a state file: send wraps it in an envelope stamped now. (The
# whole example, sent as written, is refused as well: its stamp is long past, [timestamp-in-past].)
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["aps"]["content-state"], sys.stdout)' \
    schemas/examples/delivery/v3-update.json > "$scratch/v3-state.json"
echo "== livestate send --dry-run --version 3 --event update (the content-state of schemas/examples/delivery/v3-update.json)"
if ! "${send[@]}" --version 3 --event update "$scratch/v3-state.json" | grep -F ":path: /3/device/"; then
    echo "FAILED: the v3 update should be printed as a request" >&2
    failures=$((failures + 1))
fi
echo "== expected to be refused with [dropped-by-version]: livestate send --dry-run (every live version)"
fails_with dropped-by-version "the v3 update sent to every live version (app version 1 drops it)" \
    "${send[@]}" --event update "$scratch/v3-state.json"
echo "== expected to be refused with [timestamp-in-past]: the whole example body, stamped long ago"
fails_with timestamp-in-past "the v3 example body sent as written" \
    "${send[@]}" --version 3 schemas/examples/delivery/v3-update.json

if [ "$failures" -ne 0 ]; then
    echo "$failures example(s) did not behave as marked" >&2
    exit 1
fi
echo "every schema loads and gates as marked, every clean example passes, every failing example fails as marked"
