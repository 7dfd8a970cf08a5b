/**
 * The ladder model from recorded traffic: lanes, arrows, the message → request links, calls,
 * gaps, findings, and the awkward cases (unknown types, a missing reply, clocks that go back).
 */
import { readFileSync } from 'node:fs'
import { buildLadder, LANES, selectCall, type LadderArrow, type LadderModel } from './ladder.ts'
import { parseTrafficFile, type TrafficFile } from './traffic-file.ts'
import { repeatRecording, TrafficBuilder } from './testing/fixtures.ts'

const arrow = (model: LadderModel, label: string, nth = 0): LadderArrow => {
  const found = model.rows.filter((r) => r.arrow.label === label)[nth]
  if (!found) throw new Error(`no arrow ${label} (#${nth}) in ${model.rows.map((r) => r.arrow.label).join(', ')}`)
  return found.arrow
}
const labels = (model: LadderModel) => model.rows.map((r) => r.arrow.label)

describe('buildLadder', () => {
  it('has the three lanes, an arrow per message in its direction, and a request and answer arrow per API request', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-1', 501).file({ findings: [] }))
    expect(model.lanes.map((l) => l.label)).toEqual(['Widget', 'Host', 'CRM API'])
    expect(LANES.map((l) => l.id)).toEqual(['widget', 'host', 'api'])
    expect(arrow(model, 'SYNC')).toMatchObject({ kind: 'message', from: 'host', to: 'widget' })
    expect(arrow(model, 'OUTGOING_CALL_STARTED')).toMatchObject({ kind: 'message', from: 'widget', to: 'host' })
    expect(arrow(model, 'POST /crm/v3/objects/calls → 201')).toMatchObject({ kind: 'request', from: 'host', to: 'api' })
    expect(model.rows.filter((r) => r.arrow.kind === 'response').map((r) => [r.arrow.from, r.arrow.to])[0]).toEqual(['api', 'host'])
    expect(model.counts).toMatchObject({ messages: 12, requests: 6 })
    expect(model.rows).toHaveLength(12 + 6 * 2)
    // The query is not part of the label.
    expect(labels(model)).toContain('GET /crm/v3/objects/calls/501 → 200')
  })

  it('links each request to the message that caused it, in wire order between the message and its reply', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-1', 501).file({ findings: [] }))
    const started = arrow(model, 'OUTGOING_CALL_STARTED')
    const post = arrow(model, 'POST /crm/v3/objects/calls → 201')
    expect(post.causeSeq).toBe(started.seq)
    expect(started.requests).toEqual([post.requestId])
    const order = labels(model)
    expect(order.indexOf('OUTGOING_CALL_STARTED')).toBeLessThan(order.indexOf('POST /crm/v3/objects/calls → 201'))
    expect(order.indexOf('POST /crm/v3/objects/calls → 201') + 1).toBe(order.indexOf('201 (12 ms)'))
    expect(order.indexOf('201 (12 ms)')).toBeLessThan(order.indexOf('CREATE_ENGAGEMENT_SUCCEEDED'))
    const completed = arrow(model, 'CALL_COMPLETED')
    const patch = arrow(model, 'PATCH /crm/v3/objects/calls/501 → 200', 2)
    expect(patch.causeSeq).toBe(completed.seq)
    expect(completed.linked).toEqual([arrow(model, 'UPDATE_ENGAGEMENT_SUCCEEDED').seq])
    expect(started.description).toContain('caused POST /crm/v3/objects/calls → 201')
    expect(post.description).toContain(`caused by #${started.seq} OUTGOING_CALL_STARTED`)
  })

  it('groups by call as the host judged each message, and shows one call alone', () => {
    const file = new TrafficBuilder().handshake().call('call-a', 501).call('call-b', 502).file({ findings: [] })
    const model = buildLadder(file)
    expect(model.calls.map((c) => [c.key, c.engagementId, c.direction])).toEqual([
      ['call-a', 501, 'outbound'],
      ['call-b', 502, 'outbound'],
    ])
    expect(arrow(model, 'DIAL_NUMBER', 1).callKey).toBe('call-b')
    expect(arrow(model, 'CREATE_ENGAGEMENT_SUCCEEDED', 1).callKey).toBe('call-b')
    expect(arrow(model, 'UPDATE_ENGAGEMENT_SUCCEEDED', 0).callKey).toBe('call-a')
    expect(arrow(model, 'PATCH /crm/v3/objects/calls/502 → 200').callKey).toBe('call-b')
    expect(arrow(model, 'SYNC').callKey).toBeUndefined()

    const b = buildLadder(file, { callKey: 'call-b' })
    expect(b.callKey).toBe('call-b')
    expect(b.rows.every((r) => r.arrow.callKey === 'call-b')).toBe(true)
    expect(labels(b)[0]).toBe('DIAL_NUMBER')
    expect(labels(b)).toContain('PATCH /crm/v3/objects/calls/502 → 200')
    expect(labels(b)).not.toContain('SYNC')
    expect(b.rows[0]!.offsetMs).toBe(0)
    // Back to every call from the one-call model.
    expect(selectCall(b, undefined).rows).toHaveLength(model.rows.length)
  })

  it("a call event without externalCallId goes to the call its engagementId names: the host's verdict, not the latest call", () => {
    const b = new TrafficBuilder().handshake()
    b.call('call-a', 501)
    b.message('in', 'OUTGOING_CALL_STARTED', { externalCallId: 'call-b', createEngagement: false })
    const stray = b.raw('in', { type: 'CALL_ENDED', messageId: 'x', data: { engagementId: 501 } })
    const model = buildLadder(b.file())
    // call-b is the current call, but engagement 501 is call-a's: the host applies it to call-a.
    expect(model.rows.find((r) => r.arrow.seq === stray.seq)!.arrow.callKey).toBe('call-a')
  })

  it('shows the pauses (ring, talk) and each call its ring and talk time', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-1', 501, { ringMs: 4000, talkMs: 12000 }).file({ findings: [] }))
    const answered = model.rows.find((r) => r.arrow.label === 'CALL_ANSWERED')!
    expect(answered.gapPhase).toBe('ringing')
    expect(answered.gapMs).toBeGreaterThanOrEqual(4000)
    const ended = model.rows.find((r) => r.arrow.label === 'CALL_ENDED')!
    expect(ended.gapPhase).toBe('talking')
    expect(ended.gapMs).toBeGreaterThanOrEqual(12000)
    expect(model.rows.find((r) => r.arrow.label === 'CALL_COMPLETED')!.gapPhase).toBe('wrap-up')
    const call = model.calls[0]!
    expect(call.ringMs).toBeGreaterThanOrEqual(4000)
    expect(call.ringMs).toBeLessThan(4100)
    expect(call.talkMs).toBeGreaterThanOrEqual(12000)
    expect(call.label).toMatch(/^Outgoing call call-1 · engagement 501 · rang 4\.\d s, talked 12 s$/)
    // Rows close together have no gap.
    expect(model.rows.find((r) => r.arrow.label === 'CREATE_ENGAGEMENT_SUCCEEDED')!.gapMs).toBeUndefined()
  })

  it('orders by seq whatever the clocks say, and marks a timestamp that goes back', () => {
    const b = new TrafficBuilder().handshake()
    const late = b.message('in', 'USER_AVAILABLE')
    const early = b.message('in', 'USER_UNAVAILABLE')
    early.time = late.time - 60_000
    const file = b.file({ findings: [] })
    file.messages.reverse()
    const model = buildLadder(file)
    expect(labels(model)).toEqual(['SYNC', 'SYNC_ACK', 'INITIALIZED', 'LOGGED_IN', 'USER_AVAILABLE', 'USER_UNAVAILABLE'])
    const row = model.rows.at(-1)!
    expect(row.clockBack).toBe(true)
    expect(row.gapMs).toBeUndefined()
    expect(row.arrow.description).toContain('its timestamp is earlier than the one before it')
    expect(model.rows.every((r) => r.offsetMs >= 0)).toBe(true)
  })

  it('places a request recorded without afterSeq by its time, never before its cause', () => {
    const b = new TrafficBuilder().handshake()
    const started = b.message('in', 'OUTGOING_CALL_STARTED', { externalCallId: 'c', createEngagement: true })
    const post = b.request('POST', '/crm/v3/objects/calls', 201, started)
    b.wait(100)
    b.message('out', 'CREATE_ENGAGEMENT_SUCCEEDED', { engagementId: 9 })
    delete post.afterSeq
    post.time = started.time - 5_000 // a clock that disagrees
    const model = buildLadder(b.file({ findings: [] }))
    expect(labels(model).slice(4, 7)).toEqual(['OUTGOING_CALL_STARTED', 'POST /crm/v3/objects/calls → 201', '201 (12 ms)'])
    expect(model.notes).toContain('1 request was placed by time (the file does not say which message each followed).')
  })

  it('draws an unknown message type, and judges a file without findings as the host does', () => {
    const b = new TrafficBuilder().handshake()
    b.raw('in', { type: 'FANCY_NEW_THING', messageId: 'z', data: {} }, { valid: false, reason: 'unknown type' })
    b.raw('in', { messageId: 'no-type' })
    const model = buildLadder(b.file())
    const fancy = arrow(model, 'FANCY_NEW_THING')
    expect(fancy).toMatchObject({ state: 'unknown-type', severity: 'error', from: 'widget', to: 'host' })
    expect(fancy.findings[0]).toMatchObject({ rule: 'unknown-type', severity: 'error' })
    // No type: not a calling-SDK message at all (the SDK drops it), drawn greyed.
    expect(arrow(model, '(no type)').state).toBe('not-sdk')
    expect(model.notes).toContain('The file has no findings: the widget messages were judged as the host judges them.')
  })

  it('pins the file\'s findings to their arrows, most severe first, and keeps the others aside', () => {
    const b = new TrafficBuilder().handshake()
    const started = b.message('in', 'OUTGOING_CALL_STARTED', { externalCallId: 'c', createEngagement: false, phoneNumber: '+1' })
    const model = buildLadder(
      b.file({
        findings: [
          { seq: started.seq, severity: 'warning', rule: 'deprecated', title: 'Deprecated message or field', message: 'phoneNumber is deprecated' },
          { seq: started.seq, severity: 'error', rule: 'ghost-call', message: 'never completed' },
          { seq: null, severity: 'error', rule: 'ghost-call', message: 'the widget reloaded' },
          { seq: 4242, severity: 'warning', rule: 'x', message: 'names no message' },
        ],
      }),
    )
    const a = arrow(model, 'OUTGOING_CALL_STARTED')
    expect(a.findings.map((f) => f.severity)).toEqual(['error', 'warning'])
    expect(a.severity).toBe('error')
    expect(a.description).toContain('warning: Deprecated message or field: phoneNumber is deprecated')
    expect(model.unpinned.map((f) => f.message)).toEqual(['the widget reloaded', 'names no message'])
    expect(model.counts).toMatchObject({ errors: 2, warnings: 2 })
  })

  it('marks a request that got no reply, with or without links in the file', () => {
    for (const links of [true, false]) {
      const b = new TrafficBuilder().handshake()
      b.call('call-1', 501, { links })
      const completed = b.message('in', 'CALL_COMPLETED', { externalCallId: 'call-1', engagementId: 501 })
      b.message('in', 'NAVIGATE_TO_RECORD') // answered only on failure: no reply owed
      const model = buildLadder(b.file({ findings: [] }))
      const first = arrow(model, 'CALL_COMPLETED', 0)
      expect(first.missingReply, `links: ${links}`).toBeUndefined()
      expect(first.linked).toEqual([arrow(model, 'UPDATE_ENGAGEMENT_SUCCEEDED').seq])
      const second = model.rows.find((r) => r.arrow.seq === completed.seq)!.arrow
      expect(second.missingReply).toBe(true)
      expect(second.description).toContain('no reply was sent')
      expect(arrow(model, 'NAVIGATE_TO_RECORD').missingReply).toBeUndefined()
      expect(model.counts.missingReplies).toBe(1)
    }
  })

  it('shows what the host ignored and what the API refused', () => {
    const b = new TrafficBuilder().handshake()
    b.message('in', 'CALL_ENDED', { externalCallId: 'never-started' })
    const started = b.message('in', 'OUTGOING_CALL_STARTED', { externalCallId: 'c', createEngagement: true })
    b.request('POST', '/crm/v3/objects/calls', 400, started, { responseBody: { status: 'error', message: 'bad' } })
    const lost = b.request('GET', '/crm/v3/objects/calls/9', 0, started)
    lost.error = 'Failed to fetch'
    const model = buildLadder(b.file())
    expect(arrow(model, 'CALL_ENDED')).toMatchObject({ state: 'ignored', severity: 'error' })
    expect(arrow(model, 'POST /crm/v3/objects/calls → 400').state).toBe('failed')
    expect(arrow(model, 'GET /crm/v3/objects/calls/9 → no answer')).toMatchObject({ state: 'no-answer', note: 'Failed to fetch' })
    expect(arrow(model, 'no answer').from).toBe('api')
  })
})

describe('requests in flight', () => {
  it('draws a request where it started and its answer where it came, with the messages of the meantime between', () => {
    const b = new TrafficBuilder().handshake()
    const answered = b.message('in', 'CALL_ANSWERED', { externalCallId: 'c' })
    const patch = b.request('PATCH', '/crm/v3/objects/calls/9', 200, answered, {}, 400)
    // Two messages arrive while the PATCH is in flight; its answer comes after them.
    b.time = patch.time + 100
    b.message('in', 'USER_AVAILABLE')
    b.message('in', 'USER_UNAVAILABLE')
    patch.afterSeq = 7
    const model = buildLadder(b.file({ findings: [] }))
    expect(labels(model).slice(4)).toEqual(['CALL_ANSWERED', 'PATCH /crm/v3/objects/calls/9 → 200', 'USER_AVAILABLE', 'USER_UNAVAILABLE', '200 (400 ms)'])
    expect(model.rows.some((r) => r.clockBack)).toBe(false)
  })
})

describe('overlapping requests', () => {
  it('marks no clock going back when an answer is drawn after a request or message that started after it came', () => {
    const b = new TrafficBuilder().handshake()
    const completed = b.message('in', 'CALL_COMPLETED', { externalCallId: 'c', engagementId: 9 })
    const t = b.time
    const patch = b.request('PATCH', '/crm/v3/objects/calls/9', 200, completed, {}, 44)
    const get = b.request('GET', '/crm/v3/objects/calls/9', 200, completed, {}, 100)
    // The PATCH's answer (t + 45) was stamped before the host's next message (t + 60) but handled after it,
    // while the GET had already started (t + 55).
    patch.time = t + 1
    get.time = t + 55
    b.time = t + 59
    const next = b.message('out', 'UPDATE_ENGAGEMENT_SUCCEEDED', { engagementId: 9 })
    patch.afterSeq = next.seq
    get.afterSeq = next.seq
    const model = buildLadder(b.file({ findings: [] }))
    expect(labels(model).slice(-4)).toEqual(['GET /crm/v3/objects/calls/9 → 200', 'UPDATE_ENGAGEMENT_SUCCEEDED', '200 (44 ms)', '200 (100 ms)'])
    expect(model.rows.some((r) => r.clockBack)).toBe(false)
  })
})

describe('a call recorded by the harness (testing/recorded-call.json: Export JSON after a call with the reference widget)', () => {
  const recorded = (): TrafficFile => {
    const result = parseTrafficFile(readFileSync(new URL('./testing/recorded-call.json', import.meta.url), 'utf8'))
    if (!result.ok) throw new Error(result.error)
    return result.file
  }

  it('is one call: OUTGOING_CALL_STARTED caused the POST, CALL_COMPLETED the PATCH and the associations, and the reply answers it', () => {
    const model = buildLadder(recorded())
    expect(model.calls).toHaveLength(1)
    const call = model.calls[0]!
    expect(call).toMatchObject({ direction: 'outbound', engagementId: 2, errors: 0, warnings: 0 })
    expect(call.ringMs).toBeGreaterThan(1000)
    expect(call.talkMs).toBeGreaterThan(2000)
    const started = arrow(model, 'OUTGOING_CALL_STARTED')
    const post = arrow(model, 'POST /crm/v3/objects/calls → 201')
    expect(post.causeSeq).toBe(started.seq)
    expect(started.callKey).toBe(call.key)
    expect(arrow(model, 'DIAL_NUMBER').callKey).toBe(call.key)
    const completed = arrow(model, 'CALL_COMPLETED')
    const caused = model.rows.filter((r) => r.arrow.kind === 'request' && r.arrow.causeSeq === completed.seq).map((r) => r.arrow.label)
    expect(caused).toEqual([
      'PATCH /crm/v3/objects/calls/2 → 200',
      'PUT /crm/v3/objects/calls/2/associations/contacts/1/194 → 200',
      'GET /crm/v3/objects/contacts/1 → 200',
      'PUT /crm/v3/objects/calls/2/associations/companies/1/182 → 200',
      'GET /crm/v3/objects/calls/2 → 200',
    ])
    expect(completed.linked).toEqual([arrow(model, 'UPDATE_ENGAGEMENT_SUCCEEDED').seq])
    // Every request has its answer right where it came, and nothing went back in time.
    expect(model.rows.filter((r) => r.arrow.kind === 'response')).toHaveLength(model.counts.requests)
    expect(model.rows.some((r) => r.clockBack)).toBe(false)
    const order = labels(model)
    expect(order.indexOf('PATCH /crm/v3/objects/calls/2 → 200')).toBeGreaterThan(order.indexOf('CALL_ANSWERED'))
    expect(order.lastIndexOf('GET /crm/v3/objects/calls/2 → 200')).toBeGreaterThan(order.indexOf('UPDATE_ENGAGEMENT_SUCCEEDED'))
    expect(model.rows.find((r) => r.arrow.label === 'CALL_ENDED')!.gapPhase).toBe('talking')
  })
})

describe('repeatRecording (the benchmark\'s long session)', () => {
  it('plays the recorded call again with new ids, each round its own call', () => {
    const result = parseTrafficFile(readFileSync(new URL('./testing/recorded-call.json', import.meta.url), 'utf8'))
    if (!result.ok) throw new Error(result.error)
    const long = repeatRecording(result.file, 100)
    expect(long.messages.length).toBeGreaterThanOrEqual(100)
    const model = buildLadder(long)
    expect(model.calls.length).toBe(Math.ceil((long.messages.length - 5) / 13))
    expect(new Set(model.calls.map((c) => c.engagementId)).size).toBe(model.calls.length)
    expect(model.calls.every((c) => c.errors === 0)).toBe(true)
    expect(model.rows.some((r) => r.clockBack)).toBe(false)
    expect(parseTrafficFile(JSON.stringify(long)).ok).toBe(true)
  })
})

describe('messages that are not calling-SDK messages (a vendor library’s)', () => {
  it('are drawn greyed (state not-sdk) with no finding, whether the file has findings or the ladder judges them', () => {
    for (const findings of [[], undefined]) {
      const builder = new TrafficBuilder()
      builder.raw('in', { event: 'agent-ready' }, { notSdk: true, valid: false })
      builder.raw('in', { type: 'acme/ping' })
      builder.handshake()
      const model = buildLadder(builder.file(findings === undefined ? {} : { findings }))
      const vendor = model.rows.filter((r) => r.arrow.state === 'not-sdk')
      expect(vendor.map((r) => r.arrow.label), String(findings)).toEqual(['(no type)', 'acme/ping'])
      expect(vendor.flatMap((r) => r.arrow.findings)).toEqual([])
      expect(vendor[0]!.arrow.description).toContain('not a calling-SDK message (dropped, as the SDK drops it)')
    }
  })

  it('a traffic file keeps the mark', () => {
    const builder = new TrafficBuilder()
    builder.raw('in', 'vendor:ping', { notSdk: true, valid: false })
    const parsed = parseTrafficFile(JSON.stringify(builder.file()))
    expect(parsed.ok && parsed.file.messages[0]).toMatchObject({ notSdk: true })
  })
})
