/**
 * Playwright fixtures of the Ringside end-to-end kit. Use them in your own
 * specs instead of `@playwright/test`'s `test`:
 *
 *   import { test, expect } from 'ringside/playwright'
 *   test('my widget logs the call', async ({ harness, messages, widget }) => { … })
 *
 * - `widgetUrl` / `widgetDriver` (options): the widget under test (default
 *   $WIDGET_URL, else Ringside's reference widget) and its driver (default
 *   $WIDGET_DRIVER, else guessed from the URL).
 * - `placement` (option): where the harness places the widget, `widget`
 *   (default), `remote` or `window` (the calling window); `harness.open()`
 *   asks for it with `?placement=`. Set it per project to run a suite in
 *   every placement (see placements.ts).
 * - `messages`: the wire log of the page, both directions, recorded
 *   black-box in every frame (see message-recorder.ts). Attached to the
 *   report as JSON when the test fails. After every test that recorded a
 *   message, the ladder of its traffic is attached as `ladder.svg` (the
 *   harness's own record, with the CRM API requests it made; traffic.ts), so
 *   it shows in Playwright's HTML report; `attachLadder: false` turns it off.
 * - `harness`: page object of the harness (open, records, Call, faults,
 *   inspector, CRM API reads).
 * - `widget`: a FrameLocator for the widget iframe; `widgetFrame()` its Frame.
 * - `driver`: the widget driver; `driverContext(dialedNumber)` builds the
 *   context its steps take.
 * - `sdkCdn` (automatic): the SDK's public CDN URLs (jsDelivr, unpkg) answered
 *   by the Ringside server, as sdk-cdn.ts says; an SDK URL it cannot answer is
 *   named in the annotation `sdk-cdn`. Turn it off with the option `mapSdkCdn: false`.
 */
import { test as base, expect, type Frame, type FrameLocator } from '@playwright/test'
import { loadDriver } from './drivers/load-driver.ts'
import type { DriverContext, WidgetDriver } from './drivers/types.ts'
import { Harness } from './harness.ts'
import type { MessageLog } from './message-log.ts'
import { installMessageRecorder } from './message-recorder.ts'
import type { Placement } from './placements.ts'
import { kitOrigins, originOf, ourWidgetUrl, type KitOrigins } from './origins.ts'
import { routeSdkCdn, type SdkCdnRoutes } from './sdk-cdn.ts'
import { ladderAttachment, trafficOf } from './traffic.ts'

export interface KitOptions {
  /** The widget under test (absolute http(s) URL). */
  widgetUrl: string
  /** `auto`, a built-in driver (`ringside`, `npm-fixture`, `generic`, `none`) or a path to a driver module. */
  widgetDriver: string
  /** Where the harness places the widget (default `widget`). */
  placement: Placement
  /** Answer the SDK's CDN URLs from Ringside (default true). */
  mapSdkCdn: boolean
  /** Attach the ladder of the test's traffic as SVG (default true). */
  attachLadder: boolean
}

export interface KitFixtures {
  /** Harness, widget and hostile origins of this run (from baseURL). */
  origins: KitOrigins
  messages: MessageLog
  harness: Harness
  widget: FrameLocator
  widgetFrame: () => Promise<Frame>
  driver: WidgetDriver
  driverContext: (dialedNumber: string) => Promise<DriverContext>
  /** The SDK's CDN routes of this test's context (null with mapSdkCdn: false). */
  sdkCdn: SdkCdnRoutes | null
}

export const test = base.extend<KitOptions & KitFixtures>({
  widgetUrl: [async ({ baseURL }, use) => use(process.env.WIDGET_URL ?? ourWidgetUrl(baseURL)), { option: true }],
  widgetDriver: [async ({}, use) => use(process.env.WIDGET_DRIVER ?? 'auto'), { option: true }],
  placement: ['widget', { option: true }],
  mapSdkCdn: [true, { option: true }],
  attachLadder: [true, { option: true }],

  origins: async ({ baseURL }, use) => use(kitOrigins(baseURL)),

  sdkCdn: [
    async ({ context, origins, mapSdkCdn }, use, testInfo) => {
      const routes = mapSdkCdn ? await routeSdkCdn(context, origins.harness) : null
      await use(routes)
      const problems = routes?.problems() ?? []
      if (problems.length > 0) testInfo.annotations.push({ type: 'sdk-cdn', description: problems.join('\n') })
    },
    { auto: true },
  ],

  messages: async ({ page, origins, widgetUrl, attachLadder }, use, testInfo) => {
    const log = await installMessageRecorder(page, { harness: origins.harness, widget: originOf(widgetUrl) })
    await use(log)
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('message-log.json', { body: log.toJSONText(), contentType: 'application/json' })
    }
    if (attachLadder && log.all().length > 0) {
      const traffic = await trafficOf(page.context().pages(), log.all(), widgetUrl)
      const { name, body, contentType } = ladderAttachment(traffic, testInfo.titlePath.slice(1).join(' › '))
      await testInfo.attach(name, { body, contentType })
    }
  },

  harness: async ({ page, messages, widgetUrl, placement }, use) => {
    await use(new Harness(page, { defaultWidgetUrl: widgetUrl, placement, onOpen: (url) => url !== undefined && messages.setWidgetOrigin(originOf(url)) }))
  },

  widget: async ({ harness }, use) => use(harness.widget),

  widgetFrame: async ({ harness }, use) => use(() => harness.widgetFrame()),

  driver: async ({ widgetDriver, widgetUrl, origins }, use) => use(await loadDriver(widgetDriver, widgetUrl, origins)),

  driverContext: async ({ page, harness, messages }, use) =>
    use(async (dialedNumber) => {
      const frame = await harness.widgetFrame()
      return { page, harness, widget: harness.widget, frame, messages, dialedNumber }
    }),
})

export { expect }
