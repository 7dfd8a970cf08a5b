/**
 * The kit's own logic without a browser: the conformance checks on
 * hand-made journeys (each flaw must fail its check, a conforming journey
 * must pass them all), and the message log's filters and waits.
 */
import { expect, test } from '@playwright/test'
import { CHECKS, checksFor, evaluateCheck, strictOutcome, type CheckOutcome } from '../../kit/checks.ts'
import { newJourneyResult, STAGES, type JourneyResult, type StageName } from '../../kit/journey.ts'
import { messageOf } from '../../kit/error-text.ts'
import { isDeepSubset, MessageLog, stringifyForReport, type RawRecord, type RecordedMessage } from '../../kit/message-log.ts'

const ORIGINS = { harness: 'http://127.0.0.1:4173', widget: 'http://127.0.0.1:4174' }
const WIDGET_URL = `${ORIGINS.widget}/widget/`
const CALL = 'call-1'

const toWidget = (type: string, data?: Record<string, unknown>, messageId = `host_${type}`): RawRecord => ({
  time: 0,
  frameUrl: WIDGET_URL,
  topFrame: false,
  origin: ORIGINS.harness,
  fromParent: true,
  data: { type, messageId, ...(data ? { data } : {}) },
})
const fromWidget = (type: string, data?: Record<string, unknown>, extra: Record<string, unknown> = {}): RawRecord => ({
  time: 0,
  frameUrl: `${ORIGINS.harness}/`,
  topFrame: true,
  origin: ORIGINS.widget,
  fromParent: false,
  data: { type, messageId: `w_${type}`, ...(data ? { data } : {}), ...extra },
})

/** The wire of a conforming outbound call, in order (times increase with the order). */
function conformingWire(): RawRecord[] {
  return [
    toWidget('SYNC', undefined, 'host_sync_1'),
    { ...fromWidget('SYNC_ACK'), data: { type: 'SYNC_ACK', messageId: 'host_sync_1', hostUrl: ORIGINS.harness, version: '0.9.7', iFrameUrl: ORIGINS.widget, debugMode: false } },
    fromWidget('INITIALIZED', { isLoggedIn: true }),
    toWidget('DIAL_NUMBER', { phoneNumber: '+1 617 555 0101', objectId: 1, objectType: 'CONTACT' }),
    fromWidget('OUTGOING_CALL_STARTED', { externalCallId: CALL, toNumber: '+16175550101', createEngagement: true }),
    toWidget('CREATE_ENGAGEMENT_SUCCEEDED', { engagementId: 2 }),
    fromWidget('CALL_ANSWERED', { externalCallId: CALL }),
    fromWidget('CALL_ENDED', { externalCallId: CALL, engagementId: 2, callEndStatus: 'COMPLETED' }),
    fromWidget('CALL_COMPLETED', { externalCallId: CALL, engagementId: 2, engagementProperties: { hs_timestamp: 1 } }),
    toWidget('UPDATE_ENGAGEMENT_SUCCEEDED', { engagementId: 2 }),
  ]
}

/** A finished journey over `wire`, every stage passed unless told otherwise. */
function journey(wire: RawRecord[], stages: Partial<JourneyResult['stages']> = {}, patch: Partial<JourneyResult> = {}): JourneyResult {
  const log = new MessageLog(ORIGINS)
  wire.forEach((record, i) => log.add({ ...record, time: 1_000 + i }))
  const result = newJourneyResult(WIDGET_URL, 'test', 10_000)
  for (const name of Object.keys(result.stages) as StageName[]) result.stages[name] = stages[name] ?? { status: 'passed' }
  return {
    ...result,
    createdEngagementId: 2,
    externalCallId: CALL,
    engagement: { id: '2', properties: { hs_call_external_id: CALL, hs_call_status: 'COMPLETED', hs_call_duration: '4200' } },
    log: log.all(),
    ...patch,
  }
}

function outcomes(j: JourneyResult): Record<string, CheckOutcome> {
  return Object.fromEntries(checksFor(j.kind).map((check) => [check.id, evaluateCheck(check, j)]))
}

function replace(wire: RawRecord[], type: string, data: Record<string, unknown>): RawRecord[] {
  return wire.map((r) => ((r.data as { type: string }).type === type ? { ...r, data: { ...(r.data as object), data } } : r))
}

test('a conforming call passes every check', () => {
  const all = outcomes(journey(conformingWire()))
  expect(Object.keys(all)).toEqual(['handshake', 'initialized', 'nothing-before-ack', 'outgoing-call', 'call-ended', 'call-completed', 'call-logged', 'valid-payloads'])
  for (const [id, outcome] of Object.entries(all)) expect(outcome, id).toEqual({ status: 'passed' })
})

test('a vendor library’s own messages (not calling-SDK messages) fail no check, before SYNC_ACK or after', () => {
  const vendor = (data: unknown): RawRecord => ({ ...fromWidget('x'), data })
  const traffic = [vendor({ event: 'agent-ready' }), vendor('vendor:ping'), vendor({ type: 'vendor:ready' }), vendor({ messageId: 'v1' }), vendor({ type: 'LOGGED_IN' })]
  const wire = conformingWire()
  const all = outcomes(journey([wire[0]!, ...traffic, ...wire.slice(1, 3), ...traffic, ...wire.slice(3)]))
  for (const [id, outcome] of Object.entries(all)) expect(outcome, id).toEqual({ status: 'passed' })
  const log = new MessageLog(ORIGINS)
  traffic.forEach((record) => log.add(record))
  expect(log.fromWidget().every((r) => r.notSdk === true)).toBe(true)
  expect(log.ofType('LOGGED_IN')).toEqual([])
})

test('a SYNC_ACK from Ringside’s CDN build standing in for a prerelease: the handshake passes with a warning naming the substitution', () => {
  const wire = conformingWire()
  const ack = wire[1]!
  const withSubstitution = [wire[0]!, { ...ack, data: { ...(ack.data as object), ringsideSdkSubstitution: { requested: '0.9.3-alpha.0', served: '0.9.3' } } }, ...wire.slice(2)]
  expect(outcomes(journey(withSubstitution)).handshake).toEqual({
    status: 'passed',
    warnings: ['The widget pins @hubspot/calling-extensions-sdk@0.9.3-alpha.0, a prerelease Ringside does not hold: Ringside serves the release 0.9.3 in its place.'],
  })
  expect(outcomes(journey(wire)).handshake).toEqual({ status: 'passed' })
})

test('each protocol flaw fails its own check and names the problem', () => {
  const wire = conformingWire()
  const cases: Array<{ id: string; wire: RawRecord[]; problem: string | RegExp }> = [
    { id: 'handshake', wire: wire.map((r, i) => (i === 1 ? { ...r, data: { ...(r.data as object), messageId: 'made_up' } } : r)), problem: /not the id of any SYNC/ },
    { id: 'handshake', wire: [...wire.slice(0, 2), wire[1]!, ...wire.slice(2)], problem: /SYNC_ACK 2 times/ },
    { id: 'initialized', wire: [wire[0]!, wire[2]!, wire[1]!, ...wire.slice(3)], problem: 'INITIALIZED arrived before SYNC_ACK' },
    { id: 'nothing-before-ack', wire: [wire[0]!, fromWidget('LOGGED_IN'), ...wire.slice(1)], problem: 'LOGGED_IN was sent before SYNC_ACK' },
    { id: 'outgoing-call', wire: replace(wire, 'OUTGOING_CALL_STARTED', { externalCallId: CALL, createEngagement: true }), problem: /toNumber is undefined/ },
    { id: 'outgoing-call', wire: replace(wire, 'OUTGOING_CALL_STARTED', { externalCallId: CALL, toNumber: '+1 212 555 0000' }), problem: /is not the dialed number/ },
    { id: 'outgoing-call', wire: replace(wire, 'OUTGOING_CALL_STARTED', { externalCallId: '', toNumber: '+16175550101' }), problem: /externalCallId is ""/ },
    { id: 'call-ended', wire: replace(wire, 'CALL_ENDED', { externalCallId: 'not-started', callEndStatus: 'COMPLETED' }), problem: /^the host ignored this CALL_ENDED \(the real CRM would\): no call not-started was started/ },
    { id: 'call-ended', wire: replace(wire, 'CALL_ENDED', { externalCallId: CALL, engagementId: 99, callEndStatus: 'COMPLETED' }), problem: /carries engagementId 99, which is no engagement the host created for this widget: the host leaves that engagement alone/ },
    { id: 'call-ended', wire: replace(wire, 'CALL_ENDED', { externalCallId: CALL, engagementId: 2, callEndStatus: 'HUNG_UP' }), problem: /"HUNG_UP" is not one of/ },
    { id: 'call-completed', wire: replace(wire, 'CALL_COMPLETED', { externalCallId: CALL, engagementId: 3 }), problem: /carries engagementId 3, which is no engagement the host created/ },
    { id: 'call-completed', wire: replace(wire, 'CALL_COMPLETED', { externalCallId: 'not-started' }), problem: /^the host ignored this CALL_COMPLETED \(the real CRM would\)/ },
    { id: 'valid-payloads', wire: [...wire, fromWidget('CALL_ANSWERED', { externalCallId: 'not-started' })], problem: /^CALL_ANSWERED for not-started, but the widget started no call with that externalCallId/ },
    { id: 'valid-payloads', wire: [...wire, fromWidget('RESIZE_WIDGET', { width: 'wide', height: 300 })], problem: /^RESIZE_WIDGET: data.width: / },
    { id: 'valid-payloads', wire: [...wire, fromWidget('HANG_UP', {})], problem: /^HANG_UP: unknown type "HANG_UP": the host ignores it/ },
  ]
  const logged = (properties: Record<string, string | null>) => ({ engagement: { id: '2', properties: { hs_call_external_id: CALL, ...properties } } })
  const engagementCases: Array<{ patch: Partial<JourneyResult>; problem: RegExp }> = [
    { patch: logged({ hs_call_status: 'IN_PROGRESS', hs_call_duration: '4200' }), problem: /hs_call_status is "IN_PROGRESS": the timeline shows the call as not finished/ },
    { patch: logged({ hs_call_status: 'COMPLETED' }), problem: /hs_call_duration is null, expected a duration/ },
    { patch: { engagement: null }, problem: /could not be read back/ },
  ]
  for (const c of engagementCases) {
    const outcome = outcomes(journey(wire, {}, c.patch))['call-logged']!
    expect(outcome.status === 'failed' && outcome.problems.some((p) => c.problem.test(p)), JSON.stringify(outcome)).toBe(true)
  }
  for (const c of cases) {
    const all = outcomes(journey(c.wire))
    const outcome = all[c.id]!
    expect(outcome.status, `${c.id}: ${String(c.problem)}`).toBe('failed')
    const problems = outcome.status === 'failed' ? outcome.problems : []
    expect(problems.some((p) => (typeof c.problem === 'string' ? p === c.problem : c.problem.test(p))), `${c.id}: ${problems.join(' | ')}`).toBe(true)
  }
})

test('deviations the real CRM copes with are warnings: listed, passing, failing only with --strict', () => {
  // the vendor demos' shape: CALL_ENDED without engagementId, CALL_ANSWERED without externalCallId
  const wire = replace(replace(conformingWire(), 'CALL_ENDED', { externalCallId: CALL, callEndStatus: 'COMPLETED' }), 'CALL_ANSWERED', {})
  const outcome = outcomes(journey(wire))['valid-payloads']!
  expect(outcome).toEqual({
    status: 'passed',
    warnings: [
      'CALL_ANSWERED: no externalCallId, the shape of SDK 0.6 and older (call events carry it from 0.7.0): the host applies this to the current call',
      "CALL_ENDED: no engagementId: the host finds the call's engagement by externalCallId",
    ],
  })
  expect(outcomes(journey(wire))['call-ended']).toEqual({ status: 'passed' })
  const strict = strictOutcome(outcome, true)
  expect(strict).toMatchObject({ status: 'failed', problems: [expect.stringMatching(/^warning \(--strict\): CALL_ANSWERED/), expect.stringMatching(/^warning \(--strict\): CALL_ENDED: no engagementId/)] })
  expect(strictOutcome(outcome, false)).toBe(outcome)
})

test('one verdict per contradiction: what the host does decides pass, warning or failure', () => {
  const wire = conformingWire()
  const verdict = (w: RawRecord[]) => outcomes(journey(w))
  // CALL_ENDED without callEndStatus: the SDK types it optional and the host acts: no finding
  const noStatus = verdict(replace(wire, 'CALL_ENDED', { externalCallId: CALL, engagementId: 2 }))
  expect(noStatus['call-ended']).toEqual({ status: 'passed' })
  expect(noStatus['valid-payloads']).toEqual({ status: 'passed' })
  // engagementId 0 on CALL_ENDED and CALL_COMPLETED: the host acts by externalCallId, warnings only
  const zero = verdict(replace(replace(wire, 'CALL_ENDED', { externalCallId: CALL, engagementId: 0, callEndStatus: 'COMPLETED' }), 'CALL_COMPLETED', { externalCallId: CALL, engagementId: 0 }))
  expect(zero['call-ended']).toEqual({ status: 'passed' })
  expect(zero['call-completed']).toEqual({ status: 'passed' })
  expect(zero['valid-payloads']).toMatchObject({ status: 'passed', warnings: [expect.stringMatching(/CALL_ENDED: engagementId 0 names no engagement/), expect.stringMatching(/CALL_COMPLETED: engagementId 0 names no engagement/)] })
  // the right engagementId with another externalCallId: applied by the engagement, a warning
  const otherId = verdict(replace(wire, 'CALL_ENDED', { externalCallId: 'other', engagementId: 2, callEndStatus: 'COMPLETED' }))
  expect(otherId['call-ended']).toEqual({ status: 'passed' })
  expect(otherId['valid-payloads']).toMatchObject({ status: 'passed', warnings: [expect.stringMatching(/names externalCallId "other", which no call the widget started has/)] })
  // CALL_COMPLETED with no CALL_ENDED: the host ends the call first, a warning
  const noEnd = verdict(wire.filter((r) => (r.data as { type: string }).type !== 'CALL_ENDED'))
  expect(noEnd['call-completed']).toEqual({ status: 'passed' })
  expect(noEnd['valid-payloads']).toMatchObject({ status: 'passed', warnings: [expect.stringMatching(/got no CALL_ENDED: the host ends the call first \(COMPLETED: it was answered\)/)] })
})

test('an engagement id sent as a numeric string matches the one the host created', () => {
  const wire = replace(conformingWire(), 'CALL_COMPLETED', { externalCallId: CALL, engagementId: '2' })
  expect(evaluateCheck(CHECKS.find((c) => c.id === 'call-completed')!, journey(wire))).toEqual({ status: 'passed' })
})

test('a check whose stage needed a driver is skipped with the reason; a failed stage fails the first check that needs it, the others are not run', () => {
  const reason = 'needs a driver (hangUp): the widget did not send CALL_ENDED by itself within 3000 ms'
  const skipped = journey(conformingWire().slice(0, 7), { hangUp: { status: 'skipped', reason }, wrapUp: { status: 'skipped', reason }, update: { status: 'skipped', reason } })
  const all = outcomes(skipped)
  expect(all['call-ended']).toEqual({ status: 'skipped', reason })
  expect(all['call-completed']).toEqual({ status: 'skipped', reason })
  expect(all['outgoing-call']).toEqual({ status: 'passed' })

  const blocked = (after: StageName) => ({ status: 'blocked' as const, reason: `not reached: ${after} failed`, after })
  const after = (failed: StageName, error: string): Partial<JourneyResult['stages']> => {
    const stages: Partial<JourneyResult['stages']> = { [failed]: { status: 'failed', error } }
    for (const name of STAGES.slice(STAGES.indexOf(failed) + 1)) stages[name] = blocked(failed)
    return stages
  }
  const handshake = outcomes(journey([conformingWire()[0]!], after('handshake', 'The host gave up after 1500 ms')))
  expect(handshake).toEqual({
    handshake: { status: 'failed', problems: ['handshake: The host gave up after 1500 ms'] },
    initialized: { status: 'skipped', reason: 'not run: handshake failed' },
    'nothing-before-ack': { status: 'skipped', reason: 'not run: handshake failed' },
    'outgoing-call': { status: 'skipped', reason: 'not run: handshake failed' },
    'call-ended': { status: 'skipped', reason: 'not run: handshake failed' },
    'call-completed': { status: 'skipped', reason: 'not run: handshake failed' },
    'call-logged': { status: 'skipped', reason: 'not run: handshake failed' },
    // It needs no stage: it judges whatever the widget sent.
    'valid-payloads': { status: 'failed', problems: ['the widget sent nothing'] },
  })

  // A failed stage no check needs (login) is reported, with its own error, by the first check it kept from running.
  const login = outcomes(journey(conformingWire().slice(0, 3), after('login', 'the host should show "Logged in" after the driver logged in')))
  expect(login['outgoing-call']).toEqual({ status: 'failed', problems: ['login: the host should show "Logged in" after the driver logged in'] })
  for (const id of ['call-ended', 'call-completed', 'call-logged']) expect(login[id], id).toEqual({ status: 'skipped', reason: 'not run: login failed' })
  expect(['handshake', 'initialized', 'nothing-before-ack', 'valid-payloads'].map((id) => login[id]!.status)).toEqual(['passed', 'passed', 'passed', 'passed'])
  // An optional stage that failed blocks nothing: its own check fails, the later stages' checks are judged.
  const engagement = outcomes(journey(conformingWire(), { engagement: { status: 'failed', error: 'The host could not create the engagement' } }))
  expect(engagement['call-completed']).toEqual({ status: 'failed', problems: ['engagement: The host could not create the engagement'] })
  expect(engagement['call-logged']).toEqual({ status: 'passed' })
  // Every stage failure fails exactly one check, whichever stage it is.
  for (const stage of STAGES) {
    const failures = Object.values(outcomes(journey(conformingWire(), after(stage, `${stage} went wrong`)))).filter((o) => o.status === 'failed')
    expect(failures.map((o) => (o.status === 'failed' ? o.problems : [])), stage).toEqual([[`${stage}: ${stage} went wrong`]])
  }

  const fatal = outcomes(newJourneyResult(WIDGET_URL, 'test', 10_000, 'Could not load the widget driver x.ts'))
  expect(fatal.handshake).toEqual({ status: 'failed', problems: ['the journey stopped: Could not load the widget driver x.ts'] })
  for (const [id, outcome] of Object.entries(fatal).slice(1)) expect(outcome, id).toEqual({ status: 'skipped', reason: 'not run: the journey stopped: Could not load the widget driver x.ts' })

  // A Playwright error (a page Chromium refuses): the checks it kept from running give its first line as their one-line reason, in plain text.
  const refused = new Error('page.goto: net::ERR_UNSAFE_PORT at http://127.0.0.1:6000/\nCall log:\n\u001b[2m  - navigating to "http://127.0.0.1:6000/", waiting until "load"\u001b[22m\n')
  const stopped = outcomes(newJourneyResult(WIDGET_URL, 'test', 10_000, messageOf(refused)))
  expect(stopped.handshake).toEqual({ status: 'failed', problems: ['the journey stopped: page.goto: net::ERR_UNSAFE_PORT at http://127.0.0.1:6000/\nCall log:\n  - navigating to "http://127.0.0.1:6000/", waiting until "load"'] })
  for (const [id, outcome] of Object.entries(stopped).slice(1)) expect(outcome, id).toEqual({ status: 'skipped', reason: 'not run: the journey stopped: page.goto: net::ERR_UNSAFE_PORT at http://127.0.0.1:6000/' })
})

test('the message log tells the directions apart and leaves other traffic aside', () => {
  const log = new MessageLog(ORIGINS)
  log.add(fromWidget('INITIALIZED', {}))
  log.add(toWidget('DIAL_NUMBER', { phoneNumber: '1' }))
  // A third origin, talking to the harness and to the widget.
  log.add({ ...fromWidget('CALL_ENDED', {}), origin: 'http://127.0.0.1:4175' })
  log.add({ ...toWidget('DIAL_NUMBER', {}), origin: 'http://127.0.0.1:4175', fromParent: false })
  // The harness origin, but not from the widget's parent window.
  log.add({ ...toWidget('DIAL_NUMBER', {}), fromParent: false })
  expect(log.fromWidget().map((r) => r.type)).toEqual(['INITIALIZED'])
  expect(log.toWidget().map((r) => r.type)).toEqual(['DIAL_NUMBER'])
  expect(log.all().map((r) => r.direction)).toEqual(['from-widget', 'to-widget', 'other', 'other', 'other'])
  expect(log.ofType('DIAL_NUMBER')).toHaveLength(1)
  expect(log.all().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5])
})

test('expectMessage and waitForSequence wait for later messages, match partially, and time out with what was seen', async () => {
  const log = new MessageLog(ORIGINS)
  log.add(fromWidget('INITIALIZED', {}))
  const ended = log.expectMessage('CALL_ENDED', { data: { callEndStatus: 'COMPLETED' } }, { timeout: 2_000 })
  const sequence = log.waitForSequence(['INITIALIZED', 'OUTGOING_CALL_STARTED', 'CALL_ENDED'], { timeout: 2_000 })
  log.add(fromWidget('OUTGOING_CALL_STARTED', { externalCallId: CALL }))
  log.add(fromWidget('CALL_ANSWERED', { externalCallId: CALL }))
  log.add(fromWidget('CALL_ENDED', { externalCallId: CALL, engagementId: 1, callEndStatus: 'BUSY' }))
  log.add(fromWidget('CALL_ENDED', { externalCallId: CALL, engagementId: 1, callEndStatus: 'COMPLETED' }))
  expect(((await ended).data as { data: { callEndStatus: string } }).data.callEndStatus).toBe('COMPLETED')
  expect((await sequence).map((r) => r.seq)).toEqual([1, 2, 4])

  const byPredicate = await log.expectMessage('CALL_ENDED', (r) => r.seq > 4)
  expect(byPredicate.seq).toBe(5)
  await expect(log.expectMessage('CALL_COMPLETED', undefined, { timeout: 50 })).rejects.toThrow(/expected a CALL_COMPLETED message within 50 ms; recorded 5 messages, the last ones: INITIALIZED \(from-widget\)/)
  await expect(log.waitForSequence(['CALL_ENDED', 'INITIALIZED'], { timeout: 50 })).rejects.toThrow(/CALL_ENDED → INITIALIZED/)
})

test('deep-subset matching and the report serializer handle what postMessage can carry', () => {
  expect(isDeepSubset({ a: 1, b: { c: [1, 2, 3] } }, { b: { c: [1, 2] } })).toBe(true)
  expect(isDeepSubset({ a: 1 }, { a: 1, b: undefined })).toBe(false)
  expect(isDeepSubset({ a: Number.NaN }, { a: Number.NaN })).toBe(true)
  expect(isDeepSubset(Object.create({ a: 1 }) as object, { a: 1 })).toBe(false)
  const record: Partial<RecordedMessage> = { data: { id: 10n, map: new Map([['k', 1]]), set: new Set([1]), big: 'x'.repeat(50), inf: Number.POSITIVE_INFINITY } }
  const text = stringifyForReport(record, 10)
  expect(JSON.parse(text)).toEqual({ data: { id: '10n', map: { Map: [['k', 1]] }, set: { Set: [1] }, big: 'xxxxxxxxxx… (50 characters)', inf: 'Infinity' } })
})

test('the inbound journey: INCOMING_CALL carries the call and the caller (toNumber: a warning); the outbound-only check does not apply to it, nor the inbound one to an outbound call', () => {
  const ringing = (data: Record<string, unknown>) =>
    conformingWire()
      .filter((r) => !['DIAL_NUMBER', 'OUTGOING_CALL_STARTED'].includes((r.data as { type: string }).type))
      .concat([fromWidget('INCOMING_CALL', data)])
  const inbound = (wire: RawRecord[]) => journey(wire, {}, { kind: 'inbound' })
  const good = outcomes(inbound(ringing({ externalCallId: CALL, fromNumber: '+16175550101', toNumber: '+15550100', createEngagement: true })))
  expect(Object.keys(good)).toEqual(['handshake', 'initialized', 'nothing-before-ack', 'incoming-call', 'call-ended', 'call-completed', 'call-logged', 'valid-payloads'])
  expect(good['incoming-call']).toEqual({ status: 'passed' })
  // without toNumber the host still matches the caller and logs the call: a warning, listed once (valid payloads)
  const noTo = outcomes(inbound(ringing({ externalCallId: CALL, fromNumber: '+16175550101', createEngagement: true })))
  expect(noTo['incoming-call']).toEqual({ status: 'passed' })
  expect(noTo['valid-payloads']).toMatchObject({ warnings: expect.arrayContaining([expect.stringMatching(/^INCOMING_CALL: no toNumber/)]) })
  const bad = outcomes(inbound(ringing({ externalCallId: '', toNumber: '+15550100' })))
  expect(bad['incoming-call']).toMatchObject({ status: 'failed', problems: ['externalCallId is "", expected a non-empty string', 'fromNumber is undefined, expected a phone number'] })
  const outgoing = CHECKS.find((c) => c.id === 'outgoing-call')!
  expect(evaluateCheck(outgoing, inbound(conformingWire()))).toEqual({ status: 'skipped', reason: 'a check of the outbound journey (this was inbound)' })
  expect(evaluateCheck(CHECKS.find((c) => c.id === 'incoming-call')!, journey(conformingWire()))).toMatchObject({ status: 'skipped' })
})
