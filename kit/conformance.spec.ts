/**
 * Protocol conformance suite: what a CRM host can observe of a calling
 * widget, checked on one call per journey through the harness:
 *
 * - outbound: handshake, INITIALIZED, DIAL_NUMBER → OUTGOING_CALL_STARTED,
 *   CALL_ENDED, CALL_COMPLETED, the CRM's confirmation, every payload valid;
 * - inbound: the same from INCOMING_CALL on, for a driver that can ring the
 *   widget (skipped with the reason otherwise).
 *
 * Targets (kit/targets.ts): $WIDGET_URL if set (`check-widget <url>`),
 * otherwise Ringside's reference widget and a widget built on the npm package
 * 0.9.7, both cross-origin. The placement is the project's (`use.placement`,
 * one project per placement, see kit/placements.ts), and it is in every
 * test's name. One journey per target, journey and placement; each check is
 * its own test, reported by kit/readiness-reporter.ts.
 */
import { expect, test as base, type Browser } from '@playwright/test'
import { checksFor, evaluateCheck, strictOutcome } from './checks.ts'
import { journeyFor, type StoredJourney } from './journey-runner.ts'
import { JOURNEY_ANNOTATION, type HtmlReportOption } from './report/check-report.ts'
import { placementOf } from './placements.ts'
import { journeyAtMostMs } from './journey-waits.ts'
import { conformanceTargets, journeysInRunOrder, kitBaseUrl, strictFromEnv, syncTimeoutFromEnv } from './targets.ts'

/**
 * The browser of the journeys, launched when a journey first needs one. Playwright restarts the worker after a failed
 * check, and the fresh worker reads the journey from disk: the `browser` fixture would launch a Chromium for nothing.
 * Launched or connected as that fixture does (the config's launch options, or its connectOptions).
 */
const test = base.extend<object, { journeyBrowser: () => Promise<Browser> }>({
  journeyBrowser: [
    async ({ playwright, browserName, connectOptions }, use) => {
      let browser: Promise<Browser> | undefined
      await use(() => (browser ??= connectOptions ? playwright[browserName].connect(connectOptions.wsEndpoint, connectOptions) : playwright[browserName].launch()))
      await (await browser?.catch(() => undefined))?.close()
    },
    { scope: 'worker', timeout: 0 },
  ],
})

const syncTimeoutMs = syncTimeoutFromEnv()
/** --strict: warnings (deviations the real CRM copes with) fail their check. */
const strict = strictFromEnv()

for (const target of conformanceTargets()) {
  // A journey the driver cannot run (only skipped checks) first: see journeysInRunOrder.
  for (const kind of journeysInRunOrder(target, kitBaseUrl())) {
    test.describe(`Conformance: ${target.name} › ${kind} journey`, () => {
      // One worker runs a journey's checks in order (and the journey once).
      test.describe.configure({ mode: 'default' })
      let journey: StoredJourney | undefined

      test.beforeAll(async ({ journeyBrowser }, testInfo) => {
        // Above the journey's own bounds (shared/waits.ts), plus the browser's start: a hung widget gets its verdict from them.
        test.setTimeout(journeyAtMostMs(syncTimeoutMs, process.env) + 30_000)
        journey = await journeyFor(target, journeyBrowser, testInfo, syncTimeoutMs, { kind })
      })

      test.afterEach(async ({}, testInfo) => {
        if (!journey || testInfo.status === testInfo.expectedStatus) return
        await testInfo.attach('message-log.json', { body: journey.logJson, contentType: 'application/json' })
        await testInfo.attach('harness-findings.txt', { body: journey.findings.join('\n') || 'No conformance findings.', contentType: 'text/plain' })
        if (journey.tracePath) await testInfo.attach('trace', { path: journey.tracePath, contentType: 'application/zip' })
        if (journey.screenshotPath) await testInfo.attach('screenshot', { path: journey.screenshotPath, contentType: 'image/png' })
      })

      for (const check of checksFor(kind)) {
        test(check.title({ syncTimeoutMs }), async ({}, testInfo) => {
          if (!journey) throw new Error('The journey did not run')
          const { result } = journey
          const placement = placementOf(testInfo.project.use)
          testInfo.annotations.push(
            { type: 'conformance-check', description: check.id },
            { type: 'journey', description: kind },
            { type: 'placement', description: placement },
            { type: 'widget', description: result.widgetUrl },
            { type: 'driver', description: result.driverName },
            { type: JOURNEY_ANNOTATION, description: journey.file },
          )
          // check-widget's HTML report, linked from the JUnit XML: a property, and a line CI systems read as an attachment.
          const report = (testInfo.project.use as HtmlReportOption).htmlReport
          if (report) {
            testInfo.annotations.push({ type: 'ringside-report', description: report.link })
            console.log(`Ringside report: ${report.link}\n[[ATTACHMENT|${report.link}]]`)
          }
          // The journey's ladder, in Playwright's own report too.
          if (journey.ladderPath) await testInfo.attach('ladder.svg', { path: journey.ladderPath, contentType: 'image/svg+xml' })
          if (result.widgetErrors.length > 0) testInfo.annotations.push({ type: 'widget-errors', description: result.widgetErrors.join('\n') })
          // A journey the driver cannot run at all (every stage skipped with the reason): so is each of its checks.
          const notRun = Object.values(result.stages).every((stage) => stage.status === 'skipped') ? result.stages.handshake : null
          const outcome = notRun?.status === 'skipped' ? { status: 'skipped' as const, reason: notRun.reason } : strictOutcome(evaluateCheck(check, result), strict)
          if (outcome.status !== 'skipped' && outcome.warnings?.length) testInfo.annotations.push({ type: 'warnings', description: outcome.warnings.join('\n') })
          // A step only a driver can do, and the widget did not do it by itself.
          testInfo.skip(outcome.status === 'skipped', outcome.status === 'skipped' ? `skipped: ${outcome.reason}` : '')
          if (outcome.status === 'failed') testInfo.annotations.push({ type: 'problems', description: outcome.problems.join('\n') })
          expect(outcome.status === 'failed' ? outcome.problems : [], `${target.name} (${kind} journey, ${placement} placement): ${check.title({ syncTimeoutMs })}`).toEqual([])
        })
      }
    })
  }
}
