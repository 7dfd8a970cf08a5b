import { expect, test, type Page } from '@playwright/test'
import type { WidgetHostWindow, WireRecord } from './fixtures/widget-host/main.ts'
import { REFERENCE_WIDGET_SHOWS as SHOWS } from '../kit/drivers/ringside.ts'
import { pressSteadily } from '../kit/press.ts'
import { ORIGINS } from './origins.ts'

/**
 * The reference widget (served from the widget origin) inside a plain host
 * page (a test page on its own origin, which the e2e server lets frame
 * Ringside's pages) that speaks the wire protocol by hand. The test
 * drives the widget's UI and checks the exact messages it put on the wire.
 */

const wire = (page: Page) => page.evaluate(() => (window as unknown as Partial<WidgetHostWindow>).__wire ?? [])

const dataOf = (records: WireRecord[], type: string): Record<string, unknown> => {
  const record = records.find((r) => r.type === type)
  expect(record, `${type} on the wire`).toBeDefined()
  return (record?.data ?? {}) as Record<string, unknown>
}

test('the reference widget places, answers, ends and logs a call with the exact wire sequence', async ({ page }) => {
  const widgetUrl = `${ORIGINS.widget}/widget/?outcome=answer&answerAfterMs=300`
  await page.goto(`${ORIGINS.testPages}/e2e/fixtures/widget-host/?${new URLSearchParams({ widget: widgetUrl }).toString()}`)
  const widget = page.frameLocator('iframe[title="Calling widget"]')
  const status = widget.getByRole('status', { name: 'Call status' })

  // handshake: SYNC_ACK, then INITIALIZED (logged out)
  await expect.poll(async () => (await wire(page)).map((r) => r.type)).toContain('INITIALIZED')
  await expect(status).toHaveText('Logged out')
  await expect(widget.getByText('CRM connected')).toBeVisible()

  // log in: the host answers LOGGED_IN with a DIAL_NUMBER (the CRM's Call), which places the call at once;
  // the simulated line answers after 300 ms; the host created engagement 101
  await pressSteadily(widget.getByRole('button', { name: 'Log in' }), { until: SHOWS.callPlaced(widget) })
  await expect(widget.getByText('Logged in the CRM (engagement 101)')).toBeVisible()
  await expect(status).toHaveText(/^In call \d\d:\d\d$/)

  // hang up, wrap up, save
  await pressSteadily(widget.getByRole('button', { name: 'Hang up' }), { until: SHOWS.wrapUp(widget) })
  await expect(status).toHaveText('Call ended — wrap up')
  await widget.getByRole('textbox', { name: 'Notes' }).fill('Booked a demo for Tuesday')
  await widget.getByRole('combobox', { name: 'Disposition' }).selectOption({ label: 'Connected' })
  await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })

  // the host's UPDATE_ENGAGEMENT_SUCCEEDED brings the widget back to the dial pad
  await expect(status).toHaveText('Ready')
  await expect(widget.getByText('Last call (Call to +15550102000): saved in the CRM')).toBeVisible()

  const records = await wire(page)
  // RESIZE_WIDGET follows layout changes, so its place in the sequence is not fixed.
  const resizes = records.filter((r) => r.type === 'RESIZE_WIDGET')
  for (const r of resizes) expect(r.data).toEqual({ width: expect.any(Number), height: expect.any(Number) })
  expect(records.map((r) => r.type).filter((t) => t !== 'RESIZE_WIDGET')).toEqual([
    'SYNC_ACK',
    'INITIALIZED',
    'LOGGED_IN',
    'OUTGOING_CALL_STARTED',
    'CALL_ANSWERED',
    'CALL_ENDED',
    'CALL_COMPLETED',
  ])

  const ack = records[0]?.message
  expect(ack).toMatchObject({ type: 'SYNC_ACK', hostUrl: ORIGINS.testPages, iFrameUrl: ORIGINS.widget, portalId: 123 })
  expect(dataOf(records, 'INITIALIZED')).toEqual({
    isLoggedIn: false,
    isAvailable: true,
    sizeInfo: { width: expect.any(Number), height: expect.any(Number) },
  })
  expect(Object.keys(records.find((r) => r.type === 'LOGGED_IN')?.message ?? {}).sort()).toEqual(['messageId', 'type'])

  const outgoing = dataOf(records, 'OUTGOING_CALL_STARTED')
  const externalCallId = outgoing.externalCallId
  expect(externalCallId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  expect(outgoing).toEqual({
    externalCallId,
    toNumber: '+15550102000',
    fromNumber: '+16175550100',
    callStartTime: expect.any(Number),
    createEngagement: true,
    dialingContext: expect.objectContaining({ phoneNumber: '+15550102000', objectId: 51, objectType: 'CONTACT', portalId: 123 }),
  })
  expect(outgoing).not.toHaveProperty('phoneNumber')
  expect(dataOf(records, 'CALL_ANSWERED')).toEqual({ externalCallId })
  expect(dataOf(records, 'CALL_ENDED')).toEqual({ externalCallId, engagementId: 101, callEndStatus: 'COMPLETED' })

  const completed = dataOf(records, 'CALL_COMPLETED')
  // The widget stays shown after Save; the CRM keeps the title it gave the call.
  expect(completed).toMatchObject({ externalCallId, engagementId: 101, hideWidget: false })
  const props = completed.engagementProperties as Record<string, string>
  expect(props).toMatchObject({
    hs_call_body: 'Booked a demo for Tuesday',
    hs_call_status: 'COMPLETED',
    hs_call_disposition: 'f240bbac-87c9-4f6e-bf70-924b57d47db7', // Connected
    hs_call_direction: 'OUTBOUND',
    hs_call_from_number: '+16175550100',
    hs_call_to_number: '+15550102000',
    hs_timestamp: String(outgoing.callStartTime),
  })
  expect(props).not.toHaveProperty('hs_call_title')
  expect(Number(props.hs_call_duration)).toBeGreaterThan(0)

  // nothing reached the host from another window or origin
  expect(await page.evaluate(() => (window as unknown as WidgetHostWindow).__dropped)).toEqual([])

  // The login is kept across a reload, as a softphone keeps its session: INITIALIZED says logged in.
  await page.reload()
  await expect.poll(async () => (await wire(page)).map((r) => r.type)).toContain('INITIALIZED')
  expect(dataOf(await wire(page), 'INITIALIZED')).toMatchObject({ isLoggedIn: true })
})
