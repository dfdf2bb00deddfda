#!/usr/bin/env bash
# Runs the JavaScript tests (the frame decoder in protocol/js and the viewer in web/) with Vitest.
set -euo pipefail
cd "$(dirname "$0")/../web"
npm ci --no-audit --no-fund
npm test
