/**
 * Security and robustness journeys through the harness, with the kit's
 * fixtures: forged messages from a third origin, floods of malformed
 * messages both ways, a widget that never answers SYNC, and a widget that
 * navigates to another origin mid-call.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import fc from 'fast-check'
import type { ConsoleMessage, Page } from '@playwright/test'
import { malformedMessage } from '../shared/protocol/testing/malformed.ts'
import { notSdkReason } from '../shared/protocol/validate.ts'
import { formatProfile, startCpuProfile } from './support/cpu-profile.ts'
import type { WidgetDriver, DriverContext } from '../kit/drivers/types.ts'
import { expect, test } from '../kit/fixtures.ts'
import type { Harness } from '../kit/harness.ts'
import { payloadOf, type MessageLog } from '../kit/message-log.ts'
import { fixtureUrl, ourWidgetUrl } from '../kit/origins.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }
const HOST_LOG = '[ringside calling host]'
const WIDGET_LOG = '[calling-extensions-sdk@0.9.7 ringside]'
const FLOOD = 1_000
/** How many of the flood's messages may be huge (≥ 10 kB: the 50–200 kB strings of the generator). */
const HUGE_AT_MOST = 10

/**
 * FLOOD malformed messages a sender of `side` could produce (shared/protocol's
 * fast-check generator, fixed seed), with at most HUGE_AT_MOST huge ones so
 * the flood stays a few MB.
 */
function junk(side: 'from-widget' | 'from-host', seed: number): unknown[] {
  const size = (value: unknown) => {
    try {
      return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))?.length ?? 0
    } catch {
      return 0
    }
  }
  let huge = 0
  const picked: unknown[] = []
  for (const message of fc.sample(malformedMessage(side), { numRuns: FLOOD + FLOOD / 10, seed })) {
    const isHuge = size(message) >= 10_000
    if (isHuge && huge >= HUGE_AT_MOST) continue
    if (isHuge) huge += 1
    picked.push(message)
    if (picked.length === FLOOD) break
  }
  expect(picked).toHaveLength(FLOOD)
  return picked
}

// Neither widget here loads the SDK from a public CDN: no CDN routes (a route makes Playwright intercept every request of the context).
test.use({ widgetUrl: async ({ baseURL }, use) => use(ourWidgetUrl(baseURL)), widgetDriver: 'ringside', mapSdkCdn: false })

/** Every console line of the page and its frames, with the URL of the frame that logged it. */
function captureConsole(page: Page): Array<{ text: string; url: string; type: string }> {
  const lines: Array<{ text: string; url: string; type: string }> = []
  page.on('console', (message: ConsoleMessage) => lines.push({ text: message.text(), url: message.location().url, type: message.type() }))
  return lines
}

/** Uncaught errors of the page and its frames. */
function captureErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/**
 * Dismisses every harness alert toast, also those stacked outside the viewport: with more than one
 * shown, all at once with the stack's "Dismiss all" (one click; one toast at a time took three
 * round trips per toast to a page still busy with the flood), else the one toast's own button.
 */
async function dismissAllAlerts(page: Page): Promise<void> {
  const each = page.getByRole('button', { name: 'Dismiss alert' })
  const all = page.getByRole('button', { name: 'Dismiss all' })
  await expect(async () => {
    if (await all.isVisible()) await all.dispatchEvent('click')
    else if ((await each.count()) > 0) await each.first().dispatchEvent('click')
    await expect(each).toHaveCount(0, { timeout: 1_000 })
  }).toPass()
}

async function openLoggedIn(harness: Harness): Promise<void> {
  await harness.open({ route: `/contacts/${CONTACT.id}` })
  await expect(harness.statusBadge).toContainText('Widget ready')
  await expect(harness.statusBadge).toContainText('Logged in')
}

/** One outbound call through the driver, up to the CRM's reply to CALL_COMPLETED; returns the engagement id. */
async function placeLoggedCall(ctx: DriverContext, driver: WidgetDriver, messages: MessageLog, harness: Harness): Promise<number> {
  const before = messages.ofType('CALL_COMPLETED', 'from-widget').length
  await harness.pressCall(ctx.dialedNumber)
  await driver.placeCall!(ctx)
  await driver.answer!(ctx)
  await driver.hangUp!(ctx)
  await driver.completeWrapUp!(ctx, { notes: 'still works' })
  const completed = await messages.waitFor(() => messages.ofType('CALL_COMPLETED', 'from-widget')[before], { timeout: 10_000 })
  const update = await messages.expectMessage('UPDATE_ENGAGEMENT_SUCCEEDED', (r) => r.time >= completed.time, { direction: 'to-widget' })
  const id = payloadOf(update).engagementId
  expect(typeof id).toBe('number')
  return id as number
}

test('forged messages from a third-origin frame change nothing in the harness or the widget, and both sides log them', async ({ page, harness, messages, widget, origins }) => {
  const consoleLines = captureConsole(page)
  await openLoggedIn(harness)
  const callsBefore = (await harness.engagements()).length
  const badgeBefore = await harness.statusBadge.textContent()
  await harness.inspector.open()
  const trafficBefore = (await harness.inspector.counts()).total

  // The hostile page joins the harness as a sibling frame of the widget and attacks on load.
  await page.evaluate((src) => {
    const frame = document.createElement('iframe')
    frame.title = 'Hostile frame'
    frame.src = src
    document.body.append(frame)
  }, fixtureUrl(origins, 'hostile', {}, 'hostile'))
  const hostile = page.frameLocator('iframe[title="Hostile frame"]')
  await expect(hostile.getByText('Hostile frame')).toBeVisible()
  const hostileFrame = page.frames().find((f) => f.url().startsWith(origins.hostile))!
  // The page's text shows before its module script has run: wait for the hook. Poll on a timer, not on
  // animation frames (waitForFunction's default): the frame sits below the fold, and Chromium runs no
  // animation frames in an off-screen cross-origin frame, so a hook that arrives after the first check was
  // never seen (a CI run timed out here while the inspector already listed the frame's on-load attack).
  await hostileFrame.waitForFunction(() => typeof (window as unknown as { __attack?: unknown }).__attack === 'function', undefined, { polling: 50 })
  await hostileFrame.evaluate(() => (window as unknown as { __attack(): number }).__attack())

  // Both rounds reached both targets (recorded in each frame as 'other' traffic) …
  const forgedIn = (top: boolean) => messages.all().filter((r) => r.origin === origins.hostile && r.topFrame === top).length
  await messages.waitFor(() => (forgedIn(true) >= 12 && forgedIn(false) >= 12 ? true : undefined), { description: 'expected 2 rounds of 6 forged messages in the harness and in the widget' })
  expect(messages.fromWidget().filter((r) => r.origin === origins.hostile)).toEqual([])
  expect(messages.toWidget().filter((r) => r.origin === origins.hostile)).toEqual([])

  // … and were logged as rejected on both sides.
  await expect.poll(() => consoleLines.filter((l) => l.text.includes(HOST_LOG) && l.text.includes(`rejected a message from ${origins.hostile}`)).length).toBeGreaterThanOrEqual(12)
  await expect
    .poll(() => consoleLines.filter((l) => l.text.includes(WIDGET_LOG) && /dropped a message from an unexpected window or origin|dropped a SYNC that did not come from window.parent|ignored a later SYNC/.test(l.text)).length)
    .toBeGreaterThanOrEqual(12)

  // The harness's inspector says so too (they are not widget traffic, so they are counted apart).
  await expect(page.getByText(/Ignored \d+ messages from other windows/)).toBeVisible()

  // Nothing happened: no engagement, same status, no new inspector traffic, no widget reaction.
  expect(await harness.engagements()).toHaveLength(callsBefore)
  await expect(harness.statusBadge).toHaveText(badgeBefore ?? '')
  expect((await harness.inspector.counts()).total).toBe(trafficBefore)
  await expect(widget.getByLabel('Phone number')).toHaveValue('')
  await expect(widget.getByRole('region', { name: 'Dial pad' })).toBeVisible()
  expect(messages.fromWidget().map((r) => r.type)).not.toContain('OUTGOING_CALL_STARTED')
  // And nobody answered the hostile frame.
  expect(await hostileFrame.evaluate(() => (window as unknown as { __heard: unknown[] }).__heard.length)).toBe(0)
})

// The floods' traffic is thousands of junk messages: their ladder (a megabyte of SVG each, about a CPU-second to
// draw after every run) is left out of the report. A failed test still gets its message log.
test.describe('floods', () => {
  test.use({ attachLadder: false })

  test(`${FLOOD} malformed messages into each side are judged and counted, nothing crashes, and a call still works`, async ({
    page,
    harness,
    messages,
    widgetFrame,
    driver,
    driverContext,
    origins,
  }) => {
    test.setTimeout(90_000)
    const consoleLines = captureConsole(page)
    const errors = captureErrors(page)
    await openLoggedIn(harness)
    const frame = await widgetFrame()
    const problemsBefore = await harness.inspector.problemCount('widget → host')
    // The inspector re-renders on every message; close it while flooding.
    await harness.closeTools()

    // Widget → host: junk posted by the widget's own window (right source, right origin, wrong content).
    const intoHost = junk('from-widget', 20_240_601)
    const fromWidgetBefore = messages.fromWidget().length
    await frame.evaluate((junk) => {
      for (const message of junk) window.parent.postMessage(message, '*')
    }, intoHost)
    await messages.waitFor(() => (messages.fromWidget().length >= fromWidgetBefore + FLOOD ? true : undefined), { timeout: 30_000, description: `expected ${FLOOD} junk messages to reach the harness` })
    // Each SDK-shaped one is a problem: ignored (as the real CRM would) or acted on with its deviations as findings.
    // The others (no type or no messageId) are no calling-SDK message at all: dropped as the SDK drops them, listed
    // greyed, never a problem. (The host's answers to the junk requests it ignored are host → widget traffic, not
    // counted here.) Each count opens the inspector on the flood and filters it: on a busy machine one such look
    // takes seconds.
    const sdkShaped = intoHost.filter((message) => notSdkReason(message) === undefined).length
    expect(sdkShaped).toBeGreaterThan(FLOOD / 4)
    await expect.poll(() => harness.inspector.problemCount('widget → host'), { timeout: 30_000 }).toBe(problemsBefore + sdkShaped)
    const findings = await harness.inspector.findings()
    const ignored = findings.map((line) => /^error: (Invalid message \(ignored by the host\)|Unknown message type): (\d+)$/.exec(line)).reduce((sum, m) => sum + (m ? Number(m[2]) : 0), 0)
    expect(ignored).toBeGreaterThan(sdkShaped / 2)
    expect(ignored).toBeLessThanOrEqual(sdkShaped)

    // Host → widget: junk posted by the harness page (the widget's parent, the right origin).
    const intoWidget = junk('from-host', 20_240_602)
    const toWidgetBefore = messages.toWidget().length
    await page.evaluate(
      ({ junk, origin }) => {
        const target = (document.getElementById('hubspot-calling-extension-iframe') as HTMLIFrameElement).contentWindow!
        for (const message of junk) target.postMessage(message, origin)
      },
      { junk: intoWidget, origin: origins.widget },
    )
    await messages.waitFor(() => (messages.toWidget().length >= toWidgetBefore + FLOOD ? true : undefined), { timeout: 30_000, description: `expected ${FLOOD} junk messages to reach the widget` })
    // The widget's SDK drops every one (and answers unknown types with ERROR, never a handler call).
    await expect.poll(() => consoleLines.filter((l) => l.text.startsWith(`${WIDGET_LOG} dropped`) && l.url.startsWith(origins.widget)).length, { timeout: 15_000 }).toBe(FLOOD)

    // No crash on either side, no handler threw.
    expect(errors).toEqual([])
    expect(consoleLines.filter((l) => l.type === 'error' && (l.text.includes(HOST_LOG) || l.text.includes(WIDGET_LOG)))).toEqual([])
    await expect(harness.statusBadge).toContainText('Widget ready')

    // Both sides still work: a whole call is placed, logged and confirmed. First
    // dismiss the ERROR toasts (one per unknown type the widget did not
    // understand): they pile up over the record page (see e2e/README.md).
    await dismissAllAlerts(page)
    const engagementId = await placeLoggedCall(await driverContext(CONTACT.phone), driver, messages, harness)
    const call = await harness.readCall(engagementId)
    expect(call?.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: expect.stringContaining('still works') })
  })

  /**
   * How many times the flood sends its 1,000 distinct malformed messages. `npm test` sends
   * 2,000 (the harness's handling is checked, not timed); `npm run bench` runs this test with
   * FLOOD_REPEATS=10 for its `harness.flood_10k_ms` figure.
   */
  const FLOOD_REPEATS = Number(process.env.FLOOD_REPEATS ?? 2)

  test('a flood of malformed widget messages with the inspector open: the harness keeps up, stays usable, and reports the time it took', async ({
    page,
    harness,
    widgetFrame,
  }) => {
    test.setTimeout(120_000)
    const errors = captureErrors(page)
    await openLoggedIn(harness)
    await harness.inspector.clear() // and leave the inspector open: it must keep up
    const frame = await widgetFrame()
    const distinct = junk('from-widget', 20_240_603)
    const total = distinct.length * FLOOD_REPEATS
    // Timed in the harness page: from the first flood message to the frame painted after the
    // last one. This listener is added after the harness's, so it sees each message once the
    // harness has handled it.
    const timing = page.evaluate(
      ({ total, origin }) =>
        new Promise<number>((resolve) => {
          let seen = 0
          let start = 0
          const onMessage = (event: MessageEvent) => {
            if (event.origin !== origin) return
            if (seen === 0) start = performance.now()
            seen += 1
            if (seen < total) return
            window.removeEventListener('message', onMessage)
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)))
          }
          window.addEventListener('message', onMessage)
        }),
      { total, origin: new URL(frame.url()).origin },
    )
    // FLOOD_PROFILE=1: a CPU profile of the harness page during the flood, in reports/flood-profile.txt.
    const stopProfile = process.env.FLOOD_PROFILE === '1' ? await startCpuProfile(page) : null
    await frame.evaluate(
      ({ junk, times }) => {
        for (let i = 0; i < times; i += 1) for (const message of junk) window.parent.postMessage(message, '*')
      },
      { junk: distinct, times: FLOOD_REPEATS },
    )
    const floodMs = Math.round(await timing)
    const profile = stopProfile ? formatProfile(await stopProfile()) : null
    test.info().annotations.push({ type: 'flood_10k_ms', description: String(floodMs) })
    console.log(`harness: ${total.toLocaleString('en')} malformed widget messages handled and painted in ${floodMs} ms`)
    mkdirSync('reports', { recursive: true })
    writeFileSync('reports/flood.json', `${JSON.stringify({ flood_ms: floodMs, messages: total })}\n`)
    if (profile !== null) writeFileSync('reports/flood-profile.txt', `${total} messages, ${floodMs} ms\n${profile}\n`)

    // The inspector shows the newest entries (it keeps the last 3,000) and the page still answers.
    const shown = harness.inspector.region.getByText(/^\d+ messages/)
    await expect(async () => expect(Number((await shown.first().textContent())?.split(' ')[0])).toBeGreaterThanOrEqual(Math.min(3000, total))).toPass({ timeout: 30_000 })
    await expect(harness.statusBadge).toContainText('Widget ready')
    await page.getByRole('button', { name: 'Dismiss all' }).click()
    await expect(page.getByRole('button', { name: `Call ${CONTACT.phone}` })).toBeEnabled()
    expect(errors).toEqual([])
  })
})

test('a widget that never answers SYNC is reported as failed after the configured sync timeout', async ({ harness, messages, widgetFrame, page, origins }) => {
  await harness.open({ widgetUrl: fixtureUrl(origins, 'silent-widget'), syncTimeoutMs: 1_500, route: `/contacts/${CONTACT.id}` })
  await expect(harness.handshakeStatus).toHaveText('Handshake failed: SYNC_ACK_FAILED (timeout)')
  await expect(harness.statusBadge).toContainText('Widget failed (timeout)')
  await expect(page.getByRole('button', { name: `Call ${CONTACT.phone}` })).toBeDisabled()

  // The widget heard the host (several SYNCs, re-sent until the timeout) and never answered.
  expect(messages.ofType('SYNC', 'to-widget').length).toBeGreaterThan(1)
  expect(messages.fromWidget()).toEqual([])
  expect(await (await widgetFrame()).evaluate(() => (window as unknown as { __syncsHeard: number }).__syncsHeard)).toBeGreaterThan(1)
})

test('a widget that navigates to another origin mid-call is noticed, its call flagged as a ghost, and the harness stays usable', async ({
  page,
  harness,
  messages,
  widget,
  widgetFrame,
  driver,
  driverContext,
  origins,
}) => {
  await harness.open({ syncTimeoutMs: 1_500, route: `/contacts/${CONTACT.id}` })
  await expect(harness.statusBadge).toContainText('Logged in')
  const ctx = await driverContext(CONTACT.phone)
  await harness.pressCall(CONTACT.phone)
  await driver.placeCall!(ctx)
  await driver.answer!(ctx)
  await messages.expectMessage('CREATE_ENGAGEMENT_SUCCEEDED', undefined, { direction: 'to-widget' })

  // Mid-call, the widget's page goes to another origin.
  const elsewhere = fixtureUrl(origins, 'silent-widget', { from: 'navigation' }, 'hostile')
  const frame = await widgetFrame()
  await Promise.all([frame.waitForURL(elsewhere), frame.evaluate((url) => void (window.location.href = url), elsewhere).catch(() => undefined)])

  // The host re-syncs on the new load, its SYNC cannot reach another origin, and the attempt fails.
  await expect(harness.handshakeStatus).toHaveText('Handshake failed: SYNC_ACK_FAILED (timeout)')
  await expect(harness.statusBadge).toContainText('Widget failed (timeout)')
  expect(await (await widgetFrame()).evaluate(() => (window as unknown as { __syncsHeard: number }).__syncsHeard)).toBe(0)
  // The open call is flagged: it was started with createEngagement and will never be completed.
  await harness.inspector.open()
  await expect(harness.inspector.summary).toContainText('Ghost call log (never completed): 1')

  // The harness stays usable: records open, Call is refused with a reason, a reload brings the widget back.
  await harness.openRecord('contacts', '2')
  await expect(page.getByRole('button', { name: /^Call \+/ }).first()).toBeDisabled()
  await harness.openRecord('contacts', CONTACT.id)
  await harness.injectFault({ kind: 'reload-widget' })
  await expect(harness.statusBadge).toContainText('Logged in')
  await expect(widget.getByRole('region', { name: 'Dial pad' })).toBeVisible()
  const engagementId = await placeLoggedCall(await driverContext(CONTACT.phone), driver, messages, harness)
  expect(await harness.readCall(engagementId)).not.toBeNull()
})
