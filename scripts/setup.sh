#!/usr/bin/env bash
# Installs what LiveState needs on a fresh Debian machine with the Swift toolchain: libyaml, and
# openssl for the demo's throwaway APNs key. Commands named as arguments are installed too when
# missing (`.ci/run` asks for valgrind, which the speed gate runs).
set -euo pipefail
missing=()
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev pkg-config)
command -v openssl > /dev/null || missing+=(openssl)
for tool in "$@"; do
    command -v "$tool" > /dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "missing: installing ${missing[*]}" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
