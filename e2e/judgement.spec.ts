/**
 * One judgement per case, consistent everywhere: for each message the host once acted on
 * and reported differently (e2e/fixtures/judgement-widget, on the npm SDK 0.9.7), the
 * harness acts as decided (the engagement read back through the API) and reports it with
 * the decided severity, and the inspector's findings and check-widget's verdict (the kit
 * replaying the recorded wire, shared/protocol/session-replay.ts) are the same findings.
 */
import type { Locator } from '@playwright/test'
import { findingsOf, replayWire } from '../shared/protocol/index.ts'
import { expect, test } from '../kit/fixtures.ts'
import type { CallEngagement, Harness } from '../kit/harness.ts'
import type { MessageLog } from '../kit/message-log.ts'
import { fixtureUrl, kitOrigins } from '../kit/origins.ts'
import { CHECKS, evaluateCheck, type CheckOutcome } from '../kit/checks.ts'
import { DEFAULT_JOURNEY, newJourneyResult, runJourney, STAGES } from '../kit/journey.ts'

const CONTACT = { id: '1', phone: '+1 617 555 0101' }

// The judgement widget bundles the npm SDK: no CDN routes (a route makes Playwright intercept every request of the context).
test.use({ mapSdkCdn: false })

interface Verdict {
  errors: string[]
  warnings: string[]
}

/** Runs the fixture's case step by step; `before[n]` runs before step n (0-based). */
async function runCase(harness: Harness, baseURL: string | undefined, name: string, before: Record<number, () => Promise<void>> = {}): Promise<Locator> {
  await harness.open({ widgetUrl: fixtureUrl(kitOrigins(baseURL), 'judgement-widget', { case: name }), route: `/contacts/${CONTACT.id}`, waitFor: 'handshake' })
  if (name !== 'incoming-no-to') await harness.pressCall(CONTACT.phone)
  const status = harness.widget.getByRole('status', { name: 'Widget status' })
  for (let step = 0; step < 20; step++) {
    if ((await status.getAttribute('data-done')) === 'yes') return status
    await expect(status).toHaveAttribute('data-step', String(step))
    await before[step]?.()
    await harness.widget.getByRole('button', { name: 'Next step' }).click()
    await expect(status).toHaveAttribute('data-step', String(step + 1), { timeout: 10_000 })
  }
  throw new Error(`the ${name} case did not finish`)
}

/** The host's last reply of a case: its write is done, so the API holds the call as the host left it. */
async function settled(messages: MessageLog, type: string): Promise<void> {
  await messages.expectMessage(type, undefined, { direction: 'to-widget', timeout: 10_000 })
}

/** The inspector's findings on messages (not lifecycle), as shown. */
async function inspectorVerdict(harness: Harness): Promise<Verdict> {
  await harness.inspector.open()
  const items = await harness.inspector.region.getByRole('list', { name: /^Findings for/ }).getByRole('listitem').allTextContents()
  return { errors: items.filter((t) => t.startsWith('error:')), warnings: items.filter((t) => t.startsWith('warning:')) }
}

/** check-widget's verdict on the recorded wire. */
function kitVerdict(messages: MessageLog): Verdict {
  const all = replayWire(messages.all()).messages.flatMap(findingsOf)
  return { errors: all.filter((f) => f.severity === 'error').map((f) => f.text), warnings: all.filter((f) => f.severity === 'warning').map((f) => f.text) }
}

/**
 * The inspector and the kit report the same findings, with the same severities. The inspector draws a
 * finding when the host has judged the message, a moment after the wire shows it: asked again until
 * both agree (or the time is up).
 */
async function agreed(harness: Harness, messages: MessageLog): Promise<Verdict> {
  let kit = kitVerdict(messages)
  await expect(async () => {
    kit = kitVerdict(messages)
    const shown = await inspectorVerdict(harness)
    expect(shown.errors, `inspector errors vs kit errors ${JSON.stringify(kit.errors)}`).toHaveLength(kit.errors.length)
    expect(shown.warnings, `inspector warnings vs kit warnings ${JSON.stringify(kit.warnings)}`).toHaveLength(kit.warnings.length)
    for (const text of kit.errors) expect(shown.errors.some((item) => item.includes(text)), `${text} in ${JSON.stringify(shown.errors)}`).toBe(true)
    for (const text of kit.warnings) expect(shown.warnings.some((item) => item.includes(text)), `${text} in ${JSON.stringify(shown.warnings)}`).toBe(true)
  }).toPass({ timeout: 10_000 })
  return kit
}

/** check-widget's checks on this wire, as if its journey had reached every stage for `externalCallId`. */
function kitChecks(messages: MessageLog, call: CallEngagement): Record<string, CheckOutcome> {
  const journey = newJourneyResult('fixture', 'judgement-widget', 10_000)
  for (const stage of STAGES) journey.stages[stage] = { status: 'passed' }
  const result = { ...journey, createdEngagementId: Number(call.id), externalCallId: call.properties.hs_call_external_id ?? null, engagement: call, log: messages.all() }
  return Object.fromEntries(CHECKS.filter((c) => ['call-ended', 'call-completed', 'valid-payloads'].includes(c.id)).map((c) => [c.id, evaluateCheck(c, result)]))
}

async function callsOf(harness: Harness, name: string): Promise<CallEngagement[]> {
  const calls = (await harness.engagements()).filter((c) => c.properties.hs_call_external_id?.startsWith(`judge-${name}-`))
  return calls.sort((a, b) => Number(a.id) - Number(b.id))
}

/** Runs a case to its end and returns its calls (as the API holds them), the widget's status line and the agreed findings. */
async function logCase(harness: Harness, messages: MessageLog, baseURL: string | undefined, name: string, before: Record<number, () => Promise<void>> = {}) {
  const status = await runCase(harness, baseURL, name, before)
  await settled(messages, 'UPDATE_ENGAGEMENT_SUCCEEDED')
  const calls = await callsOf(harness, name)
  expect(calls.length, `calls of ${name}`).toBeGreaterThan(0)
  return { status, calls, call: calls[0]!, verdict: await agreed(harness, messages) }
}

test('engagementId 0 on CALL_ENDED and CALL_COMPLETED: the host logs the call by externalCallId; warnings, no error', async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'engagement-zero')
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'engagement-zero' })
  expect(verdict.errors).toEqual([])
  expect(verdict.warnings.filter((w) => w.includes('engagementId 0 names no engagement'))).toHaveLength(2)
  const checks = kitChecks(messages, call)
  for (const id of ['call-ended', 'call-completed', 'valid-payloads']) expect(checks[id]?.status, id).toBe('passed')
})

test('CALL_ENDED without callEndStatus: the host ends the call COMPLETED (it was answered), and nothing is reported', async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'no-end-status')
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'no-end-status' })
  expect(verdict).toEqual({ errors: [], warnings: [] })
  expect(kitChecks(messages, call)).toEqual({ 'call-ended': { status: 'passed' }, 'call-completed': { status: 'passed' }, 'valid-payloads': { status: 'passed' } })
})

test('CALL_ANSWERED for a call never started: the host ignores it (the call stays unanswered) and reports an error', async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'answer-unknown', {
    // after the stray CALL_ANSWERED, before the real CALL_ENDED
    3: async () => {
      await harness.page.waitForTimeout(300)
      const [ringing] = await callsOf(harness, 'answer-unknown')
      expect(ringing?.properties.hs_call_status).toBe('CONNECTING')
    },
  })
  expect(call.properties).toMatchObject({ hs_call_status: 'NO_ANSWER', hs_call_duration: '0' })
  expect(verdict.errors).toEqual([expect.stringMatching(/^CALL_ANSWERED for judge-not-started, but the widget started no call with that externalCallId/)])
  expect(kitChecks(messages, call)['valid-payloads']).toMatchObject({ status: 'failed', problems: verdict.errors })
})

test('CALL_COMPLETED with no CALL_ENDED: the host ends the call first (COMPLETED, with its duration); a warning', async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'complete-without-end')
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'complete-without-end' })
  expect(Number(call.properties.hs_call_duration)).toBeGreaterThan(0)
  expect(verdict.errors).toEqual([])
  expect(verdict.warnings).toEqual([expect.stringMatching(/got no CALL_ENDED: the host ends the call first \(COMPLETED: it was answered\)/)])
})

test("another call's engagementId on CALL_ENDED: the first call's log is untouched, the second call ends BUSY; an error", async ({ harness, messages, baseURL }) => {
  const status = await runCase(harness, baseURL, 'foreign-engagement')
  await expect(status).toHaveAttribute('data-engagements', /^\d+,\d+$/)
  await expect.poll(async () => (await callsOf(harness, 'foreign-engagement')).map((c) => c.properties.hs_call_body)).toEqual(['first call', 'second call'])
  const [first, second] = await callsOf(harness, 'foreign-engagement')
  const verdict = await agreed(harness, messages)
  expect(first?.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'first call' })
  expect(second?.properties).toMatchObject({ hs_call_status: 'BUSY', hs_call_body: 'second call' })
  expect(verdict.errors).toEqual([expect.stringMatching(new RegExp(`carries engagementId ${first!.id}, which is call judge-foreign-engagement-1-\\w+'s engagement: the host leaves that engagement alone`))])
  // check-widget fails the second call's "call ended" check with the same finding
  expect(kitChecks(messages, second!)['call-ended']).toMatchObject({ status: 'failed', problems: verdict.errors })
})

test('INCOMING_CALL without toNumber: the host matches the caller and logs the call; a warning', async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'incoming-no-to')
  await messages.expectMessage('CALLER_ID_MATCH_SUCCEEDED', undefined, { direction: 'to-widget' })
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'incoming-no-to', hs_call_direction: 'INBOUND', hs_call_from_number: CONTACT.phone })
  expect(call.properties.hs_call_to_number || null).toBeNull()
  expect(verdict.errors).toEqual([])
  expect(verdict.warnings).toEqual([expect.stringMatching(/^INCOMING_CALL: no toNumber/)])
})

test("CALL_ENDED with the call's engagementId but another externalCallId: the host ends that call; a warning, not an error", async ({ harness, messages, baseURL }) => {
  const { call, verdict } = await logCase(harness, messages, baseURL, 'call-id-mismatch')
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'call-id-mismatch' })
  expect(verdict.errors).toEqual([])
  expect(verdict.warnings).toEqual([expect.stringMatching(/names externalCallId "judge-another-id", which no call the widget started has/)])
  expect(kitChecks(messages, call)['call-ended']).toEqual({ status: 'passed' })
  expect(kitChecks(messages, call)['valid-payloads']).toEqual({ status: 'passed', warnings: verdict.warnings })
})

test("check-widget's journey waits for the CALL_ENDED the host applied, not for the externalCallId: call-id-mismatch passes hangUp and logs the call", async ({ harness, messages, baseURL }) => {
  // No driver steps: with auto=1 the widget runs the call by itself after DIAL_NUMBER.
  const widgetUrl = fixtureUrl(kitOrigins(baseURL), 'judgement-widget', { case: 'call-id-mismatch', auto: '1' })
  const result = await runJourney({ harness, messages, driver: { name: 'none' } }, { ...DEFAULT_JOURNEY, widgetUrl })
  expect(result.stages.hangUp).toEqual({ status: 'passed', note: 'the widget did it by itself' })
  expect(result.stages.wrapUp.status).toBe('passed')
  expect(result.stages.update).toEqual({ status: 'passed' })
  expect(result.engagement?.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'call-id-mismatch' })
  const call = CHECKS.find((c) => c.id === 'call-ended')!
  expect(evaluateCheck(call, result)).toEqual({ status: 'passed' })
})

test('a widget that listens only for the legacy ENGAGEMENT_CREATED learns its engagement and logs the call', async ({ harness, messages, baseURL }) => {
  const { status, call, verdict } = await logCase(harness, messages, baseURL, 'legacy-created')
  expect(call.properties).toMatchObject({ hs_call_status: 'COMPLETED', hs_call_body: 'legacy-created' })
  await expect(status).toHaveAttribute('data-engagements', call.id)
  // the host sends both, the current reply first
  const created = messages.toWidget().filter((r) => r.type === 'CREATE_ENGAGEMENT_SUCCEEDED' || r.type === 'ENGAGEMENT_CREATED')
  expect(created.map((r) => [r.type, (r.data as { data?: { engagementId?: unknown } }).data?.engagementId])).toEqual([
    ['CREATE_ENGAGEMENT_SUCCEEDED', Number(call.id)],
    ['ENGAGEMENT_CREATED', Number(call.id)],
  ])
  expect(verdict.errors).toEqual([])
})
