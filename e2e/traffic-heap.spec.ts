/**
 * A widget's huge messages do not bloat the page: the harness keeps each one as a summary (its size and its
 * first 64 KB, shared/traffic/bound.ts), so thirty 16 MB messages retain a few MB after a GC, not 480 MB.
 *
 * Reads the page's heap over CDP (HeapProfiler.collectGarbage, then Runtime.getHeapUsage: the renderer
 * isolate's heap, which also holds the same-site widget frame), never a timing. Plain Playwright, no kit
 * fixtures: the kit's message recorder copies every message to Node, and would itself hold the megabytes.
 */
import { expect, test, type CDPSession, type Frame, type Page } from '@playwright/test'
import { ourWidgetUrl } from '../kit/origins.ts'
import { WIDGET_IFRAME } from '../kit/placements.ts'

const MB = 1024 * 1024
const COUNT = 30
const SIZE = 16 * MB
/** What thirty 16 MB messages may retain in the page after a GC. */
const RETAINED_AT_MOST = 150 * MB

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  // Two collections: the first can leave garbage that finalizers free for the second.
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize
}

async function widgetFrame(page: Page): Promise<Frame> {
  const handle = await page.locator(WIDGET_IFRAME).elementHandle({ timeout: 15_000 })
  const frame = await handle?.contentFrame()
  if (!frame) throw new Error('The widget iframe has no frame')
  return frame
}

/** How many entries the page's traffic log holds (the getter test kits read, bounded text). */
async function loggedMessages(page: Page): Promise<{ count: number; truncated: number; chars: number }> {
  return page.evaluate(() => {
    const text = (window as unknown as { __ringsideTraffic?: () => string }).__ringsideTraffic?.() ?? '{"messages":[]}'
    const file = JSON.parse(text) as { messages: Array<{ truncated?: unknown }> }
    return { count: file.messages.length, truncated: file.messages.filter((m) => m.truncated !== undefined).length, chars: text.length }
  })
}

test(`${COUNT} messages of 16 MB from the widget retain less than 150 MB in the page after a GC`, async ({ page, baseURL }) => {
  test.setTimeout(60_000)
  await page.goto(`/?widget=${encodeURIComponent(ourWidgetUrl(baseURL))}#/contacts/1`)
  await expect(page.getByText('Widget ready').first()).toBeVisible({ timeout: 15_000 })
  const frame = await widgetFrame(page)
  const cdp = await page.context().newCDPSession(page)
  const before = await loggedMessages(page)
  // Counts the huge messages as they arrive, holding none of them (reading the log's text would flatten its strings).
  await page.evaluate(() => {
    const scope = window as unknown as { __hugeSeen: number }
    scope.__hugeSeen = 0
    window.addEventListener('message', (event: MessageEvent<{ messageId?: unknown }>) => {
      if (typeof event.data?.messageId === 'string' && event.data.messageId.startsWith('huge-')) scope.__hugeSeen += 1
    })
  })
  const heapBefore = await heapAfterGc(cdp)

  // Every shape of the same 16 MB: a field the host does not read, a wrong-typed engagementId (a deviation the
  // host notes, quoting the value), and an ERROR the host acts on (its toast) as the real CRM would.
  await frame.evaluate(
    ({ count, size }) => {
      const big = 'x'.repeat(size)
      for (let i = 0; i < count; i += 1) {
        const messageId = `huge-${i}`
        const message =
          i === 0
            ? { type: 'ERROR', messageId, data: { message: `huge error ${big}` } }
            : i % 2 === 0
              ? { type: 'CALL_ENDED', messageId, data: { externalCallId: messageId, engagementId: big } }
              : { type: 'CALL_ENDED', messageId, data: { externalCallId: messageId, note: big } }
        window.parent.postMessage(message, '*')
      }
    },
    { count: COUNT, size: SIZE },
  )
  await expect.poll(() => page.evaluate(() => (window as unknown as { __hugeSeen: number }).__hugeSeen), { timeout: 30_000 }).toBe(COUNT)
  // The store applies entries on the next animation frame (50 ms at the latest in a hidden tab).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))))

  const heapAfter = await heapAfterGc(cdp)
  const retained = heapAfter - heapBefore
  const after = await loggedMessages(page)
  const figures = `before ${(heapBefore / MB).toFixed(1)} MB, after ${(heapAfter / MB).toFixed(1)} MB, retained ${(retained / MB).toFixed(1)} MB; traffic file ${(after.chars / MB).toFixed(2)} MB`
  test.info().annotations.push({ type: 'heap', description: figures })
  expect(retained, figures).toBeLessThan(RETAINED_AT_MOST)
  // Each is in the log, said to be truncated; the host acted on the ERROR whole (its toast quotes its start).
  expect(after.count - before.count).toBeGreaterThanOrEqual(COUNT)
  expect(after.truncated - before.truncated).toBe(COUNT)
  await expect(page.getByRole('alert').filter({ hasText: 'huge error xxx' })).toBeVisible()
})
