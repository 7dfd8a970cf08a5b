/**
 * Conformance checks: protocol misuse, flagged as it happens.
 *
 * A pure reducer over what the inspector sees (CallingHost traffic entries)
 * plus two facts only the harness knows: which engagement the host created
 * for which call, and when the widget's document went away (reload, new src,
 * unmount). Nothing here touches the DOM or the network.
 *
 * Rules:
 * - `before-handshake`: the widget sent something before SYNC_ACK.
 * A message that is not a calling-SDK message at all (`notSdk`: a vendor library's traffic with
 * no `type` or no `messageId`, which the SDK drops) is never a finding and counts for no rule.
 * - `call-without-start`, `engagement-mismatch`, `call-id-mismatch`, `completed-without-end`:
 *   the call events (CALL_ANSWERED, CALL_ENDED, CALL_TRANSFERRED, CALL_COMPLETED,
 *   FINALIZE_ENGAGEMENT, PUBLISH_TO_CHANNEL) judged against the calls the widget started,
 *   by the shared call session (shared/protocol/call-session.ts) the controller acts by:
 *   the finding is the host's own verdict, with its severity.
 * - `ghost-call`: a call started with createEngagement was never completed
 *   (the "ghost call log", SDK issue #46); flagged when another call starts or
 *   the widget's document goes away, and listed as open meanwhile.
 * - `unknown-type`, `deprecated`, `invalid-payload`: straight from validation
 *   (`invalid-payload`: the host ignored the message, as the real CRM would).
 * - `sdk-substitution`: the widget pinned a prerelease of the SDK from a CDN and Ringside's CDN build
 *   stands in with the release of the same x.y.z (its SYNC_ACK says so; shared/sdk-cdn/cdn-urls.ts).
 * - `type-deviation`: the host acted on the message (as the real CRM does) but it
 *   deviates from the SDK's types; one finding per deviation, with its severity
 *   (judgeWidgetMessage in shared/protocol/judgement.ts).
 * A call event without externalCallId refers to the current call, as the host treats it.
 */
import type { TrafficEntry } from './traffic-recorder.ts'
import { isRecord } from '../../../shared/crm/guards.ts'
import { keptText } from '../../../shared/traffic/bound.ts'
import { TRAFFIC_LIMITS } from '../../../shared/traffic/traffic-file.ts'
import { substitutionInAck, substitutionSentence } from '../../../shared/sdk-cdn/cdn-urls.ts'

/** The newest `max` items (the log's findings, within the traffic file's budget). */
const keepNewest = <T,>(items: T[], max: number): T[] => (items.length > max ? items.slice(-max) : items)
import {
  CALL_RULES,
  ackHasNoCallCompleted,
  emptySession,
  engagementCreated,
  isCallEventType,
  judgeWidgetMessage,
  startCall,
  stepCallEvent,
  type CallRule,
  type CallSession,
} from '../../../shared/protocol/index.ts'

/** The fields of a CallingHost traffic entry that the checks read. */
export type ConformanceTraffic = Pick<TrafficEntry, 'seq' | 'direction' | 'type' | 'message' | 'valid' | 'reason' | 'deprecation' | 'beforeHandshake' | 'fault'> &
  Partial<Pick<TrafficEntry, 'deviations' | 'notSdk'>>

export type RuleId =
  | 'before-handshake'
  | CallRule
  | 'ghost-call'
  | 'unknown-type'
  | 'deprecated'
  | 'invalid-payload'
  | 'type-deviation'
  | 'sdk-substitution'

export const RULES: Readonly<Record<RuleId, { title: string; severity: 'error' | 'warning' }>> = {
  'before-handshake': { title: 'Sent before the handshake', severity: 'error' },
  'call-without-start': CALL_RULES['call-without-start'],
  'engagement-mismatch': CALL_RULES['engagement-mismatch'],
  'call-id-mismatch': CALL_RULES['call-id-mismatch'],
  'completed-without-end': CALL_RULES['completed-without-end'],
  'ghost-call': { title: 'Ghost call log (never completed)', severity: 'error' },
  'unknown-type': { title: 'Unknown message type', severity: 'error' },
  deprecated: { title: 'Deprecated message or field', severity: 'warning' },
  'invalid-payload': { title: 'Invalid message (ignored by the host)', severity: 'error' },
  'type-deviation': { title: "Deviates from the SDK's types", severity: 'warning' },
  'sdk-substitution': { title: 'SDK release substituted for a prerelease', severity: 'warning' },
}

export interface Finding {
  id: number
  rule: RuleId
  severity: 'error' | 'warning'
  /** The traffic entry that triggered it (null for lifecycle events such as a reload). */
  seq: number | null
  message: string
  externalCallId?: string
  /**
   * Set on the findings of a call event the host did not act on (its call-session verdict
   * said ignore): the inspector then shows that message as ignored, as the host treated it.
   */
  hostIgnored?: true
}

export interface TrackedCall {
  externalCallId: string
  direction: 'outbound' | 'inbound'
  createEngagement: boolean
  /** The engagement the host created for this call, once known. */
  engagementId?: number
  state: 'open' | 'ended' | 'completed' | 'transferred' | 'ghost'
  startedSeq: number
}

export interface ConformanceState {
  /** Whether the current widget document has completed the handshake. */
  handshakeDone: boolean
  /** The widget's SDK has no callCompleted (0.0.6, told by its SYNC_ACK): an ended call is a finished one. */
  endsWithCallEnded?: boolean
  calls: Readonly<Record<string, TrackedCall>>
  /** The call started last and not completed (what a call event without externalCallId refers to). */
  current?: string
  /** The host's view of the widget's calls: the shared call session the controller acts by. */
  session: CallSession
  findings: readonly Finding[]
  nextId: number
}

export type ConformanceEvent =
  | { kind: 'traffic'; entry: ConformanceTraffic }
  | { kind: 'engagement-created'; externalCallId: string; engagementId: number }
  /** The widget's document went away: reload, new src, re-mount or unmount. */
  | { kind: 'widget-reset'; reason: string }

export function initialConformance(): ConformanceState {
  return { handshakeDone: false, calls: {}, session: emptySession(), findings: [], nextId: 1 }
}


function dataOf(message: unknown): Record<string, unknown> {
  return isRecord(message) && isRecord(message.data) ? message.data : {}
}

/** The message as the host acted on it (engagementId 0 dropped, numeric strings read, …), judged as the controller judges it; undefined when it did not act. */
function acted(message: unknown): { data?: unknown } | undefined {
  const judged = judgeWidgetMessage(message)
  return judged.act ? (judged.message as { data?: unknown }) : undefined
}

/** Calls still waiting for CALL_COMPLETED (with or without a ghost finding). */
export function openCalls(state: ConformanceState): TrackedCall[] {
  return Object.values(state.calls).filter((c) => c.state === 'open' || c.state === 'ended' || c.state === 'ghost')
}

/** Count of findings per rule. */
export function summarize(findings: readonly Finding[]): Record<RuleId, number> {
  const counts = Object.fromEntries(Object.keys(RULES).map((rule) => [rule, 0])) as Record<RuleId, number>
  for (const finding of findings) counts[finding.rule] += 1
  return counts
}

/** Applies one event; returns a new state (the input is never modified). */
export function applyConformance(state: ConformanceState, event: ConformanceEvent): ConformanceState {
  const added: Finding[] = []
  let nextId = state.nextId
  const flag = (rule: RuleId, seq: number | null, message: string, externalCallId?: string, severity = RULES[rule].severity) => {
    // A widget's values reach these texts (an id, a field): kept within the traffic file's budget.
    const finding: Finding = { id: nextId++, rule, severity, seq, message: keptText(message, TRAFFIC_LIMITS.maxTextChars) }
    if (externalCallId !== undefined) finding.externalCallId = keptText(externalCallId, TRAFFIC_LIMITS.maxTextChars)
    added.push(finding)
  }
  let calls: Readonly<Record<string, TrackedCall>> = state.calls
  let session = state.session
  let handshakeDone = state.handshakeDone
  let endsWithCallEnded = state.endsWithCallEnded === true
  const tracked = (id: string): TrackedCall | undefined => (Object.hasOwn(calls, id) ? calls[id] : undefined)

  /** Flags every call started with createEngagement that is not completed yet. */
  const flagGhosts = (seq: number | null, why: string, except?: string) => {
    for (const call of Object.values(calls)) {
      if (call.externalCallId === except || !call.createEngagement) continue
      if (call.state !== 'open' && (call.state !== 'ended' || endsWithCallEnded)) continue
      flag(
        'ghost-call',
        seq,
        `Call ${call.externalCallId} was started with createEngagement but never completed (${why}); its engagement stays in the CRM as a ghost call log.`,
        call.externalCallId,
      )
      calls = { ...calls, [call.externalCallId]: { ...call, state: 'ghost' } }
    }
  }

  if (event.kind === 'engagement-created') {
    session = engagementCreated(session, event.externalCallId, event.engagementId)
    const call = tracked(event.externalCallId)
    if (call && call.engagementId !== event.engagementId) {
      calls = { ...calls, [event.externalCallId]: { ...call, engagementId: event.engagementId } }
    }
  } else if (event.kind === 'widget-reset') {
    handshakeDone = false
    flagGhosts(null, event.reason)
  } else {
    const { entry } = event
    const type = entry.type
    if (entry.fault === 'dropped') {
      // Never reached the widget: nothing to check.
    } else if (entry.notSdk === true) {
      // A vendor library's own message (no type or no messageId): the SDK drops it, nothing to judge.
    } else if (!entry.valid) {
      const from = entry.direction === 'in' ? 'The widget' : 'The host (composer or fault)'
      if (entry.reason === 'unknown type') {
        flag('unknown-type', entry.seq, `${from} sent the unknown type ${JSON.stringify(type)}.`)
      } else if (entry.direction === 'in') {
        flag('invalid-payload', entry.seq, `The widget sent a ${type ?? 'message'} the host ignored (as the real CRM would): ${entry.reason ?? 'invalid'}.`)
      } else {
        flag('invalid-payload', entry.seq, `${from} sent an invalid ${type ?? 'message'}: ${entry.reason ?? 'invalid'}.`)
      }
    } else {
      // A deprecation is the widget's to fix; the host sends the legacy ENGAGEMENT_CREATED on purpose.
      if (entry.deprecation && entry.direction === 'in') flag('deprecated', entry.seq, `${type}: ${entry.deprecation}`)
      for (const deviation of entry.deviations ?? []) {
        const rule = deviation.rule ? ` (the host copes: leniency rule ${deviation.rule})` : ''
        flag('type-deviation', entry.seq, `${type}: ${deviation.message}${deviation.severity === 'warning' ? rule : ''}.`, undefined, deviation.severity)
      }
      if (entry.direction === 'in') {
        if (type === 'SYNC_ACK') {
          handshakeDone = true
          endsWithCallEnded = ackHasNoCallCompleted(entry.message)
          const substitution = substitutionInAck(entry.message)
          if (substitution !== null) flag('sdk-substitution', entry.seq, substitutionSentence(substitution))
        } else {
          const early = entry.beforeHandshake ?? !handshakeDone
          if (early) flag('before-handshake', entry.seq, `The widget sent ${type} before the SYNC/SYNC_ACK handshake completed.`)
          let data = dataOf(entry.message)
          // A call start as the host acted on it: one without externalCallId (SDK 0.6 and older) is tracked under the host's own id.
          if (type === 'OUTGOING_CALL_STARTED' || type === 'INCOMING_CALL') data = dataOf(acted(entry.message) ?? entry.message)
          if ((type === 'OUTGOING_CALL_STARTED' || type === 'INCOMING_CALL') && typeof data.externalCallId === 'string' && data.externalCallId !== '') {
            const externalCallId = data.externalCallId
            const direction = type === 'INCOMING_CALL' ? 'inbound' : 'outbound'
            session = startCall(session, data, direction)
            flagGhosts(entry.seq, `another call, ${externalCallId}, started`, externalCallId)
            calls = { ...calls, [externalCallId]: { externalCallId, direction, createEngagement: data.createEngagement === true, state: 'open', startedSeq: entry.seq } }
          } else if (isCallEventType(type)) {
            const judged = acted(entry.message)
            const step = stepCallEvent(session, type, judged ? judged.data : data)
            session = step.session
            const first = added.length
            for (const finding of step.verdict.findings) flag(finding.rule, entry.seq, finding.message, finding.externalCallId, finding.severity)
            if (!step.verdict.act) for (const finding of added.slice(first)) finding.hostIgnored = true
            const call = step.verdict.act ? tracked(step.verdict.externalCallId) : undefined
            if (call) {
              const next = type === 'CALL_TRANSFERRED' ? 'transferred' : type === 'CALL_COMPLETED' ? 'completed' : type === 'CALL_ENDED' && call.state === 'open' ? 'ended' : call.state
              if (next !== call.state) calls = { ...calls, [call.externalCallId]: { ...call, state: next } }
            }
          }
        }
      }
    }
  }

  if (added.length === 0 && calls === state.calls && handshakeDone === state.handshakeDone && endsWithCallEnded === (state.endsWithCallEnded === true) && session === state.session) return state
  const next: ConformanceState = { handshakeDone, ...(endsWithCallEnded ? { endsWithCallEnded } : {}), calls, session, findings: added.length ? keepNewest([...state.findings, ...added], TRAFFIC_LIMITS.maxFindings) : state.findings, nextId }
  if (session.current !== undefined) next.current = session.current
  return next
}
