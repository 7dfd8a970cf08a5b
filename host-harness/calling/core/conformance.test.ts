import {
  applyConformance,
  initialConformance,
  openCalls,
  summarize,
  type ConformanceEvent,
  type ConformanceState,
  type ConformanceTraffic,
} from './conformance.ts'

let seq = 0
function inbound(type: string, data?: Record<string, unknown>, extra: Partial<ConformanceTraffic> = {}): ConformanceEvent {
  seq += 1
  const message = data === undefined ? { type, messageId: `w_${seq}` } : { type, messageId: `w_${seq}`, data }
  return { kind: 'traffic', entry: { seq, direction: 'in', type, message, valid: true, ...extra } }
}
function outbound(type: string, data?: Record<string, unknown>, extra: Partial<ConformanceTraffic> = {}): ConformanceEvent {
  seq += 1
  return { kind: 'traffic', entry: { seq, direction: 'out', type, message: { type, messageId: `h_${seq}`, data }, valid: true, ...extra } }
}
function run(...events: ConformanceEvent[]): ConformanceState {
  return events.reduce(applyConformance, initialConformance())
}
const rules = (state: ConformanceState) => state.findings.map((f) => f.rule)
const handshake = () => [outbound('SYNC'), inbound('SYNC_ACK')]
const started = (id: string, createEngagement = true) =>
  inbound('OUTGOING_CALL_STARTED', { externalCallId: id, toNumber: '+1555', createEngagement })

test('a clean outbound call produces no findings and leaves no open call', () => {
  const state = run(
    ...handshake(),
    inbound('INITIALIZED', { isLoggedIn: true }),
    started('c1'),
    { kind: 'engagement-created', externalCallId: 'c1', engagementId: 501 },
    inbound('CALL_ANSWERED', { externalCallId: 'c1' }),
    inbound('CALL_ENDED', { externalCallId: 'c1', engagementId: 501, callEndStatus: 'COMPLETED' }),
    inbound('CALL_COMPLETED', { externalCallId: 'c1', engagementId: 501 }),
  )
  expect(state.findings).toEqual([])
  expect(openCalls(state)).toEqual([])
})

test('a widget message before SYNC_ACK is flagged; after it, not', () => {
  expect(rules(run(outbound('SYNC'), inbound('INITIALIZED', { isLoggedIn: true })))).toEqual(['before-handshake'])
  expect(rules(run(...handshake(), inbound('INITIALIZED', { isLoggedIn: true })))).toEqual([])
})

test('the host-reported beforeHandshake flag wins over the tracked handshake state', () => {
  expect(rules(run(...handshake(), inbound('LOGGED_IN', undefined, { beforeHandshake: true })))).toEqual(['before-handshake'])
  expect(rules(run(inbound('LOGGED_IN', undefined, { beforeHandshake: false })))).toEqual([])
})

test('host messages queued before the handshake are not the widget’s misuse', () => {
  expect(rules(run(outbound('DIAL_NUMBER', { phoneNumber: '+1' }, { beforeHandshake: true })))).toEqual([])
})

test('after a widget reload the handshake must happen again', () => {
  const state = run(...handshake(), { kind: 'widget-reset', reason: 'reloaded' }, inbound('USER_AVAILABLE'))
  expect(rules(state)).toEqual(['before-handshake'])
})

test('callEnded and callCompleted for an unknown externalCallId are flagged', () => {
  const state = run(
    ...handshake(),
    inbound('CALL_ENDED', { externalCallId: 'nope', engagementId: 1 }),
    inbound('CALL_COMPLETED', { externalCallId: 'nope2' }),
  )
  expect(rules(state)).toEqual(['call-without-start', 'call-without-start'])
  expect(state.findings[0]?.externalCallId).toBe('nope')
})

test('callEnded and callCompleted for a started call are not flagged as callless', () => {
  const state = run(...handshake(), started('c1', false), inbound('CALL_ENDED', { externalCallId: 'c1', engagementId: 9 }))
  expect(rules(state)).toEqual([])
})

test('an engagementId other than the one the host created is flagged on callEnded and callCompleted', () => {
  const state = run(
    ...handshake(),
    started('c1'),
    { kind: 'engagement-created', externalCallId: 'c1', engagementId: 501 },
    inbound('CALL_ENDED', { externalCallId: 'c1', engagementId: 502 }),
    inbound('CALL_COMPLETED', { externalCallId: 'c1', engagementId: '777' }),
  )
  expect(rules(state)).toEqual(['engagement-mismatch', 'engagement-mismatch'])
})

test('a matching engagementId sent as a numeric string is not a mismatch, nor is a call the host made no engagement for', () => {
  const matching = run(
    ...handshake(),
    started('c1'),
    { kind: 'engagement-created', externalCallId: 'c1', engagementId: 501 },
    inbound('CALL_ENDED', { externalCallId: 'c1', engagementId: 501 }),
    inbound('CALL_COMPLETED', { externalCallId: 'c1', engagementId: '501' }),
  )
  expect(rules(matching)).toEqual([])
  const appCreated = run(...handshake(), started('c2', false), inbound('CALL_ENDED', { externalCallId: 'c2', engagementId: 3 }))
  expect(rules(appCreated)).toEqual([])
})

test('a call with createEngagement that is not completed is open, and a ghost when the next call starts', () => {
  const first = run(...handshake(), started('c1'), inbound('CALL_ENDED', { externalCallId: 'c1', engagementId: 1 }))
  expect(openCalls(first).map((c) => [c.externalCallId, c.state])).toEqual([['c1', 'ended']])
  expect(rules(first)).toEqual([])
  const second = applyConformance(first, started('c2'))
  expect(rules(second)).toEqual(['ghost-call'])
  expect(second.findings[0]?.externalCallId).toBe('c1')
  expect(openCalls(second).map((c) => [c.externalCallId, c.state])).toEqual([
    ['c1', 'ghost'],
    ['c2', 'open'],
  ])
})

test('a widget reload with an open call flags the ghost call; completed calls and calls without createEngagement are not ghosts', () => {
  const state = run(
    ...handshake(),
    started('done'),
    inbound('CALL_COMPLETED', { externalCallId: 'done' }),
    started('app-owned', false),
    started('open'),
    { kind: 'widget-reset', reason: 'the widget reloaded' },
  )
  const ghosts = state.findings.filter((f) => f.rule === 'ghost-call')
  expect(ghosts.map((f) => f.externalCallId)).toEqual(['open'])
  expect(ghosts[0]?.message).toContain('the widget reloaded')
  expect(ghosts[0]?.seq).toBeNull()
})

test('a ghost call is flagged once, and completing it later closes it', () => {
  let state = run(...handshake(), started('c1'), { kind: 'widget-reset', reason: 'reload' }, { kind: 'widget-reset', reason: 'reload' })
  expect(rules(state)).toEqual(['ghost-call'])
  state = applyConformance(state, inbound('SYNC_ACK'))
  state = applyConformance(state, inbound('CALL_COMPLETED', { externalCallId: 'c1' }))
  expect(openCalls(state)).toEqual([])
  expect(rules(state)).toEqual(['ghost-call', 'completed-without-end'])
})

test('unknown types are flagged in both directions', () => {
  const state = run(
    { kind: 'traffic', entry: { seq: 1, direction: 'in', type: 'HELLO', message: {}, valid: false, reason: 'unknown type' } },
    { kind: 'traffic', entry: { seq: 2, direction: 'out', type: 'BOGUS', message: {}, valid: false, reason: 'unknown type' } },
  )
  expect(rules(state)).toEqual(['unknown-type', 'unknown-type'])
  expect(state.findings[1]?.message).toContain('The host')
})

test('invalid payloads are flagged with the validation reason; valid ones are not', () => {
  const state = run({
    kind: 'traffic',
    entry: { seq: 1, direction: 'in', type: 'CALL_ENDED', message: {}, valid: false, reason: 'invalid: data.engagementId: expected number' },
  })
  expect(rules(state)).toEqual(['invalid-payload'])
  expect(state.findings[0]?.message).toContain('data.engagementId: expected number')
  expect(rules(run(...handshake(), inbound('RESIZE_WIDGET', { width: 300, height: 500 })))).toEqual([])
})

test('deprecated messages are flagged as warnings', () => {
  const state = run(...handshake(), started('x', false), inbound('PUBLISH_TO_CHANNEL', { externalCallId: 'x', engagementId: 1 }, { deprecation: 'use FINALIZE' }))
  expect(state.findings).toEqual([expect.objectContaining({ rule: 'deprecated', severity: 'warning' })])
  expect(rules(run(...handshake(), started('x', false), inbound('FINALIZE_ENGAGEMENT', { externalCallId: 'x', engagementId: 1 })))).toEqual([])
})

test('a deprecated message the host sends (the legacy ENGAGEMENT_CREATED, on purpose) is no finding', () => {
  expect(rules(run(...handshake(), outbound('ENGAGEMENT_CREATED', { engagementId: 1 }, { deprecation: 'use CREATE_ENGAGEMENT_SUCCEEDED' })))).toEqual([])
})

test('each call event is judged as the controller judges it (shared call session), with its severity', () => {
  const base = [...handshake(), started('a'), { kind: 'engagement-created', externalCallId: 'a', engagementId: 7 } as const]
  const verdict = (event: ConformanceEvent) => run(...base, event).findings.map((f) => [f.rule, f.severity])
  // engagementId 0: the judgement's warning only (the host finds the call by externalCallId)
  expect(verdict(inbound('CALL_ENDED', { externalCallId: 'a', engagementId: 0, callEndStatus: 'COMPLETED' }))).toEqual([])
  // no callEndStatus: nothing at all
  expect(verdict(inbound('CALL_ENDED', { externalCallId: 'a', engagementId: 7 }))).toEqual([])
  expect(verdict(inbound('CALL_ANSWERED', { externalCallId: 'nope' }))).toEqual([['call-without-start', 'error']])
  expect(verdict(inbound('CALL_ENDED', { externalCallId: 'other', engagementId: 7 }))).toEqual([['call-id-mismatch', 'warning']])
  expect(verdict(inbound('CALL_COMPLETED', { externalCallId: 'a', engagementId: 7 }))).toEqual([['completed-without-end', 'warning']])
  expect(verdict(inbound('CALL_ENDED', { externalCallId: 'nope', engagementId: 99 }))).toEqual([['call-without-start', 'error']])
})

test('the findings of a call event the host ignores say so (hostIgnored); those of one it acts on do not', () => {
  const base = [...handshake(), started('a'), { kind: 'engagement-created', externalCallId: 'a', engagementId: 7 } as const]
  const ignored = run(...base, inbound('CALL_ANSWERED', { externalCallId: 'nope' })).findings
  expect(ignored.map((f) => [f.rule, f.hostIgnored])).toEqual([['call-without-start', true]])
  const acted = run(...base, inbound('CALL_ENDED', { externalCallId: 'other', engagementId: 7 })).findings
  expect(acted.map((f) => [f.rule, f.hostIgnored])).toEqual([['call-id-mismatch', undefined]])
})

test('a dropped message is not checked, since it never reached the widget', () => {
  expect(rules(run({ kind: 'traffic', entry: { seq: 1, direction: 'out', type: 'X', message: {}, valid: false, reason: 'unknown type', fault: 'dropped' } }))).toEqual([])
})

test('events that change nothing return the same state object', () => {
  const state = run(...handshake())
  expect(applyConformance(state, outbound('VISIBILITY_CHANGED', { isMinimized: false, isHidden: true }))).toBe(state)
})

test('the summary counts findings per rule', () => {
  const state = run(inbound('LOGGED_IN'), inbound('CALL_ENDED', { externalCallId: 'z', engagementId: 1 }))
  expect(summarize(state.findings)).toMatchObject({ 'before-handshake': 2, 'call-without-start': 1, 'ghost-call': 0 })
})

test('a message the host acted on leniently gives one finding per deviation, with the deviation’s severity', () => {
  const state = run(
    ...handshake(),
    started('c1'),
    inbound('CALL_ENDED', { externalCallId: 'c1', callEndStatus: 'HUNG_UP' }, {
      deviations: [
        { severity: 'warning', path: 'data.engagementId', message: 'no engagementId: …', rule: 'engagement-by-call-id' },
        { severity: 'error', path: 'data.callEndStatus', message: 'callEndStatus "HUNG_UP" is not one of …', rule: 'unknown-end-status' },
      ],
    }),
  )
  expect(state.findings.map((f) => [f.rule, f.severity])).toEqual([
    ['type-deviation', 'warning'],
    ['type-deviation', 'error'],
  ])
  expect(state.findings[0]!.message).toContain('leniency rule engagement-by-call-id')
})

test('a message the host ignored is an invalid-payload error that says so', () => {
  const state = run(...handshake(), inbound('CALL_ENDED', undefined, { valid: false, reason: 'invalid: data: expected object' }))
  expect(state.findings).toEqual([expect.objectContaining({ rule: 'invalid-payload', severity: 'error', message: expect.stringContaining('the host ignored') })])
})

test('CALL_TRANSFERRED closes the call (the host finalizes it): no ghost call later', () => {
  const state = run(...handshake(), started('c1'), inbound('CALL_TRANSFERRED', { externalCallId: 'c1' }), started('c2'))
  expect(rules(state)).toEqual([])
  expect(openCalls(state).map((c) => c.externalCallId)).toEqual(['c2'])
})

test('call events without externalCallId refer to the current call, as the host treats them', () => {
  const state = run(...handshake(), started('c1'), inbound('CALL_ENDED', {}), inbound('CALL_COMPLETED', { engagementId: 4 }))
  expect(rules(state)).toEqual([])
  expect(openCalls(state)).toEqual([])
})

describe('widgets on SDK releases older than the types', () => {
  const oldCall = () => [
    inbound('OUTGOING_CALL_STARTED', { createEngagement: true, phoneNumber: '+1555' }),
    inbound('CALL_ANSWERED'),
    inbound('CALL_ENDED'),
  ]

  test('a call started without externalCallId (SDK 0.6 and older) is tracked: its later events are no call-without-start, only warnings', () => {
    const state = run(...handshake(), ...oldCall(), inbound('CALL_COMPLETED', { engagementId: 501, hideWidget: false }))
    expect(state.findings.filter((f) => f.severity === 'error')).toEqual([])
    expect(rules(state)).not.toContain('call-without-start')
    expect(openCalls(state)).toEqual([])
  })

  test("SDK 0.0.6 (SYNC_ACK version 0.0.1 without iFrameUrl) has no callCompleted: an ended call is no ghost when the next starts; on a later SDK it is", () => {
    const ack006 = inbound('SYNC_ACK', { }, { message: { type: 'SYNC_ACK', messageId: 'h_1', version: '0.0.1' } })
    expect(rules(run(outbound('SYNC'), ack006, ...oldCall(), ...oldCall()))).not.toContain('ghost-call')
    const ack0010 = inbound('SYNC_ACK', {}, { message: { type: 'SYNC_ACK', messageId: 'h_1', version: '0.0.1', iFrameUrl: 'http://w' } })
    expect(rules(run(outbound('SYNC'), ack0010, ...oldCall(), ...oldCall()))).toContain('ghost-call')
  })
})

test('a message that is not a calling-SDK message (a vendor library’s) is never a finding and counts for no rule', () => {
  const vendor = (message: unknown, type: string | null = null): ConformanceEvent => {
    seq += 1
    return { kind: 'traffic', entry: { seq, direction: 'in', type, message, valid: false, reason: 'not a calling-SDK message', notSdk: true, beforeHandshake: true } }
  }
  const state = run(
    outbound('SYNC'),
    vendor({ event: 'agent-ready' }),
    vendor('vendor:ping'),
    vendor({ type: 'vendor:ready' }, 'vendor:ready'),
    vendor({ type: 'CALL_ENDED', data: { externalCallId: 'c9' } }, 'CALL_ENDED'),
    inbound('SYNC_ACK'),
    inbound('INITIALIZED', { isLoggedIn: true }),
  )
  expect(state.findings).toEqual([])
  expect(state.handshakeDone).toBe(true)
})

test('a SYNC_ACK in which Ringside’s CDN build says it stands in for a prerelease is a warning naming the substitution', () => {
  const ack = inbound('SYNC_ACK')
  if (ack.kind !== 'traffic') throw new Error('not traffic')
  const message = { ...(ack.entry.message as object), ringsideSdkSubstitution: { requested: '0.9.3-alpha.0', served: '0.9.3' } }
  const state = run(outbound('SYNC'), { kind: 'traffic', entry: { ...ack.entry, message } })
  expect(state.findings).toEqual([
    expect.objectContaining({
      rule: 'sdk-substitution',
      severity: 'warning',
      message: 'The widget pins @hubspot/calling-extensions-sdk@0.9.3-alpha.0, a prerelease Ringside does not hold: Ringside serves the release 0.9.3 in its place.',
    }),
  ])
  expect(rules(run(...handshake()))).toEqual([])
})
