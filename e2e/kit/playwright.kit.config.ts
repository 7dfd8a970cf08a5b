/**
 * Playwright config of the widget check (`npm run check-widget -- <url>`):
 * only the conformance suite, against $WIDGET_URL, with the same browser
 * settings as playwright.config.ts, the readiness report on stdout and
 * JUnit XML in reports/widget-check.junit.xml, the self-contained HTML report
 * in reports/widget-check.html (linked from the JUnit XML; $WIDGET_HTML moves
 * it). The harness is served by the
 * Ringside server from the production build (e2e/web-servers.ts); the widget under test is
 * loaded from wherever $WIDGET_URL points (it must be reachable from this
 * machine, e.g. your dev server on localhost).
 *
 * $KIT_PORT moves the harness (and its widget/hostile origins, +1/+2) to
 * other ports, e.g. when the default ones (shared/ports.mjs) are taken. $WIDGET_CHECK_DIR moves the
 * reports and test output (default reports/ and test-results/widget-check),
 * so that two checks can run at once. $WIDGET_PLACEMENT (widget, remote,
 * window, a list, or all) makes one project per placement.
 */
import { dirname, relative, resolve } from 'node:path'
import { defineConfig } from '@playwright/test'
import base from '../../playwright.config.ts'
import { e2eWebServers } from '../web-servers.ts'
import type { HtmlReportOption } from '../../kit/report/check-report.ts'
import { placementProjects, type Placement } from '../../kit/placements.ts'
import { registrationArgs } from '../../kit/targets.ts'
import { kitBaseUrl } from '../../kit/origins.ts'

const baseURL = kitBaseUrl()
const port = Number(new URL(baseURL).port)
const root = new URL('../..', import.meta.url).pathname
const dir = process.env.WIDGET_CHECK_DIR?.replace(/\/?$/, '/')
const reports = dir ?? `${root}reports/`
const junit = `${reports}widget-check.junit.xml`
const html = resolve(process.env.WIDGET_HTML ?? `${reports}widget-check.html`)

export default defineConfig<{ placement: Placement; stepScreenshots: boolean } & HtmlReportOption>({
  ...base,
  testDir: `${root}kit`,
  testMatch: 'conformance.spec.ts',
  outputDir: dir ? `${dir}results` : `${root}test-results/widget-check`,
  retries: 0,
  reporter: [
    ['./readiness-reporter.ts', { outputFile: `${reports}widget-check.txt`, htmlFile: html }],
    ['junit', { outputFile: junit, includeProjectInTestName: true }],
    ['html', { open: 'never', outputFolder: `${reports}widget-check-html` }],
  ],
  // check-widget --ignore-https-errors: accept a self-signed dev certificate on the widget's origin.
  use: { ...base.use, baseURL, ignoreHTTPSErrors: process.env.WIDGET_IGNORE_HTTPS_ERRORS === '1', stepScreenshots: true, htmlReport: { file: html, link: relative(dirname(junit), html) } },
  projects: placementProjects(),
  webServer: e2eWebServers(port, root, registrationArgs()),
})
