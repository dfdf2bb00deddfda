#!/usr/bin/env bash
# Runs a command that must succeed with stdout matching every given regex (extended, grep -E).
# Usage: expect_ok.sh REGEX... -- CMD [ARGS...]
set -u

regexes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do regexes+=("$1"); shift; done
if [ $# -lt 2 ]; then
  echo "usage: expect_ok.sh REGEX... -- CMD [ARGS...]" >&2
  exit 2
fi
shift

. "$(dirname "$0")/capture.sh"
[ "$status" -eq 0 ] || fail "expected exit status 0"
[ ! -s "$err" ] || fail "expected nothing on stderr"
for regex in "${regexes[@]}"; do
  grep -qE -e "$regex" "$out" || fail "stdout does not match /$regex/"
done
echo "ok: stdout matches all ${#regexes[@]} patterns"
