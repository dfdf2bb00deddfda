#!/usr/bin/env bash
# Packs what scripts/gpu_check.sh runs into one folder for a GPU machine that cannot build fluidcast
# (no libwebsockets-dev or cJSON there): builds with nvcc here, copies the binaries and the shared
# libraries they need beyond the C and C++ runtimes. Then, on the GPU machine, from the repo root:
#   GPU_PREBUILT=<folder> bash scripts/gpu_check.sh
# The tests and the CLI find scenes by the source path compiled in (this checkout's path), so the
# GPU machine needs the repository at the same path, or a link from it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${GPU_BUILD_DIR:-build-gpu}
out=${1:-build-gpu-carry}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DFLUIDCAST_CUDA=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target fluidcast serve_bench test_cuda_grid test_cuda_shared_math \
  test_cuda_particles test_cuda_solvers
rm -rf "$out"
mkdir -p "$out/lib"
cp "$build/fluidcast" "$build/serve_bench" "$out/"
for t in test_cuda_grid test_cuda_shared_math test_cuda_particles test_cuda_solvers; do cp "$build/tests/$t" "$out/"; done
for b in "$out"/fluidcast "$out"/serve_bench "$out"/test_cuda_*; do
  ldd "$b" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
git rev-parse --short HEAD >"$out/COMMIT"
du -sh "$out"
ls "$out" "$out/lib"
