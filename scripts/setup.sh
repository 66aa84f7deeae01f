#!/usr/bin/env bash
# Installs what LiveState needs on a fresh Debian machine with the Swift toolchain: libyaml, and
# openssl for the demo's throwaway APNs key.
set -euo pipefail
if ! pkg-config --exists yaml-0.1 2>/dev/null; then
    echo "libyaml (yaml-0.1) missing: installing libyaml-dev" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libyaml-dev pkg-config
fi
if ! command -v openssl > /dev/null; then
    echo "openssl missing: installing it" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openssl
fi
