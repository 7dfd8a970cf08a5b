/**
 * Runs `npm run check-widget` as a user runs it (node tools/check-widget.mjs,
 * which runs `ringside check-widget` from the build: its own harness server and
 * Playwright), with reports and test output in a folder of its own under the
 * test's output folder, so runs in parallel workers do not share them. Like
 * every e2e test it checks the build as it is (no build check per run).
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { test } from '@playwright/test'
import { PORTS } from '../origins.ts'
import { plainOutputEnv } from '../../kit/browser/plain-output.ts'

const root = resolve(import.meta.dirname, '..', '..')

export interface CheckWidgetRun {
  code: number | null
  /** stdout and stderr, as they came. */
  output: string
  /** Its reports: widget-check.txt, widget-check.junit.xml, widget-check.html. */
  dir: string
}

let runs = 0

/** `env`: more environment for the run (e.g. $RINGSIDE_WAITS, the waits' bounds). */
export function checkWidget(args: string[], timeoutMs = 100_000, env: Readonly<Record<string, string>> = {}): Promise<CheckWidgetRun> {
  runs += 1
  const dir = join(test.info().outputDir, `check-widget-${runs}`)
  return new Promise((done, failed) => {
    // CI would refuse to reuse a server; each run has its own ports anyway. FORCE_COLOR=0 again after
    // plainOutputEnv: inside a Playwright worker FORCE_COLOR=1 is Playwright's own, not the user's.
    const child = spawn(process.execPath, ['tools/check-widget.mjs', ...args], { cwd: root, env: { ...plainOutputEnv(process.env), CI: '', FORCE_COLOR: '0', WIDGET_CHECK_DIR: dir, CHECK_WIDGET_BUILD: 'never', ...env } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      failed(new Error(`check-widget did not finish within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, output, dir })
    })
  })
}

/** A block of three ports for one run (the harness at the result, its widget origin +1), above E2E_PORT; n < 30. */
export const portBlock = (n: number) => PORTS.checkWidgetRuns + n * 3
