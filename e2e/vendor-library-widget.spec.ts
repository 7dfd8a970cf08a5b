/**
 * A widget whose page also runs a vendor's own client library, which posts its own
 * messages to the CRM page beside the npm SDK 0.9.7 (e2e/fixtures/driverless-widget with
 * `?vendor=1`: plain objects, strings, objects with only a `type` or only a `messageId`,
 * before the handshake, on a heartbeat and at every click). The SDK's receiving side drops
 * such messages without a word; so does the host: the widget works, the inspector shows them
 * greyed as "not a calling-SDK message" with no finding, and check-widget says READY.
 */
import { expect, test } from '@playwright/test'
import type { CallEngagement } from '../kit/harness.ts'
import { checkWidget, portBlock } from './support/check-widget-run.ts'
import { logDriverlessCall } from './support/driverless-call.ts'
import { ORIGINS } from './origins.ts'

test('the vendor library’s messages are dropped: the call is logged, the inspector greys them and finds nothing', async ({ page, baseURL }) => {
  const harness = await logDriverlessCall(page, baseURL, { vendor: '1' }, 'Typed beside a chatty vendor library')
  await expect(harness.widget.getByRole('status', { name: 'Dialer status' })).toHaveText('Call logged')

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
  // The widget's own SDK messages are judged as usual: one LOGGED_IN (the SDK's; the library's has no messageId).
  await expect(harness.inspector.entries('OUTGOING_CALL_STARTED')).toHaveCount(1)
  await expect(harness.inspector.entries('LOGGED_IN')).toHaveCount(1)
})

test('check-widget with the generic driver: READY for the widget beside the vendor library, no warning', async () => {
  test.setTimeout(150_000)
  const run = await checkWidget([`${ORIGINS.testWidgets}/e2e/fixtures/driverless-widget/?vendor=1`, '--port', String(portBlock(27))])
  expect(run.code, run.output).toBe(0)
  expect(run.output).toMatch(/outbound journey · widget placement\n[\s\S]*?Verdict: READY: all 8 checks passed\n/)
  expect(run.output).toContain('✔ sends nothing before SYNC_ACK')
  expect(run.output).not.toMatch(/⚠|not a calling-SDK|invalid/i)
})
