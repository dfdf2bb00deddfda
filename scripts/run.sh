#!/usr/bin/env bash
# Installs what is missing, builds, and starts the server with the default scene (the dam break);
# it prints the URL to open. Extra arguments go to `fluidcast serve` (fluidcast serve --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -UCMAKE_CUDA_ARCHITECTURES >/dev/null # every GPU (scripts/test.sh builds one)
cmake --build build -j"$(nproc)" --target fluidcast
# The viewer (web/dist): installed and built only when stale (scripts/build_web.sh); a current
# web/dist needs neither npm nor the registry.
bash scripts/build_web.sh
exec ./build/fluidcast serve --scene dam_break "$@"
