#!/usr/bin/env bash
# The GPU check, in one call on a machine with an NVIDIA GPU (issue 15 item 6): builds with CUDA,
# runs the CUDA tests on the device, runs compute-sanitizer's memcheck and racecheck over the
# device tests, and writes what the GPU measured into bench/RESULTS.md ("GPU" section, with the
# device's name and the commit). Without a usable GPU it says so and exits 1; it never guesses.
#
# What runs on the GPU: WCSPH and PBF whole (server/cuda/), frames quantized on the device. The
# benchmark (bench/run_gpu_bench.sh) measures the issue's targets: WCSPH 1M and 10M, PBF 1M with 4
# iterations, a 1M world served to 10 clients, and the DRAM bandwidth (with Nsight Compute).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${GPU_BUILD_DIR:-build-gpu}
jobs=$(nproc)

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu_check: no usable NVIDIA GPU (nvidia-smi -L fails or is missing); nothing measured" >&2
  exit 1
fi
device=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -n 1)
echo "== gpu_check on: $device"

# GPU_PREBUILT=DIR: the binaries were built elsewhere with nvcc and carried here, with the libraries
# they need in DIR/lib (a device machine without libwebsockets-dev or cJSON; scripts/gpu_prebuild.sh)
if [ -n "${GPU_PREBUILT:-}" ]; then
  bin_dir=$GPU_PREBUILT
  test_dir=$GPU_PREBUILT
  export LD_LIBRARY_PATH="$GPU_PREBUILT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "== prebuilt binaries from $bin_dir"
else
  echo "== build with CUDA (nvcc)"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DFLUIDCAST_CUDA=ON >/dev/null
  cmake --build "$build" -j"$jobs" --target fluidcast serve_bench test_cuda_grid test_cuda_shared_math \
    test_cuda_particles test_cuda_solvers
  bin_dir=$build
  test_dir=$build/tests
fi

echo "== the CUDA tests on the device (those of ctest's label cuda)"
for t in "test_cuda_grid" "test_cuda_grid --keys" "test_cuda_particles" "test_cuda_solvers" "test_cuda_shared_math"; do
  echo "-- $t"
  # shellcheck disable=SC2086 # the test's arguments split on purpose
  "$test_dir"/$t
done

echo "== GPU benchmark: the grid build (1M points; device time, transfers excluded)"
timing=$("$test_dir/test_cuda_grid" | grep '^timing')
echo "$timing"
echo "== GPU benchmark: the solvers and the server (bench/run_gpu_bench.sh)"
solver_rows=$(FLUIDCAST_BIN="$bin_dir/fluidcast" SERVE_BENCH="$bin_dir/serve_bench" bash bench/run_gpu_bench.sh)
echo "$solver_rows"

# after the benchmark, so that a slow sanitizer cannot cost the figures
sanitizer=${COMPUTE_SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
sanitized=0
sanitizer_timeouts=()
sanitize() { # sanitize TOOL PROGRAM ARGS...: one run under compute-sanitizer, at most GPU_SANITIZE_S seconds
  local tool=$1 rc=0
  shift
  timeout "${GPU_SANITIZE_S:-120}" "$sanitizer" --tool "$tool" --error-exitcode 99 "$@" || rc=$?
  if [ "$rc" = 124 ]; then
    echo "gpu_check: compute-sanitizer $tool did not finish in ${GPU_SANITIZE_S:-120} s: $*" >&2
    sanitizer_timeouts+=("$tool on $(basename "$1") ${*:2}")
  elif [ "$rc" != 0 ]; then
    echo "gpu_check: compute-sanitizer $tool found errors (exit $rc): $*" >&2
    exit 1
  else
    sanitized=$((sanitized + 1))
  fi
}
for tool in memcheck racecheck; do
  echo "== compute-sanitizer --tool $tool: test_cuda_grid --no-timing, and 20 steps of sph and of pbf (dam_break, heater_2d, oil_blob_2d), 60 of air_falling_block"
  sanitize "$tool" "$test_dir/test_cuda_grid" --no-timing
  for solver in sph pbf; do
    sanitize "$tool" "$bin_dir/fluidcast" run --scene dam_break --solver "$solver" --backend cuda --steps 20 --quiet
    # the heat terms: conduction, expansion, a hot collider and a cold wall
    sanitize "$tool" "$bin_dir/fluidcast" run --scene tests/scenes/heater_2d.json --solver "$solver" --backend cuda \
      --steps 20 --quiet
    # the tension: the normals pass, the surface's curvature, the interface's force
    sanitize "$tool" "$bin_dir/fluidcast" run --scene tests/scenes/oil_blob_2d.json --solver "$solver" --backend cuda \
      --steps 20 --quiet
    # trapped air: the kernel that marks new air and flags the air that goes, the store's spawn and
    # removal on the device (the falling block makes its first air within 60 steps)
    sanitize "$tool" "$bin_dir/fluidcast" run --scene tests/scenes/air_falling_block.json --solver "$solver" \
      --backend cuda --steps 60 --quiet
  done
done
if [ ${#sanitizer_timeouts[@]} -eq 0 ]; then
  sanitizer_line="clean in all ${sanitized} runs"
else
  sanitizer_line="clean in ${sanitized} runs; not checked, as they did not finish in ${GPU_SANITIZE_S:-120} s: $(IFS=';'; echo "${sanitizer_timeouts[*]}")"
fi

commit=${GPU_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
python3 bench/put_section.py gpu <<MD
## GPU

Written by \`scripts/gpu_check.sh\` on ${device}, commit ${commit}, $(date -u +%Y-%m-%d).

- CUDA tests on the device: passed.
- compute-sanitizer memcheck and racecheck over test_cuda_grid and 20 steps of sph and of pbf
  (dam_break, heater_2d, oil_blob_2d; 60 of air_falling_block) on the device: ${sanitizer_line}.
- Grid build: ${timing#timing (informational), }

Dam break on the device (\`fluidcast run --backend cuda\`, median step; targets of issue 15 on an H100):

${solver_rows}
MD
echo "gpu_check: done; bench/RESULTS.md has the GPU section"
