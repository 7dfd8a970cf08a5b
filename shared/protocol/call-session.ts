/**
 * The host's judgement of a call event in context: which call a CALL_ANSWERED,
 * CALL_ENDED, CALL_TRANSFERRED, CALL_COMPLETED or FINALIZE_ENGAGEMENT refers to, which
 * engagement the host may change for it, and what to report.
 *
 * judgeWidgetMessage (judgement.ts) judges one message on its own; this module judges
 * it against the calls the widget started. It is the one home of that verdict: the
 * harness's controller acts by it, the inspector's conformance findings report it, and
 * check-widget (kit/checks.ts) replays the recorded wire through it, so the three
 * cannot disagree.
 *
 * Pure and immutable: every step returns a new session. A call event takes the message
 * as the host acts on it (judgeWidgetMessage's `message`: an `engagementId` of 0, null
 * or "" is already gone, numeric strings are numbers).
 *
 * What the real CRM does, and the evidence, is in CALL_RULES (tabled in
 * shared/protocol/README.md, "Call events in context").
 */
import { isRecord } from '../crm/guards.ts'
import { SDK_REPO, type LeniencyRuleInfo, type Severity } from './leniency.ts'

export type CallRule = 'call-without-start' | 'engagement-mismatch' | 'call-id-mismatch' | 'completed-without-end'

/** A call rule: a leniency rule's facts (what it covers, what the host does, the evidence, the severity) and a title. */
export interface CallRuleInfo extends LeniencyRuleInfo {
  readonly title: string
}

const SDK = SDK_REPO
const SDK_DOCS = 'https://developers.hubspot.com/docs/api-reference/crm-calling-extensions-v3/calling-sdk'

export const CALL_RULES: Readonly<Record<CallRule, CallRuleInfo>> = {
  'call-without-start': {
    title: 'Call event without a started call',
    severity: 'error',
    applies:
      'CALL_ANSWERED, CALL_ENDED, CALL_TRANSFERRED, CALL_COMPLETED, FINALIZE_ENGAGEMENT whose externalCallId names no call the widget started, ' +
      'and whose engagementId (if any) is no engagement the host created for one of its calls; or that name nothing while no call is in progress',
    host: 'Ignores it and changes no engagement (never one the widget did not start); a request still gets its *_FAILED reply.',
    evidence:
      `The CRM logs a call as the engagement it created after OUTGOING_CALL_STARTED / INCOMING_CALL and gave the widget (${SDK_DOCS}, "createEngagement": ` +
      'the CRM answers with onCreateEngagementSucceeded); a call event that names neither that call nor that engagement has nothing to update. ' +
      'Ringside goes no further than the widget\'s own calls, so a stray id can never rewrite another call on the timeline.',
  },
  'engagement-mismatch': {
    title: 'engagementId of another call',
    severity: 'error',
    applies: 'A call event whose externalCallId names a call the widget started, but whose engagementId is not that call\'s engagement',
    host: "Ignores the engagementId and acts on the named call's own engagement; the other engagement is left alone.",
    evidence:
      `The SDK sends both ids unchanged (${SDK}, src/CallingExtensions.ts callEnded/callCompleted) and the CRM created exactly one engagement for the call. ' +
      'Thin evidence on which id the real CRM trusts when they disagree; following the call the message names keeps a stale engagementId ' +
      '(left over from the previous call) from rewriting that finished call.`,
  },
  'call-id-mismatch': {
    title: 'externalCallId of no started call',
    severity: 'warning',
    applies: 'A call event whose externalCallId names no call the widget started, but whose engagementId is the engagement the host created for one',
    host: 'Acts on the call that owns that engagement.',
    evidence:
      `The SDK documents engagementId as the HubSpot-created engagement and externalCallId as the app's own call id, "used to enable calling in help desk" ` +
      `(${SDK_DOCS}); the engagement id is the CRM's key for the update. The engagement belongs to a call this widget started, so acting on it touches nothing else.`,
  },
  'completed-without-end': {
    title: 'CALL_COMPLETED without CALL_ENDED',
    severity: 'warning',
    applies: 'CALL_COMPLETED for a call that got no CALL_ENDED (or CALL_TRANSFERRED)',
    host:
      'Ends the call first, as CALL_ENDED without callEndStatus would (COMPLETED once answered, else CANCELED, with its duration), then applies ' +
      'engagementProperties (a hs_call_status there wins).',
    evidence:
      `CALL_COMPLETED "inserts the engagement into the timeline" as a finished call (${SDK} pull request #22, README of 0.2.0); an engagement left ` +
      `in a ringing status is the "ghost call log" of ${SDK}/issues/46, which the reporter expected the completion to mark completed.`,
  },
}

export type CallDirection = 'outbound' | 'inbound'
export type CallState = 'open' | 'ended' | 'completed' | 'transferred'

export interface SessionCall {
  readonly externalCallId: string
  readonly direction: CallDirection
  readonly createEngagement: boolean
  /** The engagement the host created for this call, once known. */
  readonly engagementId?: number
  readonly answered: boolean
  readonly state: CallState
}

export interface CallSession {
  /** The widget's calls by externalCallId, oldest first (a Map: the ids are the widget's, never object keys). */
  readonly calls: ReadonlyMap<string, SessionCall>
  /** The call started last and not completed: what a call event naming no call refers to. */
  readonly current?: string
}

/** The calls a session remembers; the oldest finished ones go first (a widget is untrusted input). */
export const MAX_SESSION_CALLS = 200

export const emptySession = (): CallSession => ({ calls: new Map() })

export type CallEventType = 'CALL_ANSWERED' | 'CALL_ENDED' | 'CALL_TRANSFERRED' | 'CALL_COMPLETED' | 'FINALIZE_ENGAGEMENT' | 'PUBLISH_TO_CHANNEL'
export const CALL_EVENT_TYPES: ReadonlySet<string> = new Set<CallEventType>([
  'CALL_ANSWERED',
  'CALL_ENDED',
  'CALL_TRANSFERRED',
  'CALL_COMPLETED',
  'FINALIZE_ENGAGEMENT',
  'PUBLISH_TO_CHANNEL',
])
export const isCallEventType = (type: unknown): type is CallEventType => typeof type === 'string' && CALL_EVENT_TYPES.has(type)

export interface CallFinding {
  readonly rule: CallRule
  readonly severity: Severity
  readonly message: string
  readonly externalCallId?: string
}

export type CallVerdict =
  | {
      act: true
      /** The call it applies to. */
      externalCallId: string
      /** The engagement the host may change for it: the call's own, or one the widget created itself for a call it started. */
      engagementId?: number
      /** CALL_COMPLETED for a call never ended: end it first (completed-without-end). */
      endFirst: boolean
      findings: CallFinding[]
    }
  | { act: false; reason: string; findings: CallFinding[] }

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined)
const show = (v: unknown) => JSON.stringify(v) ?? String(v)

function withCall(session: CallSession, call: SessionCall, current: string | undefined): CallSession {
  const calls = new Map(session.calls)
  calls.delete(call.externalCallId)
  calls.set(call.externalCallId, call)
  if (calls.size > MAX_SESSION_CALLS) {
    for (const [id, c] of calls) {
      if (calls.size <= MAX_SESSION_CALLS) break
      if (id !== current && (c.state === 'completed' || c.state === 'transferred' || calls.size > MAX_SESSION_CALLS * 2)) calls.delete(id)
    }
  }
  return current === undefined ? { calls } : { calls, current }
}

/** OUTGOING_CALL_STARTED / INCOMING_CALL, as the host acts on it: the call becomes the current one. */
export function startCall(session: CallSession, data: unknown, direction: CallDirection): CallSession {
  const d = isRecord(data) ? data : {}
  const externalCallId = typeof d.externalCallId === 'string' ? d.externalCallId : ''
  if (externalCallId === '') return session
  return withCall(session, { externalCallId, direction, createEngagement: d.createEngagement === true, answered: false, state: 'open' }, externalCallId)
}

/** The host created `engagementId` for the call. */
export function engagementCreated(session: CallSession, externalCallId: string, engagementId: number): CallSession {
  const call = session.calls.get(externalCallId)
  if (!call || call.engagementId === engagementId) return session
  return withCall(session, { ...call, engagementId }, session.current)
}

function ownerOf(session: CallSession, engagementId: number | undefined): SessionCall | undefined {
  if (engagementId === undefined) return undefined
  for (const call of session.calls.values()) if (call.engagementId === engagementId) return call
  return undefined
}

/**
 * Which call a call event refers to, which engagement the host may change, and the
 * findings. `data` is the message's data as the host acts on it.
 */
export function judgeCallEvent(session: CallSession, type: CallEventType, data: unknown): CallVerdict {
  const d = isRecord(data) ? data : {}
  const named = typeof d.externalCallId === 'string' && d.externalCallId !== '' ? d.externalCallId : undefined
  const sentEngagement = positive(d.engagementId)
  const findings: CallFinding[] = []
  const flag = (rule: CallRule, message: string, externalCallId?: string) =>
    findings.push(externalCallId === undefined ? { rule, severity: CALL_RULES[rule].severity, message } : { rule, severity: CALL_RULES[rule].severity, message, externalCallId })

  const byName = named === undefined ? undefined : session.calls.get(named)
  const byEngagement = ownerOf(session, sentEngagement)
  let call: SessionCall | undefined
  if (byName) {
    call = byName
  } else if (named !== undefined) {
    if (!byEngagement) {
      const also = sentEngagement === undefined ? '' : `, and engagementId ${sentEngagement} is no engagement the host created for its calls`
      flag(
        'call-without-start',
        `${type} for ${named}, but the widget started no call with that externalCallId${also}: the host ignores it (it never touches a call the widget did not start).`,
        named,
      )
      return { act: false, reason: `no call ${named} was started`, findings }
    }
    call = byEngagement
    flag(
      'call-id-mismatch',
      `${type} names externalCallId ${show(named)}, which no call the widget started has; its engagementId ${sentEngagement} is call ${byEngagement.externalCallId}'s, so the host applies it to that call.`,
      byEngagement.externalCallId,
    )
  } else {
    call = byEngagement ?? (session.current === undefined ? undefined : session.calls.get(session.current))
    if (!call) {
      const which = sentEngagement === undefined ? '' : ` (engagementId ${sentEngagement} is no engagement the host created for its calls)`
      flag('call-without-start', `${type} names no call and no call is in progress${which}: the host ignores it.`)
      return { act: false, reason: 'no call is in progress', findings }
    }
  }

  let engagementId = call.engagementId
  if (sentEngagement !== undefined && sentEngagement !== call.engagementId) {
    if (call.engagementId !== undefined || byEngagement) {
      const whose = byEngagement ? `call ${byEngagement.externalCallId}'s engagement` : 'no engagement the host created for this widget'
      const own = call.engagementId === undefined ? 'and the call has none of its own to update' : `and updates the call's own engagement ${call.engagementId}`
      flag(
        'engagement-mismatch',
        `${type} for ${call.externalCallId} carries engagementId ${sentEngagement}, which is ${whose}: the host leaves that engagement alone ${own}.`,
        call.externalCallId,
      )
    } else {
      // A call the widget started without createEngagement, logged on an engagement it created itself.
      engagementId = sentEngagement
    }
  }
  const endFirst = type === 'CALL_COMPLETED' && call.state === 'open'
  if (endFirst) {
    flag(
      'completed-without-end',
      `CALL_COMPLETED for ${call.externalCallId}, which got no CALL_ENDED: the host ends the call first (${call.answered ? 'COMPLETED: it was answered' : 'CANCELED: it was never answered'}), then logs it.`,
      call.externalCallId,
    )
  }
  return engagementId === undefined
    ? { act: true, externalCallId: call.externalCallId, endFirst, findings }
    : { act: true, externalCallId: call.externalCallId, engagementId, endFirst, findings }
}

/** The session after the host acted on a call event (an ignored one changes nothing). */
export function applyCallEvent(session: CallSession, type: CallEventType, verdict: CallVerdict): CallSession {
  if (!verdict.act) return session
  const call = session.calls.get(verdict.externalCallId)
  if (!call) return session
  const clearCurrent = session.current === call.externalCallId ? undefined : session.current
  switch (type) {
    case 'CALL_ANSWERED':
      return call.answered ? session : withCall(session, { ...call, answered: true }, session.current)
    case 'CALL_ENDED':
      return call.state === 'open' ? withCall(session, { ...call, state: 'ended' }, session.current) : session
    case 'CALL_TRANSFERRED':
      return withCall(session, { ...call, state: 'transferred' }, clearCurrent)
    case 'CALL_COMPLETED':
      return withCall(session, { ...call, state: 'completed' }, clearCurrent)
    default:
      return session
  }
}

/** judgeCallEvent, then applyCallEvent. */
export function stepCallEvent(session: CallSession, type: CallEventType, data: unknown): { session: CallSession; verdict: CallVerdict } {
  const verdict = judgeCallEvent(session, type, data)
  return { session: applyCallEvent(session, type, verdict), verdict }
}
