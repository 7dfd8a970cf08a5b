import { defineConfig } from '@playwright/test'
import { chromiumPath, e2eWorkers, ORIGINS, PORTS } from './e2e/origins.ts'
import { BROWSER_ARGS } from './kit/browser/browser-args.ts'
import { e2eWebServers } from './e2e/web-servers.ts'

/**
 * End-to-end tests run against the production build on ports of 127.0.0.1:
 * the harness and the widget (a second origin, as in a real CRM) from the
 * Ringside server (`npm start` with --dist), and the test pages (hostile
 * frames, fixture hosts and widgets) on origins of their own from
 * tools/test/serve-dist.mjs (see e2e/origins.ts, e2e/web-servers.ts).
 * Playwright cannot download browsers here, so we always point it at a
 * system Chromium (see tools/test/ensure-chromium.sh).
 */
export default defineConfig({
  // This repository's specs (e2e/), and the kit's conformance journeys (kit/conformance.spec.ts), which the
  // package ships for check-widget and which run here against the reference widget.
  testDir: '.',
  testMatch: ['e2e/**/*.spec.ts', 'kit/**/*.spec.ts'],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Three workers on two cores, unless E2E_WORKERS says otherwise: the suite waits more than it computes
  // (measured on a quiet 2-core machine, the same checkout back to back: 2 workers 3.8 min, 3 workers 3.1 min,
  // 4 workers 3.4 min). E2E_WORKERS=2 for a machine that is busy with other work.
  workers: e2eWorkers(process.env.E2E_WORKERS),
  // JSON report lives outside test-results/, which Playwright wipes at start.
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: ORIGINS.harness,
    browserName: 'chromium',
    headless: true,
    // Kept for a failed test: its actions (the failing one with its error and call log), the console and
    // uncaught errors of every page, and the network, without DOM snapshots or the screencast. Both are
    // recorded for every test and thrown away when it passes: the snapshots serialize the DOM of every frame
    // at each action, the screencast is a JPEG stream of every page; measured back to back, each cost about
    // a tenth of the CPU of the e2e run. The failure's own screenshot is taken below.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: BROWSER_ARGS,
    },
  },
  webServer: [
    ...e2eWebServers(PORTS.harness),
    {
      // Browser-only mode: the build as plain static files, no API behind it (e2e/browser-only/), with its
      // headers file (the harness on its port frames the widget on the next). The test pages that share the harness's SharedWorker and IndexedDB (browser-crm) need its
      // origin: this test server serves them there too, after the build's own files.
      command: `node tools/test/serve-dist.mjs --root dist --root dist-test --frame-ancestor ${ORIGINS.staticHarness} ${PORTS.staticHarness} ${PORTS.staticWidget}`,
      url: `${ORIGINS.staticHarness}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
