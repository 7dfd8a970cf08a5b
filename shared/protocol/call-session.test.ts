import {
  CALL_RULES,
  MAX_SESSION_CALLS,
  emptySession,
  engagementCreated,
  judgeCallEvent,
  startCall,
  stepCallEvent,
  type CallSession,
  type CallVerdict,
} from './call-session.ts'
import { findingsOf, replayWire, type WireEntry } from './session-replay.ts'
import { judgeWidgetMessage } from './judgement.ts'

/** A session with call c1 (engagement 101) and call c2 (engagement 102, the current one). */
function twoCalls(): CallSession {
  let s = startCall(emptySession(), { externalCallId: 'c1', createEngagement: true }, 'outbound')
  s = engagementCreated(s, 'c1', 101)
  s = startCall(s, { externalCallId: 'c2', createEngagement: true }, 'outbound')
  return engagementCreated(s, 'c2', 102)
}
const rules = (v: CallVerdict) => v.findings.map((f) => [f.severity, f.rule])
function acted(v: CallVerdict) {
  if (!v.act) throw new Error(`ignored: ${v.reason}`)
  return v
}

describe('judgeCallEvent: one verdict per call event, the host acts by it and reports it', () => {
  it('a call event naming its call and its engagement: acted on, no finding', () => {
    const v = acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', { externalCallId: 'c2', engagementId: 102, callEndStatus: 'COMPLETED' }))
    expect(v).toMatchObject({ externalCallId: 'c2', engagementId: 102, endFirst: false })
    expect(v.findings).toEqual([])
  })

  it('engagementId 0 (the judgement drops it): the call by externalCallId, no finding here (the judgement warns)', () => {
    const judged = judgeWidgetMessage({ type: 'CALL_ENDED', messageId: 'w1', data: { externalCallId: 'c2', engagementId: 0 } })
    if (!judged.act) throw new Error('ignored')
    expect(judged.deviations.map((d) => [d.severity, d.rule])).toEqual([['warning', 'engagement-by-call-id']])
    const v = acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', (judged.message as { data?: unknown }).data))
    expect(v).toMatchObject({ externalCallId: 'c2', engagementId: 102 })
    expect(v.findings).toEqual([])
  })

  it("another call's engagementId: the named call's own engagement is updated, the other left alone (error)", () => {
    const v = acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', { externalCallId: 'c2', engagementId: 101 }))
    expect(v).toMatchObject({ externalCallId: 'c2', engagementId: 102 })
    expect(rules(v)).toEqual([['error', 'engagement-mismatch']])
    expect(v.findings[0]!.message).toContain("call c1's engagement")
  })

  it('an engagementId the host never created, on a known call with its own engagement: that call only (error)', () => {
    const v = acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', { externalCallId: 'c1', engagementId: 999 }))
    expect(v).toMatchObject({ externalCallId: 'c1', engagementId: 101 })
    expect(rules(v)).toEqual([['error', 'engagement-mismatch']])
  })

  it('a call started without createEngagement, logged on an engagement the widget created itself: acted on that id', () => {
    let s = startCall(emptySession(), { externalCallId: 'own' }, 'outbound')
    s = stepCallEvent(s, 'CALL_ENDED', { externalCallId: 'own', engagementId: 555 }).session
    const v = acted(judgeCallEvent(s, 'CALL_COMPLETED', { externalCallId: 'own', engagementId: 555 }))
    expect(v.engagementId).toBe(555)
    expect(v.findings).toEqual([])
  })

  it('a call without createEngagement naming a host-created engagement of another call: not that engagement (error)', () => {
    const s = startCall(twoCalls(), { externalCallId: 'own' }, 'outbound')
    const v = acted(judgeCallEvent(s, 'CALL_ENDED', { externalCallId: 'own', engagementId: 101 }))
    expect(v.engagementId).toBeUndefined()
    expect(rules(v)).toEqual([['error', 'engagement-mismatch']])
  })

  it('the right engagementId with an unknown externalCallId: applied to the call that owns the engagement (warning)', () => {
    const v = acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', { externalCallId: 'other', engagementId: 102, callEndStatus: 'COMPLETED' }))
    expect(v).toMatchObject({ externalCallId: 'c2', engagementId: 102 })
    expect(rules(v)).toEqual([['warning', 'call-id-mismatch']])
  })

  it('an unknown externalCallId and no engagement of this widget: ignored (error), for every call event', () => {
    for (const type of ['CALL_ANSWERED', 'CALL_ENDED', 'CALL_TRANSFERRED', 'CALL_COMPLETED', 'FINALIZE_ENGAGEMENT'] as const) {
      const v = judgeCallEvent(twoCalls(), type, { externalCallId: 'nope', engagementId: 999 })
      expect(v.act).toBe(false)
      expect(rules(v)).toEqual([['error', 'call-without-start']])
      expect(v.findings[0]!.message).toContain('never touches a call the widget did not start')
    }
  })

  it('no externalCallId: the current call, or the call whose engagement it names', () => {
    expect(acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', {})).externalCallId).toBe('c2')
    expect(acted(judgeCallEvent(twoCalls(), 'CALL_ENDED', { engagementId: 101 })).externalCallId).toBe('c1')
    const none = judgeCallEvent(emptySession(), 'CALL_ENDED', {})
    expect(none.act).toBe(false)
    expect(rules(none)).toEqual([['error', 'call-without-start']])
  })

  it('CALL_COMPLETED without CALL_ENDED: acted on, ends the call first (warning); after CALL_ENDED no finding', () => {
    let s = twoCalls()
    const early = acted(judgeCallEvent(s, 'CALL_COMPLETED', { externalCallId: 'c2' }))
    expect(early.endFirst).toBe(true)
    expect(rules(early)).toEqual([['warning', 'completed-without-end']])
    expect(early.findings[0]!.message).toContain('CANCELED')
    s = stepCallEvent(s, 'CALL_ANSWERED', { externalCallId: 'c2' }).session
    expect(acted(judgeCallEvent(s, 'CALL_COMPLETED', { externalCallId: 'c2' })).findings[0]!.message).toContain('COMPLETED: it was answered')
    s = stepCallEvent(s, 'CALL_ENDED', { externalCallId: 'c2' }).session
    const late = acted(judgeCallEvent(s, 'CALL_COMPLETED', { externalCallId: 'c2' }))
    expect(late.endFirst).toBe(false)
    expect(late.findings).toEqual([])
  })

  it('completing a call clears the current call; an ignored event changes nothing', () => {
    let s = twoCalls()
    s = stepCallEvent(s, 'CALL_COMPLETED', { externalCallId: 'c2' }).session
    expect(s.current).toBeUndefined()
    const ignored = stepCallEvent(s, 'CALL_ENDED', { externalCallId: 'nope' })
    expect(ignored.session).toBe(s)
  })

  it('externalCallIds are data, never object keys; the session is bounded', () => {
    let s = startCall(emptySession(), { externalCallId: '__proto__', createEngagement: true }, 'inbound')
    expect(acted(judgeCallEvent(s, 'CALL_ANSWERED', { externalCallId: '__proto__' })).externalCallId).toBe('__proto__')
    expect(judgeCallEvent(s, 'CALL_ANSWERED', { externalCallId: 'constructor' }).act).toBe(false)
    for (let i = 0; i < MAX_SESSION_CALLS * 3; i++) {
      s = startCall(s, { externalCallId: `c${i}` }, 'outbound')
      s = stepCallEvent(s, 'CALL_COMPLETED', { externalCallId: `c${i}` }).session
    }
    expect(s.calls.size).toBeLessThanOrEqual(MAX_SESSION_CALLS)
  })

  it('every rule names its severity, what the host does and its evidence', () => {
    for (const info of Object.values(CALL_RULES)) {
      expect(info.host.length).toBeGreaterThan(20)
      expect(info.evidence).toMatch(/https:\/\//)
    }
  })
})

describe('replayWire: check-widget judges a recorded wire as the host did', () => {
  const w = (type: string, data?: unknown): WireEntry => ({ direction: 'from-widget', data: { type, messageId: `w-${type}`, ...(data === undefined ? {} : { data }) } })
  const h = (type: string, data?: unknown): WireEntry => ({ direction: 'to-widget', data: { type, messageId: `h-${type}`, data } })

  it('assigns the created engagement to the call that asked for it, and finds the foreign engagementId', () => {
    const log = [
      w('OUTGOING_CALL_STARTED', { externalCallId: 'a', createEngagement: true }),
      h('CREATE_ENGAGEMENT_SUCCEEDED', { engagementId: 7 }),
      h('ENGAGEMENT_CREATED', { engagementId: 7 }),
      w('CALL_ENDED', { externalCallId: 'a', engagementId: 7, callEndStatus: 'COMPLETED' }),
      w('CALL_COMPLETED', { externalCallId: 'a', engagementId: 7 }),
      w('OUTGOING_CALL_STARTED', { externalCallId: 'b', createEngagement: true }),
      h('CREATE_ENGAGEMENT_SUCCEEDED', { engagementId: 8 }),
      w('CALL_ENDED', { externalCallId: 'b', engagementId: 7, callEndStatus: 'BUSY' }),
      w('CALL_ANSWERED', { externalCallId: 'ghost' }),
    ]
    const { messages, session } = replayWire(log)
    expect(session.calls.get('a')?.engagementId).toBe(7)
    expect(session.calls.get('b')?.engagementId).toBe(8)
    const endedB = messages.find((m) => m.index === 7)!
    expect(endedB.verdict).toMatchObject({ act: true, externalCallId: 'b', engagementId: 8 })
    expect(findingsOf(endedB).map((f) => f.severity)).toEqual(['error'])
    const answered = messages.find((m) => m.index === 8)!
    expect(answered.verdict?.act).toBe(false)
    expect(findingsOf(messages.find((m) => m.index === 0)!)).toEqual([])
  })

  it('CALL_ENDED without callEndStatus is no finding at all (the SDK types it optional)', () => {
    const { messages } = replayWire([
      w('OUTGOING_CALL_STARTED', { externalCallId: 'a', createEngagement: true }),
      h('CREATE_ENGAGEMENT_SUCCEEDED', { engagementId: 7 }),
      w('CALL_ENDED', { externalCallId: 'a', engagementId: 7 }),
    ])
    expect(messages.flatMap(findingsOf)).toEqual([])
    expect(messages[1]!.verdict?.act).toBe(true)
  })
})

describe('the protocol README', () => {
  it('has a row for every call rule', async () => {
    const { readFileSync } = await import('node:fs')
    const { resolve } = await import('node:path')
    const readme = readFileSync(resolve(import.meta.dirname, 'README.md'), 'utf8')
    for (const rule of Object.keys(CALL_RULES)) expect(readme, rule).toMatch(new RegExp(`^\\| \`${rule}\` \\|`, 'm'))
  })
})
