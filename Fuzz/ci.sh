#!/usr/bin/env bash
# CI's short fuzz pass: installs libyaml if missing, then runs every target for 20 seconds.
# Called by .ci/run when CI is set; exits non-zero on any crash (run.sh prints the reproducer).
set -euo pipefail
cd "$(dirname "$0")"
bash ../scripts/setup.sh
exec bash ./run.sh 20
