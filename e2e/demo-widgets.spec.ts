/**
 * Widgets shaped like the vendor's demos (e2e/fixtures/demo-shaped-widget, on the
 * npm SDK 0.9.7) run unchanged in the harness: each places an outbound call from a
 * contact, driven through its own buttons, and the call ends up logged as the API
 * holds it (status, notes, duration), with the deviations from the SDK's types
 * listed as warnings in the inspector, never as errors.
 */
import { expect, test, type Page } from '@playwright/test'
import { Harness, type CallEngagement } from '../kit/harness.ts'
import { fixtureUrl, kitOrigins } from '../kit/origins.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }

async function placeCall(page: Page, baseURL: string | undefined, shape: string): Promise<Harness> {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget', { shape }), route: `/contacts/${CONTACT.id}`, waitFor: 'handshake' })
  await harness.pressCall(CONTACT.phone)
  await harness.widget.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(harness.widget.getByRole('status', { name: 'Widget status' })).toContainText('engagement ')
  return harness
}

/** The call engagement of the fixture's only call, once `done` holds for it. */
async function loggedCall(harness: Harness, done: (call: CallEngagement) => boolean): Promise<CallEngagement> {
  let found: CallEngagement | undefined
  await expect
    .poll(async () => {
      found = (await harness.engagements()).find((c) => c.properties.hs_call_external_id?.startsWith('demo-') && done(c))
      return found !== undefined
    }, { timeout: 10_000 })
    .toBe(true)
  return found!
}

async function findings(harness: Harness): Promise<{ errors: string[]; warnings: string[] }> {
  await harness.inspector.open()
  const items = await harness.inspector.region.getByRole('list', { name: /^Findings for/ }).getByRole('listitem').allTextContents()
  return { errors: items.filter((t) => t.startsWith('error:')), warnings: items.filter((t) => t.startsWith('warning:')) }
}

for (const shape of ['minimal', 'react', 'strings'] as const) {
  test(`a demo-shaped widget (${shape}) logs its call COMPLETED with notes and duration; its deviations are warnings`, async ({ page, baseURL }) => {
    const harness = await placeCall(page, baseURL, shape)
    const frame = harness.widget
    await frame.getByRole('button', { name: 'Answer' }).click()
    await page.waitForTimeout(300) // a call of some length
    await frame.getByRole('button', { name: 'Hang up' }).click()
    // CALL_ENDED (no engagementId in the demos' shape) ends the call on the timeline
    const ended = await loggedCall(harness, (c) => c.properties.hs_call_status === 'COMPLETED')
    expect(Number(ended.properties.hs_call_duration)).toBeGreaterThanOrEqual(300)
    await frame.getByLabel('Notes').fill(`Notes typed in the ${shape} widget`)
    await frame.getByRole('button', { name: 'Save call' }).click()
    await expect(frame.getByRole('status', { name: 'Widget status' })).toHaveAttribute('data-saved', 'yes')

    const call = await loggedCall(harness, (c) => c.properties.hs_call_body === `Notes typed in the ${shape} widget`)
    expect(call.properties.hs_call_status).toBe('COMPLETED')
    expect(Number(call.properties.hs_call_duration)).toBeGreaterThanOrEqual(300)
    // the timeline and the dock show the same call log
    const dockLog = page.getByRole('complementary', { name: 'Calling widget' }).getByLabel('Call log')
    await expect(dockLog).toContainText(`engagement ${call.id}`)
    await expect(dockLog).toContainText('COMPLETED')
    await expect(page.getByRole('main').getByText(`Notes typed in the ${shape} widget`)).toBeVisible()

    const expected: Record<typeof shape, RegExp[]> = {
      minimal: [/CALL_ENDED: no engagementId/, /CALL_COMPLETED: no hs_timestamp/],
      react: [/CALL_ENDED: no engagementId/, /hs_call_recording_url is null/, /CALL_COMPLETED: no hs_timestamp/],
      strings: [/OUTGOING_CALL_STARTED: callStartTime "\d+" is a string/, /CALL_ENDED: engagementId "\d+" is a string/],
    }
    // The inspector draws each finding once the host has judged its message: read again until all are there.
    await expect(async () => {
      const { errors, warnings } = await findings(harness)
      expect(errors).toEqual([])
      for (const pattern of expected[shape]) expect(warnings.some((w) => pattern.test(w)), `${pattern} in ${JSON.stringify(warnings)}`).toBe(true)
    }).toPass({ timeout: 10_000 })
  })
}

test('a demo-shaped widget transfers a call: the engagement is finalized COMPLETED with its duration, the dock says TRANSFERRED', async ({ page, baseURL }) => {
  const harness = await placeCall(page, baseURL, 'minimal')
  await harness.widget.getByRole('button', { name: 'Answer' }).click()
  await page.waitForTimeout(200)
  await harness.widget.getByRole('button', { name: 'Transfer' }).click()
  const call = await loggedCall(harness, (c) => c.properties.hs_call_status === 'COMPLETED')
  expect(Number(call.properties.hs_call_duration)).toBeGreaterThanOrEqual(200)
  const dock = page.getByRole('complementary', { name: 'Calling widget' })
  await expect(dock.getByLabel('Current call')).toContainText('TRANSFERRED')
  await expect(dock.getByLabel('Call log')).toContainText('COMPLETED')
  const { errors } = await findings(harness)
  expect(errors).toEqual([])
  // no ghost call: the host finalized the transferred call
  await expect(harness.inspector.summary).not.toContainText('Ghost call')
})

test('task queue: Start queue opens the first call task, each logged call completes its task and opens the next; hideWidget is ignored', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'demo-shaped-widget', { shape: 'react', hide: '1' }), route: '/tasks', waitFor: 'handshake' })
  await expect(page.getByRole('list', { name: 'Open call tasks' }).getByRole('listitem')).toHaveCount(3)
  await page.getByRole('button', { name: 'Start queue' }).click()
  const bar = page.getByRole('region', { name: 'Task queue' })
  await expect(bar).toContainText('task 1 of 3: Call James about the renewal quote')
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toContainText('James Chen')
  for (const [n, next] of [[1, 'Aisha Okafor'], [2, 'Priya Raman']] as const) {
    await page.getByRole('button', { name: /^Call \+/ }).first().click()
    const frame = harness.widget
    await frame.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(frame.getByRole('status', { name: 'Widget status' })).toContainText('engagement ')
    await frame.getByRole('button', { name: 'Hang up' }).click()
    await frame.getByRole('button', { name: 'Save call' }).click()
    await expect(bar).toContainText(`task ${n + 1} of 3`)
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toContainText(next)
    // the widget stayed visible for the next call
    await expect(page.getByRole('complementary', { name: 'Calling widget' }).getByRole('region')).toBeVisible()
  }
  const open = await harness.api('/crm/v3/objects/tasks/search', {
    method: 'POST',
    body: { filterGroups: [{ filters: [{ propertyName: 'hs_task_status', operator: 'EQ', value: 'COMPLETED' }] }], properties: ['hs_task_subject'] },
  })
  expect((open.body as { total: number }).total).toBe(2)
})
