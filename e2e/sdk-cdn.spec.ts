/**
 * The calling SDK at its versioned URL: a widget written against the CDN
 * build (a plain <script> tag, the global `CallingExtensionsSdk`) loads
 * /sdk/<version>/calling-extensions.umd.js from the Ringside server and
 * completes a call in the harness. The widget page itself is handed to the
 * browser on the widget origin by the test; the SDK is fetched from the
 * server for real.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from './kit/fixtures.ts'
import { ORIGINS } from './origins.ts'

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
const widgetUrl = `${ORIGINS.widget}/cdn-widget/`

const WIDGET_PAGE = `<!doctype html>
<meta charset="utf-8"><title>CDN widget</title>
<script src="/sdk/${version}/calling-extensions.umd.js"></script>
<p id="status">loading</p>
<script>
  const status = (text) => (document.getElementById('status').textContent = text)
  let call = null
  const sdk = new CallingExtensionsSdk.default({
    eventHandlers: {
      onReady: () => { sdk.initialized({ isLoggedIn: true, isAvailable: true }); status('ready') },
      onDialNumber: (data) => {
        call = { externalCallId: 'cdn-' + Date.now(), toNumber: data.phoneNumber }
        sdk.outgoingCall({ toNumber: data.phoneNumber, fromNumber: '+15550100', createEngagement: true, externalCallId: call.externalCallId, callStartTime: Date.now() })
        status('ringing')
      },
      onCreateEngagementSucceeded: (data) => {
        call.engagementId = data.engagementId
        sdk.callAnswered({ externalCallId: call.externalCallId })
        setTimeout(() => {
          sdk.callEnded({ externalCallId: call.externalCallId, engagementId: call.engagementId, callEndStatus: CallingExtensionsSdk.callEndStatus.COMPLETED })
          sdk.callCompleted({ externalCallId: call.externalCallId, engagementId: call.engagementId, hideWidget: false, engagementProperties: { hs_call_body: 'Logged through the CDN build' } })
          status('completed ' + call.externalCallId)
        }, 200)
      },
    },
  })
</script>`

test.use({ widgetUrl })

test('a widget loading the SDK from /sdk/<version>/ with a plain script tag completes a call', async ({ page, harness, messages }) => {
  await page.route(`${widgetUrl}**`, (route) => route.fulfill({ contentType: 'text/html', body: WIDGET_PAGE }))
  await harness.open({ route: '/contacts/1', waitFor: 'handshake' })
  await harness.pressCall('+1 617 555 0101')
  await messages.waitForSequence(['DIAL_NUMBER', 'OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED'])
  const frame = await harness.widgetFrame()
  await expect(frame.locator('#status')).toContainText('completed cdn-')
  const externalCallId = (await frame.locator('#status').textContent())!.replace('completed ', '')
  await expect.poll(async () => (await harness.engagements({ externalCallId })).length).toBe(1)
})

test('the SDK URL: the package version and latest are served, other versions are not', async ({ request }) => {
  for (const path of [`/sdk/${version}/calling-extensions.js`, '/sdk/latest/calling-extensions.js', `/sdk/${version}/calling-extensions.umd.js`]) {
    const response = await request.get(`${ORIGINS.harness}${path}`)
    expect(response.status(), path).toBe(200)
    expect(response.headers()['content-type']).toContain('javascript')
  }
  const esm = await (await request.get(`${ORIGINS.harness}/sdk/${version}/calling-extensions.js`)).text()
  expect(esm).toMatch(/export\s*\{/)
  const other = await request.get(`${ORIGINS.harness}/sdk/0.0.1/calling-extensions.js`)
  expect(other.status()).toBe(404)
  expect(await other.text()).toContain(`/sdk/${version}/`)
})
