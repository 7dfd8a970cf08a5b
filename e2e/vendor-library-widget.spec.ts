/**
 * A widget whose page also runs a vendor's own client library, which posts its own
 * messages to the CRM page (e2e/fixtures/vendor-library-widget: plain objects, strings,
 * objects with only a `type` or only a `messageId`, before the handshake and during
 * calls), beside the npm SDK 0.9.7. The SDK's receiving side drops such messages without
 * a word; so does the host: the widget works, the inspector shows them greyed as "not a
 * calling-SDK message" with no finding, and check-widget says READY.
 */
import { expect, test } from '@playwright/test'
import { Harness, type CallEngagement } from './kit/harness.ts'
import { fixtureUrl, kitOrigins } from './kit/origins.ts'
import { checkWidget, portBlock } from './support/check-widget-run.ts'
import { ORIGINS } from './origins.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }

test('the vendor library’s messages are dropped: the call is logged, the inspector greys them and finds nothing', async ({ page, baseURL }) => {
  const harness = new Harness(page)
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'vendor-library-widget'), route: `/contacts/${CONTACT.id}`, waitFor: 'handshake' })
  const frame = harness.widget
  await expect(frame.getByRole('status', { name: 'Dialer status' })).toHaveText('Ready')
  await harness.pressCall(CONTACT.phone)
  await frame.getByRole('button', { name: 'Dial' }).click()
  await frame.getByRole('button', { name: 'Simulate answer' }).click()
  await frame.getByRole('button', { name: 'End call' }).click()
  await frame.getByLabel('Call notes').fill('Typed beside a chatty vendor library')
  await frame.getByRole('button', { name: 'Log call' }).click()
  await expect(frame.getByRole('status', { name: 'Dialer status' })).toHaveText('Call logged')

  let call: CallEngagement | undefined
  await expect
    .poll(async () => {
      call = (await harness.engagements()).find((c) => c.properties.hs_call_body === 'Typed beside a chatty vendor library')
      return call?.properties.hs_call_status
    }, { timeout: 10_000 })
    .toBe('COMPLETED')

  await harness.inspector.open()
  // Each kind the library posts is in the traffic, greyed and named as what it is.
  const notSdk = harness.inspector.region.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: /^not a calling-SDK message/ })
  expect(await notSdk.count()).toBeGreaterThanOrEqual(20)
  await expect(notSdk.first()).toContainText('not a calling-SDK message (no type, no messageId): dropped, as the SDK drops it')
  await expect(notSdk.filter({ hasText: 'LOGGED_IN' }).first()).toBeVisible()
  // No finding: not "sent before the handshake", not "invalid message".
  expect(await harness.inspector.findings()).toEqual([])
  expect(await harness.inspector.problemCount('widget → host')).toBe(0)
  // The widget's own SDK messages are judged as usual (no LOGGED_IN from the SDK: the vendor's has no messageId).
  await expect(harness.inspector.entries('OUTGOING_CALL_STARTED')).toHaveCount(1)
  await expect(harness.inspector.entries('LOGGED_IN')).toHaveCount(0)
})

test('check-widget: READY for the widget beside the vendor library, all checks passed with no warning', async () => {
  test.setTimeout(150_000)
  const run = await checkWidget([`${ORIGINS.testWidgets}/e2e/fixtures/vendor-library-widget/?auto=1`, '--port', String(portBlock(27)), '--driver', 'none'])
  expect(run.code, run.output).toBe(0)
  expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all \d+ checks passed\n/)
  expect(run.output).toContain('✔ sends nothing before SYNC_ACK')
  expect(run.output).not.toMatch(/⚠|not a calling-SDK|invalid/i)
})
