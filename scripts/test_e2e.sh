#!/usr/bin/env bash
# Browser end-to-end tests (web/e2e): builds the viewer (web/dist) when it is missing or older than
# its sources (scripts/build_web.sh), then runs every test file against a real server with Debian's
# Chromium (headless, WebGL on SwiftShader). Screenshots and page logs go to web/e2e/artifacts/.
# Environment: FLUIDCAST_BIN (default build/fluidcast), CHROMIUM_PATH (default /usr/bin/chromium),
# E2E_REBUILD=1 to rebuild the viewer anyway. Arguments pick test files (load gravity emitter watch solver).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export FLUIDCAST_BIN=${FLUIDCAST_BIN:-$root/build/fluidcast}
[ -x "$FLUIDCAST_BIN" ] || { echo "test_e2e: no server at $FLUIDCAST_BIN (build it first)" >&2; exit 1; }
node_major=$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/' || echo 0)
[ "${node_major:-0}" -ge 20 ] || { echo "test_e2e: playwright-core needs Node 20 or later (found $(node --version 2>/dev/null || echo none))" >&2; exit 1; }
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "test_e2e: no Chromium at $chromium (bash scripts/setup.sh installs it)" >&2; exit 1; }

force=()
[ "${E2E_REBUILD:-0}" = 1 ] && force=(--force)
bash scripts/build_web.sh "${force[@]}" --need playwright-core
exec node web/e2e/run.mjs "$@"
