// Where our SDK's round-trip time goes: micro-timings of the pieces of one
// round trip, measured in-page on the "ours" pages (sdk-host ↔ sdk-widget)
// through the fixtures' __profile(n) functions (mean µs per call over n calls).
const CALLS = 2_000

const us = (x) => `${x.toFixed(2)} µs`

function widgetFrame(page, origins) {
  const frame = page.frames().find((f) => f.url().startsWith(`${origins.widget}/`))
  if (!frame) throw new Error('no widget frame for the profile')
  return frame
}

export async function profileOurSdk(page, variant, origins) {
  await page.goto(variant.url, { waitUntil: 'load' })
  await page.waitForFunction(() => window.__readyAt != null)
  const frame = widgetFrame(page, origins)
  await frame.waitForFunction(() => window.__readyAt != null)
  const host = await page.evaluate((n) => window.__profile(n), CALLS)
  const widget = await frame.evaluate((n) => window.__profile(n), CALLS)
  const row = (label, value) => [`  ${label}`, us(value), '', '', '']
  return [
    ['where ours spends it (mean per call):', '', '', '', ''],
    row('host: validateMessage(OUTGOING_CALL_STARTED)', host.validateUs),
    row('host: dialNumber() send path', host.sendUs),
    row('host: bare postMessage of the same DIAL_NUMBER', host.rawPostUs),
    row('widget: validateMessage(DIAL_NUMBER)', widget.validateUs),
    row('widget: outgoingCall() send path', widget.sendUs),
    row('widget: bare postMessage of the same reply', widget.rawPostUs),
    row('console.debug call (Playwright attached)', widget.consoleDebugUs),
  ]
}
