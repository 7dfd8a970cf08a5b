/**
 * A tour of the kit's fixtures, written the way a widget developer would
 * test their own widget (see e2e/README.md). It runs against the widget
 * under test (`widgetUrl`: $WIDGET_URL or Ringside's reference widget) and
 * drives it with its driver.
 */
import { expect, test } from '../../kit/fixtures.ts'
import { payloadOf } from '../../kit/message-log.ts'

test('with engagement creation failing, the widget hears CREATE_ENGAGEMENT_FAILED and the CRM keeps no half-made call', async ({
  harness,
  messages,
  driver,
  driverContext,
}) => {
  test.info().skip(!driver.placeCall || !driver.hangUp || !driver.completeWrapUp, `skipped: the driver "${driver.name}" cannot place, end and wrap up a call`)
  await harness.open({ route: '/contacts/1', waitFor: 'handshake' })
  await expect(harness.statusBadge).toContainText('Logged in')
  const callsBefore = await harness.engagements()

  // The next engagement creation fails (Faults panel; the host does not call the API).
  await harness.injectFault({ kind: 'engagement-create', mode: 'next' })
  await harness.pressCall('+1 617 555 0101')
  const ctx = await driverContext('+1 617 555 0101')
  await driver.placeCall!(ctx)
  const started = await messages.expectMessage('OUTGOING_CALL_STARTED', { data: { createEngagement: true } }, { direction: 'from-widget' })
  const failed = await messages.expectMessage('CREATE_ENGAGEMENT_FAILED', undefined, { direction: 'to-widget' })
  expect(failed.data).toMatchObject({ data: { error: { message: expect.stringContaining('Injected fault') } } })

  await driver.answer?.(ctx)
  await driver.hangUp!(ctx)
  await driver.completeWrapUp!(ctx, { notes: 'no engagement' })
  await messages.waitForSequence(['DIAL_NUMBER', 'OUTGOING_CALL_STARTED', 'CREATE_ENGAGEMENT_FAILED', 'CALL_ENDED', 'CALL_COMPLETED'])

  // Nothing was written for this call.
  const externalCallId = String(payloadOf(started).externalCallId)
  expect(await harness.engagements({ externalCallId })).toEqual([])
  expect(await harness.engagements()).toHaveLength(callsBefore.length)
  // The one-shot fault is used up.
  await expect(harness.page.getByRole('group', { name: 'Engagement creation' }).getByRole('radio', { name: 'Off' })).toBeChecked()
})
