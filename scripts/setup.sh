#!/usr/bin/env bash
# Installs what fluidcast needs to build and test on Debian 12 (used by the README, CI and the
# Docker images alike). Safe to run again; installs only what is missing.
set -euo pipefail

# python3-jsonschema checks the protocol's schema examples; clang + libclang-rt-14-dev build the
# libFuzzer target; libzstd-dev and libdeflate-dev are only compared against in the codec bench;
# nodejs + npm run the JS decoder's tests (the machine's Node 18+ is used when present).
packages=(build-essential cmake pkg-config libwebsockets-dev libcjson-dev python3 python3-jsonschema
          clang libclang-rt-14-dev libzstd-dev libdeflate-dev chromium) # chromium: the viewer's e2e tests and bench
node_major=$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/' || true)
if [ -z "$node_major" ] || [ "$node_major" -lt 18 ] || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
