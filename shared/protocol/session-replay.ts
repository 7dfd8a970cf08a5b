/**
 * Both judgements of every widget message on a recorded wire, in order: the message on
 * its own (judgeWidgetMessage) and, for a call event, in the context of the calls the
 * widget started (call-session.ts). check-widget replays its recorded log through this,
 * so its verdict is the host's.
 *
 * A recorded wire has no host-side link from a CREATE_ENGAGEMENT_SUCCEEDED to the call it
 * answers; the host creates engagements in the order the calls start, so each reply goes
 * to the oldest call still waiting for one.
 */
import { isRecord } from '../crm/guards.ts'
import { emptySession, engagementCreated, isCallEventType, startCall, stepCallEvent, type CallSession, type CallVerdict } from './call-session.ts'
import { judgeWidgetMessage, type Judgement } from './judgement.ts'

export interface WireEntry {
  readonly direction: 'from-widget' | 'to-widget' | 'other'
  readonly data: unknown
}

export interface ReplayedMessage {
  /** Index in the replayed log. */
  readonly index: number
  readonly type: string
  readonly judgement: Judgement
  /** For a call event the host acts on: which call, which engagement, the findings. */
  readonly verdict?: CallVerdict
}

/** Caps the work on a hostile log (the default of `max`). */
export const MAX_REPLAYED = 5_000

/** `max`: how many entries to replay at most (the rest are left out). */
export function replayWire(log: readonly WireEntry[], max: number = MAX_REPLAYED): { messages: ReplayedMessage[]; session: CallSession } {
  let session = emptySession()
  const waiting: string[] = []
  const messages: ReplayedMessage[] = []
  const end = Math.min(log.length, max)
  for (let index = 0; index < end; index++) {
    const entry = log[index]!
    const raw = entry.data
    if (entry.direction === 'to-widget') {
      const type = isRecord(raw) ? raw.type : undefined
      if (type === 'CREATE_ENGAGEMENT_SUCCEEDED' || type === 'CREATE_ENGAGEMENT_FAILED') {
        const externalCallId = waiting.shift()
        const data = isRecord(raw) && isRecord(raw.data) ? raw.data : {}
        const id = data.engagementId
        if (externalCallId !== undefined && type === 'CREATE_ENGAGEMENT_SUCCEEDED' && typeof id === 'number') session = engagementCreated(session, externalCallId, id)
      }
      continue
    }
    if (entry.direction !== 'from-widget') continue
    const judgement = judgeWidgetMessage(raw)
    const type = judgement.type ?? (isRecord(raw) && typeof raw.type === 'string' ? raw.type : '(no type)')
    if (!judgement.act) {
      messages.push({ index, type, judgement })
      continue
    }
    const data = (judgement.message as { data?: unknown }).data
    if (judgement.type === 'OUTGOING_CALL_STARTED' || judgement.type === 'INCOMING_CALL') {
      session = startCall(session, data, judgement.type === 'INCOMING_CALL' ? 'inbound' : 'outbound')
      if (isRecord(data) && data.createEngagement === true && typeof data.externalCallId === 'string') waiting.push(data.externalCallId)
      messages.push({ index, type, judgement })
    } else if (isCallEventType(judgement.type)) {
      const step = stepCallEvent(session, judgement.type, data)
      session = step.session
      messages.push({ index, type, judgement, verdict: step.verdict })
    } else {
      messages.push({ index, type, judgement })
    }
  }
  return { messages, session }
}

/** Every finding of a replayed message (the judgement's deviations, then the call verdict's), as `TYPE: text`. */
export function findingsOf(message: ReplayedMessage): Array<{ severity: 'error' | 'warning'; text: string }> {
  const out = message.judgement.deviations.map((d) => ({ severity: d.severity, text: `${message.type}: ${d.message}` }))
  for (const f of message.verdict?.findings ?? []) out.push({ severity: f.severity, text: f.message })
  return out
}

/**
 * The call id the host acts on for a recorded OUTGOING_CALL_STARTED / INCOMING_CALL: the widget's
 * externalCallId, or the host's own id for a call started without one (SDK 0.6 and older, rule
 * call-id-missing); null when the host did not act on it.
 */
export function startedCallId(raw: unknown): string | null {
  const judgement = judgeWidgetMessage(raw)
  if (!judgement.act || (judgement.type !== 'OUTGOING_CALL_STARTED' && judgement.type !== 'INCOMING_CALL')) return null
  const data = (judgement.message as { data?: unknown }).data
  return isRecord(data) && typeof data.externalCallId === 'string' && data.externalCallId !== '' ? data.externalCallId : null
}
