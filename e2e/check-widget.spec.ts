/**
 * `npm run check-widget` itself, run as a user runs it (node tools/check-widget.mjs,
 * which starts its own harness server and Playwright): its verdicts, report and exit
 * codes 0 (ready), 1 (a check failed) and 2 (could not run).
 *
 * Each run uses a block of ports of its own above E2E_PORT. The widgets are the
 * demo-shaped fixture (e2e/fixtures/demo-shaped-widget) with `auto=1`: it places,
 * answers, ends and saves the dialed call by itself, so no driver is needed, and it
 * sends the vendor demos' shapes, which the host accepts with warnings.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { checkWidget, portBlock } from './support/check-widget-run.ts'
import { ORIGINS } from './origins.ts'
import { openReportOffline } from './support/offline-report.ts'

const root = resolve(import.meta.dirname, '..')
const block = portBlock
/** A fixture widget on this e2e run's test widgets origin (a test page: check-widget's own server never serves it). */
const fixture = (params: Record<string, string>, name = 'demo-shaped-widget') =>
  `${ORIGINS.testWidgets}/e2e/fixtures/${name}/?${new URLSearchParams(params).toString()}`

test.describe('check-widget', () => {
  test.describe.configure({ mode: 'parallel', timeout: 150_000 })

  test('exit 2 when it cannot run: bad arguments, a URL that is not http(s), a widget that does not answer, a port Chromium refuses', async () => {
    expect((await checkWidget(['--no-such-option'])).code).toBe(2)
    expect((await checkWidget(['ftp://example.com/'])).code).toBe(2)
    const down = await checkWidget([`http://127.0.0.1:${block(9)}/`])
    expect(down.code).toBe(2)
    expect(down.output).toContain('not reachable')
    // A port Chromium refuses (net::ERR_UNSAFE_PORT): one sentence before anything starts, for --port and for the widget's own port.
    const x11 = await checkWidget([`http://127.0.0.1:${block(9)}/`, '--port', '6000'])
    expect(x11.code, x11.output).toBe(2)
    expect(x11.output.trim()).toBe('ringside check-widget: --port 6000 puts the harness on port 6000, which Chromium refuses to load (net::ERR_UNSAFE_PORT); choose another port, e.g. --port 6001.')
    const irc = await checkWidget(['http://127.0.0.1:6667/widget/'])
    expect(irc.code, irc.output).toBe(2)
    expect(irc.output.trim()).toBe('ringside check-widget: the widget is served on port 6667, which Chromium refuses to load (net::ERR_UNSAFE_PORT); serve it on another port.')
  })

  test('a widget with no Ringside driver, worded unlike ours: the generic driver runs the full outbound journey, the totals count it, the JUnit names journey and placement and links the HTML report, which opens offline', async ({ browser }) => {
    const base = block(4)
    const run = await checkWidget([fixture({}, 'driverless-widget'), '--port', String(base)])
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain("Driver: generic (the widget's buttons by their accessible names)")
    // Progress as it goes: the journey's start, then each check with its count.
    expect(run.output).toMatch(/▶ .* › outbound journey · widget placement: running the journey…/)
    expect(run.output).toMatch(/✔ \[\d+\/16\] outbound journey · widget placement: the CRM accepts the call log/)
    expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all 8 checks passed/)
    // The generic driver cannot ring a widget: the inbound journey is skipped with the reason, and the totals count both.
    expect(run.output).toContain('cannot ring the widget: a driver that provides `ring` runs the inbound journey')
    expect(run.output).toContain('Overall: 8 passed, 0 failed, 8 skipped — INCOMPLETE')
    const junit = readFileSync(join(run.dir, 'widget-check.junit.xml'), 'utf8')
    expect(junit).toMatch(/testcase name="\[widget placement\] Conformance: [^"]* › outbound journey › the CRM accepts the call log/)
    expect(junit).toMatch(/testcase name="\[widget placement\] Conformance: [^"]* › inbound journey › /)
    // The JUnit XML links the HTML report (relative to itself), as a property and as an attachment line.
    expect(junit).toMatch(/<property name="ringside-report" value="widget-check.html"/)
    expect(junit).toContain('[[ATTACHMENT|widget-check.html]]')

    // The HTML report, from disk, with every request refused: the verdicts, the widget at each step.
    const report = await openReportOffline(browser, join(run.dir, 'widget-check.html'))
    try {
      const { page } = report
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Widget readiness check')
      const outbound = page.getByRole('region', { name: /outbound journey · widget placement$/ })
      await expect(outbound.locator('.section-head .verdict')).toHaveText('READY: all 8 checks passed')
      await expect(outbound.locator('tr.passed')).toHaveCount(8)
      await expect(outbound.locator('tr.passed').first()).toContainText("answers the host's SYNC with SYNC_ACK")
      const shots = outbound.getByRole('img', { name: /^The widget after step \d+, \w+ \(passed\)$/ })
      expect(await shots.count()).toBeGreaterThanOrEqual(8)
      expect(await shots.evaluateAll((images) => images.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)).toBe(await shots.count())
      // The ladder of the journey's traffic: lanes, the call's messages as arrows with their text alternatives.
      const ladder = outbound.locator('.ladder svg')
      await expect(ladder).toBeVisible()
      await expect(ladder.locator('text.lane-title')).toHaveText(['Widget', 'Host', 'CRM API', 'Findings'])
      // Each arrow is named by its label and described by its text alternative.
      const arrow = (name: string | RegExp, description: RegExp) => ladder.getByRole('listitem', { name, exact: true }).filter({ has: page.locator('desc', { hasText: description }) })
      await expect(arrow('OUTGOING_CALL_STARTED', /widget → host/)).toHaveCount(1)
      await expect(arrow('CALL_COMPLETED', /widget → host/)).toHaveCount(1)
      // The harness's own record: the API requests the host made, each after the message that caused it.
      await expect(arrow('POST /crm/v3/objects/calls → 201', /^Request POST \/crm\/v3\/objects\/calls → 201, host → CRM API, .*caused by #\d+ OUTGOING_CALL_STARTED$/)).toHaveCount(1)
      await expect(arrow(/^PATCH \/crm\/v3\/objects\/calls\/\d+ → 200$/, /host → CRM API, .*caused by #\d+ CALL_COMPLETED$/)).toHaveCount(1)
      await expect(page.getByRole('region', { name: /inbound journey · widget placement$/ })).toContainText('The journey did not run: the driver (generic')
      expect(report.attempted()).toEqual([])
      expect(await report.ran()).toEqual([])
    } finally {
      await report.context.close()
    }
  })

  test('bad input gets one clear sentence and its exit code 2: a page that answers 404, a bad --placement', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('not here')
    })
    await new Promise<void>((ready) => server.listen(block(5), '127.0.0.1', ready))
    try {
      const missing = await checkWidget([`http://127.0.0.1:${block(5)}/widget/`, '--port', String(block(6))])
      expect(missing.code, missing.output).toBe(2)
      expect(missing.output).toContain(`check-widget: the widget answered 404 Not Found at http://127.0.0.1:${block(5)}/widget/: check the URL`)
    } finally {
      server.close()
    }
    const placement = await checkWidget(['http://127.0.0.1:1/', '--placement', 'sidebar'])
    expect(placement.code).toBe(2)
    expect(placement.output).toContain('"sidebar" is not a placement; use widget, remote, window or all')
  })

  test('a widget that never answers SYNC: one sentence says so (exit 1), within the sync timeout and the checks; the HTML report explains it', async ({ browser }) => {
    const base = block(7)
    const silent = await checkWidget([fixture({}, 'silent-widget'), '--port', String(base), '--sync-timeout', '1500'])
    expect(silent.code, silent.output).toBe(1)
    expect(silent.output).toMatch(/Why: .* › outbound journey · widget placement: The host gave up after 1500 ms \(.*\); the widget never sent SYNC_ACK/)
    // The failed handshake fails its check once; the checks it kept from running say so, and the widget sent nothing to judge.
    expect(silent.output).toContain('○ sends INITIALIZED after the handshake — skipped: not run: handshake failed')
    // The progress lines give a reason once per journey, then "the same reason".
    expect(silent.output).toMatch(/○ \[\d+\/16\] outbound journey · widget placement: sends INITIALIZED after the handshake — skipped: not run: handshake failed\n.*sends nothing before SYNC_ACK — skipped: the same reason\n/)
    expect(silent.output).toMatch(/✖ the host acts on every message the widget sent .*\n\s+the widget sent nothing/)
    expect(silent.output).toContain('Verdict: NOT READY: 2 of 8 checks failed, 0 passed, 6 skipped')
    // The HTML report explains the failure: which check, why, at which step.
    const report = await openReportOffline(browser, join(silent.dir, 'widget-check.html'))
    try {
      const outbound = report.page.getByRole('region', { name: /outbound journey · widget placement$/ })
      await expect(outbound.locator('.section-head .verdict')).toContainText('NOT READY')
      await expect(outbound.locator('.why')).toContainText(/Why: the check "answers the host's SYNC with SYNC_ACK within the sync timeout \(1500 ms\)" failed: .*the widget never sent SYNC_ACK — the journey failed at step 1 \(handshake\)/)
      await expect(outbound.locator('figure.failed figcaption')).toContainText('1. handshake failed')
      expect(report.attempted()).toEqual([])
    } finally {
      await report.context.close()
    }
  })

  test('a widget with only warnings passes (exit 0) and lists them; with --strict it fails (exit 1)', async () => {
    // Two runs side by side, each with its own harness server: the nested runs wait more than they compute.
    const run = (base: number, ...options: string[]) => checkWidget([fixture({ shape: 'react', auto: '1' }), '--port', String(base), '--driver', 'none', ...options])
    const [lenient, strict] = await Promise.all([run(block(0)), run(block(8), '--strict')])
    expect(lenient.code, lenient.output).toBe(0)
    expect(lenient.output).toMatch(/Verdict: READY: all \d+ checks passed; \d+ warnings \(they fail only with --strict\)/)
    expect(lenient.output).toContain('⚠ warning: CALL_ENDED: no engagementId')
    expect(lenient.output).toContain('⚠ warning: CALL_COMPLETED: hs_call_recording_url is null')
    expect(lenient.output).toMatch(/✔ the CRM accepts the call log .* final status and duration/)
    expect(strict.code, strict.output).toBe(1)
    expect(strict.output).toContain('warning (--strict): CALL_ENDED: no engagementId')
    expect(strict.output).toMatch(/Verdict: NOT READY: 1 of \d+ checks failed/)
  })

  test("a widget on a published SDK release older than the types (0.5.1: no externalCallId, callAnswered() bare), worked through its own buttons by the generic driver: READY, its older shapes listed as warnings", async () => {
    // The SDK matrix's widget (e2e/sdk-matrix.spec.ts runs it on every release in the harness; this is the release
    // check-widget runs: the oldest with inbound calling, with every older shape but 0.0.6's).
    const run = await checkWidget([fixture({ sdk: '0.5.1' }, 'sdk-matrix-widget'), '--port', String(block(16))], 140_000)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain("Driver: generic (the widget's buttons by their accessible names)")
    expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all 8 checks passed; \d+ warnings/)
    expect(run.output).toContain('⚠ warning: OUTGOING_CALL_STARTED: no externalCallId, the shape of SDK 0.6 and older')
    expect(run.output).toContain('⚠ warning: CALL_ANSWERED: no data, as callAnswered() sends up to SDK 0.5.x')
    expect(run.output).not.toContain('Call event without a started call')
  })

  test('a widget that throws at startup: the report shows its own error (exit 1)', async () => {
    const base = block(1)
    const run = await checkWidget([fixture({ throwAtStartup: '1' }), '--port', String(base), '--driver', 'none', '--sync-timeout', '1500'])
    expect(run.code, run.output).toBe(1)
    expect(run.output).toMatch(/the widget never sent SYNC_ACK; the widget threw: .*Widget startup failed: the softphone configuration could not be loaded/)
    expect(run.output).toContain("The widget's own errors")
    expect(run.output).toContain('console.error: demo-shaped widget: missing configuration')
  })

  // One widget, two facets of one run: an https dev server with a self-signed certificate, and the SDK loaded from jsDelivr by a script tag.
  test('an https widget with a self-signed certificate that loads the SDK from jsDelivr by a script tag: refused with the reason, then checked offline with --ignore-https-errors (exit 0)', async () => {
    // A throwaway self-signed certificate for 127.0.0.1, made for this test only.
    const dir = mkdtempSync(join(tmpdir(), 'ringside-tls-'))
    const key = join(dir, 'key.pem')
    const cert = join(dir, 'cert.pem')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
    const base = block(2)
    const httpsPort = block(3)
    let server: ChildProcess | undefined
    try {
      server = spawn(process.execPath, ['tools/test/serve-dist.mjs', '--root', 'dist-test', String(httpsPort)], { cwd: root, env: { ...process.env, SERVE_DIST_TLS_KEY: key, SERVE_DIST_TLS_CERT: cert }, stdio: ['ignore', 'pipe', 'inherit'] })
      await new Promise<void>((ready) => server!.stdout!.once('data', () => ready()))
      const url = `https://127.0.0.1:${httpsPort}/e2e/fixtures/cdn-script-widget/?auto=1`
      const refused = await checkWidget([url, '--port', String(base), '--driver', 'none'])
      expect(refused.code, refused.output).toBe(2)
      expect(refused.output).toMatch(/https certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/)
      expect(refused.output).toContain('--ignore-https-errors')
      const accepted = await checkWidget([url, '--port', String(base), '--driver', 'none', '--ignore-https-errors'])
      expect(accepted.code, accepted.output).toBe(0)
      expect(accepted.output).toMatch(/Verdict: READY: all \d+ checks passed/)
    } finally {
      server?.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a widget that loads an SDK version Ringside does not serve from jsDelivr: the version is named in one sentence (exit 1)', async () => {
    // A known version from jsDelivr is checked offline: the https widget above.
    const unknown = await checkWidget([`${ORIGINS.testWidgets}/e2e/fixtures/cdn-unknown-sdk-widget/`, '--port', String(block(10)), '--driver', 'none', '--sync-timeout', '1500'])
    expect(unknown.code, unknown.output).toBe(1)
    expect(unknown.output).toContain(
      'The widget loads the calling SDK from https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@9.9.9/dist/main.js, but Ringside serves @hubspot/calling-extensions-sdk 0.9.0,',
    )
  })

  test('--placement window covers both frames: a widget whose remote drives the call through the calling window over its own BroadcastChannel is READY', async () => {
    // The relay fixture's remote (iframeLocation remote) places, answers, ends and saves the dialed call through its
    // partner in the calling window, which alone speaks to the CRM: no call is logged unless both frames run.
    const run = await checkWidget([fixture({ auto: '1' }, 'relay-widget'), '--placement', 'window', '--port', String(block(17))])
    expect(run.code, run.output).toBe(0)
    expect(run.output).toMatch(/✔ \[\d+\/\d+\] outbound journey · window placement: the CRM accepts the call log/)
    expect(run.output).toMatch(/outbound journey · window placement\n[\s\S]*?Verdict: READY/)
  })
})
