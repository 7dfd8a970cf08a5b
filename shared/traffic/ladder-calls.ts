/**
 * Which call each arrow of the ladder belongs to, and which message answers which: the host's
 * verdicts replayed by the shared call session (shared/protocol/session-replay.ts), the file's
 * reply links (else each reply to the oldest request of its kind), and the calls the rows make,
 * with their ring and talk times.
 */
import { FAILURE_REPLY, getEntry, replayWire, type ReplayedMessage, type WireEntry } from '../protocol/index.ts'
import { isRecord } from '../crm/guards.ts'
import { linkBoth, type TrafficMessage } from './traffic-file.ts'
import type { LadderCall, LadderRow } from './ladder-model.ts'
import { clip, formatSeconds } from './ladder-present.ts'

export const dataOf = (message: unknown): Record<string, unknown> => (isRecord(message) && isRecord(message.data) ? message.data : {})
export const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) && Number(v) > 0 ? Number(v) : undefined)

/** The replies a widget request expects: its failure reply (FAILURE_REPLY) and the success of the same family. */
export function expectedReplies(type: string | null, message: unknown): string[] {
  if (type === null) return []
  const data = dataOf(message)
  const out: string[] = []
  const family = (failed: string) => {
    out.push(failed)
    const succeeded = failed.replace(/_FAILED$/, '_SUCCEEDED')
    if (getEntry(succeeded)) out.push(succeeded)
  }
  if ((type === 'OUTGOING_CALL_STARTED' || type === 'INCOMING_CALL') && data.createEngagement === true) family('CREATE_ENGAGEMENT_FAILED')
  // Own keys only: a widget's type may be any name, "constructor" and "toString" included.
  if (type !== 'OUTGOING_CALL_STARTED' && Object.hasOwn(FAILURE_REPLY, type)) family(FAILURE_REPLY[type as keyof typeof FAILURE_REPLY])
  return out
}

/** A request the widget sends expects an answer when its success has a reply too (not NAVIGATE_TO_RECORD, SET_WIDGET_URL). */
export const alwaysAnswered = (replies: readonly string[]) => replies.some((r) => r.endsWith('_SUCCEEDED'))

type Replay = ReturnType<typeof replayWire>

/** The host's verdicts on the file's messages. */
export interface HostReplay {
  replay: Replay
  /** The replayed message, by seq. */
  replayed: Map<number, ReplayedMessage>
  /** The call (externalCallId) of each engagement. */
  engagementCall: Map<number, string>
}

/** The host's verdicts: the messages replayed as the host judged them. */
export function replayHost(messages: readonly TrafficMessage[]): HostReplay {
  const wire: WireEntry[] = messages.map((m) => ({ direction: m.direction === 'in' ? 'from-widget' : 'to-widget', data: m.message }))
  const replay = replayWire(wire, messages.length)
  const replayed = new Map<number, ReplayedMessage>()
  for (const r of replay.messages) replayed.set(messages[r.index]!.seq, r)
  const engagementCall = new Map<number, string>()
  for (const call of replay.session.calls.values()) if (call.engagementId !== undefined) engagementCall.set(call.engagementId, call.externalCallId)
  return { replay, replayed, engagementCall }
}

/** Which call each widget message the host acted on belongs to (and a DIAL_NUMBER, the call it started). */
export function callsOfWidgetMessages(messages: readonly TrafficMessage[], replayed: ReadonlyMap<number, ReplayedMessage>): Map<number, string> {
  const callOf = new Map<number, string>()
  let pendingDial: number | undefined
  for (const m of messages) {
    if (m.direction !== 'in') {
      if (m.type === 'DIAL_NUMBER') pendingDial = m.seq
      continue
    }
    const r = replayed.get(m.seq)
    if (!r || !r.judgement.act) continue
    if (r.type === 'OUTGOING_CALL_STARTED' || r.type === 'INCOMING_CALL') {
      const id = dataOf(r.judgement.message).externalCallId
      if (typeof id === 'string' && id !== '') {
        callOf.set(m.seq, id)
        if (r.type === 'OUTGOING_CALL_STARTED' && pendingDial !== undefined) callOf.set(pendingDial, id)
      }
      pendingDial = undefined
    } else if (r.verdict?.act) {
      callOf.set(m.seq, r.verdict.externalCallId)
    }
  }
  return callOf
}

/** Reply links: the file's, else each reply to the oldest request of its family. */
export function linkReplies(messages: readonly TrafficMessage[], bySeq: ReadonlyMap<number, TrafficMessage>, notes: string[]): Map<number, number[]> {
  const linked = new Map<number, number[]>()
  const connect = (a: number, b: number) => linkBoth(linked, a, b)
  for (const m of messages) for (const other of m.linkedTo ?? []) if (bySeq.has(other)) connect(m.seq, other)
  // A message the file links to nothing (a recorder that keeps no links): each reply goes to
  // the oldest request of its kind still waiting for one.
  const waiting: Array<{ seq: number; replies: string[] }> = []
  let inferred = 0
  for (const m of messages) {
    if (linked.has(m.seq)) continue
    if (m.direction === 'in') {
      const replies = expectedReplies(m.type, m.message)
      if (replies.length > 0) waiting.push({ seq: m.seq, replies })
      if (waiting.length > 200) waiting.shift()
    } else if (m.type !== null) {
      const index = waiting.findIndex((w) => w.replies.includes(m.type!))
      if (index < 0) continue
      const request = waiting[index]!
      connect(request.seq, m.seq)
      inferred += 1
      // That family is answered (the legacy ENGAGEMENT_CREATED after CREATE_ENGAGEMENT_SUCCEEDED needs no link).
      const family = m.type.replace(/_(SUCCEEDED|FAILED)$/, '')
      request.replies = request.replies.filter((r) => r.replace(/_(SUCCEEDED|FAILED)$/, '') !== family)
      if (request.replies.length === 0) waiting.splice(index, 1)
    }
  }
  if (inferred > 0) notes.push(`${inferred} ${inferred === 1 ? 'reply was' : 'replies were'} linked by kind to the oldest request waiting for one (the file does not link them).`)
  return linked
}

/** Host replies follow their request (the links), else the engagement or the call they name. Adds to `callOf`. */
export function callsOfHostMessages(messages: readonly TrafficMessage[], linked: ReadonlyMap<number, number[]>, callOf: Map<number, string>, host: HostReplay): void {
  for (const m of messages) {
    if (m.direction !== 'out' || callOf.has(m.seq)) continue
    const partner = (linked.get(m.seq) ?? []).map((s) => callOf.get(s)).find((k) => k !== undefined)
    const data = dataOf(m.message)
    const byEngagement = host.engagementCall.get(positiveInt(data.engagementId) ?? -1)
    const byName = typeof data.externalCallId === 'string' && host.replay.session.calls.has(data.externalCallId) ? data.externalCallId : undefined
    const key = partner ?? byEngagement ?? byName
    if (key !== undefined) callOf.set(m.seq, key)
  }
}

/** The calls of the rows, in the order they first appear, with their rows, findings, ring and talk times and label. */
export function groupCalls(rows: readonly LadderRow[], session: Replay['session']): LadderCall[] {
  const calls = new Map<string, LadderCall>()
  const phases = new Map<string, { started?: number; answered?: number; ended?: number }>()
  for (const row of rows) {
    const a = row.arrow
    if (a.callKey === undefined) continue
    let call = calls.get(a.callKey)
    if (!call) {
      const known = session.calls.get(a.callKey)
      call = { key: a.callKey, externalCallId: a.callKey, label: '', rows: 0, firstTime: a.time, lastTime: a.time, errors: 0, warnings: 0 }
      if (known) {
        call.direction = known.direction
        if (known.engagementId !== undefined) call.engagementId = known.engagementId
      }
      calls.set(a.callKey, call)
    }
    call.rows += 1
    call.firstTime = Math.min(call.firstTime, a.time)
    call.lastTime = Math.max(call.lastTime, a.time)
    for (const f of a.findings) call[f.severity === 'error' ? 'errors' : 'warnings'] += 1
    if (a.kind === 'message' && a.from === 'widget') {
      const phase = phases.get(a.callKey) ?? {}
      if ((a.label === 'OUTGOING_CALL_STARTED' || a.label === 'INCOMING_CALL') && phase.started === undefined) phase.started = a.time
      if (a.label === 'CALL_ANSWERED' && phase.answered === undefined) phase.answered = a.time
      if ((a.label === 'CALL_ENDED' || a.label === 'CALL_TRANSFERRED' || a.label === 'CALL_COMPLETED') && phase.ended === undefined) phase.ended = a.time
      phases.set(a.callKey, phase)
    }
  }
  for (const call of calls.values()) {
    const phase = phases.get(call.key) ?? {}
    if (phase.started !== undefined && phase.answered !== undefined) call.ringMs = Math.max(0, phase.answered - phase.started)
    else if (phase.started !== undefined && phase.ended !== undefined) call.ringMs = Math.max(0, phase.ended - phase.started)
    if (phase.answered !== undefined && phase.ended !== undefined) call.talkMs = Math.max(0, phase.ended - phase.answered)
    const kind = call.direction === 'inbound' ? 'Incoming call' : call.direction === 'outbound' ? 'Outgoing call' : 'Call'
    const timing = [call.ringMs !== undefined ? `rang ${formatSeconds(call.ringMs)}` : '', call.talkMs !== undefined ? `talked ${formatSeconds(call.talkMs)}` : ''].filter(Boolean).join(', ')
    call.label = clip(`${kind} ${call.externalCallId}${call.engagementId !== undefined ? ` · engagement ${call.engagementId}` : ''}${timing ? ` · ${timing}` : ''}`, 200)
  }
  return [...calls.values()]
}
