#!/usr/bin/env bash
# Builds the DocC catalogs from the debug build's modules, with warnings as errors (a broken
# symbol link or a stale parameter name fails). Run after `swift build`; writes to
# ${DOCS_OUT:-.build/docs}/<Target>.doccarchive.
#
# This is what `swift package generate-documentation --target X` (swift-docc-plugin) does, minus
# the second build of every dependency that the plugin's symbol-graph flags cause: the symbol
# graph is extracted from the modules `swift build` already made.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build --show-bin-path)"
out="${DOCS_OUT:-.build/docs}"
mkdir -p "$out"
includes=(-I "$bin/Modules")
for shim in .build/checkouts/*/Sources/*/include; do includes+=(-I "$shim"); done
# The system library targets (CYAML, which LiveStateImport reaches through LiveStateYAML).
for map in Sources/*/module.modulemap; do includes+=(-I "$(dirname "$map")"); done
# C targets without a module map of their own (CNIOAtomics, …) get one generated in the build.
for map in "$bin"/*.build/module.modulemap; do includes+=(-Xcc "-fmodule-map-file=$map"); done
triple="$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
for catalog in Sources/*/*.docc; do
    target="$(basename "$(dirname "$catalog")")"
    graphs="$(mktemp -d)"
    swift symbolgraph-extract -module-name "$target" "${includes[@]}" -target "$triple" \
        -output-dir "$graphs" -minimum-access-level public
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --warnings-as-errors \
        --fallback-display-name "$target" --fallback-bundle-identifier "org.livestate.$target" \
        --output-path "$out/$target.doccarchive" > "$graphs.log" 2>&1 || { cat "$graphs.log" >&2; exit 1; }
    rm -rf "$graphs" "$graphs.log"
    echo "docs: $out/$target.doccarchive"
done
