/**
 * A CALL_COMPLETED the CRM refuses (its outcome, hs_call_disposition, is not one of the
 * account's call outcomes): the widget hears UPDATE_ENGAGEMENT_FAILED, and the person at the
 * harness sees it on the record page, beside the call, with the API's reason and the notes
 * the widget sent, which the CRM did not save.
 */
import { expect, test } from '@playwright/test'
import { logDriverlessCall } from './support/driverless-call.ts'

test('a refused call log shows beside the call on the record page, with the reason and the notes that were not saved', async ({ page, baseURL }) => {
  const harness = await logDriverlessCall(page, baseURL, { outcome: 'no-such-outcome' }, 'Customer wants a callback on Tuesday')
  await expect(harness.widget.getByRole('status', { name: 'Dialer status' })).toContainText('Call not logged: Could not update engagement')

  const notice = page.getByRole('main').getByRole('status', { name: 'Call log not saved' })
  await expect(notice).toContainText('The call log the widget sent was not saved.')
  await expect(notice).toContainText('hs_call_disposition')
  await expect(notice).toContainText('Outcome sent: no-such-outcome')
  await expect(notice).toContainText('Customer wants a callback on Tuesday')
  // Beside that call: inside its timeline entry, which the CRM holds without the notes.
  const entry = page.getByRole('main').getByRole('article').filter({ has: page.getByRole('status', { name: 'Call log not saved' }) })
  await expect(entry).toHaveCount(1)
  await expect(entry.locator('.call-notes').first()).toContainText('Customer wants a callback on Tuesday')
})
