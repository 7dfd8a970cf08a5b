/**
 * A widget that pins a prerelease of @hubspot/calling-extensions-sdk from a CDN, as
 * HubSpot's CDN-load demo pins `…@0.9.3-alpha.0/dist/main.js`: Ringside answers it with
 * the release of the same x.y.z when it holds that release, and says so (the server's
 * header, the widget's console, the harness's inspector through the build's SYNC_ACK); a
 * prerelease of a release it does not hold keeps the clear refusal. Both ways: the server's
 * /sdk/npm/ path (server mode) and the kit's routed CDN URLs (offline).
 */
import { createServer } from 'node:http'
import { expect, test } from '../kit/fixtures.ts'
import { ORIGINS } from './origins.ts'
import { checkWidget, portBlock } from './support/check-widget-run.ts'
import { blockInternet } from './support/offline.ts'

const SDK = '@hubspot/calling-extensions-sdk'
const SENTENCE = `The widget pins ${SDK}@0.9.3-alpha.0, a prerelease Ringside does not hold: Ringside serves the release 0.9.3 in its place.`
const REFUSAL = /^Ringside serves @hubspot\/calling-extensions-sdk .*0\.9\.7.*, not "0\.9\.99-alpha\.0"\.$/

/** A widget page that loads the SDK from `src` by a plain script tag and handshakes (0.9.3 on defines window.default). */
const widgetPage = (src: string) => `<!doctype html>
<meta charset="utf-8"><title>Prerelease-pinning widget</title>
<script src="${src}"></script>
<p id="status">loading</p>
<script>
  const cti = new window.default({ eventHandlers: { onReady: () => { cti.initialized({ isLoggedIn: true, isAvailable: true }); document.getElementById('status').textContent = 'ready' } } })
</script>`

test('server mode: /sdk/npm/ answers a prerelease pin with the release, naming the substitution; an unheld one is refused', async ({ request }) => {
  const pinned = await request.get(`${ORIGINS.harness}/sdk/npm/${SDK}@0.9.3-alpha.0/dist/main.js`)
  expect(pinned.status()).toBe(200)
  expect(pinned.headers()['x-ringside-sdk-substitution']).toBe(SENTENCE)
  expect(pinned.headers()['cache-control']).toBe('no-cache')
  const body = await pinned.text()
  expect(body).toContain('"0.9.3-alpha.0"')
  expect(body).not.toContain('__RINGSIDE_SDK_')
  const release = await request.get(`${ORIGINS.harness}/sdk/npm/${SDK}@0.9.3/dist/main.js`)
  expect(release.headers()['x-ringside-sdk-substitution']).toBeUndefined()
  const unheld = await request.get(`${ORIGINS.harness}/sdk/npm/${SDK}@0.9.99-alpha.0/dist/main.js`)
  expect(unheld.status()).toBe(404)
  expect((await unheld.text()).trim()).toMatch(REFUSAL)
})

test('server mode: a widget page loading the pinned path from the widget origin handshakes, and the inspector warns with the substitution', async ({ page, harness }) => {
  const widgetUrl = `${ORIGINS.widget}/prerelease-server-widget/`
  await page.context().route(`${widgetUrl}**`, (route) => route.fulfill({ contentType: 'text/html', body: widgetPage(`/sdk/npm/${SDK}@0.9.3-alpha.0/dist/main.js`) }))
  await harness.open({ widgetUrl, route: '/contacts/1', waitFor: 'handshake' })
  await expect(harness.widget.locator('#status')).toHaveText('ready')
  await expect.poll(() => harness.inspector.findings()).toContain('warning: SDK release substituted for a prerelease: 1')
  await expect(harness.inspector.region.getByText(SENTENCE).first()).toBeVisible()
})

test('the kit’s routed CDN: jsDelivr @0.9.3-alpha.0 gets 0.9.3 offline with the warning; @0.9.99-alpha.0 is refused with the sentence', async ({ page, harness, sdkCdn }) => {
  await blockInternet(page.context())
  const served: Array<string | undefined> = []
  const widgetUrl = `${ORIGINS.widget}/prerelease-cdn-widget/`
  await page.context().route(`${widgetUrl}**`, (route) => route.fulfill({ contentType: 'text/html', body: widgetPage(`https://cdn.jsdelivr.net/npm/${SDK}@0.9.3-alpha.0/dist/main.js`) }))
  page.on('console', (message) => {
    if (message.type() === 'warning' && message.text().includes('prerelease')) served.push(message.text())
  })
  await harness.open({ widgetUrl, route: '/contacts/1', waitFor: 'handshake' })
  await expect(harness.widget.locator('#status')).toHaveText('ready')
  expect(sdkCdn!.served()).toBe(1)
  expect(sdkCdn!.problems()).toEqual([])
  await expect.poll(() => harness.inspector.findings()).toContain('warning: SDK release substituted for a prerelease: 1')
  expect(served).toEqual([`[ringside] ${SDK}@0.9.3-alpha.0 is a prerelease Ringside does not hold: this is its release 0.9.3.`])

  const unheldUrl = `${ORIGINS.widget}/prerelease-unheld-widget/`
  await page.context().route(`${unheldUrl}**`, (route) => route.fulfill({ contentType: 'text/html', body: widgetPage(`https://cdn.jsdelivr.net/npm/${SDK}@0.9.99-alpha.0/dist/main.js`) }))
  await harness.open({ widgetUrl: unheldUrl, route: '/contacts/1', waitFor: 'shell' })
  await expect.poll(() => sdkCdn!.problems()).toEqual([expect.stringMatching(/^The widget loads the calling SDK from https:\/\/cdn\.jsdelivr\.net\/npm\/@hubspot\/calling-extensions-sdk@0\.9\.99-alpha\.0\/dist\/main\.js, but Ringside serves .*, not "0\.9\.99-alpha\.0"\.$/)])
})

test('check-widget: a widget pinning …@0.9.3-alpha.0 from jsDelivr is READY, with a warning naming the substitution', async () => {
  test.setTimeout(150_000)
  // The jsDelivr fixture (e2e/fixtures/cdn-script-widget), its pin changed to the prerelease HubSpot's CDN-load demo uses.
  const fixture = await (await fetch(`${ORIGINS.testWidgets}/e2e/fixtures/cdn-script-widget/`)).text()
  const html = fixture.replace(`${SDK}@0.9.7/dist/main.js`, `${SDK}@0.9.3-alpha.0/dist/main.js`)
  expect(html).toContain('@0.9.3-alpha.0/dist/main.js')
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html))
  const port = portBlock(28)
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening))
  try {
    const run = await checkWidget([`http://127.0.0.1:${port}/?auto=1`, '--port', String(portBlock(29)), '--driver', 'none'])
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain(`⚠ warning: ${SENTENCE}`)
    expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all \d+ checks passed; \d+ warnings? \(they fail only with --strict\)/)
  } finally {
    server.close()
  }
})
