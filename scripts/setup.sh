#!/usr/bin/env bash
# Installs what fluidcast needs to build and test on Debian 12 (used by the README, CI and the
# Docker images alike). Safe to run again; installs only what is missing.
set -euo pipefail

packages=(build-essential cmake pkg-config libwebsockets-dev libcjson-dev python3)

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
