/**
 * Calling journeys through the harness: our reference widget (or the SDK
 * fixture widget) loaded from the widget origin, driven by its URL
 * parameters, with the harness's record pages, dock, inspector, faults and
 * composer. Origins are derived from baseURL (widget = harness port + 1).
 */
import { expect, test, type Frame, type FrameLocator, type Page } from '@playwright/test'
import { openTool } from '../kit/harness.ts'
import { REFERENCE_WIDGET_SHOWS as SHOWS } from '../kit/drivers/ringside.ts'
import { pressSteadily } from '../kit/press.ts'
import { fixtureUrl, kitOrigins } from '../kit/origins.ts'
import { ORIGINS } from './origins.ts'

const OVERRIDE_KEY = 'LocalSettings:Calling:CallingExtensions'

function widgetOrigin(baseURL: string | undefined): string {
  const harness = new URL(baseURL ?? ORIGINS.harness)
  return `${harness.protocol}//${harness.hostname}:${Number(harness.port) + 1}`
}

function ourWidget(baseURL: string | undefined, params: Record<string, string>): string {
  return `${widgetOrigin(baseURL)}/widget/?${new URLSearchParams(params).toString()}`
}

function fixtureWidget(baseURL: string | undefined): string {
  return fixtureUrl(kitOrigins(baseURL), 'sdk-widget')
}

/** Opens the harness at a hash route, with query parameters before the hash. */
async function openHarness(page: Page, route: string, query: Record<string, string> = {}): Promise<void> {
  const search = new URLSearchParams(query).toString()
  await page.goto(`/${search ? `?${search}` : ''}#${route}`)
}

const widgetFrame = (page: Page): FrameLocator => page.frameLocator('#hubspot-calling-extension-iframe')
const statusBadge = (page: Page) => page.getByRole('group', { name: 'Calling status' })


const inspector = (page: Page) => page.getByRole('region', { name: 'Message inspector' })
const messages = (page: Page) => inspector(page).getByRole('list', { name: 'Messages' })
/** Inspector entries are labelled "<TYPE>, <direction>, #<seq>". */
const entries = (page: Page, type: string) => messages(page).getByRole('listitem', { name: new RegExp(`^${type}, `) })

/** GET through the emulated API from the harness page (MSW answers it). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const response = await fetch(p, { headers: { authorization: 'Bearer pat-local' } })
    if (!response.ok) throw new Error(`GET ${p}: ${response.status}`)
    return (await response.json()) as unknown
  }, path) as Promise<T>
}

interface CallObject {
  id: string
  properties: Record<string, string | null>
  associations?: Record<string, { results: Array<{ id: string }> }>
}

const CALL_PROPS = 'hs_call_status,hs_call_direction,hs_call_body,hs_call_title,hs_call_external_id,hs_call_to_number,hs_call_from_number'
const assocIds = (call: CallObject, type: string) => [...new Set((call.associations?.[type]?.results ?? []).map((r) => r.id))].sort()

async function engagementIdShownByWidget(frame: FrameLocator): Promise<number> {
  const line = frame.getByText(/Logged in the CRM \(engagement \d+\)/).first()
  await expect(line).toBeVisible()
  const match = /engagement (\d+)/.exec((await line.textContent()) ?? '')
  return Number(match?.[1])
}

test('one press of the CRM\'s Call places the call; it is logged on the contact with its notes and the title the CRM gave it, and the widget stays shown', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts/1', { widget: ourWidget(baseURL, { outcome: 'answer', answerAfterMs: '300', autoLogin: '1' }) })
  await expect(statusBadge(page)).toContainText('Widget ready')
  await expect(statusBadge(page)).toContainText('Logged in')

  // Call from the record page: DIAL_NUMBER places the call in the widget, with no second press.
  const widget = widgetFrame(page)
  await page.getByRole('button', { name: 'Call +1 617 555 0101' }).click()
  await expect(SHOWS.callPlaced(widget)).toBeVisible()

  const engagementId = await engagementIdShownByWidget(widget)
  await expect(widget.getByRole('region', { name: 'Call in progress' })).toBeVisible()
  await pressSteadily(widget.getByRole('button', { name: 'Hang up' }), { until: SHOWS.wrapUp(widget) })
  await widget.getByLabel('Notes').fill('Discussed the Northwind renewal')
  await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })

  // The engagement is on the contact's timeline, with the notes.
  await expect(page.getByRole('main')).toContainText('Discussed the Northwind renewal')
  // CALL_COMPLETED with hideWidget false: the widget stays shown, back on its dial pad.
  await expect(widget.getByRole('region', { name: 'Dial pad' })).toBeVisible()
  await expect(page.locator('#hubspot-calling-extension-iframe')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show widget' })).toHaveCount(0)
  const readCall = () => apiGet<CallObject>(page, `/crm/v3/objects/calls/${engagementId}?properties=${CALL_PROPS}&associations=contacts,companies`)
  // The default associations: the dialed contact, and its company.
  await expect.poll(async () => assocIds(await readCall(), 'companies')).toEqual(['1'])
  const call = await readCall()
  expect(call.properties).toMatchObject({
    hs_call_direction: 'OUTBOUND',
    hs_call_status: 'COMPLETED',
    hs_call_body: expect.stringContaining('Discussed the Northwind renewal'),
    // The title the host created the call with survives Save; the widget's from-number is valid E.164.
    hs_call_title: 'Call to Maria Garcia',
    hs_call_from_number: '+16175550100',
  })
  expect(assocIds(call, 'contacts')).toEqual(['1'])

  // The inspector links the request to its reply, and the call is clean.
  await openTool(page, 'Message inspector')
  await expect(inspector(page).getByText('No conformance findings.')).toBeVisible()
  const started = entries(page, 'OUTGOING_CALL_STARTED')
  await expect(started).toHaveCount(1)
  await started.getByRole('button', { name: /^Reply: CREATE_ENGAGEMENT_SUCCEEDED/ }).click()
  await expect(entries(page, 'CREATE_ENGAGEMENT_SUCCEEDED')).toHaveAttribute('aria-current', 'true')
  await expect(entries(page, 'UPDATE_ENGAGEMENT_SUCCEEDED')).toHaveCount(1)

  // The next Call places the next call the same way.
  await page.getByRole('button', { name: 'Call +1 617 555 0191' }).click()
  await expect(SHOWS.callPlaced(widget)).toBeVisible()
  await expect(widget.getByText('+16175550191')).toBeVisible()
})

test('an inbound call is matched to the caller and logged on that contact', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts', {
    widget: ourWidget(baseURL, { incoming: '+16175550105', incomingAfterMs: '1200', autoLogin: '1' }),
  })
  // The harness shows the caller it matched by phone.
  await expect(page.getByRole('status').filter({ hasText: 'Incoming call' })).toContainText('Priya Raman')
  const widget = widgetFrame(page)
  await expect(widget.getByRole('list', { name: 'CRM matches' })).toContainText('Priya Raman')
  await pressSteadily(widget.getByRole('button', { name: 'Answer' }), { until: SHOWS.inCall(widget) })
  const engagementId = await engagementIdShownByWidget(widget)
  await pressSteadily(widget.getByRole('button', { name: 'Hang up' }), { until: SHOWS.wrapUp(widget) })
  await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })

  await expect
    .poll(async () => (await apiGet<CallObject>(page, `/crm/v3/objects/calls/${engagementId}?properties=${CALL_PROPS}`)).properties.hs_call_status)
    .toBe('COMPLETED')
  const call = await apiGet<CallObject>(page, `/crm/v3/objects/calls/${engagementId}?properties=${CALL_PROPS}&associations=contacts`)
  expect(call.properties).toMatchObject({ hs_call_direction: 'INBOUND', hs_call_from_number: expect.stringContaining('617') })
  expect(assocIds(call, 'contacts')).toEqual(['5'])

  await openTool(page, 'Message inspector')
  await expect(inspector(page).getByText('No conformance findings.')).toBeVisible()
  const incoming = entries(page, 'INCOMING_CALL')
  await expect(incoming.getByRole('button', { name: /^Reply: CALLER_ID_MATCH_SUCCEEDED/ })).toBeVisible()
  await expect(incoming.getByRole('button', { name: /^Reply: CREATE_ENGAGEMENT_SUCCEEDED/ })).toBeVisible()
})

test('a missed inbound call is logged MISSED whether the host or the widget writes the status', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts', {
    widget: ourWidget(baseURL, { incoming: '+16175550105', incomingAfterMs: '800', incomingGiveUpAfterMs: '1500', autoLogin: '1' }),
  })
  const widget = widgetFrame(page)
  const engagementId = await engagementIdShownByWidget(widget)
  // Nobody answers: the caller gives up and the widget reports callEnded({ callEndStatus: MISSED }).
  await expect(widget.getByRole('heading', { name: 'Wrap-up' })).toBeVisible()
  const status = async () => (await apiGet<CallObject>(page, `/crm/v3/objects/calls/${engagementId}?properties=${CALL_PROPS}`)).properties.hs_call_status
  // The status the host logged for CALL_ENDED, read back through the API.
  await expect.poll(status).toBe('MISSED')

  // The widget logs the call itself: callCompleted's engagementProperties carry the widget's own
  // hs_call_status, which the host writes as sent (it would read NO_ANSWER if the widget mapped MISSED apart).
  await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })
  await openTool(page, 'Message inspector')
  await expect(entries(page, 'UPDATE_ENGAGEMENT_SUCCEEDED')).toHaveCount(1)
  expect(await status()).toBe('MISSED')
  const call = await apiGet<CallObject>(page, `/crm/v3/objects/calls/${engagementId}?properties=${CALL_PROPS}&associations=contacts`)
  expect(call.properties).toMatchObject({ hs_call_direction: 'INBOUND' })
  expect(assocIds(call, 'contacts')).toEqual(['5'])
})

test('an injected engagement-create failure reaches the widget and the call goes on', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts/2', { widget: ourWidget(baseURL, { outcome: 'answer', answerAfterMs: '300', autoLogin: '1' }) })
  await expect(statusBadge(page)).toContainText('Logged in')
  await openTool(page, 'Faults')
  await page.getByRole('group', { name: 'Engagement creation' }).getByRole('radio', { name: 'Fail the next one' }).check()

  const widget = widgetFrame(page)
  await page.getByRole('button', { name: 'Call +1 617 555 0102' }).click()
  await expect(SHOWS.callPlaced(widget)).toBeVisible()
  await expect(widget.getByRole('alert')).toContainText('Injected fault')
  await expect(widget.getByRole('region', { name: 'Call in progress' })).toBeVisible()
  // The one-shot fault is used up.
  await expect(page.getByRole('group', { name: 'Engagement creation' }).getByRole('radio', { name: 'Off' })).toBeChecked()

  await openTool(page, 'Message inspector')
  await expect(entries(page, 'CREATE_ENGAGEMENT_FAILED')).toHaveCount(1)
  await expect(entries(page, 'CREATE_ENGAGEMENT_SUCCEEDED')).toHaveCount(0)
  await pressSteadily(widget.getByRole('button', { name: 'Hang up' }), { until: SHOWS.wrapUp(widget) })
  await expect(widget.getByRole('heading', { name: 'Wrap-up' })).toBeVisible()
})

test('reloading the widget mid-call re-handshakes and reports the ghost call', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts/3', { widget: ourWidget(baseURL, { outcome: 'answer', answerAfterMs: '300', autoLogin: '1' }) })
  await expect(statusBadge(page)).toContainText('Logged in')
  const widget = widgetFrame(page)
  await page.getByRole('button', { name: 'Call +1 617 555 0103' }).click()
  await expect(SHOWS.callPlaced(widget)).toBeVisible()
  await expect(widget.getByRole('region', { name: 'Call in progress' })).toBeVisible()

  await openTool(page, 'Faults')
  await page.getByRole('button', { name: 'Reload widget now (mid-call)' }).click()
  await expect(widget.getByRole('region', { name: 'Dial pad' })).toBeVisible()
  await expect(statusBadge(page)).toContainText('Widget ready')

  await openTool(page, 'Message inspector')
  await expect(entries(page, 'SYNC_ACK')).toHaveCount(2)
  const summary = inspector(page).getByRole('region', { name: 'Conformance summary' })
  await expect(summary).toContainText('Ghost call log (never completed): 1')
  await expect(summary).toContainText('never completed')
  await expect(summary).toContainText('Open calls (not completed yet)')
})

test('the localStorage override switches the widget, from another tab and from the harness UI', async ({ page, context, baseURL }) => {
  await openHarness(page, '/contacts')
  const dock = page.getByRole('region', { name: /Ringside reference widget/ })
  await expect(dock).toContainText(`${widgetOrigin(baseURL)}/widget/`)
  await expect(statusBadge(page)).toContainText('Widget ready')

  // Another tab on the harness origin (a JSON answer of the server, not a page) writes the override: this tab hears the storage event.
  const other = await context.newPage()
  await other.goto('/_ringside/v1/server')
  await other.evaluate(
    ([key, url]) => localStorage.setItem(key!, JSON.stringify({ url, name: 'Override widget', isReady: false })),
    [OVERRIDE_KEY, fixtureWidget(baseURL)],
  )
  const overridden = page.getByRole('region', { name: /Override widget/ })
  await expect(overridden).toContainText('/e2e/fixtures/sdk-widget/')
  await expect(overridden).toContainText('testing')
  await expect(overridden.getByRole('status')).toHaveText('Handshake ready')
  await other.close()

  // An invalid URL typed in the harness is refused with a message.
  await overridden.getByRole('button', { name: 'Widget setup' }).click()
  const url = overridden.getByLabel('Widget URL')
  await url.fill('javascript:alert(1)')
  await overridden.getByRole('button', { name: 'Use this URL' }).click()
  await expect(overridden.getByText('is not an http(s) URL')).toBeVisible()
  await expect(overridden).toContainText('/e2e/fixtures/sdk-widget/')

  // A valid one is written to the override and loaded.
  await url.fill(ourWidget(baseURL, { autoLogin: '1' }))
  await overridden.getByRole('button', { name: 'Use this URL' }).click()
  await expect(overridden).toContainText('/widget/?autoLogin=1')
  await expect(statusBadge(page)).toContainText('Logged in')
  const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as unknown, OVERRIDE_KEY)
  expect(stored).toEqual({ url: ourWidget(baseURL, { autoLogin: '1' }), name: 'Override widget', isReady: false })

  // An invalid override from elsewhere is shown as an error and ignored.
  await page.evaluate((key) => {
    localStorage.setItem(key, JSON.stringify({ url: 'ftp://nope.example/' }))
    window.dispatchEvent(new StorageEvent('storage', { key }))
  }, OVERRIDE_KEY)
  const registered = page.getByRole('region', { name: /Ringside reference widget/ })
  await expect(registered.getByRole('list', { name: 'Calling settings problems' })).toContainText('not an http(s) URL')
  await expect(registered).toContainText(`${widgetOrigin(baseURL)}/widget/`)
})

/** The SDK fixture widget's frame (it records every handler call in window.__received). */
async function fixtureFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/e2e/fixtures/sdk-widget/'))).toBe(true)
  return page.frames().find((f) => f.url().includes('/e2e/fixtures/sdk-widget/'))!
}

type Received = Array<{ handler: string; data: unknown }>
const received = (frame: Frame) => frame.evaluate(() => (window as unknown as { __received: Received }).__received.map((r) => ({ handler: r.handler, data: r.data })))
const callWidget = (frame: Frame, method: string, payload?: unknown) =>
  frame.evaluate(([m, p]) => void (window as unknown as { __call(m: string, p?: unknown): unknown }).__call(m as string, p), [method, payload] as const)

test('callCompleted with hideWidget false keeps the widget open; the default hides it until Show widget', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts/1', { widget: fixtureWidget(baseURL) })
  await expect(statusBadge(page)).toContainText('Widget ready')
  const frame = await fixtureFrame(page)
  await callWidget(frame, 'initialized', { isLoggedIn: true, isAvailable: true })
  await expect(statusBadge(page)).toContainText('Logged in')

  const engagementFor = async (externalCallId: string) => {
    await callWidget(frame, 'outgoingCall', { externalCallId, toNumber: '+1 617 555 0101', fromNumber: '+1 617 555 0100', createEngagement: true, callStartTime: Date.now() })
    let id = 0
    await expect
      .poll(async () => {
        const created = (await received(frame)).filter((r) => r.handler === 'onCreateEngagementSucceeded')
        id = (created.at(-1)?.data as { engagementId?: number } | undefined)?.engagementId ?? 0
        return created.length
      })
      .toBeGreaterThan(externalCallId === 'fx-1' ? 0 : 1)
    return id
  }

  const first = await engagementFor('fx-1')
  await callWidget(frame, 'callEnded', { externalCallId: 'fx-1', engagementId: first, callEndStatus: 'COMPLETED' })
  await callWidget(frame, 'callCompleted', { externalCallId: 'fx-1', engagementId: first, hideWidget: false, engagementProperties: { hs_call_body: 'kept open' } })
  await expect.poll(async () => (await received(frame)).filter((r) => r.handler === 'onUpdateEngagementSucceeded').length).toBe(1)
  await expect(page.locator('#hubspot-calling-extension-iframe')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show widget' })).toHaveCount(0)

  const second = await engagementFor('fx-2')
  await callWidget(frame, 'callCompleted', { externalCallId: 'fx-2', engagementId: second })
  await expect(page.getByRole('button', { name: 'Show widget' })).toBeVisible()
  await page.getByRole('button', { name: 'Show widget' }).click()
  await expect(page.locator('#hubspot-calling-extension-iframe')).toBeVisible()
  await expect
    .poll(async () => (await received(frame)).filter((r) => r.handler === 'onVisibilityChanged').map((r) => r.data))
    .toEqual([
      { isMinimized: false, isHidden: true },
      { isMinimized: false, isHidden: false },
    ])
})

/** The SYNC data the fixture widget's onReady got, or undefined while its frame or script is still loading. */
async function onReadyData(page: Page): Promise<unknown> {
  try {
    return (await received(await fixtureFrame(page))).find((r) => r.handler === 'onReady')?.data
  } catch {
    return undefined // a new frame whose script has not run yet
  }
}

test('changing the placement re-mounts the widget and sends the new iframeLocation in SYNC', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts', { widget: fixtureWidget(baseURL) })
  await expect(statusBadge(page)).toContainText('Widget ready')
  await page.getByRole('button', { name: 'Widget setup' }).click()
  await page.getByLabel('Placement (iframeLocation)').selectOption('remote')
  await expect
    .poll(async () => await onReadyData(page))
    .toMatchObject({ iframeLocation: 'remote', usesCallingWindow: false, portalId: 123456 })

  // The calling window: the detached window holds the widget and says so in SYNC; the record page keeps the
  // widget in the remote beside it (iframeLocation remote, usesCallingWindow true), as the real CRM does.
  await page.getByLabel('Placement (iframeLocation)').selectOption('window')
  const card = page.getByRole('region', { name: 'Calling window' })
  await expect(card).toContainText('Not open')
  await expect
    .poll(async () => await onReadyData(page))
    .toMatchObject({ iframeLocation: 'remote', usesCallingWindow: true, portalId: 123456 })
  const popup = page.waitForEvent('popup')
  await card.getByRole('button', { name: 'Open calling window' }).click()
  const callingWindow = await popup
  await expect(callingWindow.getByRole('heading', { name: /^Call window — / })).toBeVisible()
  await expect(statusBadge(page)).toContainText('Widget ready in the calling window')
  await expect
    .poll(async () => await onReadyData(callingWindow))
    .toMatchObject({ iframeLocation: 'window', usesCallingWindow: true, portalId: 123456 })

  // And back: the card's own placement choice docks the widget in the page again.
  await card.getByLabel('Placement (iframeLocation)').selectOption('widget')
  await expect
    .poll(async () => await onReadyData(page))
    .toMatchObject({ iframeLocation: 'widget', usesCallingWindow: false })
})

test('with SYNC withheld the handshake fails after the configured timeout and dialing is refused', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts/1', { widget: ourWidget(baseURL, { autoLogin: '1' }), syncTimeoutMs: '1500' })
  await expect(statusBadge(page)).toContainText('Logged in')
  await openTool(page, 'Faults')
  await page.getByRole('checkbox', { name: /Withhold SYNC/ }).check()
  await page.getByRole('button', { name: 'Reload widget now (mid-call)' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Handshake failed' })).toHaveText('Handshake failed: SYNC_ACK_FAILED (timeout)')
  await expect(statusBadge(page)).toContainText('Widget failed (timeout)')
  await expect(page.getByRole('button', { name: 'Call +1 617 555 0101' })).toBeDisabled()
  await expect(page.getByRole('note')).toContainText('SYNC_ACK_FAILED')
})

test('the composer sends a degenerate DIAL_NUMBER and an invalid message on purpose, both marked in the inspector', async ({ page, baseURL }) => {
  await openHarness(page, '/contacts', { widget: fixtureWidget(baseURL) })
  await expect(statusBadge(page)).toContainText('Widget ready')
  await openTool(page, 'Composer')
  const composer = page.getByRole('region', { name: 'Event composer' })
  await composer.getByLabel('Preset').selectOption({ label: 'objectId 0 and no objectType (ticket call, #228)' })
  await expect(composer.getByRole('status', { name: 'Validation' })).toHaveText('Valid')
  await composer.getByRole('button', { name: 'Send to widget' }).click()
  await composer.getByLabel('Preset').selectOption({ label: 'Invalid: no phone number' })
  await expect(composer.getByRole('status', { name: 'Validation' })).toContainText('Invalid: invalid: data.phoneNumber')
  await composer.getByRole('button', { name: 'Send invalid message anyway' }).click()

  const frame = await fixtureFrame(page)
  await expect
    .poll(async () => (await received(frame)).filter((r) => r.handler === 'onDialNumber').map((r) => r.data))
    .toEqual([expect.objectContaining({ objectId: 0, subjectId: 0 })])

  await openTool(page, 'Message inspector')
  const dials = entries(page, 'DIAL_NUMBER')
  await expect(dials).toHaveCount(2)
  await expect(dials.nth(0)).toContainText('composed')
  await expect(dials.nth(1)).toContainText('composed, sent invalid on purpose')
  await inspector(page).getByLabel('Only problems').check()
  await expect(entries(page, 'DIAL_NUMBER')).toHaveCount(1)
})

test('a widget whose SDK script cannot load (a CDN, offline): the harness names the URL and suggests ringside open, every badge says syncing', async ({ page, baseURL }) => {
  // A plain browser offline: the public CDN does not answer (no `ringside open`, no kit routes).
  await page.context().route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort('internetdisconnected'))
  await openHarness(page, '/contacts/1', { widget: fixtureUrl(kitOrigins(baseURL), 'cdn-script-widget') })
  const note = page.getByRole('note', { name: 'Why the widget does not answer' })
  // The harness looks 3 s after the page's load, then asks the server: a busy machine may take several seconds more.
  await expect(note).toContainText('its calling SDK script https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js did not run', { timeout: 20_000 })
  await expect(note).toContainText('Run ringside open to open a browser that answers the calling SDK’s CDN URLs from Ringside, offline.')
  await expect(note.locator('code')).toHaveText('ringside open')
  await expect(statusBadge(page)).toHaveText('Widget syncing')
  await expect(page.getByRole('status').filter({ hasText: /^Handshake / })).toHaveText('Handshake syncing')
  await expect(page.getByRole('button', { name: 'Call +1 617 555 0101' })).toBeDisabled()
})
