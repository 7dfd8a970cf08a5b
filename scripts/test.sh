#!/usr/bin/env bash
# npm test: typecheck, lint, unit tests, build, the package's install test, Playwright. Every step runs even
# if an earlier one failed, so one run shows every problem; the exit code is
# non-zero if any step failed. Totals come from the JSON reports in reports/.
set -uo pipefail
cd "$(dirname "$0")/.."
export FORCE_COLOR=${FORCE_COLOR:-0}
t0=$SECONDS
fail=0
step() { echo; echo "== $1 ($((SECONDS - t0))s)"; }

source scripts/ensure-chromium.sh
rm -rf reports && mkdir -p reports

# A step that is one check: it counts as one test in the totals line (scripts/summary.mjs), passed or failed.
check() {
  local name=$1
  shift
  if "$@"; then
    echo '{"passed":1,"failed":0}' > "reports/$name.json"
  else
    echo '{"passed":0,"failed":1}' > "reports/$name.json"
    fail=1
  fi
}

step "typecheck (tsc)"
check typecheck npm run --silent typecheck

step "lint (eslint)"
check lint npm run --silent lint

step "unit and component tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || fail=1

step "build (vite)"
npm run --silent build || fail=1

step "install test (npm pack, install in a new project, npx ringside)"
check install node scripts/install-test.mjs

step "browser tests (playwright)"
if [ -n "$CHROMIUM_PATH" ] && [ -x "$CHROMIUM_PATH" ]; then
  npx playwright test || fail=1
else
  echo "skipped: no Chromium (see above); counted as a failure"
  fail=1
fi

step "done"
node scripts/summary.mjs
exit $fail
