/**
 * A widget's huge messages do not bloat the page: the harness keeps each one as a summary (its size and its
 * first 64 KB, shared/traffic/bound.ts), so thirty 16 MB messages retain a few MB after a GC, not 480 MB.
 *
 * Reads the page's heap over CDP (HeapProfiler.collectGarbage, then Runtime.getHeapUsage: the renderer
 * isolate's heap, which also holds the same-site widget frame), never a timing. Plain Playwright, no kit
 * fixtures: the kit's message recorder copies every message to Node, and would itself hold the megabytes.
 */
import { expect, test, type CDPSession, type Frame, type Page } from '@playwright/test'
import { ourWidgetUrl } from './kit/origins.ts'
import { WIDGET_IFRAME } from './kit/placements.ts'

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
  const heapBefore = await heapAfterGc(cdp)

  // Each message is one the real CRM acts on (CALL_ENDED of no call is ignored, as the host judges it) with
  // a 16 MB field: a widget may put anything in its data.
  await frame.evaluate(
    ({ count, size }) => {
      const big = 'x'.repeat(size)
      for (let i = 0; i < count; i += 1) window.parent.postMessage({ type: 'CALL_ENDED', messageId: `huge-${i}`, data: { externalCallId: `huge-${i}`, note: big } }, '*')
    },
    { count: COUNT, size: SIZE },
  )
  await expect.poll(async () => (await loggedMessages(page)).truncated - before.truncated, { timeout: 30_000 }).toBeGreaterThanOrEqual(COUNT)

  const heapAfter = await heapAfterGc(cdp)
  const retained = heapAfter - heapBefore
  const after = await loggedMessages(page)
  test.info().annotations.push({ type: 'heap', description: `before ${(heapBefore / MB).toFixed(1)} MB, after ${(heapAfter / MB).toFixed(1)} MB, retained ${(retained / MB).toFixed(1)} MB; traffic file ${(after.chars / MB).toFixed(1)} MB` })
  console.log(`traffic heap: before ${(heapBefore / MB).toFixed(1)} MB, after ${(heapAfter / MB).toFixed(1)} MB, retained ${(retained / MB).toFixed(1)} MB; traffic file ${(after.chars / MB).toFixed(2)} MB`)
  expect(retained).toBeLessThan(RETAINED_AT_MOST)
})
