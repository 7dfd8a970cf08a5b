/**
 * The remote beside the calling window: with `usesCallingWindow` the real CRM loads the widget in the calling
 * window and in the remote of the CRM page, each with its own SYNC, and the SDK's demos relay between the two over
 * a BroadcastChannel of their own. The relay fixture (e2e/fixtures/relay-widget) speaks to the CRM from the window
 * only; its remote works through the window, so a call placed from the remote's buttons is logged only when both
 * frames run side by side.
 */
import { expect, test, type FrameLocator } from '@playwright/test'
import { Harness } from '../kit/harness.ts'
import { fixtureUrl, kitOrigins } from '../kit/origins.ts'
import { parseTrafficFile, type TrafficFile } from '../shared/traffic/traffic-file.ts'

const RECORD = { type: 'contacts', id: '1', phone: '+1 617 555 0101' }
const WIDGET_IFRAME = '#hubspot-calling-extension-iframe'

const status = (frame: FrameLocator) => frame.getByRole('status', { name: 'Widget status' })

async function trafficOf(page: import('@playwright/test').Page): Promise<TrafficFile> {
  const text = await page.evaluate(() => (window as unknown as { __ringsideTraffic: () => string }).__ringsideTraffic())
  const parsed = parseTrafficFile(text)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.file
}

test('the window placement loads the widget in the calling window and in the remote; a call placed from the remote over its BroadcastChannel is logged', async ({ page, baseURL }) => {
  test.slow()
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'relay-widget'), route: `/${RECORD.type}/${RECORD.id}`, placement: 'window' })
  const callingWindow = await harness.widgetPage()
  // The real CRM's path, as a route of the harness page.
  await callingWindow.waitForURL((url) => url.hash === '#/calling-integration-popup-ui/123456')

  const remote = page.frameLocator(WIDGET_IFRAME)
  const inWindow = callingWindow.frameLocator(WIDGET_IFRAME)
  await expect(status(remote)).toHaveText('remote · idle')
  await expect(status(inWindow)).toHaveText('window · idle')
  // Each found its partner over the widget's own BroadcastChannel.
  await expect(remote.getByLabel('Partner')).toHaveText('Partner: window')
  await expect(inWindow.getByLabel('Partner')).toHaveText('Partner: remote')
  await expect(page.getByRole('region', { name: /^Remote — / })).toBeVisible()
  await expect(harness.statusBadge).toContainText('Widget ready in the calling window')

  // The record page's Call dials in the window; the window tells the remote, whose buttons drive the call.
  await harness.pressCall(RECORD.phone)
  await expect(remote.getByLabel('Dialed number')).toHaveText('+1 617 555 0101')
  await remote.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(status(remote)).toContainText(/ringing · call relay-\w+ · engagement \d+/)
  await remote.getByRole('button', { name: 'Answer' }).click()
  await expect(status(remote)).toContainText('answered')
  await remote.getByRole('button', { name: 'Hang up' }).click()
  await expect(status(remote)).toContainText('ended')
  await remote.getByRole('button', { name: 'Save call' }).click()
  await expect(status(remote)).toContainText('saved')
  const externalCallId = /call (relay-\w+)/.exec((await status(remote).textContent()) ?? '')![1]!

  const [call] = await harness.engagements({ externalCallId })
  expect(call?.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'Relayed from the remote frame', })

  // Both frames' traffic, each told apart: the record page's host talks to the remote, the window's to the window.
  const remoteTraffic = await trafficOf(page)
  const windowTraffic = await trafficOf(callingWindow)
  expect(remoteTraffic.messages.every((m) => m.frame === 'remote')).toBe(true)
  expect(windowTraffic.messages.every((m) => m.frame === 'window')).toBe(true)
  expect(remoteTraffic.messages.find((m) => m.type === 'SYNC')?.message).toMatchObject({ iframeLocation: 'remote', usesCallingWindow: true })
  expect(windowTraffic.messages.find((m) => m.type === 'SYNC')?.message).toMatchObject({ iframeLocation: 'window', usesCallingWindow: true })
  // As the demos: the remote answered its handshake and said nothing more to the CRM; the window placed the call.
  expect(remoteTraffic.messages.filter((m) => m.direction === 'in').map((m) => m.type)).toEqual(['SYNC_ACK'])
  expect(windowTraffic.messages.filter((m) => m.direction === 'in').map((m) => m.type)).toEqual(
    expect.arrayContaining(['SYNC_ACK', 'INITIALIZED', 'OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED']),
  )
  await harness.inspector.open()
  await expect(harness.inspector.entries('SYNC_ACK')).toHaveAccessibleName(/, remote frame$/)
})

test('the calling window opens once and the record page says it is opening meanwhile; the old #/calling-window route still opens it', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  // The window's page is held until the record page was seen saying "opening".
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let windowLoads = 0
  await page.context().route(/#?\/?calling-integration-popup-ui|placement=window/, async (route) => {
    if (route.request().isNavigationRequest() && route.request().frame().page() !== page) {
      windowLoads += 1
      await held
    }
    await route.continue()
  })
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'relay-widget'), route: `/${RECORD.type}/${RECORD.id}`, placement: 'window' })
  const card = page.getByRole('region', { name: 'Calling window' })
  await expect(card).toContainText('Opening the calling window…')
  await expect(harness.statusBadge).toContainText('Calling window opening')
  release()
  const callingWindow = await harness.widgetPage()
  await expect(harness.statusBadge).toContainText('Widget ready in the calling window')
  await expect(status(callingWindow.frameLocator(WIDGET_IFRAME))).toHaveText('window · idle')
  expect(windowLoads, 'the calling window loaded its page once').toBe(1)

  const old = await page.context().newPage()
  await old.goto(`/?widget=${encodeURIComponent(fixtureUrl(kitOrigins(baseURL), 'relay-widget'))}&placement=window#/calling-window`)
  await expect(old.getByRole('heading', { name: /^Call window — / })).toBeVisible()
  await old.close()
})
