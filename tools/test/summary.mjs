#!/usr/bin/env node
// Prints test totals from the JSON reports of vitest, Playwright and the
// one-check steps of tools/test/test.sh (typecheck, lint, the package's install
// test: each writes reports/<step>.json, {"passed":1,"failed":0} or the
// reverse, and counts as one test, so a failed step shows in the totals).
// A missing or unreadable report counts as one failure, so a runner that
// crashed can never look like "0 failed". The last line is the plain
// "N passed, N failed" that CI reads. Tests that did not run (e.g. a check
// that needs a driver) are neither: they are counted on the line before it,
// "N skipped", printed whenever there are any. With --totals, only those two.
// --dir <path> reads the reports from elsewhere (default reports/). --steps <a,b> adds one-check steps of the
// caller's own (.ci/run's install log and Node 22 smoke), each read from reports/<step>.json like the ones above.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { totals: { type: 'boolean', default: false }, dir: { type: 'string' }, steps: { type: 'string', default: '' } } })
const dir = values.dir ? resolve(values.dir) : resolve(import.meta.dirname, '..', '..', 'reports')
const read = (name) => {
  try {
    return JSON.parse(readFileSync(resolve(dir, name), 'utf8'))
  } catch {
    return null
  }
}

const rows = []
const vitest = read('vitest.json')
rows.push(vitest
  ? {
      name: 'unit',
      passed: vitest.numPassedTests,
      failed: vitest.numFailedTests + (vitest.numRuntimeErrorTestSuites ?? 0),
      skipped: (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0),
    }
  : { name: 'unit', passed: 0, failed: 1, skipped: 0, note: 'reports/vitest.json missing' })
const e2e = read('e2e.json')
rows.push(e2e
  ? { name: 'e2e', passed: e2e.stats.expected + e2e.stats.flaky, failed: e2e.stats.unexpected + (e2e.errors?.length ?? 0), skipped: e2e.stats.skipped ?? 0 }
  : { name: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'reports/e2e.json missing' })

const extraSteps = values.steps.split(',').map((name) => name.trim()).filter((name) => name !== '')
for (const name of ['typecheck', 'lint', 'install', ...extraSteps]) {
  const step = read(`${name}.json`)
  rows.push(step
    ? { name, passed: step.passed, failed: step.failed, skipped: 0 }
    : { name, passed: 0, failed: 1, skipped: 0, note: `reports/${name}.json missing` })
}

const sum = (key) => rows.reduce((n, r) => n + r[key], 0)
if (!values.totals) {
  for (const r of rows) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.note ? ` (${r.note})` : ''}`)
}
if (sum('skipped') > 0) console.log(`${sum('skipped')} skipped`)
console.log(`${sum('passed')} passed, ${sum('failed')} failed`)
