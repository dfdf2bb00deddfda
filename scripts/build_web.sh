#!/usr/bin/env bash
# Brings the viewer (web/dist) up to date doing only what is stale; the one rule run.sh and
# test_e2e.sh share. The build runs when web/dist/index.html is missing or older than a source of the
# viewer (web/index.html, src/, public/, vite.config.js, package.json, package-lock.json, and
# protocol/js; *.test.js excluded). `npm ci` runs before it only when web/node_modules does not match
# web/package-lock.json (npm's record of the install, node_modules/.package-lock.json, is missing or
# lists other packages), or lacks a module the caller needs. A current web/dist needs neither npm nor
# the registry.
# Usage: bash scripts/build_web.sh [--force] [--need MODULE]...
#   --force        install and build anyway
#   --need MODULE  a module the caller runs from web/node_modules (test_e2e.sh: playwright-core)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/web"
force=0 needs=()
while [ $# -gt 0 ]; do
  case $1 in
    --force) force=1; shift ;;
    --need) [ $# -ge 2 ] || { echo "build_web: --need MODULE" >&2; exit 2; }; needs+=("$2"); shift 2 ;;
    *) echo "build_web: unknown argument '$1' (--force, --need MODULE)" >&2; exit 2 ;;
  esac
done
# without a build script there is nothing to build: the server says how to get the viewer
grep -q '"build"' package.json 2>/dev/null || exit 0

# 0 when node_modules holds exactly the packages of package-lock.json (versions and integrity; the
# lock's optional packages for other platforms are not installed), else 1.
installed_matches_lock() {
  [ -f node_modules/.package-lock.json ] && command -v node >/dev/null || return 1
  node -e '
    const lock = require("./package-lock.json").packages || {};
    const got = require("./node_modules/.package-lock.json").packages || {};
    const same = (a, b) => a.version === b.version && a.integrity === b.integrity;
    const ok = Object.keys(got).every((k) => lock[k] && same(lock[k], got[k])) &&
      Object.keys(lock).every((k) => k === "" || got[k] || lock[k].optional);
    process.exit(ok ? 0 : 1);' 2>/dev/null
}

build=$force
if [ ! -f dist/index.html ]; then
  build=1
elif [ -n "$(find index.html src public vite.config.js package.json package-lock.json ../protocol/js \
            -newer dist/index.html -not -name '*.test.js' 2>/dev/null | head -1)" ]; then
  build=1
fi
install=$force
if [ "$build" = 1 ] && ! installed_matches_lock; then install=1; fi
for m in "${needs[@]}"; do [ -d "node_modules/$m" ] || install=1; done

if [ "$install" = 1 ]; then
  echo "build_web: installing the viewer's packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ "$build" = 1 ]; then
  echo "build_web: building the viewer (npm run build)"
  npm run build --silent
else
  echo "build_web: web/dist is up to date with the viewer's sources"
fi
