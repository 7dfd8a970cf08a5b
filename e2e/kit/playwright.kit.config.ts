/**
 * Playwright config of the widget check (`npm run check-widget -- <url>`):
 * only the conformance suite, against $WIDGET_URL, with the same browser
 * settings as playwright.config.ts, the readiness report on stdout and
 * JUnit XML in reports/widget-check.junit.xml. The harness is served by the
 * Ringside server from the production build (e2e/web-servers.ts); the widget under test is
 * loaded from wherever $WIDGET_URL points (it must be reachable from this
 * machine, e.g. your dev server on localhost).
 *
 * $KIT_PORT moves the harness (and its widget/hostile origins, +1/+2) to
 * other ports, e.g. when 4173–4175 are taken.
 */
import { defineConfig } from '@playwright/test'
import base from '../../playwright.config.ts'
import { e2eWebServers } from '../web-servers.ts'

const port = Number(process.env.KIT_PORT ?? 4173)
const baseURL = `http://127.0.0.1:${port}`
const root = new URL('../..', import.meta.url).pathname

export default defineConfig({
  ...base,
  testDir: `${root}e2e`,
  testMatch: 'conformance.spec.ts',
  outputDir: `${root}test-results/widget-check`,
  retries: 0,
  reporter: [
    ['./readiness-reporter.ts', { outputFile: `${root}reports/widget-check.txt` }],
    ['junit', { outputFile: `${root}reports/widget-check.junit.xml` }],
    ['html', { open: 'never', outputFolder: `${root}reports/widget-check-html` }],
  ],
  use: { ...base.use, baseURL },
  webServer: e2eWebServers(port, root),
})
