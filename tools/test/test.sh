#!/usr/bin/env bash
# npm test: typecheck, lint, unit tests, build, the package's install test, Playwright. Every phase runs even
# if another one failed, so one run shows every problem; the exit code is non-zero if any phase failed.
# Totals come from the JSON reports in reports/.
#
# Ports: the browser tests' servers take E2E_PORT (default 7500, shared/ports.mjs) to E2E_PORT + 109 on 127.0.0.1;
# E2E_PORT=<n> npm test moves the whole block (docs/ports.md).
#
# Every phase before the browser tests is CPU-bound, so they are laid out to keep both cores busy: the lint
# (one thread) runs beside the typecheck (the native compiler, on every core) and then the build, which needs
# nothing of either; Vitest (on every core) runs after both, on its own, so its tests that start servers and
# child processes are not slowed by other work. The browser tests leave about half of two cores idle (they
# wait for pages, timers and servers more than they compute), but Vitest and the typecheck do not: run beside
# Playwright, they slowed it more than they saved (a quiet 2-core clean clone: 339 s with typecheck, lint,
# Vitest on one worker and the install test beside the browser tests, against 310 s one after another). So
# Playwright runs in the foreground with only the install test beside it (it packs this checkout's fresh
# build when the work tree is clean, else a clone of HEAD, and then mostly waits for npm and a server). The output of every phase but the
# browser tests goes to reports/logs/<phase>.log and is printed under its name when the browser tests are
# done. The last lines are each phase's start, end and verdict, then the totals.
#
# TEST_PHASES=serial runs the install test before the browser tests too: for a machine already busy with
# other work, where tests that share it time out.
set -uo pipefail
cd "$(dirname "$0")/../.."
# Plain output: NO_COLOR=1 where it is set (CI), else FORCE_COLOR=0. Never both in one process: Node warns in every
# process that has both ("The 'NO_COLOR' env is ignored…"). Playwright gives its workers FORCE_COLOR=1 whatever it is
# given, so the phases that run Playwright (the browser tests, the install test) get FORCE_COLOR=0 without NO_COLOR
# (kit/browser/plain-output.ts does the same for the runs check-widget starts).
[ -n "${NO_COLOR:-}" ] || export FORCE_COLOR=${FORCE_COLOR:-0}
playwright_env() { env -u NO_COLOR FORCE_COLOR="${FORCE_COLOR:-0}" "$@"; }
t0=$SECONDS
step() { echo; echo "== $1 ($((SECONDS - t0))s)"; }

source tools/test/ensure-chromium.sh
rm -rf reports && mkdir -p reports/logs
# One line per phase: name, start and end (seconds since the start of npm test), exit status.
phases=reports/logs/phases.tsv

# A phase that is one check: it counts as one test in the totals line (tools/test/summary.mjs), passed or failed.
record() {
  if [ "$2" -eq 0 ]; then
    echo '{"passed":1,"failed":0}' > "reports/$1.json"
  else
    echo '{"passed":0,"failed":1}' > "reports/$1.json"
  fi
}
verdict() { [ "$1" -eq 0 ] && echo passed || echo FAILED; }

# phase <name> <command…>: runs the command, its output in reports/logs/<name>.log, and notes its timing.
phase() {
  local name=$1 start=$((SECONDS - t0)) status
  shift
  "$@" > "reports/logs/$name.log" 2>&1
  status=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$start" "$((SECONDS - t0))" "$status" >> "$phases"
  echo "-- $name: $(verdict $status) after $((SECONDS - t0 - start))s (its output is printed after the browser tests)"
  return $status
}
# check <name> <command…>: a phase that is one check (typecheck, lint, the install test).
check() {
  local name=$1
  phase "$@"
  record "$name" $?
}

step "lint, beside the typecheck and then the build (vite)"
check lint npm run --silent lint &
lint_pid=$!
check typecheck npm run --silent typecheck
phase build npm run --silent build
wait "$lint_pid"

step "unit and component tests (vitest)"
phase vitest npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json

if [ "${TEST_PHASES:-}" = serial ]; then
  step "the install test (npm pack, install in a new project, npx ringside), before the browser tests (TEST_PHASES=serial)"
  check install playwright_env node tools/test/install-test.mjs
  background_pid=''
else
  step "beside the browser tests: the install test (npm pack, install in a new project, npx ringside)"
  check install playwright_env node tools/test/install-test.mjs &
  background_pid=$!
fi
# Interrupted: stop the background phases too (their processes, by parent id, from the leaves up).
stop_tree() {
  local child
  for child in $(pgrep -P "$1"); do stop_tree "$child"; done
  kill "$1" 2>/dev/null
}
[ -n "$background_pid" ] && trap 'stop_tree $background_pid; exit 130' INT TERM

step "browser tests (playwright)"
start=$SECONDS
if [ -n "$CHROMIUM_PATH" ] && [ -x "$CHROMIUM_PATH" ]; then
  playwright_env npx playwright test
  status=$?
else
  echo "skipped: no Chromium (see above); counted as a failure"
  status=1
fi
printf '%s\t%s\t%s\t%s\n' e2e $((start - t0)) $((SECONDS - t0)) $status >> "$phases"

if [ -n "$background_pid" ]; then
  step "waiting for the install test beside the browser tests"
  wait "$background_pid"
  trap - INT TERM
fi
for name in lint typecheck build vitest install; do
  echo
  echo "== $name: $(awk -F'\t' -v n="$name" '$1 == n { print ($4 == 0 ? "passed" : "FAILED") }' "$phases")"
  cat "reports/logs/$name.log" 2>/dev/null
done

step "done"
echo "phase       start    end   time  verdict"
sort -t$'\t' -k2,2n "$phases" | awk -F'\t' '{ printf "%-10s %5ss %5ss %5ss  %s\n", $1, $2, $3, $3 - $2, ($4 == 0 ? "passed" : "FAILED") }'
node tools/test/summary.mjs
# Non-zero when any phase failed, or did not get to say how it ended.
awk -F'\t' 'BEGIN { n = 0 } $4 != 0 { bad = 1 } { n++ } END { exit (bad || n != 6) }' "$phases"
