#!/usr/bin/env bash
# Sets up a fresh machine and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift test ${LIVESTATE_BUILD_FLAGS:-} "$@"
# The sidecar's real answers against its OpenAPI document (the binary `swift test` just built).
python3 scripts/contract.py
# The JSON Schema codegen writes for servers, held to what the app does.
python3 scripts/jsonschema_agreement.py
