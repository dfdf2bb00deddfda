#!/usr/bin/env bash
# Builds the particle frame decoder's libFuzzer target with clang (ASan + UBSan) and runs it for
# FUZZ_SECONDS (default 60) from the kept seed corpus tests/fuzz/corpus. New inputs go to a
# scratch directory, never into the repository. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-${FUZZ_SECONDS:-60}}
out="$root/build-fuzz"
mkdir -p "$out"
clang -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -ffp-contract=off \
  -I"$root/protocol/c" "$root"/protocol/c/{frame_state,rice,frame_encoder,frame_decoder}.c \
  "$root/tests/fuzz/fuzz_frame_decoder.c" -o "$out/fuzz_frame_decoder" -lm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fuzz: frame decoder for ${seconds}s from $(ls "$root/tests/fuzz/corpus" | wc -l) seeds"
"$out/fuzz_frame_decoder" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$work" "$root/tests/fuzz/corpus" 2>&1 | tail -n 25
