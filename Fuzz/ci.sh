#!/usr/bin/env bash
# CI's short fuzz pass: every target for 20 seconds. Called by .ci/run when CI is set.
set -euo pipefail
exec bash "$(dirname "$0")/run.sh" 20
