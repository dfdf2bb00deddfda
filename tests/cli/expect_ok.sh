#!/usr/bin/env bash
# Runs a command that must succeed with stdout matching every given regex (extended, grep -E), and
# nothing on stderr (with --stderr REGEX: stderr matching it, and no sanitizer report).
# Usage: expect_ok.sh [--stderr REGEX] REGEX... -- CMD [ARGS...]
set -u

want_err=""
if [ "${1-}" = "--stderr" ]; then want_err=$2; shift 2; fi
regexes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do regexes+=("$1"); shift; done
if [ $# -lt 2 ]; then
  echo "usage: expect_ok.sh REGEX... -- CMD [ARGS...]" >&2
  exit 2
fi
shift

. "$(dirname "$0")/capture.sh"
[ "$status" -eq 0 ] || fail "expected exit status 0"
if [ -z "$want_err" ]; then
  [ ! -s "$err" ] || fail "expected nothing on stderr"
else
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$err"; then fail "sanitizer report"; fi
  grep -qE -e "$want_err" "$err" || fail "stderr does not match /$want_err/"
fi
for regex in "${regexes[@]}"; do
  grep -qE -e "$regex" "$out" || fail "stdout does not match /$regex/"
done
echo "ok: stdout matches all ${#regexes[@]} patterns"
