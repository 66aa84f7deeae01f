#!/usr/bin/env bash
# Sets up a fresh machine, builds livestate, and runs it on the bundled schemas and examples:
# every schema must load, and every clean example must decode for the version it was written for.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build --product livestate >&2
livestate="$(swift build --show-bin-path)/livestate"

echo "== livestate check schemas"
"$livestate" check schemas

failures=0
for schema in schemas/*.yaml; do
    activity="$(basename "$schema" .yaml)"
    for payload in schemas/examples/"$activity"/v*.json; do
        [ -e "$payload" ] || continue
        version="$(basename "$payload" | sed -E 's/^v([0-9]+)-.*/\1/')"
        echo "== livestate decode --schema $schema --version $version $payload"
        if ! "$livestate" decode --schema "$schema" --version "$version" "$payload" > /dev/null; then
            echo "FAILED: $payload should decode for app version $version" >&2
            failures=$((failures + 1))
        fi
    done
done

if [ "$failures" -ne 0 ]; then
    echo "$failures example(s) did not decode" >&2
    exit 1
fi
echo "every schema loads and every example decodes"
