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
record() {
  if [ "$2" -eq 0 ]; then
    echo '{"passed":1,"failed":0}' > "reports/$1.json"
  else
    echo '{"passed":0,"failed":1}' > "reports/$1.json"
    fail=1
  fi
}
check() {
  local name=$1
  shift
  "$@"
  record "$name" $?
}

# Typecheck and lint run side by side (tsc is done in a few seconds, eslint uses one core); each one's
# output is printed when both are done, under its name.
step "typecheck (tsc) and lint (eslint), side by side"
logs=$(mktemp -d)
npm run --silent typecheck > "$logs/typecheck" 2>&1 &
typecheck_pid=$!
npm run --silent lint > "$logs/lint" 2>&1 &
lint_pid=$!
wait $typecheck_pid
typecheck_status=$?
wait $lint_pid
lint_status=$?
for name in typecheck lint; do
  status_var=${name}_status
  echo "-- $name: $([ "${!status_var}" -eq 0 ] && echo passed || echo FAILED)"
  cat "$logs/$name"
  record $name "${!status_var}"
done
rm -rf "$logs"

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
