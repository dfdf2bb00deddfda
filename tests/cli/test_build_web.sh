#!/usr/bin/env bash
# scripts/build_web.sh (shared by run.sh and test_e2e.sh) runs `npm ci` and the build only when they
# are stale. A copy of the viewer's files in a temporary tree, with a fake npm on PATH that records
# its calls and does what npm would (the install record node_modules/.package-lock.json, dist/).
# Usage: test_build_web.sh SOURCE_ROOT
set -u
src=${1:?usage: test_build_web.sh SOURCE_ROOT}
command -v node >/dev/null || { echo "SKIP: node is not installed (the install check reads JSON with it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# ---- the tree: the real script and lock file, small stand-ins for the sources ----
mkdir -p "$work/root/scripts" "$work/root/web/src" "$work/root/protocol/js" "$work/bin"
cp "$src/scripts/build_web.sh" "$work/root/scripts/"
cp "$src/web/package.json" "$src/web/package-lock.json" "$work/root/web/"
echo '<!doctype html>' >"$work/root/web/index.html"
echo 'export {};' >"$work/root/web/src/main.js"
echo 'test("x", () => {});' >"$work/root/web/src/main.test.js"
echo 'export {};' >"$work/root/web/vite.config.js"
echo 'export {};' >"$work/root/protocol/js/decoder.js"
web=$work/root/web
log=$work/npm.log

cat >"$work/bin/npm" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$log"
[ -n "\${FAKE_NPM_FAIL:-}" ] && { echo "npm: the registry cannot be reached" >&2; exit 1; }
case "\$1" in
  ci) rm -rf node_modules && mkdir -p node_modules/playwright-core &&
      node -e 'const l = require("./package-lock.json"); delete l.packages[""];
        for (const k of Object.keys(l.packages)) if (l.packages[k].optional) delete l.packages[k];
        require("fs").writeFileSync("node_modules/.package-lock.json", JSON.stringify(l))' ;;
  run) [ "\$2" = build ] && mkdir -p dist && echo built >dist/index.html ;;
esac
EOF
chmod +x "$work/bin/npm"

# Runs the script with args; $calls: the npm calls it made, one per line ("" for none).
run_script() {
  : >"$log"
  PATH="$work/bin:$PATH" bash "$work/root/scripts/build_web.sh" "$@" >"$work/out" 2>&1
  status=$?
  calls=$(tr '\n' ';' <"$log")
  sed 's/^/  | /' "$work/out"
}
# expect WHAT STATUS CALLS: the last run exited STATUS after exactly the npm calls CALLS ("a;b;").
expect() {
  if [ "$status" = "$2" ] && [ "$calls" = "$3" ]; then ok "$1"; else fail "$1: status $status (want $2), npm calls '$calls' (want '$3')"; fi
}
# Ages every file of the tree by a minute, so that a later touch is newer.
age_all() { find "$work/root" -exec touch -d '-1 minute' {} +; }
# Ages the sources only: the install record and dist stay newer.
age_sources() { find "$web/index.html" "$web/src" "$web/vite.config.js" "$web/package.json" "$web/package-lock.json" \
  "$work/root/protocol/js" -exec touch -d '-2 minutes' {} +; }

run_script
expect "a fresh tree: install, then build" 0 "ci --no-audit --no-fund --loglevel=error;run build --silent;"
run_script
expect "nothing changed: no npm at all" 0 ""
grep -q "up to date" "$work/out" && ok "it says web/dist is up to date" || fail "no 'up to date' line"

age_all && age_sources && touch "$web/src/main.js"
run_script
expect "a changed source: the build only, not npm ci" 0 "run build --silent;"

age_all && age_sources && echo 'export const x = 1;' >"$work/root/protocol/js/decoder.js"
run_script
expect "a changed protocol/js file: the build only" 0 "run build --silent;"

age_all && age_sources && echo 'test("y", () => {});' >"$web/src/main.test.js"
run_script
expect "a changed *.test.js file: nothing" 0 ""

age_all && age_sources && rm -rf "$web/node_modules"
FAKE_NPM_FAIL=1 run_script
expect "web/dist current, node_modules gone, the registry unreachable: nothing runs (run.sh starts)" 0 ""

age_all && age_sources && touch "$web/src/main.js"
run_script
expect "a changed source and no node_modules: install, then build" 0 "ci --no-audit --no-fund --loglevel=error;run build --silent;"

# a lock file that names another version of a package: its mtime alone says little (git sets it)
age_all && age_sources
node -e 'const f = process.argv[1], l = require(f); const k = Object.keys(l.packages).find((k) => k.endsWith("/three"));
  l.packages[k].version = "0.0.1"; l.packages[k].integrity = "sha512-other";
  require("fs").writeFileSync(f, JSON.stringify(l, null, 2));' "$web/package-lock.json"
run_script
expect "a lock file that changed: install, then build" 0 "ci --no-audit --no-fund --loglevel=error;run build --silent;"

age_all && age_sources && touch "$web/package-lock.json"
run_script
expect "a lock file touched, same packages: the build only" 0 "run build --silent;"

age_all && age_sources && rm -rf "$web/node_modules/playwright-core"
run_script --need playwright-core
expect "--need playwright-core when it is missing: install only" 0 "ci --no-audit --no-fund --loglevel=error;"
run_script --need playwright-core
expect "--need playwright-core when present: nothing" 0 ""

run_script --force
expect "--force: install, then build" 0 "ci --no-audit --no-fund --loglevel=error;run build --silent;"

age_all && age_sources && touch "$web/src/main.js"
FAKE_NPM_FAIL=1 run_script
[ "$status" != 0 ] && ok "a failing npm fails the script ($status)" || fail "a failing npm was ignored"

run_script --frobnicate
[ "$status" = 2 ] && grep -q "unknown argument '--frobnicate'" "$work/out" && ok "an unknown argument is refused" ||
  fail "unknown argument: status $status"

# run.sh and test_e2e.sh use this script and keep no rule of their own
for s in run.sh test_e2e.sh; do
  if grep -q 'scripts/build_web.sh' "$src/scripts/$s" && ! grep -qE 'npm (ci|run)|-newer' "$src/scripts/$s"; then
    ok "scripts/$s calls build_web.sh and runs no npm or staleness check of its own"
  else
    fail "scripts/$s: expected a call of build_web.sh and no npm ci / npm run / find -newer"
  fi
done

[ "$failures" = 0 ] && echo "test_build_web: all passed" || echo "test_build_web: $failures failed"
[ "$failures" = 0 ]
