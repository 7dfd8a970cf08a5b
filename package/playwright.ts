/**
 * `ringside/playwright`: the kit for your own Playwright suite.
 *
 *   import { test, expect } from 'ringside/playwright'
 *
 * Fixtures `harness`, `widget`, `messages`, `driver`; the built-in drivers,
 * `defineDriver` and `pressSteadily`; the conformance checks. Point `baseURL` at a running
 * `ringside start` (or let `ringsideWebServer()` start one).
 */
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { DEFAULT_PORTS } from '../shared/ports.mjs'
import { findChromium as findChromiumIn } from '../kit/browser/chromium.ts'
export { test, expect } from '../kit/fixtures.ts'
export type { KitFixtures, KitOptions } from '../kit/fixtures.ts'
export { Harness } from '../kit/harness.ts'
export { MessageLog, payloadOf } from '../kit/message-log.ts'
export { BUILT_IN_DRIVERS, loadDriver, guessDriver } from '../kit/drivers/load-driver.ts'
export * from '../kit/drivers/types.ts'
export { pressSteadily, type PressOptions } from '../kit/press.ts'
export { CHECKS, checksFor, evaluateCheck, strictOutcome } from '../kit/checks.ts'
export { JOURNEYS, type JourneyKind } from '../kit/journey.ts'
export { PLACEMENTS, type Placement } from '../kit/placements.ts'
export { journeyFor } from '../kit/journey-runner.ts'
export { BROWSER_ARGS } from '../kit/browser/browser-args.ts'

/**
 * A Playwright `webServer` entry that starts `ringside start` from this
 * package on `port` (the widget origin on port + 1), with a fresh CRM per
 * browser context.
 */
export function ringsideWebServer(port: number = DEFAULT_PORTS.checkWidget) {
  return {
    command: `node ${JSON.stringify(resolve(import.meta.dirname, '..', 'bin', 'ringside.mjs'))} start --sandboxes --fresh --port ${port} --data ${JSON.stringify(join(tmpdir(), `ringside-pw-${port}`))}`,
    url: `http://127.0.0.1:${port}/_ringside/v1/server`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  }
}

/** The Chromium for your runs: $CHROMIUM_PATH, Playwright's own, or a system one (null: none). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  return findChromiumIn(env, () => chromium.executablePath())
}
