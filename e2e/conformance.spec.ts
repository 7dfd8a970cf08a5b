/**
 * Protocol conformance suite: what a CRM host can observe of a calling
 * widget, checked on one outbound call through the harness (handshake,
 * INITIALIZED, DIAL_NUMBER → OUTGOING_CALL_STARTED, CALL_ENDED,
 * CALL_COMPLETED, the CRM's confirmation, every payload valid).
 *
 * Targets (e2e/kit/targets.ts): $WIDGET_URL if set (`npm run check-widget --
 * <url>`), otherwise Ringside's reference widget and a widget built on the
 * npm package 0.9.7, both cross-origin. One journey per target and run; each
 * check is its own test, reported by e2e/kit/readiness-reporter.ts.
 */
import { expect, test } from '@playwright/test'
import { CHECKS, evaluateCheck, strictOutcome } from './kit/checks.ts'
import { journeyFor, type StoredJourney } from './kit/journey-runner.ts'
import { conformanceTargets, strictFromEnv, syncTimeoutFromEnv } from './kit/targets.ts'

const syncTimeoutMs = syncTimeoutFromEnv()
/** --strict: warnings (deviations the real CRM copes with) fail their check. */
const strict = strictFromEnv()

for (const target of conformanceTargets()) {
  test.describe(`Conformance: ${target.name}`, () => {
    // One worker runs a target's checks in order (and its journey once).
    test.describe.configure({ mode: 'default' })
    let journey: StoredJourney | undefined

    test.beforeAll(async ({ browser }, testInfo) => {
      test.setTimeout(syncTimeoutMs + 120_000)
      journey = await journeyFor(target, browser, testInfo, syncTimeoutMs)
    })

    test.afterEach(async ({}, testInfo) => {
      if (!journey || testInfo.status === testInfo.expectedStatus) return
      await testInfo.attach('message-log.json', { body: journey.logJson, contentType: 'application/json' })
      await testInfo.attach('harness-findings.txt', { body: journey.findings.join('\n') || 'No conformance findings.', contentType: 'text/plain' })
      if (journey.tracePath) await testInfo.attach('trace', { path: journey.tracePath, contentType: 'application/zip' })
      if (journey.screenshotPath) await testInfo.attach('screenshot', { path: journey.screenshotPath, contentType: 'image/png' })
    })

    for (const check of CHECKS) {
      test(check.title({ syncTimeoutMs }), async ({}, testInfo) => {
        if (!journey) throw new Error('The journey did not run')
        const { result } = journey
        testInfo.annotations.push(
          { type: 'conformance-check', description: check.id },
          { type: 'widget', description: result.widgetUrl },
          { type: 'driver', description: result.driverName },
        )
        if (result.widgetErrors.length > 0) testInfo.annotations.push({ type: 'widget-errors', description: result.widgetErrors.join('\n') })
        const outcome = strictOutcome(evaluateCheck(check, result), strict)
        if (outcome.status !== 'skipped' && outcome.warnings?.length) testInfo.annotations.push({ type: 'warnings', description: outcome.warnings.join('\n') })
        // A step only a driver can do, and the widget did not do it by itself.
        testInfo.skip(outcome.status === 'skipped', outcome.status === 'skipped' ? `skipped: ${outcome.reason}` : '')
        if (outcome.status === 'failed') testInfo.annotations.push({ type: 'problems', description: outcome.problems.join('\n') })
        expect(outcome.status === 'failed' ? outcome.problems : [], `${target.name}: ${check.title({ syncTimeoutMs })}`).toEqual([])
      })
    }
  })
}
