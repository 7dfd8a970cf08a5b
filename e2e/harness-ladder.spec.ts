/**
 * The inspector's ladder: a call placed through the harness, drawn with the API requests the
 * host made for each message (from the harness's own API client), the finding of a wrong
 * message pinned on its arrow, Export JSON → Import round trip, a malformed file's error, and
 * the page's traffic getter for test kits.
 */
import { readFile } from 'node:fs/promises'
import { expect, test, type Frame, type Page } from '@playwright/test'
import { openTool } from '../kit/harness.ts'
import { REFERENCE_WIDGET_SHOWS as SHOWS } from '../kit/drivers/ringside.ts'
import { pressSteadily } from '../kit/press.ts'
import { ORIGINS } from './origins.ts'

function widgetUrl(baseURL: string | undefined, params: Record<string, string>): string {
  const harness = new URL(baseURL ?? ORIGINS.harness)
  return `${harness.protocol}//${harness.hostname}:${Number(harness.port) + 1}/widget/?${new URLSearchParams(params).toString()}`
}

const inspector = (page: Page) => page.getByRole('region', { name: 'Message inspector' })
const ladder = (page: Page) => inspector(page).getByRole('region', { name: 'Ladder diagram' })
/** An arrow, by the start of its text alternative (`#12 OUTGOING_CALL_STARTED, …`, `Request POST … → 201, …`). */
const arrow = (page: Page, name: RegExp) => ladder(page).getByRole('listitem', { name })

const openInspector = (page: Page): Promise<void> => openTool(page, 'Message inspector')

async function widgetFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/widget/'))).toBe(true)
  return page.frames().find((f) => f.url().includes('/widget/'))!
}

/** A whole outbound call with our reference widget: dial, answer, hang up, notes, save. */
async function placeCall(page: Page, baseURL: string | undefined): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ widget: widgetUrl(baseURL, { outcome: 'answer', answerAfterMs: '300', autoLogin: '1' }) })}#/contacts/1`)
  const badge = page.getByRole('group', { name: 'Calling status' })
  await expect(badge).toContainText('Widget ready')
  await expect(badge).toContainText('Logged in')
  // One press: DIAL_NUMBER places the call in the widget.
  await page.getByRole('button', { name: 'Call +1 617 555 0101' }).click()
  const widget = page.frameLocator('#hubspot-calling-extension-iframe')
  await expect(SHOWS.callPlaced(widget)).toBeVisible()
  await expect(widget.getByRole('region', { name: 'Call in progress' })).toBeVisible()
  await pressSteadily(widget.getByRole('button', { name: 'Hang up' }), { until: SHOWS.wrapUp(widget) })
  await widget.getByLabel('Notes').fill('Ladder check')
  await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })
  // The call is logged when the host replies UPDATE_ENGAGEMENT_SUCCEEDED, which the traffic log then holds (a busy machine may take seconds).
  await expect
    .poll(async () => {
      const file = JSON.parse(await page.evaluate(() => (window as unknown as { __ringsideTraffic(): string }).__ringsideTraffic())) as { messages: Array<{ type: string | null }> }
      return file.messages.some((message) => message.type === 'UPDATE_ENGAGEMENT_SUCCEEDED')
    }, { timeout: 15_000 })
    .toBe(true)
}

test('the ladder draws a call: OUTGOING_CALL_STARTED → POST, CALL_COMPLETED → PATCH, and a wrong message\'s finding on its arrow', async ({ page, baseURL }) => {
  await placeCall(page, baseURL)
  // A deliberately wrong message from the widget's own frame: a call event for a call it never started.
  const frame = await widgetFrame(page)
  const harnessOrigin = new URL(page.url()).origin
  await frame.evaluate((origin) => window.parent.postMessage({ type: 'CALL_ANSWERED', messageId: 'wrong_1', data: { externalCallId: 'never-started-call' } }, origin), harnessOrigin)

  await openInspector(page)
  await inspector(page).getByRole('button', { name: 'Ladder' }).click()
  await expect(ladder(page)).toBeVisible()
  for (const lane of ['Widget', 'Host', 'CRM API']) await expect(ladder(page).getByText(lane, { exact: true })).toBeVisible()

  // One call alone: its arrows fit the window.
  const call = ladder(page).getByRole('combobox', { name: 'Call' })
  await expect(call.locator('option')).toHaveCount(2)
  await call.selectOption({ index: 1 })

  const started = arrow(page, /^#(\d+) OUTGOING_CALL_STARTED, widget → host, .*caused POST \/crm\/v3\/objects\/calls → 201/)
  await expect(started).toHaveCount(1)
  const startedSeq = /^#(\d+)/.exec((await started.getAttribute('aria-label')) ?? '')?.[1]
  const post = arrow(page, new RegExp(`^Request POST /crm/v3/objects/calls → 201, host → CRM API, .*caused by #${startedSeq} OUTGOING_CALL_STARTED`))
  await expect(post).toHaveCount(1)
  await expect(post).toContainText('POST /crm/v3/objects/calls → 201')
  await expect(arrow(page, /^Answer 201 \(\d+ ms\) to request POST \/crm\/v3\/objects\/calls → 201, CRM API → host/)).toHaveCount(1)

  // The ladder is windowed: the end of the call is drawn once scrolled to.
  await ladder(page).locator('.ladder__scroller').evaluate((el) => (el.scrollTop = el.scrollHeight))
  const completed = arrow(page, /^#(\d+) CALL_COMPLETED, widget → host, .*caused PATCH \/crm\/v3\/objects\/calls\/\d+ → 200/)
  await expect(completed).toHaveCount(1)
  const completedSeq = /^#(\d+)/.exec((await completed.getAttribute('aria-label')) ?? '')?.[1]
  await expect(arrow(page, new RegExp(`^Request PATCH /crm/v3/objects/calls/\\d+ → 200, host → CRM API, .*caused by #${completedSeq} CALL_COMPLETED`))).toHaveCount(1)
  await expect(arrow(page, /^#\d+ UPDATE_ENGAGEMENT_SUCCEEDED, host → widget, .*answers #\d+ CALL_COMPLETED/)).toHaveCount(1)

  // Click the arrow: its payload, as in the list. (The windowed ladder may still be drawing rows that arrived after
  // the call, such as the host's answer to the wrong message, which can move the arrow under a click on a busy
  // machine: press again until the details show.)
  const details = ladder(page).getByRole('region', { name: /^Details of #\d+ CALL_COMPLETED$/ })
  await expect(async () => {
    await completed.click()
    await expect(details).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 15_000 })
  await expect(details.getByRole('tree')).toContainText('type: "CALL_COMPLETED"')
  await expect(details.getByRole('tree')).toContainText('engagementProperties')
  await details.getByRole('button', { name: /^Request: PATCH \/crm\/v3\/objects\/calls\/\d+ → 200$/ }).first().click()
  await expect(ladder(page).getByRole('region', { name: /^Details of PATCH \/crm\/v3\/objects\/calls\/\d+ → 200$/ })).toBeVisible()

  // Every call: the wrong message is among the last arrows (the call's last requests may answer after it); the keyboard reaches it.
  await call.selectOption({ index: 0 })
  await ladder(page).getByRole('listitem').first().focus()
  await page.keyboard.press('End')
  const wrong = arrow(page, /^#\d+ CALL_ANSWERED, widget → host, .*ignored by the host.*error: Call event without a started call: CALL_ANSWERED for never-started-call/)
  for (let up = 0; up < 12 && !(await wrong.evaluate((el) => el === document.activeElement).catch(() => false)); up++) await page.keyboard.press('ArrowUp')
  await expect(wrong).toBeFocused()
  await expect(wrong).toContainText('error: Call event without a started call')
  await page.keyboard.press('Enter')
  await expect(ladder(page).getByRole('region', { name: /^Details of #\d+ CALL_ANSWERED$/ }).getByRole('list', { name: /^Findings for/ })).toContainText(
    'error: Call event without a started call',
  )

  // Test kits read the same traffic file from the page.
  const file = JSON.parse(await page.evaluate(() => (window as unknown as { __ringsideTraffic(): string }).__ringsideTraffic())) as {
    format: string
    requests: Array<{ method: string; path: string; status: number; causeSeq?: number }>
  }
  expect(file.format).toBe('ringside-traffic')
  expect(file.requests).toContainEqual(expect.objectContaining({ method: 'POST', path: '/crm/v3/objects/calls', status: 201, causeSeq: Number(startedSeq) }))
})

test('Export JSON, then Import: the saved call draws again with no widget running; a malformed file gets a clear error', async ({ page, baseURL }) => {
  await placeCall(page, baseURL)
  await openInspector(page)
  const downloading = page.waitForEvent('download')
  await inspector(page).getByRole('button', { name: 'Export JSON' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^ringside-traffic-.*\.json$/)
  const saved = await readFile((await download.path())!, 'utf8')

  // A harness page with no widget (an unreachable widget URL): the import needs none.
  await page.goto(`/?${new URLSearchParams({ widget: 'http://127.0.0.1:9/none/' })}#/contacts`)
  await openInspector(page)
  const input = inspector(page).getByLabel('Import a traffic file')
  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"ringside-traffic","version":1,"exportedAt":"x","messages":[{"seq":1,"time":1,"direction":"up"}],"requests":[]}') })
  await expect(inspector(page).getByRole('alert')).toContainText('Could not import broken.json: Not a usable Ringside traffic file: messages[0].direction')
  await input.setInputFiles({ name: 'not-json.json', mimeType: 'application/json', buffer: Buffer.from('<html>oops') })
  await expect(inspector(page).getByRole('alert')).toContainText('Could not import not-json.json: Not a usable Ringside traffic file: it is not JSON')
  await expect(inspector(page)).toBeVisible()

  await input.setInputFiles({ name: 'saved-call.json', mimeType: 'application/json', buffer: Buffer.from(saved) })
  await expect(inspector(page).getByRole('status')).toContainText('Showing the imported file saved-call.json')
  await expect(inspector(page).getByRole('alert')).toHaveCount(0)
  await ladder(page).getByRole('combobox', { name: 'Call' }).selectOption({ index: 1 })
  await expect(arrow(page, /^#\d+ OUTGOING_CALL_STARTED, widget → host, .*caused POST \/crm\/v3\/objects\/calls → 201/)).toHaveCount(1)
  await expect(arrow(page, /^Request PATCH \/crm\/v3\/objects\/calls\/\d+ → 200, .*caused by #\d+ CALL_COMPLETED/)).not.toHaveCount(0)

  // Export SVG: a standalone document of what is shown.
  const svgDownload = page.waitForEvent('download')
  await ladder(page).getByRole('button', { name: 'Export SVG' }).click()
  const svg = await readFile((await (await svgDownload).path())!, 'utf8')
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
  expect(svg).toContain('<title>POST /crm/v3/objects/calls → 201</title>')
  expect(svg).not.toMatch(/<script|href=/)
})
