/**
 * Traffic files as the harness records them, for the ladder's tests and the benchmark: the
 * handshake, then calls as the reference widget makes them (DIAL_NUMBER, OUTGOING_CALL_STARTED
 * with createEngagement, the engagement's POST, CALL_ANSWERED, CALL_ENDED, CALL_COMPLETED with
 * its PATCH and associations), each host request tagged with the message that caused it.
 */
import { sampleMessage } from '../../protocol/testing/samples.ts'
import type { MessageType } from '../../protocol/index.ts'
import { TRAFFIC_FORMAT, TRAFFIC_VERSION, type TrafficFile, type TrafficMessage, type TrafficRequest } from '../traffic-file.ts'

export class TrafficBuilder {
  readonly messages: TrafficMessage[] = []
  readonly requests: TrafficRequest[] = []
  time: number
  #seq = 0
  #id = 0

  constructor(start = Date.UTC(2026, 0, 5, 10, 0, 0)) {
    this.time = start
  }

  /** Moves the clock on. */
  wait(ms: number): this {
    this.time += ms
    return this
  }

  /** A message of a catalogue type with its sample envelope, `data` merged in. */
  message(direction: 'in' | 'out', type: MessageType, data?: Record<string, unknown>, extra: Partial<TrafficMessage> = {}): TrafficMessage {
    const base = sampleMessage(type, `${direction}_${this.#seq + 1}`)
    if (data !== undefined) base.data = { ...(base.data as Record<string, unknown> | undefined), ...data }
    return this.raw(direction, base, { valid: true, ...extra })
  }

  /** Any object as a message (an unknown type, a malformed one). */
  raw(direction: 'in' | 'out', message: unknown, extra: Partial<TrafficMessage> = {}): TrafficMessage {
    this.#seq += 1
    this.time += 5
    const type = typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string' ? (message as { type: string }).type : null
    const entry: TrafficMessage = { seq: this.#seq, time: this.time, direction, type, message, ...extra }
    this.messages.push(entry)
    return entry
  }

  /** An API request made because of `cause`, answered after `durationMs`. */
  request(method: string, path: string, status: number, cause?: TrafficMessage, bodies: { requestBody?: unknown; responseBody?: unknown } = {}, durationMs = 12): TrafficRequest {
    this.#id += 1
    this.time += 1
    const request: TrafficRequest = { id: this.#id, time: this.time, method, path, status, durationMs, afterSeq: this.#seq, ...bodies }
    if (cause) request.causeSeq = cause.seq
    this.time += durationMs
    this.requests.push(request)
    return request
  }

  /** The handshake and the widget's start-up. */
  handshake(): this {
    const sync = this.message('out', 'SYNC')
    const ack = this.raw('in', { ...sampleMessage('SYNC_ACK'), messageId: (sync.message as { messageId: string }).messageId }, { valid: true })
    sync.linkedTo = [ack.seq]
    ack.linkedTo = [sync.seq]
    this.message('in', 'INITIALIZED', { isLoggedIn: true })
    this.message('in', 'LOGGED_IN')
    return this
  }

  /** One outgoing call, logged as the harness logs it. `ringMs` and `talkMs` pass between the messages. */
  call(externalCallId: string, engagementId: number, options: { ringMs?: number; talkMs?: number; links?: boolean } = {}): this {
    const links = options.links ?? true
    const link = (request: TrafficMessage, reply: TrafficMessage) => {
      if (!links) return
      request.linkedTo = [...(request.linkedTo ?? []), reply.seq]
      reply.linkedTo = [...(reply.linkedTo ?? []), request.seq]
    }
    this.message('out', 'DIAL_NUMBER')
    this.wait(800)
    const started = this.message('in', 'OUTGOING_CALL_STARTED', { externalCallId, createEngagement: true })
    this.request('POST', '/crm/v3/objects/calls', 201, started, { requestBody: { properties: { hs_call_external_id: externalCallId } }, responseBody: { id: String(engagementId) } })
    link(started, this.message('out', 'CREATE_ENGAGEMENT_SUCCEEDED', { engagementId }))
    this.message('out', 'ENGAGEMENT_CREATED', { engagementId })
    this.wait(options.ringMs ?? 4000)
    const answered = this.message('in', 'CALL_ANSWERED', { externalCallId })
    this.request('PATCH', `/crm/v3/objects/calls/${engagementId}`, 200, answered)
    this.request('GET', `/crm/v3/objects/calls/${engagementId}?properties=hs_call_status`, 200, answered)
    this.wait(options.talkMs ?? 12000)
    const ended = this.message('in', 'CALL_ENDED', { externalCallId, engagementId })
    this.request('PATCH', `/crm/v3/objects/calls/${engagementId}`, 200, ended)
    this.wait(3000)
    const completed = this.message('in', 'CALL_COMPLETED', { externalCallId, engagementId })
    this.request('PATCH', `/crm/v3/objects/calls/${engagementId}`, 200, completed, { requestBody: { properties: { hs_call_body: 'notes' } } })
    this.request('PUT', `/crm/v3/objects/calls/${engagementId}/associations/contacts/1/194`, 200, completed)
    link(completed, this.message('out', 'UPDATE_ENGAGEMENT_SUCCEEDED', { engagementId }))
    return this
  }

  file(extra: Partial<TrafficFile> = {}): TrafficFile {
    return {
      format: TRAFFIC_FORMAT,
      version: TRAFFIC_VERSION,
      exportedAt: new Date(this.time).toISOString(),
      source: 'harness',
      messages: this.messages,
      requests: this.requests,
      ...extra,
    }
  }
}

/** The handshake and `calls` outgoing calls (about 12 messages and 7 requests each). */
export function callsTraffic(calls: number): TrafficFile {
  const builder = new TrafficBuilder().handshake()
  for (let i = 1; i <= calls; i++) builder.call(`call-${i}`, 1000 + i, { ringMs: 2000 + (i % 5) * 500, talkMs: 5000 + (i % 7) * 1000 })
  return builder.file({ findings: [] })
}

/**
 * A long session from a recorded one: its calls played again and again (new externalCallIds,
 * engagement ids, seqs, request ids and times) until it holds at least `messages` messages.
 * The handshake of the recording is kept once.
 */
export function repeatRecording(recording: TrafficFile, messages: number): TrafficFile {
  const first = recording.messages.findIndex((m) => m.type === 'DIAL_NUMBER')
  const head = recording.messages.slice(0, Math.max(0, first))
  const body = recording.messages.slice(Math.max(0, first))
  if (body.length === 0) throw new Error('the recording has no call (no DIAL_NUMBER)')
  const callIds = [...new Set(body.map((m) => (m.message as { data?: { externalCallId?: unknown } } | null)?.data?.externalCallId).filter((id): id is string => typeof id === 'string'))]
  const span = Math.max(1, (body.at(-1)?.time ?? 0) - (body[0]?.time ?? 0)) + 1000
  const seqSpan = Math.max(...recording.messages.map((m) => m.seq))
  const idSpan = Math.max(0, ...recording.requests.map((r) => r.id)) + 1
  const out: TrafficFile = { ...recording, messages: [...head], requests: [], findings: [] }
  for (let round = 0; out.messages.length < messages; round++) {
    const renumber = (text: string) => {
      let next = text
      for (const id of callIds) next = next.split(id).join(`${id}-${round}`)
      return next.replace(/calls\/(\d+)/g, (_, id: string) => `calls/${Number(id) + round * 1000}`).replace(/"engagementId":(\d+)/g, (_, id: string) => `"engagementId":${Number(id) + round * 1000}`)
    }
    const shift = (seq: number | undefined) => (seq === undefined ? undefined : seq + round * seqSpan)
    for (const m of body) {
      const copy = JSON.parse(renumber(JSON.stringify(m))) as TrafficMessage
      copy.seq = m.seq + round * seqSpan
      copy.time = m.time + round * span
      if (m.linkedTo) copy.linkedTo = m.linkedTo.map((s) => s + round * seqSpan)
      out.messages.push(copy)
    }
    for (const r of recording.requests) {
      const copy = JSON.parse(renumber(JSON.stringify(r))) as TrafficRequest
      copy.id = r.id + round * idSpan
      copy.time = r.time + round * span
      const cause = shift(r.causeSeq)
      const after = shift(r.afterSeq)
      if (cause !== undefined) copy.causeSeq = cause
      if (after !== undefined) copy.afterSeq = after
      out.requests.push(copy)
    }
  }
  return out
}
