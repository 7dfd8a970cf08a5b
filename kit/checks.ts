/**
 * The protocol conformance checks: what a host can observe of a widget, judged
 * on a finished journey (journey.ts). Pure functions over the recorded wire
 * log and the stage outcomes, so they can be tested on hand-made logs.
 *
 * A check needs some stages. If one of them was skipped (no driver), the
 * check is skipped with that reason. A stage that failed (and the stages it
 * kept from running) fails one check: the first that needs any of them,
 * with the stage's own error. Every other check that needs them is skipped,
 * "not run: <stage> failed": the widget did not get there, and one failure
 * is reported once. A journey that stopped outside any stage (`fatal`) fails
 * its first check the same way and skips the rest.
 */
import { findingsOf, isHostCallId, replayWire, startedCallId, type ReplayedMessage } from '../shared/protocol/index.ts'
import { FINAL_CALL_STATUSES } from '../shared/crm/call-status.ts'
import type { JourneyKind, JourneyResult, StageName } from './journey.ts'
import { payloadOf } from './message-log.ts'
import { firstLine } from './error-text.ts'
import { substitutionInAck, substitutionSentence } from '../shared/sdk-cdn/cdn-urls.ts'

/**
 * `warnings`: deviations the real CRM copes with (listed in the report; they fail
 * the check only with --strict, see strictOutcome).
 */
export type CheckOutcome =
  | { status: 'passed'; warnings?: string[] }
  | { status: 'failed'; problems: string[]; warnings?: string[] }
  | { status: 'skipped'; reason: string }

export interface ConformanceCheck {
  readonly id: string
  /** Shown in the report; reads as the outcome a conforming widget has. */
  title(journey: Pick<JourneyResult, 'syncTimeoutMs'>): string
  /** Stages the check needs to have happened. */
  readonly needs: readonly StageName[]
  /** The one journey it belongs to; default: both. */
  readonly journey?: JourneyKind
  /** Problems found (empty: passed). Runs only when every needed stage passed. */
  problems(journey: JourneyResult): string[]
  /** Deviations the real CRM copes with: listed, failing only with --strict. */
  warnings?(journey: JourneyResult): string[]
}


/** The widget's calling-SDK messages: a vendor library's own traffic in its page (notSdk) is not the widget's SDK use. */
const fromWidget = (j: JourneyResult) => j.log.filter((r) => r.direction === 'from-widget' && r.notSdk !== true)
const toWidget = (j: JourneyResult) => j.log.filter((r) => r.direction === 'to-widget')
const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value))
const digits = (value: string) => value.replace(/\D/g, '')

/**
 * Every widget message judged as the host judged it: on its own and, for a call event,
 * against the calls the widget started (shared/protocol/session-replay.ts, the module the
 * harness's controller and inspector use). One replay per journey.
 */
const replays = new WeakMap<JourneyResult, ReplayedMessage[]>()
function replayed(j: JourneyResult): ReplayedMessage[] {
  let messages = replays.get(j)
  if (!messages) {
    messages = replayWire(j.log).messages
    replays.set(j, messages)
  }
  return messages
}
const errorsOf = (messages: readonly ReplayedMessage[]) => messages.flatMap((m) => findingsOf(m).filter((f) => f.severity === 'error').map((f) => f.text))
const warningsOf = (messages: readonly ReplayedMessage[]) => messages.flatMap((m) => findingsOf(m).filter((f) => f.severity === 'warning').map((f) => f.text))
const ignoredReason = (m: ReplayedMessage) => (!m.judgement.act ? m.judgement.reason : m.verdict && !m.verdict.act ? m.verdict.reason : undefined)

/**
 * The journey call's `type` messages the host acted on, or why it acted on none: the
 * problems of a check about that message.
 */
function callEvent(j: JourneyResult, type: 'CALL_ENDED' | 'CALL_COMPLETED'): { acted: ReplayedMessage[]; problems: string[] } {
  const all = replayed(j).filter((m) => m.type === type)
  const acted = all.filter((m) => m.verdict?.act === true && m.verdict.externalCallId === j.externalCallId)
  if (acted.length > 0) return { acted, problems: errorsOf(acted) }
  const ignored = all.filter((m) => ignoredReason(m) !== undefined)
  if (ignored.length === 0) return { acted, problems: [`no ${type} for call ${show(j.externalCallId)}`] }
  return { acted, problems: ignored.flatMap((m) => [`the host ignored this ${type} (the real CRM would): ${ignoredReason(m)}`, ...errorsOf([m])]) }
}

export const CHECKS: readonly ConformanceCheck[] = [
  {
    id: 'handshake',
    title: (j) => `answers the host's SYNC with SYNC_ACK within the sync timeout (${j.syncTimeoutMs} ms)`,
    needs: ['handshake'],
    // Ringside's CDN build stands in for a prerelease the widget pinned: said in its SYNC_ACK.
    warnings: (j) => fromWidget(j).flatMap((r) => (r.type === 'SYNC_ACK' ? [substitutionInAck(r.data)] : [])).flatMap((s) => (s === null ? [] : [substitutionSentence(s)])).slice(0, 1),
    problems(j) {
      const syncIds = new Set(toWidget(j).filter((r) => r.type === 'SYNC').map((r) => (r.data as { messageId?: unknown }).messageId))
      const acks = fromWidget(j).filter((r) => r.type === 'SYNC_ACK')
      if (acks.length === 0) return ['no SYNC_ACK was recorded']
      const problems: string[] = []
      const ack = acks[0]!
      const ackId = (ack.data as { messageId?: unknown }).messageId
      if (!syncIds.has(ackId)) problems.push(`SYNC_ACK has messageId ${show(ackId)}, which is not the id of any SYNC the host sent`)
      // One SYNC_ACK per frame: in the window placement the calling window and the remote beside it each answer
      // their own SYNC (told apart by the page that received the answer).
      const perFrame = new Map<string, number>()
      for (const a of acks) perFrame.set(a.frameUrl, (perFrame.get(a.frameUrl) ?? 0) + 1)
      const most = Math.max(...perFrame.values())
      if (most > 1) problems.push(`the widget sent SYNC_ACK ${most} times for one page load (a widget acknowledges the first SYNC only)`)
      return problems
    },
  },
  {
    id: 'initialized',
    title: () => 'sends INITIALIZED after the handshake',
    needs: ['handshake', 'initialized'],
    problems(j) {
      const sent = fromWidget(j)
      const ack = sent.findIndex((r) => r.type === 'SYNC_ACK')
      const initialized = sent.findIndex((r) => r.type === 'INITIALIZED')
      if (initialized === -1) return ['no INITIALIZED was recorded']
      return initialized < ack ? ['INITIALIZED arrived before SYNC_ACK'] : []
    },
  },
  {
    id: 'nothing-before-ack',
    title: () => 'sends nothing before SYNC_ACK',
    needs: ['handshake'],
    problems(j) {
      const sent = fromWidget(j)
      const ack = sent.findIndex((r) => r.type === 'SYNC_ACK')
      const early = ack === -1 ? sent : sent.slice(0, ack)
      return early.map((r) => `${r.type ?? '(no type)'} was sent before SYNC_ACK`)
    },
  },
  {
    id: 'incoming-call',
    // toNumber is not required here: the host matches the caller by fromNumber and logs the call
    // without it (leniency rule to-number-missing); its absence is a warning under valid payloads.
    title: () => 'reports the ringing call: INCOMING_CALL carries externalCallId and fromNumber (the caller)',
    needs: ['ring'],
    journey: 'inbound',
    problems(j) {
      const ringing = fromWidget(j).find((r) => r.type === 'INCOMING_CALL')
      if (!ringing) return ['no INCOMING_CALL was recorded']
      const data = payloadOf(ringing)
      const problems: string[] = []
      // Without externalCallId (SDK 0.6 and older) the host still logs the call: a warning, listed by the last check.
      if (startedCallId(ringing.data) === null) problems.push(`externalCallId is ${show(data.externalCallId)}, expected a non-empty string`)
      if (typeof data.fromNumber !== 'string' || data.fromNumber.trim() === '') problems.push(`fromNumber is ${show(data.fromNumber)}, expected a phone number`)
      return problems
    },
  },
  {
    id: 'outgoing-call',
    title: () => 'places the dialed call: OUTGOING_CALL_STARTED after DIAL_NUMBER carries toNumber and externalCallId',
    needs: ['dial', 'placeCall'],
    journey: 'outbound',
    problems(j) {
      const dial = toWidget(j).find((r) => r.type === 'DIAL_NUMBER')
      const started = fromWidget(j).find((r) => r.type === 'OUTGOING_CALL_STARTED' && r.time >= (dial?.time ?? Infinity))
      if (!dial) return ['no DIAL_NUMBER reached the widget']
      if (!started) return ['no OUTGOING_CALL_STARTED after DIAL_NUMBER']
      const data = payloadOf(started)
      const problems: string[] = []
      // Without externalCallId (SDK 0.6 and older) the host still logs the call: a warning, listed by the last check.
      if (startedCallId(started.data) === null) problems.push(`externalCallId is ${show(data.externalCallId)}, expected a non-empty string`)
      // The deprecated phoneNumber (outgoingCall's field in the READMEs up to SDK 0.2.x) stands for toNumber, as the host reads it.
      const toNumber = data.toNumber ?? data.phoneNumber
      if (typeof toNumber !== 'string' || toNumber.trim() === '') {
        problems.push(`toNumber is ${show(data.toNumber)}, expected the dialed number`)
      } else {
        const dialed = payloadOf(dial).phoneNumber
        const want = typeof dialed === 'string' ? digits(dialed) : ''
        const got = digits(toNumber)
        if (want !== '' && !(got.endsWith(want) || want.endsWith(got))) problems.push(`toNumber ${show(toNumber)} is not the dialed number ${show(dialed)}`)
      }
      return problems
    },
  },
  {
    id: 'call-ended',
    title: () => 'CALL_ENDED ends the call the widget started, and the host acts on it',
    needs: ['placeCall', 'hangUp'],
    problems: (j) => callEvent(j, 'CALL_ENDED').problems,
  },
  {
    id: 'call-completed',
    title: () => "CALL_COMPLETED logs the call on the engagement the host created for it",
    needs: ['placeCall', 'engagement', 'wrapUp'],
    problems(j) {
      if (j.createdEngagementId === null) return ['the host reported no engagement id for this call']
      const { acted, problems } = callEvent(j, 'CALL_COMPLETED')
      const wrong = acted.filter((m) => m.verdict?.act === true && m.verdict.engagementId !== j.createdEngagementId)
      return [...problems, ...wrong.map((m) => `CALL_COMPLETED updated engagement ${show(m.verdict?.act ? m.verdict.engagementId : undefined)}, the host created ${j.createdEngagementId}`)]
    },
  },
  {
    id: 'call-logged',
    title: () => 'the CRM accepts the call log (UPDATE_ENGAGEMENT_SUCCEEDED) and holds it: final status and duration, read back through the API',
    needs: ['wrapUp', 'update'],
    problems(j) {
      if (!j.engagement) return ['the engagement could not be read back from the CRM']
      const p = j.engagement.properties
      const problems: string[] = []
      // A call started without externalCallId has only the host's own id, which the CRM never stores.
      const externalId = j.externalCallId !== null && isHostCallId(j.externalCallId) ? null : j.externalCallId
      if ((p.hs_call_external_id ?? null) !== externalId) problems.push(`the engagement's hs_call_external_id is ${show(p.hs_call_external_id)}, expected ${show(externalId)}`)
      const status = p.hs_call_status ?? null
      if (status === null || !(FINAL_CALL_STATUSES as readonly string[]).includes(status)) {
        problems.push(`the engagement's hs_call_status is ${show(status)}: the timeline shows the call as not finished (expected one of ${FINAL_CALL_STATUSES.join(', ')})`)
      }
      const duration = p.hs_call_duration ?? null
      if (duration === null || !(Number(duration) >= 0)) problems.push(`the engagement's hs_call_duration is ${show(duration)}, expected a duration in ms`)
      return problems
    },
  },
  // Warnings are listed once, here (a warning on CALL_ENDED is not a second failure with --strict).
  {
    id: 'valid-payloads',
    title: () => "the host acts on every message the widget sent (no deviation the real CRM refuses; warnings listed)",
    needs: [],
    problems(j) {
      if (fromWidget(j).length === 0) return ['the widget sent nothing']
      return errorsOf(replayed(j))
    },
    warnings: (j) => warningsOf(replayed(j)),
  },
]

/** The checks of one journey. */
export function checksFor(kind: JourneyKind): readonly ConformanceCheck[] {
  return CHECKS.filter((check) => check.journey === undefined || check.journey === kind)
}

/** With --strict, warnings fail the check. */
export function strictOutcome(outcome: CheckOutcome, strict: boolean): CheckOutcome {
  if (!strict || outcome.status === 'skipped' || !outcome.warnings?.length) return outcome
  const problems = outcome.status === 'failed' ? outcome.problems : []
  return { status: 'failed', problems: [...problems, ...outcome.warnings.map((w) => `warning (--strict): ${w}`)], warnings: outcome.warnings }
}

/**
 * Why a check cannot be judged on its own: the first of its needs that did not pass. `stage` is the
 * stage that failed (the need itself, or the one that kept it from running), null when the journey
 * stopped outside any stage.
 */
type Unmet = { kind: 'skipped'; reason: string } | { kind: 'failed'; stage: StageName | null; error: string }

function unmetNeed(check: ConformanceCheck, journey: JourneyResult): Unmet | null {
  if (journey.fatal !== null) return { kind: 'failed', stage: null, error: `the journey stopped: ${journey.fatal}` }
  for (const name of check.needs) {
    const stage = journey.stages[name]
    if (stage.status === 'skipped') return { kind: 'skipped', reason: stage.reason }
    if (stage.status === 'failed') return { kind: 'failed', stage: name, error: `${name}: ${stage.error}` }
    if (stage.status === 'blocked') {
      const cause = stage.after === undefined ? undefined : journey.stages[stage.after]
      return cause?.status === 'failed' ? { kind: 'failed', stage: stage.after!, error: `${stage.after}: ${cause.error}` } : { kind: 'failed', stage: null, error: `${name}: ${stage.reason}` }
    }
  }
  return null
}

/** Judges one check on a journey. */
export function evaluateCheck(check: ConformanceCheck, journey: JourneyResult): CheckOutcome {
  if (check.journey !== undefined && check.journey !== journey.kind) return { status: 'skipped', reason: `a check of the ${check.journey} journey (this was ${journey.kind})` }
  const unmet = unmetNeed(check, journey)
  if (unmet?.kind === 'skipped') return { status: 'skipped', reason: unmet.reason }
  if (unmet?.kind === 'failed') {
    // The first check of the journey that meets this failure reports it; the others were not run.
    const first = checksFor(journey.kind).find((other) => {
      const theirs = unmetNeed(other, journey)
      return theirs?.kind === 'failed' && theirs.stage === unmet.stage
    })
    if (first !== undefined && first.id !== check.id) return { status: 'skipped', reason: unmet.stage === null ? `not run: ${firstLine(unmet.error)}` : `not run: ${unmet.stage} failed` }
    return { status: 'failed', problems: [unmet.error] }
  }
  const problems = check.problems(journey)
  const warnings = check.warnings?.(journey) ?? []
  const extra = warnings.length > 0 ? { warnings } : {}
  return problems.length === 0 ? { status: 'passed', ...extra } : { status: 'failed', problems, ...extra }
}
