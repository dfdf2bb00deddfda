#!/usr/bin/env bash
# Runs a command that must be rejected: non-zero exit, stderr matching a regex, no crash or sanitizer report.
# Usage: expect_fail.sh [--status N] EXPECTED_REGEX -- CMD [ARGS...]   (extended regex, grep -E)
set -u

want_status=""
if [ "${1-}" = "--status" ]; then want_status=$2; shift 2; fi
regex=${1-}
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
  echo "usage: expect_fail.sh [--status N] EXPECTED_REGEX -- CMD [ARGS...]" >&2
  exit 2
fi
shift 2

. "$(dirname "$0")/capture.sh"
[ "$status" -ne 0 ] || fail "expected a non-zero exit status"
[ "$status" -lt 124 ] || fail "exit status $status: crashed, killed or timed out"
[ -z "$want_status" ] || [ "$status" -eq "$want_status" ] || fail "expected exit status $want_status"
if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$err"; then fail "sanitizer report"; fi
grep -qE -e "$regex" "$err" || fail "stderr does not match /$regex/"
echo "ok: stderr matches /$regex/"
