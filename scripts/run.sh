#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default scene (the dam break) headless with a
# progress bar, exporting PLY frames to out/. Extra arguments go to `fluidcast run`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target fluidcast
exec ./build/fluidcast run --scene dam_break --time 1 --export out --every 50 "$@"
