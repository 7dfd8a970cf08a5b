/**
 * The Playwright config of `ringside check-widget` (and a base for users'
 * own suites): the conformance suite against $WIDGET_URL, in the harness
 * served by `ringside start` from this package on $KIT_PORT (the widget
 * origin on the next port). Reports go to $WIDGET_CHECK_DIR. One project per
 * placement of $WIDGET_PLACEMENT (widget, remote, window; default widget). The
 * server registers $WIDGET_URL under $WIDGET_NAME, so the dock shows the
 * widget's own name. Besides the readiness report and the JUnit XML
 * ($WIDGET_JUNIT), it writes the self-contained HTML report ($WIDGET_HTML,
 * default index.html there; the JUnit XML links it) and Playwright's own
 * report (playwright-report/, with each test's ladder and trace).
 */
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { chromium, defineConfig } from '@playwright/test'
import { findChromium } from './browser/chromium.ts'
import { BROWSER_ARGS } from './browser/browser-args.ts'
import type { HtmlReportOption } from './report/check-report.ts'
import { placementProjects, type Placement } from './placements.ts'
import { checkWorkers, registrationArgs } from './targets.ts'
import { kitBaseUrl } from './origins.ts'
import { waitMs } from '../shared/waits.ts'

const here = import.meta.dirname
const baseURL = kitBaseUrl()
const port = Number(new URL(baseURL).port)
const dir = resolve(process.env.WIDGET_CHECK_DIR ?? 'ringside-report')
const junit = resolve(process.env.WIDGET_JUNIT ?? join(dir, 'widget-check.junit.xml'))
const html = resolve(process.env.WIDGET_HTML ?? join(dir, 'index.html'))

export default defineConfig<{ placement: Placement; stepScreenshots: boolean } & HtmlReportOption>({
  testDir: here,
  testMatch: 'conformance.spec.js',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // Journeys (each a describe that runs its checks in order in one worker) run side by side, two at a time.
  workers: checkWorkers(baseURL),
  fullyParallel: true,
  retries: 0,
  outputDir: join(dir, 'results'),
  reporter: [
    [join(here, 'readiness-reporter.js'), { outputFile: join(dir, 'widget-check.txt'), htmlFile: html }],
    ['junit', { outputFile: junit, includeProjectInTestName: true }],
    ['html', { open: 'never', outputFolder: join(dir, 'playwright-report') }],
  ],
  projects: placementProjects(),
  use: {
    baseURL,
    stepScreenshots: true,
    htmlReport: { file: html, link: relative(dirname(junit), html) },
    browserName: 'chromium',
    headless: true,
    ignoreHTTPSErrors: process.env.WIDGET_IGNORE_HTTPS_ERRORS === '1',
    launchOptions: { executablePath: findChromium(process.env, () => chromium.executablePath()) ?? undefined, args: BROWSER_ARGS },
  },
  webServer: {
    command: `node ${JSON.stringify(resolve(here, '..', 'bin', 'ringside.mjs'))} start --sandboxes --fresh --port ${port} --data ${JSON.stringify(join(tmpdir(), `ringside-check-${port}`))}${registrationArgs()}`,
    url: `${baseURL}/_ringside/v1/server`,
    // Ready as soon as it says so (the banner's last line comes once both ports listen), not at Playwright's next
    // poll of the URL, up to a second later; a Playwright without `wait` polls the URL.
    wait: { stdout: /Stop with Ctrl\+C\./ },
    reuseExistingServer: false,
    // Stopped with SIGTERM, so the server releases the lock of its data folder (and Playwright waits until it has):
    // killed outright, it left the lock behind, and a later run on this port whose recycled pid the lock named was
    // refused ("in use by another Ringside server").
    gracefulShutdown: { signal: 'SIGTERM', timeout: 3_000 },
    // Playwright's sentence: "Timed out waiting 30000ms from config.webServer."
    timeout: waitMs('harness-server', process.env),
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
