#!/usr/bin/env node
// Prints test totals from the JSON reports of vitest and Playwright.
// A missing or unreadable report counts as one failure, so a runner that
// crashed can never look like "0 failed". The last line is the plain
// "N passed, N failed" that CI reads. With --totals, only that line.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const dir = resolve(import.meta.dirname, '..', 'reports')
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
  ? { name: 'unit', passed: vitest.numPassedTests, failed: vitest.numFailedTests + (vitest.numRuntimeErrorTestSuites ?? 0) }
  : { name: 'unit', passed: 0, failed: 1, note: 'reports/vitest.json missing' })
const e2e = read('e2e.json')
rows.push(e2e
  ? { name: 'e2e', passed: e2e.stats.expected + e2e.stats.flaky, failed: e2e.stats.unexpected + (e2e.errors?.length ?? 0) }
  : { name: 'e2e', passed: 0, failed: 1, note: 'reports/e2e.json missing' })

const passed = rows.reduce((n, r) => n + r.passed, 0)
const failed = rows.reduce((n, r) => n + r.failed, 0)
if (!process.argv.includes('--totals')) {
  for (const r of rows) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed${r.note ? ` (${r.note})` : ''}`)
}
console.log(`${passed} passed, ${failed} failed`)
