/**
 * What published SDK releases older than today's types send (0.0.6 to 0.6.x), judged as the
 * real CRM judged it: the host logs the call, and each older shape is a warning that names the
 * release, never an error (shared/protocol/README.md, "The SDK version matrix").
 */
import { judgeWidgetMessage, type Judgement } from './judgement.ts'
import { hostCallId, isHostCallId } from './leniency.ts'
import { findingsOf, replayWire, type WireEntry } from './session-replay.ts'

function acted(judgement: Judgement) {
  if (!judgement.act) throw new Error(`ignored: ${judgement.reason}`)
  return judgement
}
const fromWidget = (data: unknown): WireEntry => ({ direction: 'from-widget', data })
const toWidget = (data: unknown): WireEntry => ({ direction: 'to-widget', data })

describe('calls started without externalCallId (SDK 0.6 and older)', () => {
  it("0.0.x/0.2.x outgoingCall({ createEngagement, phoneNumber }) is acted on under the host's own id, with a warning naming the shape", () => {
    const raw = { type: 'OUTGOING_CALL_STARTED', messageId: 'abc_1', data: { createEngagement: true, phoneNumber: '+1 617 555 0101' } }
    const j = acted(judgeWidgetMessage(raw))
    expect(j.message).toMatchObject({ data: { externalCallId: hostCallId('abc_1'), phoneNumber: '+1 617 555 0101', createEngagement: true } })
    expect(raw.data).not.toHaveProperty('externalCallId') // the wire message is left as received
    expect(j.deviations).toEqual([expect.objectContaining({ severity: 'warning', rule: 'call-id-missing', path: 'data.externalCallId', message: expect.stringContaining('SDK 0.6 and older') })])
    expect(j.deprecation).toMatch(/phoneNumber/)
  })

  it("0.3–0.6 incomingCall({ createEngagement, fromNumber, toNumber }) is acted on the same way", () => {
    const j = acted(judgeWidgetMessage({ type: 'INCOMING_CALL', messageId: 7, data: { createEngagement: true, fromNumber: '+1 617 555 0101', toNumber: '+1 617 555 0100' } }))
    expect(j.message).toMatchObject({ data: { externalCallId: hostCallId(7) } })
    expect(j.deviations.map((d) => [d.severity, d.rule])).toEqual([['warning', 'call-id-missing']])
  })

  it('the host id is the same on every judgement of the same message (the harness and check-widget agree), and never a widget id', () => {
    const raw = { type: 'OUTGOING_CALL_STARTED', messageId: 'm_9', data: { createEngagement: true, toNumber: '+1' } }
    const first = acted(judgeWidgetMessage(raw)).message as { data: { externalCallId: string } }
    const again = acted(judgeWidgetMessage(raw)).message as { data: { externalCallId: string } }
    expect(first.data.externalCallId).toBe(again.data.externalCallId)
    expect(isHostCallId(first.data.externalCallId)).toBe(true)
    expect(isHostCallId('matrix-0.9.7-1')).toBe(false)
    expect(hostCallId('x'.repeat(10_000)).length).toBeLessThan(100)
  })

  it('an externalCallId that is sent but unusable is still refused with an error (a mistake, not an older shape)', () => {
    for (const externalCallId of [null, 42, { id: 1 }]) {
      const j = judgeWidgetMessage({ type: 'OUTGOING_CALL_STARTED', messageId: 'w', data: { createEngagement: true, toNumber: '+1', externalCallId } })
      expect(j.act).toBe(false)
      expect(j.deviations.every((d) => d.severity === 'error')).toBe(true)
    }
  })
})

describe('a whole call of each older release, replayed as check-widget replays it', () => {
  const created = toWidget({ type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'h1', data: { engagementId: 51 } })
  const cases: Array<[string, WireEntry[], string[]]> = [
    [
      '0.0.6: outgoingCall, callAnswered(), callEnded() with no data and no callCompleted',
      [
        fromWidget({ type: 'OUTGOING_CALL_STARTED', messageId: 'a_1', data: { createEngagement: true, phoneNumber: '+1' } }),
        created,
        fromWidget({ type: 'CALL_ANSWERED', messageId: 'a_2' }),
        fromWidget({ type: 'CALL_ENDED', messageId: 'a_3' }),
      ],
      ['OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED'],
    ],
    [
      '0.0.10–0.2.x: callEnded() bare, callCompleted({ engagementId, hideWidget }) with the engagement from ENGAGEMENT_CREATED',
      [
        fromWidget({ type: 'OUTGOING_CALL_STARTED', messageId: 'b_1', data: { createEngagement: true, phoneNumber: '+1' } }),
        created,
        toWidget({ type: 'ENGAGEMENT_CREATED', messageId: 'h2', data: { engagementId: 51 } }),
        fromWidget({ type: 'CALL_ANSWERED', messageId: 'b_2' }),
        fromWidget({ type: 'CALL_ENDED', messageId: 'b_3', data: undefined }),
        fromWidget({ type: 'CALL_COMPLETED', messageId: 'b_4', data: { engagementId: 51, hideWidget: false, engagementProperties: { hs_call_body: 'n' } } }),
      ],
      ['OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED'],
    ],
    [
      '0.5.x: the demo\'s callEnded({ callEndStatus }) and an inbound call',
      [
        fromWidget({ type: 'INCOMING_CALL', messageId: 'c_1', data: { createEngagement: true, fromNumber: '+1', toNumber: '+2' } }),
        created,
        fromWidget({ type: 'CALL_ANSWERED', messageId: 'c_2' }),
        fromWidget({ type: 'CALL_ENDED', messageId: 'c_3', data: { callEndStatus: 'COMPLETED' } }),
        fromWidget({ type: 'CALL_COMPLETED', messageId: 'c_4', data: { engagementId: 51, hideWidget: false } }),
      ],
      ['INCOMING_CALL', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED'],
    ],
  ]

  it.each(cases)('%s: every event applies to the started call; warnings only, no call-without-start', (_name, log, types) => {
    const { messages } = replayWire(log)
    expect(messages.map((m) => m.type)).toEqual(types)
    const callId = (messages[0]!.judgement as { message: { data: { externalCallId: string } } }).message.data.externalCallId
    for (const m of messages.slice(1)) expect(m.verdict).toMatchObject({ act: true, externalCallId: callId, engagementId: 51 })
    const findings = messages.flatMap(findingsOf)
    expect(findings.filter((f) => f.severity === 'error')).toEqual([])
    expect(findings.some((f) => /SDK 0\.6 and older|SDK 0\.0\.6|up to SDK 0\.5/.test(f.text))).toBe(true)
  })

  it("CALL_ENDED with no data says so once, naming the releases that send none", () => {
    const j = acted(judgeWidgetMessage({ type: 'CALL_ENDED', messageId: 'x' }))
    expect(j.deviations).toEqual([expect.objectContaining({ rule: 'current-call', message: expect.stringContaining("SDK 0.0.6's callEnded()") })])
    const answered = acted(judgeWidgetMessage({ type: 'CALL_ANSWERED', messageId: 'y' }))
    expect(answered.deviations[0]?.message).toContain('up to SDK 0.5.x')
  })
})
