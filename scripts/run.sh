#!/usr/bin/env bash
# Installs what is missing, builds, and starts the server with the default scene (the dam break);
# it prints the URL to open. Extra arguments go to `fluidcast serve` (fluidcast serve --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target fluidcast
# The viewer (web/dist) is built when web/ has a build script; without it the server says so.
if [ -f web/package.json ] && grep -q '"build"' web/package.json; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent)
fi
exec ./build/fluidcast serve --scene dam_break "$@"
