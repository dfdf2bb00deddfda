# Sourced by expect_fail.sh and expect_ok.sh: runs "$@", keeping stdout in $out, stderr in $err and
# the exit status in $status, and prints all three for the test log.
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
status=$?

printf 'command:' && printf ' %q' "$@" && printf '\n'
echo "exit status: $status"
if [ -s "$out" ]; then echo "stdout:" && sed 's/^/  | /' "$out"; fi
if [ -s "$err" ]; then echo "stderr:" && sed 's/^/  | /' "$err"; fi

fail() { echo "FAIL: $*"; exit 1; }
