#!/usr/bin/env bash
# Installs what is missing, builds (Release, with the CUDA part when nvcc is found) and runs every
# test, then builds again with AddressSanitizer + UndefinedBehaviorSanitizer, the CUDA sources through
# the host shim (cuda-host), and runs the tests there,
# then the server's tests under ThreadSanitizer, the JavaScript tests (decoder and viewer), the
# viewer's browser tests (headless Debian Chromium against a real server) and a bounded fuzzing run
# of the frame decoder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
started=$SECONDS
stage() { echo "== [$((SECONDS - started)) s] $*"; } # each stage says when it starts
bash scripts/setup.sh
jobs=$(nproc)

stage "Release build and tests"
# the tests check that the CUDA part compiles (they need no GPU): for one architecture, the oldest
# supported, with its PTX, which any later GPU compiles at load; scripts/run.sh builds every
# architecture of CMakeLists.txt again
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=75
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

stage "ASan + UBSan build and tests (the 2000-step dam break, the shipped scenes' 3 s runs and the"
echo "   physics tests, label long, run in the Release build only; the long tests' short variants here); this"
echo "   build is also the cuda-host build: the CUDA sources through the host shim, their kernels run on"
echo "   the CPU and compared with the CPU engine (ctest label cuda, server/cuda/README.md); its neighbour"
echo "   loops run eight lanes (FLUIDCAST_LANES), the TSan build's four, whatever the Release build chose;"
echo "   it is built for x86-64-v3 (AVX2, no AVX-512: a Zen 3's instructions), so the physics tests' short"
echo "   variants also run code other than the machine's native one, with its other roundings"
asan_march=native # a CPU without AVX2 and FMA cannot run x86-64-v3 code: its own then
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then asan_march=x86-64-v3; fi
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLUIDCAST_SANITIZE=ON -DFLUIDCAST_CUDA=HOST \
  -DFLUIDCAST_LANES=8 -DFLUIDCAST_MARCH=$asan_march
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -E cli_dam_break -LE long

stage "ThreadSanitizer build and the server's tests (world threads, network thread; OpenMP is off"
echo "   in this build because libgomp is not instrumented)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLUIDCAST_TSAN=ON -DFLUIDCAST_CUDA=OFF -DFLUIDCAST_LANES=4
cmake --build build-tsan -j"$jobs"
TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1 \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L server

stage "JavaScript decoder tests (Vitest, protocol/js)"
bash scripts/test_js.sh

stage "Browser end-to-end tests of the viewer (playwright-core, Debian's Chromium, a real server)"
FLUIDCAST_BIN="$root/build/fluidcast" bash scripts/test_e2e.sh

stage "Fuzzing the frame decoder (libFuzzer, ASan + UBSan, ${FUZZ_SECONDS:-30} s)"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
echo "== all stages passed in $((SECONDS - started)) s"
