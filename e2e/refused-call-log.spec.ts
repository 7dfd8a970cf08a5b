/**
 * A CALL_COMPLETED the CRM refuses (its outcome, hs_call_disposition, is not one of the
 * account's call outcomes): the widget hears UPDATE_ENGAGEMENT_FAILED, and the person at the
 * harness sees it on the record page, beside the call, with the API's reason and the notes
 * the widget sent, which the CRM did not save.
 */
import { expect, test } from '@playwright/test'
import { Harness } from './kit/harness.ts'
import { fixtureUrl, kitOrigins } from './kit/origins.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }

test('a refused call log shows beside the call on the record page, with the reason and the notes that were not saved', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'vendor-library-widget', { outcome: 'no-such-outcome' }), route: `/contacts/${CONTACT.id}`, waitFor: 'handshake' })
  const frame = harness.widget
  await harness.pressCall(CONTACT.phone)
  await frame.getByRole('button', { name: 'Dial' }).click()
  await frame.getByRole('button', { name: 'Simulate answer' }).click()
  await frame.getByRole('button', { name: 'End call' }).click()
  await frame.getByLabel('Call notes').fill('Customer wants a callback on Tuesday')
  await frame.getByRole('button', { name: 'Log call' }).click()
  await expect(frame.getByRole('status', { name: 'Dialer status' })).toContainText('Call not logged: Could not update engagement')

  const notice = page.getByRole('main').getByRole('status', { name: 'Call log not saved' })
  await expect(notice).toContainText('The call log the widget sent was not saved.')
  await expect(notice).toContainText('hs_call_disposition')
  await expect(notice).toContainText('Outcome sent: no-such-outcome')
  await expect(notice).toContainText('Customer wants a callback on Tuesday')
  // Beside that call: inside its timeline entry, which the CRM holds without the notes.
  const entry = page.getByRole('main').getByRole('article').filter({ has: page.getByRole('status', { name: 'Call log not saved' }) })
  await expect(entry).toHaveCount(1)
  await expect(entry.locator('.call-notes').first()).toContainText('Customer wants a callback on Tuesday')
  await entry.screenshot({ path: test.info().outputPath('refused-call-log.png') })
})
