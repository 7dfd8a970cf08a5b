import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const script = resolve(import.meta.dirname, 'summary.mjs')
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ringside-summary-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const summary = (...args: string[]) => execFileSync(process.execPath, [script, '--dir', dir, ...args], { encoding: 'utf8' }).trim().split('\n')

test('skipped tests of both runners are counted on their own line, before the plain totals line CI reads', () => {
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify({ numPassedTests: 5, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1 }))
  writeFileSync(join(dir, 'e2e.json'), JSON.stringify({ stats: { expected: 7, flaky: 1, unexpected: 0, skipped: 3 }, errors: [] }))
  for (const step of ['typecheck', 'lint', 'install']) writeFileSync(join(dir, `${step}.json`), JSON.stringify({ passed: 1, failed: 0 }))
  expect(summary()).toEqual([
    'unit: 5 passed, 1 failed, 3 skipped',
    'e2e: 8 passed, 0 failed, 3 skipped',
    'typecheck: 1 passed, 0 failed, 0 skipped',
    'lint: 1 passed, 0 failed, 0 skipped',
    'install: 1 passed, 0 failed, 0 skipped',
    '6 skipped',
    '16 passed, 1 failed',
  ])
  expect(summary('--totals')).toEqual(['6 skipped', '16 passed, 1 failed'])
})

test('a missing report counts as a failure', () => {
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify({ numPassedTests: 2, numFailedTests: 0 }))
  writeFileSync(join(dir, 'typecheck.json'), JSON.stringify({ passed: 1, failed: 0 }))
  writeFileSync(join(dir, 'install.json'), JSON.stringify({ passed: 0, failed: 1 }))
  // e2e.json and lint.json are missing: one failure each.
  expect(summary('--totals')).toEqual(['3 passed, 3 failed'])
})

test('a failed lint fails the totals line even when every test passed', () => {
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify({ numPassedTests: 4, numFailedTests: 0 }))
  writeFileSync(join(dir, 'e2e.json'), JSON.stringify({ stats: { expected: 2, flaky: 0, unexpected: 0 }, errors: [] }))
  writeFileSync(join(dir, 'typecheck.json'), JSON.stringify({ passed: 1, failed: 0 }))
  writeFileSync(join(dir, 'lint.json'), JSON.stringify({ passed: 0, failed: 1 }))
  writeFileSync(join(dir, 'install.json'), JSON.stringify({ passed: 1, failed: 0 }))
  expect(summary()).toContain('lint: 0 passed, 1 failed, 0 skipped')
  expect(summary('--totals')).toEqual(['8 passed, 1 failed'])
})

test('--steps adds one-check steps of the caller, each counted once and a missing one as a failure', () => {
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify({ numPassedTests: 3, numFailedTests: 0 }))
  writeFileSync(join(dir, 'e2e.json'), JSON.stringify({ stats: { expected: 2, flaky: 0, unexpected: 0 }, errors: [] }))
  for (const step of ['typecheck', 'lint', 'install', 'npm-ci']) writeFileSync(join(dir, `${step}.json`), JSON.stringify({ passed: 1, failed: 0 }))
  // smoke-node22.json is missing.
  expect(summary('--steps', 'npm-ci,smoke-node22')).toEqual([
    'unit: 3 passed, 0 failed, 0 skipped',
    'e2e: 2 passed, 0 failed, 0 skipped',
    'typecheck: 1 passed, 0 failed, 0 skipped',
    'lint: 1 passed, 0 failed, 0 skipped',
    'install: 1 passed, 0 failed, 0 skipped',
    'npm-ci: 1 passed, 0 failed, 0 skipped',
    'smoke-node22: 0 passed, 1 failed, 0 skipped (reports/smoke-node22.json missing)',
    '9 passed, 1 failed',
  ])
})
