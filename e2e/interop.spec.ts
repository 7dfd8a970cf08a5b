/**
 * Cross-origin interop of our calling SDK (shared/protocol) in real Chromium:
 * the host page on the harness origin, the widget iframe on the widget origin,
 * a hostile frame on a third origin.
 *
 * (a) our CallingHost ↔ a widget built on the npm package 0.9.7
 * (b) our CallingExtensions ↔ a plain host page that speaks the CRM's wire protocol
 * (c) forged messages from a third-origin frame are ignored and logged on both sides
 *
 * Fixtures live in e2e/fixtures/; their window globals are typed in
 * e2e/support/fixture-globals.ts. Waits use waitForFunction on those globals.
 */
import { expect, test, type Frame, type Page } from '@playwright/test'
import { ORIGINS } from './origins.ts'
import type {
  HostileFixtureWindow,
  PlainHostFixtureWindow,
  SdkHostFixtureWindow,
  SdkWidgetFixtureWindow,
  WidgetFixtureWindow,
} from './support/fixture-globals.ts'
import { SYNC_FIELDS } from './support/host-page.ts'
import { frameFrom, openInterop, type InteropPage } from './support/interop-pages.ts'
import { FAILED_KEY, HOST_MESSAGES, WIDGET_METHODS } from './support/wire-catalogue.ts'

type Wire = Record<string, unknown>

// ── page helpers (evaluate callbacks run in the page: they only touch window) ──

async function sdkHostReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as SdkHostFixtureWindow).__status === 'ready')
}

async function widgetReady(widget: Frame): Promise<void> {
  await widget.waitForFunction(() => (window as unknown as WidgetFixtureWindow).__readyAt !== null)
}

async function plainHostReady(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as PlainHostFixtureWindow).__ack !== null)
}

/** Handler calls of a widget fixture, without the onReady of the handshake. */
async function handlerCalls(widget: Frame): Promise<{ handler: string; data: unknown; message: unknown }[]> {
  return widget.evaluate(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler !== 'onReady'))
}

/** Messages the plain host received from the widget's window and origin. */
async function trustedLog(page: Page): Promise<Wire[]> {
  return page.evaluate(() =>
    (window as unknown as PlainHostFixtureWindow).__log.filter((entry) => entry.trusted).map((entry) => entry.data as Record<string, unknown>),
  )
}

/** Waits until the plain host got a trusted message of `type` (the `nth`, 1-based). */
async function waitForTrusted(page: Page, type: string, nth = 1): Promise<void> {
  await page.waitForFunction(
    ([wanted, count]) =>
      (window as unknown as PlainHostFixtureWindow).__log.filter((entry) => entry.trusted && (entry.data as { type?: unknown }).type === wanted).length >=
      count,
    [type, nth] as const,
  )
}

async function callWidget(widget: Frame, method: string, payload: unknown): Promise<void> {
  await widget.evaluate(([name, data]) => void (window as unknown as WidgetFixtureWindow).__call(name, data), [method, payload] as const)
}

async function openSdkHostWithNpmWidget(page: Page): Promise<InteropPage> {
  const opened = await openInterop(page, { host: 'sdk-host', widget: 'npm-widget' })
  await sdkHostReady(page)
  await widgetReady(opened.widget)
  return opened
}

async function openPlainHostWith(page: Page, widget: 'npm-widget' | 'sdk-widget'): Promise<InteropPage> {
  const opened = await openInterop(page, { host: 'plain-host', widget })
  await plainHostReady(page)
  await widgetReady(opened.widget)
  return opened
}

const EXPECTED_READY = { ...SYNC_FIELDS, hostUrl: ORIGINS.testPages }

/**
 * One page per worker for the table-driven rows below. Each row sends a
 * message type no other row sends and reads back only that type, so rows do
 * not see each other; loading a fresh host and widget per row would spend
 * nearly all of the suite's time on page loads.
 */
interface SharedPages {
  sdkHostWithNpm: { page: Page; widget: Frame }
  plainHostWithSdk: { page: Page; widget: Frame }
  plainHostWithNpm: { page: Page; widget: Frame }
}

const shared = test.extend<object, SharedPages>({
  sdkHostWithNpm: [
    async ({ browser }, use) => {
      const page = await browser.newPage()
      const { widget } = await openSdkHostWithNpmWidget(page)
      await use({ page, widget })
      await page.close()
    },
    { scope: 'worker' },
  ],
  plainHostWithSdk: [
    async ({ browser }, use) => {
      const page = await browser.newPage()
      const { widget } = await openPlainHostWith(page, 'sdk-widget')
      await use({ page, widget })
      await page.close()
    },
    { scope: 'worker' },
  ],
  plainHostWithNpm: [
    async ({ browser }, use) => {
      const page = await browser.newPage()
      const { widget } = await openPlainHostWith(page, 'npm-widget')
      await use({ page, widget })
      await page.close()
    },
    { scope: 'worker' },
  ],
})

// ── (a) our host ↔ the npm package's widget ─────────────────────────────────

test.describe('our CallingHost with a widget built on the npm package 0.9.7', () => {
  test('completes the handshake and the npm widget receives the SYNC fields in onReady', async ({ page }) => {
    const { widget } = await openSdkHostWithNpmWidget(page)

    const ready = await widget.evaluate(() =>
      (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady').map((call) => call.data),
    )
    expect(ready).toEqual([EXPECTED_READY])
    const handshake = await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__handshake)
    expect(handshake).toMatchObject({ debugMode: false, iFrameUrl: ORIGINS.testWidgets })
    expect(typeof handshake?.version).toBe('string')
  })

  for (const c of WIDGET_METHODS) {
    // SET_WIDGET_URL makes our host load another page into the frame: that row gets a page of its own.
    const ownPage = c.type === 'SET_WIDGET_URL'
    shared(`npm widget ${c.method}() arrives at our host as a valid ${c.type} event`, async ({ page: freshPage, sdkHostWithNpm }) => {
      const { page, widget } = ownPage ? { page: freshPage, ...(await openSdkHostWithNpmWidget(freshPage)) } : sdkHostWithNpm

      await callWidget(widget, c.method, c.payload)
      await page.waitForFunction((type) => (window as unknown as SdkHostFixtureWindow).__events.some((event) => event.type === type), c.type)

      const { events, traffic, rejected } = await page.evaluate((type) => {
        const w = window as unknown as SdkHostFixtureWindow
        return {
          events: w.__events.filter((event) => event.type === type),
          traffic: w.__traffic.filter((entry) => entry.direction === 'in' && entry.type === type),
          rejected: w.__rejected,
        }
      }, c.type)
      expect(events).toHaveLength(1)
      expect(events[0]?.data).toStrictEqual(c.payload)
      expect(events[0]?.message).toMatchObject({ type: c.type })
      expect(traffic.map((entry) => entry.valid)).toEqual([true])
      expect(rejected).toEqual([])
    })
  }

  for (const c of HOST_MESSAGES) {
    shared(`our host's ${c.hostMethod}() reaches the npm widget's ${c.handler}`, async ({ sdkHostWithNpm: { page, widget } }) => {
      await page.evaluate(([method, data]) => void (window as unknown as SdkHostFixtureWindow).__call(method, data), [c.hostMethod, c.payload] as const)
      await widget.waitForFunction(
        (handler) => (window as unknown as WidgetFixtureWindow).__received.some((call) => call.handler === handler),
        c.handler,
      )

      const calls = (await handlerCalls(widget)).filter((call) => (call.message as Wire | undefined)?.type === c.type)
      // The npm package calls the literal FAILED key first for every *_FAILED type.
      const expected = c.type.endsWith('_FAILED') ? [FAILED_KEY, c.handler] : [c.handler]
      expect(calls.map((call) => call.handler)).toEqual(expected)
      for (const call of calls) {
        expect(call.data).toStrictEqual(c.payload)
        expect(call.message).toMatchObject({ type: c.type })
        // A digit-leading id could collide with the widget's own prefix and be swallowed.
        expect(String((call.message as Wire).messageId)).toMatch(/^[A-Za-z]/)
      }
      const sent = await page.evaluate(
        (type) => (window as unknown as SdkHostFixtureWindow).__traffic.filter((entry) => entry.direction === 'out' && entry.type === type),
        c.type,
      )
      expect(sent.map((entry) => entry.valid)).toEqual([true])
    })
  }

  test("our host's send('READY') reaches the npm widget's onReady again with its data", async ({ page }) => {
    const { widget } = await openSdkHostWithNpmWidget(page)
    const data = { ...SYNC_FIELDS, portalId: 456, hostUrl: ORIGINS.testPages }

    await page.evaluate((payload) => void (window as unknown as SdkHostFixtureWindow).__send('READY', payload), data)
    await widget.waitForFunction(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady').length === 2)

    const readies = await widget.evaluate(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady'))
    expect(readies[1]?.data).toStrictEqual(data)
  })

  test("our host's send('SET_WIDGET_URL') reaches the npm widget's onReady as {iFrameUrl}, and the widget keeps talking to our host", async ({ page }) => {
    const { widget } = await openSdkHostWithNpmWidget(page)
    // SET_WIDGET_URL from a host retargets the widget to that URL: our host's own page here.
    const url = `${ORIGINS.testPages}/e2e/fixtures/sdk-host/?moved=1`

    await page.evaluate((iFrameUrl) => void (window as unknown as SdkHostFixtureWindow).__send('SET_WIDGET_URL', { iFrameUrl }), url)
    // The npm package handles SET_WIDGET_URL internally (it reads only the top-level
    // iFrameUrl) and reports it through onReady.
    await widget.waitForFunction(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady').length === 2)
    const readies = await widget.evaluate(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady'))
    expect(readies[1]?.data).toStrictEqual({ iFrameUrl: url })
    await callWidget(widget, 'callData', { after: 'SET_WIDGET_URL' })
    await page.waitForFunction(() => (window as unknown as SdkHostFixtureWindow).__events.some((event) => event.type === 'CALL_DATA'))
    expect(await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__rejected)).toEqual([])
  })

  test('npm widget setWidgetUrl() makes our host load the new URL and handshake with it again', async ({ page }) => {
    await openSdkHostWithNpmWidget(page)
    const catalogued = WIDGET_METHODS.find((c) => c.method === 'setWidgetUrl')?.payload?.iFrameUrl
    expect(typeof catalogued).toBe('string')
    // The catalogue's URL names the default widget port; the page that serves it is on this run's widget origin.
    const { pathname, search } = new URL(catalogued as string)
    const target = `${ORIGINS.testWidgets}${pathname}${search}`
    const first = await frameFrom(page, ORIGINS.testWidgets)

    await callWidget(first, 'setWidgetUrl', { iFrameUrl: target })
    await page.waitForFunction(() => (window as unknown as SdkHostFixtureWindow).__statuses.filter((status) => status === 'ready').length === 2)

    const moved = page.frames().find((frame) => frame.url() === target)
    expect(moved).toBeDefined()
    if (moved) await widgetReady(moved)
    expect(await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__status)).toBe('ready')
  })
})

// ── (b) our widget ↔ a plain host ───────────────────────────────────────────

test.describe('our CallingExtensions with a plain host that speaks the CRM wire protocol', () => {
  test('acknowledges the SYNC with its messageId and fields plus debugMode, version and iFrameUrl', async ({ page }) => {
    const { widget } = await openPlainHostWith(page, 'sdk-widget')

    const { ack, syncs } = await page.evaluate(() => {
      const w = window as unknown as PlainHostFixtureWindow
      return { ack: w.__ack, syncs: w.__syncs }
    })
    const sync = syncs.find((candidate) => candidate.messageId === ack?.messageId)
    expect(sync).toBeDefined()
    expect(ack).toStrictEqual({ ...sync, type: 'SYNC_ACK', debugMode: false, version: expect.any(String), iFrameUrl: ORIGINS.testWidgets })
    const ready = await widget.evaluate(() =>
      (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady').map((call) => call.data),
    )
    expect(ready).toEqual([EXPECTED_READY])
  })

  test('answers only the first SYNC of a page', async ({ page }) => {
    const { widget } = await openPlainHostWith(page, 'sdk-widget')

    await page.evaluate(() => {
      const w = window as unknown as PlainHostFixtureWindow
      w.__post({ type: 'SYNC', messageId: 'host_again', hostUrl: location.origin, portalId: 999, userId: 7, ownerId: 7, iframeLocation: 'widget', usesCallingWindow: false })
      // An unknown type afterwards: its ERROR reply proves the SYNC was processed first.
      w.__post({ type: 'NOT_A_CALLING_TYPE', messageId: 'host_probe' })
    })
    await waitForTrusted(page, 'ERROR')

    const acks = (await trustedLog(page)).filter((message) => message.type === 'SYNC_ACK')
    expect(acks).toHaveLength(1)
    const readies = await widget.evaluate(() => (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady'))
    expect(readies).toHaveLength(1)
  })

  test('delivers messages sent before the handshake after the SYNC_ACK, in order', async ({ page }) => {
    const { widget } = await openInterop(page, { host: 'plain-host', widget: 'sdk-widget', hostQuery: { sync: 'manual' } })
    const early = WIDGET_METHODS.filter((c) => ['initialized', 'userLoggedIn', 'userAvailable', 'outgoingCall'].includes(c.method))
    for (const c of early) await callWidget(widget, c.method, c.payload)
    expect(await widget.evaluate(() => (window as unknown as SdkWidgetFixtureWindow).__isReady())).toBe(false)
    expect(await trustedLog(page)).toEqual([])

    await page.evaluate(() => (window as unknown as PlainHostFixtureWindow).__startSync())
    await waitForTrusted(page, 'OUTGOING_CALL_STARTED')

    const delivered = await trustedLog(page)
    expect(delivered.map((message) => message.type)).toEqual(['SYNC_ACK', ...early.map((c) => c.type)])
    expect(delivered.slice(1).map((message) => message.data)).toStrictEqual(early.map((c) => c.payload))
  })

  for (const c of WIDGET_METHODS) {
    shared(`${c.method}() puts the same message on the wire as the npm package`, async ({ plainHostWithSdk, plainHostWithNpm }) => {
      const { page } = plainHostWithSdk
      const npmPage = plainHostWithNpm.page
      const ours = plainHostWithSdk
      const npm = plainHostWithNpm

      await callWidget(ours.widget, c.method, c.payload)
      await callWidget(npm.widget, c.method, c.payload)
      await waitForTrusted(page, c.type)
      await waitForTrusted(npmPage, c.type)

      const pick = (log: Wire[]) => log.find((message) => message.type === c.type)
      const ourMessage = pick(await trustedLog(page))
      const npmMessage = pick(await trustedLog(npmPage))
      const { messageId: ourId, ...ourRest } = ourMessage ?? {}
      const { messageId: npmId, ...npmRest } = npmMessage ?? {}
      expect(ourRest).toStrictEqual(npmRest)
      expect(Object.keys(ourMessage ?? {}).sort()).toEqual(Object.keys(npmMessage ?? {}).sort())
      if (c.payload === undefined) expect(ourMessage).not.toHaveProperty('data')
      expect(String(npmId)).toMatch(/^\d+_\d+$/)
      expect(ourId).toEqual(expect.stringMatching(/^[A-Za-z]/))
    })
  }

  // Types a widget does not handle, including a widget→host type and the
  // UPDATE_ASSOCIATIONS_FAILED that 0.9.5 removed.
  for (const type of ['NOT_A_CALLING_TYPE', 'CALL_ENDED', 'UNLOADING', 'UPDATE_ASSOCIATIONS_FAILED']) {
    test(`answers a host message of unknown type ${type} with an UNKNOWN_MESSAGE_TYPE ERROR`, async ({ page }) => {
      const { widget } = await openPlainHostWith(page, 'sdk-widget')
      const sent = { type, messageId: `host_unknown_${type}`, data: { engagementId: 1, externalCallId: 'x' } }

      await page.evaluate((message) => (window as unknown as PlainHostFixtureWindow).__post(message), sent)
      await waitForTrusted(page, 'ERROR')

      const errors = (await trustedLog(page)).filter((message) => message.type === 'ERROR')
      expect(errors).toHaveLength(1)
      expect(errors[0]).toStrictEqual({
        type: 'ERROR',
        messageId: expect.stringMatching(/^[A-Za-z]/),
        data: { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: sent } },
      })
      expect(await handlerCalls(widget)).toEqual([])
    })
  }

  test('never answers an ERROR from the host', async ({ page }) => {
    await openPlainHostWith(page, 'sdk-widget')

    await page.evaluate(() => {
      const w = window as unknown as PlainHostFixtureWindow
      w.__post({ type: 'ERROR', messageId: 'host_error', data: { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: { type: 'X' } } } })
      // Processed after the ERROR: once its reply is here, an ERROR reply would be too.
      w.__post({ type: 'NOT_A_CALLING_TYPE', messageId: 'host_probe' })
    })
    await waitForTrusted(page, 'ERROR')

    const errors = (await trustedLog(page)).filter((message) => message.type === 'ERROR')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ data: { data: { originalMessage: { messageId: 'host_probe' } } } })
  })
})

// ── (c) a hostile third-origin frame ────────────────────────────────────────

const FORGED_PER_ROUND = 6

async function attack(hostile: Frame | null): Promise<void> {
  if (!hostile) throw new Error('the page has no hostile frame')
  await hostile.evaluate(() => (window as unknown as HostileFixtureWindow).__attack())
}

async function heardByHostile(hostile: Frame | null): Promise<unknown[]> {
  if (!hostile) throw new Error('the page has no hostile frame')
  return hostile.evaluate(() => (window as unknown as HostileFixtureWindow).__heard)
}

/** How many drop/ignore diagnostics our widget has logged so far. */
async function widgetRejections(widget: Frame): Promise<number> {
  return widget.evaluate(() => (window as unknown as SdkWidgetFixtureWindow).__diagnostics.filter((entry) => /dropped|ignored|rejected/i.test(entry.text)).length)
}

async function waitForWidgetRejections(widget: Frame, atLeast: number): Promise<void> {
  await widget.waitForFunction(
    (expected) =>
      (window as unknown as SdkWidgetFixtureWindow).__diagnostics.filter((entry) => /dropped|ignored|rejected/i.test(entry.text)).length >= expected,
    atLeast,
  )
}

test.describe('forged messages from a frame on a third origin', () => {
  test('are ignored and logged by our host and our widget after the handshake', async ({ page }) => {
    const { widget, hostile } = await openInterop(page, { host: 'sdk-host', widget: 'sdk-widget', hostile: true })
    await sdkHostReady(page)
    await widgetReady(widget)
    const hostRejectedBefore = await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__rejected.length)
    const widgetRejectedBefore = await widgetRejections(widget)

    await attack(hostile)
    await page.waitForFunction(
      (expected) => (window as unknown as SdkHostFixtureWindow).__rejected.length >= expected,
      hostRejectedBefore + FORGED_PER_ROUND,
    )
    await waitForWidgetRejections(widget, widgetRejectedBefore + FORGED_PER_ROUND)

    const host = await page.evaluate(() => {
      const w = window as unknown as SdkHostFixtureWindow
      return { status: w.__status, statuses: w.__statuses, events: w.__events, rejected: w.__rejected, handshake: w.__handshake }
    })
    expect(host.status).toBe('ready')
    expect(host.statuses.filter((status) => status === 'ready')).toHaveLength(1)
    expect(host.events).toEqual([])
    expect(host.handshake).toMatchObject({ iFrameUrl: ORIGINS.testWidgets })
    expect(host.rejected.length).toBeGreaterThanOrEqual(FORGED_PER_ROUND)
    expect(new Set(host.rejected.map((rejection) => rejection.origin))).toEqual(new Set([ORIGINS.hostile]))
    expect(await handlerCalls(widget)).toEqual([])
    expect(await widget.evaluate(() => (window as unknown as SdkWidgetFixtureWindow).__hostOrigin())).toBe(ORIGINS.testPages)
    expect(await heardByHostile(hostile)).toEqual([])

    // The real channel still works both ways.
    const dial = HOST_MESSAGES.find((c) => c.type === 'DIAL_NUMBER')
    await page.evaluate((data) => void (window as unknown as SdkHostFixtureWindow).__call('dialNumber', data), dial?.payload)
    await widget.waitForFunction(() => (window as unknown as WidgetFixtureWindow).__received.some((call) => call.handler === 'onDialNumber'))
    expect((await handlerCalls(widget)).map((call) => call.data)).toStrictEqual([dial?.payload])
  })

  test('cannot complete the handshake with our widget before the real host does', async ({ page }) => {
    const { widget, hostile } = await openInterop(page, { host: 'plain-host', widget: 'sdk-widget', hostile: true, hostQuery: { sync: 'manual' } })

    const rejectedBefore = await widgetRejections(widget)
    await attack(hostile)
    await waitForWidgetRejections(widget, rejectedBefore + FORGED_PER_ROUND)
    expect(await widget.evaluate(() => (window as unknown as SdkWidgetFixtureWindow).__isReady())).toBe(false)
    expect(await widget.evaluate(() => (window as unknown as WidgetFixtureWindow).__received)).toEqual([])

    await page.evaluate(() => (window as unknown as PlainHostFixtureWindow).__startSync())
    await plainHostReady(page)
    await widgetReady(widget)
    const ready = await widget.evaluate(() =>
      (window as unknown as WidgetFixtureWindow).__received.filter((call) => call.handler === 'onReady').map((call) => call.data),
    )
    expect(ready).toEqual([EXPECTED_READY])
    expect(await widget.evaluate(() => (window as unknown as SdkWidgetFixtureWindow).__hostOrigin())).toBe(ORIGINS.testPages)
    expect(await heardByHostile(hostile)).toEqual([])
  })

  test('cannot complete the handshake with our host before the real widget does', async ({ page }) => {
    const { widget, hostile } = await openInterop(page, { host: 'sdk-host', widget: 'sdk-widget', hostile: true, hostQuery: { withhold: '1' } })
    await page.waitForFunction(() => (window as unknown as SdkHostFixtureWindow).__loadAt !== null)
    const statusBefore = await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__status)
    const rejectedBefore = await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__rejected.length)

    await attack(hostile)
    await page.waitForFunction(
      (expected) => (window as unknown as SdkHostFixtureWindow).__rejected.length >= expected,
      rejectedBefore + FORGED_PER_ROUND,
    )
    const during = await page.evaluate(() => {
      const w = window as unknown as SdkHostFixtureWindow
      return { status: w.__status, handshake: w.__handshake, events: w.__events }
    })
    expect(during).toEqual({ status: statusBefore, handshake: null, events: [] })
    expect(statusBefore).not.toBe('ready')

    await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__setFaults({ withholdSync: false }))
    await sdkHostReady(page)
    await widgetReady(widget)
    expect(await page.evaluate(() => (window as unknown as SdkHostFixtureWindow).__handshake)).toMatchObject({ iFrameUrl: ORIGINS.testWidgets })
    expect(await heardByHostile(hostile)).toEqual([])
  })
})
