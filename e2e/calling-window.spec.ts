/**
 * The real topology: a widget in the detached calling window holds its call
 * while the CRM's record pages load and reload around it; a widget held in
 * the page loses its call on a full page load, as in the real CRM.
 *
 * Both with full-page-load navigation on (`?navigation=full`): every record
 * change reloads the harness page. A marker set on the page's window before
 * each move proves the move really was a new document.
 */
import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test'
import { Harness, type CallEngagement } from '../kit/harness.ts'
import { installMessageRecorder } from '../kit/message-recorder.ts'
import { REFERENCE_WIDGET_SHOWS as SHOWS } from '../kit/drivers/ringside.ts'
import { fixtureUrl, kitOrigins, ourWidgetUrl } from '../kit/origins.ts'
import { pressSteadily } from '../kit/press.ts'

const FIRST = { type: 'contacts', id: '1', phone: '+1 617 555 0101' }
const MOVES = [
  ['contacts', '2'],
  ['companies', '1'],
  ['contacts', '3'],
] as const

/** Moves the page to a record and checks that it was a full page load. */
async function moveTo(harness: Harness, type: string, id: string): Promise<void> {
  await harness.page.evaluate(() => {
    ;(window as unknown as { __sameDocument?: boolean }).__sameDocument = true
  })
  await harness.openRecord(type, id)
  expect(await harness.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument ?? false), 'the move was a full page load').toBe(false)
}

async function callOf(harness: Harness, done: (call: CallEngagement) => boolean, prefix: string): Promise<CallEngagement> {
  let found: CallEngagement | undefined
  await expect
    .poll(async () => {
      found = (await harness.engagements()).find((c) => c.properties.hs_call_external_id?.startsWith(prefix) && done(c))
      return found !== undefined
    }, { timeout: 10_000 })
    .toBe(true)
  return found!
}

function widgetStatus(frame: ReturnType<Page['frameLocator']>) {
  return frame.getByRole('status', { name: 'Widget status' })
}

test('a call in the calling window survives three full page loads and is logged COMPLETED on the record it began on', async ({ page, baseURL }) => {
  // The longest journey here (two windows, four full page loads, a call): about 10 s on a quiet machine, past 30 s
  // on a saturated one, always after its dial.
  test.slow()
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'window-only-widget'), route: `/${FIRST.type}/${FIRST.id}`, placement: 'window', navigation: 'full' })
  // The record page holds the remote beside the calling window (the window-only widget refuses to run there).

  await harness.pressCall(FIRST.phone)
  await harness.widgetPage() // the calling window, which the page opened
  const widget = harness.widget
  // The window-only widget accepted the SYNC it got there (iframeLocation window, usesCallingWindow true).
  await expect(widgetStatus(widget)).toContainText('window · idle', { timeout: 15_000 })
  await expect(widget.getByLabel('Dialed number')).toContainText('617')
  await widget.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(widgetStatus(widget)).toContainText('engagement ')
  await widget.getByRole('button', { name: 'Answer' }).click()
  await expect(widgetStatus(widget)).toContainText('answered')
  const startedAt = Date.now()

  for (const [type, id] of MOVES) {
    await moveTo(harness, type, id)
    // The new page finds the calling window and shows the call it holds.
    await expect(page.getByRole('region', { name: 'Calling window' })).toContainText('IN_PROGRESS')
    await expect(widgetStatus(widget)).toContainText('answered')
  }
  // The widget asks the CRM to open a record: the CRM page moves (a full load here), the calling window stays.
  await harness.page.evaluate(() => {
    ;(window as unknown as { __sameDocument?: boolean }).__sameDocument = true
  })
  await widget.getByRole('button', { name: 'Open company 1' }).click()
  await expect(page).toHaveURL(/#\/companies\/1$/)
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument ?? false)).toBe(false)
  await expect(widgetStatus(widget)).toContainText('answered')
  await page.waitForTimeout(Math.max(0, 400 - (Date.now() - startedAt)))

  await widget.getByRole('button', { name: 'Hang up' }).click()
  await widget.getByRole('button', { name: 'Save call' }).click()
  await expect(widgetStatus(widget)).toContainText('saved')

  const logged = await callOf(harness, (c) => c.properties.hs_call_body === 'Held in the calling window', 'window-only-')
  const call = await harness.readCall(logged.id)
  expect(call?.properties.hs_call_status).toBe('COMPLETED')
  expect(Number(call?.properties.hs_call_duration)).toBeGreaterThanOrEqual(400)
  expect(call?.associations?.contacts?.results.map((r) => r.id)).toEqual([FIRST.id])
})

/** How long a record page waits for an open calling window to answer before it opens one (WHO_WAIT_MS). */
const WHO_WAIT_MS = 500

/** Holds each record page's wait for an open calling window (its WHO_WAIT_MS timer) until endWhoWait(page). */
async function holdWhoWait(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript((waitMs) => {
    if (window.top !== window || window.opener !== null) return // record pages only, not the calling window
    const setTimer = window.setTimeout
    const held: Array<() => void> = []
    Object.assign(window, { __endWhoWait: () => held.splice(0).map((fire) => fire()).length })
    window.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      ms === waitMs ? (held.push(() => fn(...args)), 0) : setTimer(fn, ms, ...args)) as typeof window.setTimeout
  }, WHO_WAIT_MS)
}

/** Ends the page's held wait for an open calling window; how many waits it ended. */
function endWhoWait(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __endWhoWait(): number }).__endWhoWait())
}

test('the page opens the calling window by itself before it offers Call, and not during a press on the page, so the opening never swallows a press', async ({ page, baseURL }) => {
  // A window that opens (and takes the focus) while the mouse button is down swallows that press: no pointerup
  // or click reaches the page, whatever was pressed. The record page's Call once showed "No call." and dialed
  // nothing when its own opening fell due inside it; a tab, link or button pressed then did nothing either.
  // The record page's wait is held here, and ended while a button of the page is pressed.
  await holdWhoWait(page)
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'window-only-widget'), route: `/${FIRST.type}/${FIRST.id}`, placement: 'window' })
  const call = page.getByRole('button', { name: `Call ${FIRST.phone}`, exact: true })
  await expect(call).toBeDisabled()
  await expect(page.getByRole('note')).toHaveText('Looking for an open calling window…')
  const show = (await page.getByRole('button', { name: 'Show integration tools' }).boundingBox())!
  await page.mouse.move(show.x + show.width / 2, show.y + show.height / 2)
  await page.mouse.down()
  expect(await endWhoWait(page), 'the record page waited once for an open calling window').toBe(1)
  await page.waitForTimeout(500) // time enough for the page to open it, were it to open during the press
  expect(page.context().pages(), 'no window opened during the press').toHaveLength(1)
  await page.mouse.up()
  await expect(page.getByRole('button', { name: 'Hide integration tools' }), 'the press reached the page').toBeVisible()
  await harness.widgetPage() // the page opened the window by itself once the press had ended…
  await page.getByRole('button', { name: 'Hide integration tools' }).click()
  await harness.pressCall(FIRST.phone) // …and offers Call from then on
  await expect(harness.widget.getByLabel('Dialed number')).toContainText('617', { timeout: 15_000 })
})

/** Holds the documents `pick` selects until release() (each request once the gate opens). */
async function holdDocuments(context: BrowserContext, pick: (request: Request) => boolean): Promise<{ held: Promise<void>; release(): void }> {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let markHeld!: () => void
  const held = new Promise<void>((resolve) => (markHeld = resolve))
  await context.route(
    (url) => url.protocol.startsWith('http'),
    async (route) => {
      if (route.request().resourceType() !== 'document' || !pick(route.request())) return route.fallback()
      markHeld()
      await gate
      await route.fallback()
    },
  )
  return { held, release }
}

// The page opens the calling window by itself when no window answers within WHO_WAIT_MS of its load; a
// user's Call press can land at any moment of that opening. Each case holds the window's own page, or its
// widget's, so the press lands exactly then.
for (const moment of ['before the calling window announces itself', 'while the calling window\'s widget is still starting'] as const) {
  test(`a Call press ${moment} (the page opened the window by itself) is dialed exactly once`, async ({ page, baseURL }) => {
    const origins = kitOrigins(baseURL)
    const widgetUrl = fixtureUrl(origins, 'window-only-widget')
    const messages = await installMessageRecorder(page, { harness: origins.harness, widget: origins.testWidgets })
    let harnessPages = 0
    const windowPage = await holdDocuments(page.context(), (request) => request.url().startsWith(`${origins.harness}/`) && (harnessPages += 1) > 1)
    const widgetPage = await holdDocuments(page.context(), (request) => request.url().startsWith(widgetUrl))
    const harness = new Harness(page)
    await harness.open({ widgetUrl, route: `/${FIRST.type}/${FIRST.id}`, placement: 'window' })
    await harness.widgetPage() // the calling window the page opened by itself, no press yet
    const card = page.getByRole('region', { name: 'Calling window' })
    if (moment === 'before the calling window announces itself') {
      await windowPage.held
      await expect(card).toContainText('Opening the calling window…')
    } else {
      windowPage.release()
      await widgetPage.held
      // The window announced itself; its widget's page is still loading.
      await expect(card).toContainText('handshake')
    }
    // The Call button stays enabled all through the opening: a button disabled for that moment swallows a press.
    await harness.pressCall(FIRST.phone)
    await expect(card.getByRole('status')).toHaveText('Asking the calling window to dial…')
    windowPage.release()
    widgetPage.release()

    const widget = harness.widget
    await expect(widgetStatus(widget)).toContainText('window · idle', { timeout: 15_000 })
    await expect(widget.getByLabel('Dialed number')).toContainText('617')
    await expect(card.getByRole('status')).toHaveCount(0)
    await expect(card.getByRole('alert')).toHaveCount(0)
    await expect(card).toContainText('No call.')
    // Leaves a second DIAL_NUMBER (a repeated hand-over) the time to show up before counting.
    await page.waitForTimeout(300)
    expect(messages.ofType('DIAL_NUMBER', 'to-widget')).toHaveLength(1)
  })
}

test('the window-only widget refuses the docked placement (SYNC says iframeLocation widget)', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'window-only-widget'), route: `/${FIRST.type}/${FIRST.id}`, placement: 'widget', waitFor: 'handshake' })
  await expect(harness.widget.getByRole('alert')).toHaveText(/runs only in the calling window \(iframeLocation widget, usesCallingWindow false\)/)
})

test('a call held in the page drops on a full page load; its engagement stays as the API holds it and the harness says so', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({
    widgetUrl: fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget', { shape: 'minimal' }),
    route: `/${FIRST.type}/${FIRST.id}`,
    placement: 'widget',
    navigation: 'full',
    waitFor: 'handshake',
  })
  await harness.pressCall(FIRST.phone)
  await harness.widget.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(widgetStatus(harness.widget)).toContainText('engagement ')
  await harness.widget.getByRole('button', { name: 'Answer' }).click()
  await expect(widgetStatus(harness.widget)).toContainText('answered')
  const open = await callOf(harness, (c) => c.properties.hs_call_status === 'IN_PROGRESS', 'demo-minimal-')

  // The real CRM alerts the user before a page load drops an active call; the user leaves anyway.
  const asked: string[] = []
  page.on('dialog', (dialog) => {
    asked.push(dialog.type())
    void dialog.accept()
  })
  await moveTo(harness, 'contacts', '2')
  expect(asked).toEqual(['beforeunload'])
  await harness.waitForHandshake()
  // A new widget document: the call is gone from it…
  await expect(widgetStatus(harness.widget)).toContainText('minimal · idle')
  // …the harness reports the drop…
  await expect(page.getByRole('alert').filter({ hasText: 'was dropped by a full page load' })).toContainText(open.properties.hs_call_external_id!)
  // …and nothing wrote to the engagement after the page went away.
  const after = await harness.readCall(open.id)
  expect(after?.properties.hs_call_status).toBe('IN_PROGRESS')
})

test('the kit opens the calling window for a handshake in the window placement, and the record page reports it', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'window-only-widget'), route: `/${FIRST.type}/${FIRST.id}`, placement: 'window', waitFor: 'handshake' })
  await expect(harness.statusBadge).toContainText('Widget ready in the calling window')
  await harness.widgetPage()
  const widget = harness.widget
  await expect(widgetStatus(widget)).toContainText('window · idle')
  // A tab opened afresh on another record finds the same window: its Call goes there, no second window opens.
  const other = await page.context().newPage()
  const second = new Harness(other)
  await second.open({ route: '/contacts/2', placement: 'window' })
  await expect(second.statusBadge).toContainText('Widget ready in the calling window')
  await second.pressCall()
  await expect(widget.getByLabel('Dialed number')).not.toHaveText('none')
  expect(page.context().pages().filter((p) => p.url().endsWith('#/calling-integration-popup-ui/123456'))).toHaveLength(1)
  await other.close()
})

test("in the window placement a record page's Call button follows the calling window's widget: disabled with its reason while logged out", async ({ page, baseURL }) => {
  const harness = new Harness(page)
  // Our reference widget without autoLogin starts logged out on its first visit, as a real softphone does.
  await harness.open({ widgetUrl: ourWidgetUrl(baseURL, {}), route: `/${FIRST.type}/${FIRST.id}`, placement: 'window' })
  await harness.widgetPage() // the calling window, which the page opened
  const call = page.getByRole('button', { name: `Call ${FIRST.phone}`, exact: true })
  await expect(page.getByRole('note')).toHaveText('Log in to the calling widget before calling.', { timeout: 15_000 })
  await expect(call).toBeDisabled()
  await pressSteadily(harness.widget.getByRole('button', { name: 'Log in' }), { until: SHOWS.loggedIn(harness.widget) })
  await expect(call).toBeEnabled()
})

test('two tabs that load at once and hear of no calling window in time open one calling window between them', async ({ page, baseURL }) => {
  // A busy machine: the calling window one tab opened announces itself only after the other tab's wait is over.
  const context = page.context()
  const origins = kitOrigins(baseURL)
  const widgetUrl = fixtureUrl(origins, 'window-only-widget')
  await holdWhoWait(context)
  let harnessPages = 0
  const windowPage = await holdDocuments(context, (request) => request.url().startsWith(`${origins.harness}/`) && (harnessPages += 1) > 2)
  const first = new Harness(page)
  await first.open({ widgetUrl, route: '/contacts/1', placement: 'window' })
  const other = await context.newPage() // a tab of its own: it cannot find the first tab's window by name
  const second = new Harness(other)
  await second.open({ widgetUrl, route: '/contacts/2', placement: 'window' })

  expect(await endWhoWait(page)).toBe(1)
  await windowPage.held // the first tab opened the calling window; its page is still loading
  expect(await endWhoWait(other)).toBe(1)
  await expect(other.getByRole('note'), 'the second tab waits for the window the first one opened').toHaveText('Looking for an open calling window…')
  windowPage.release()
  await first.widgetPage()
  await expect(other.getByRole('region', { name: 'Calling window' })).toContainText('handshake')
  await expect(other.getByRole('button', { name: 'Call +1 617 555 0102', exact: true })).toBeEnabled()
  expect(context.pages().filter((p) => p !== page && p !== other), 'calling windows').toHaveLength(1)
})
