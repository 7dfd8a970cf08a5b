/**
 * The ladder diagram of a traffic file: one lane per party (Widget, Host, CRM API) and one
 * arrow per SDK message and per API request and its answer, in wire order, grouped by call.
 * The model is pure data; ladder-svg.ts draws it as an SVG document and the harness
 * inspector draws it windowed.
 *
 * - Order: messages by seq (clocks of two frames need not agree, and a file may be edited),
 *   requests by `afterSeq` (else by their time among the messages, never before their cause).
 *   A timestamp earlier than the one before it is shown as such and makes no gap.
 * - Calls: which call a message belongs to is the host's own verdict, replayed by the shared
 *   call session (shared/protocol/session-replay.ts); host replies follow their request (the
 *   file's links, else the request they answer by type) or the engagement they name; API
 *   requests follow the message that caused them, else the engagement in their path.
 * - Findings: the file's own, pinned by seq; a file without findings is judged here with the
 *   host's judgement (findingsOf).
 */
import { findingsOf, getEntry, type ReplayedMessage } from '../protocol/index.ts'
import { isRecord } from '../crm/guards.ts'
import { isTruncatedBody, TRAFFIC_LIMITS, type TrafficFile, type TrafficMessage, type TrafficRequest } from './traffic-file.ts'
import { truncationNote } from './bound.ts'
import { LANES, type ArrowState, type LadderArrow, type LadderFinding, type LadderModel, type LadderOptions, type LadderRow, type Severity } from './ladder-model.ts'
import { clip, present } from './ladder-present.ts'
import { alwaysAnswered, callsOfHostMessages, callsOfWidgetMessages, expectedReplies, groupCalls, linkReplies, positiveInt, replayHost } from './ladder-calls.ts'

export * from './ladder-model.ts'
export { drawnLabel, formatDuration, selectCall } from './ladder-present.ts'

const DEFAULT_GAP_MS = 1000
const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1 }

/** `METHOD /path` without the query. */
const requestLine = (r: TrafficRequest) => `${r.method.toUpperCase()} ${r.path.split('?')[0] ?? r.path}`
const statusText = (r: TrafficRequest) => (r.status === 0 ? 'no answer' : String(r.status))

function sortFindings(list: LadderFinding[]): LadderFinding[] {
  return list.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
}

/** The engagement a calls API path names: `/crm/v3/objects/calls/123…`. */
function engagementOfPath(path: string): number | undefined {
  const match = /^\/crm\/v3\/objects\/calls\/(\d{1,15})(?:[/?]|$)/.exec(path)
  return match ? positiveInt(match[1]) : undefined
}

interface Item {
  /** Order key: seq of the message, or the seq a request (or its answer) follows. */
  at: number
  /** 0: a message; 1: a request or an answer (after the message of the same `at`). */
  rank: number
  /** Requests and answers after the same message: in the order they happened (start, answer time). */
  time: number
  /** 0: a message or a request; 1: an answer (after its request at the same time). */
  answer: number
  /** Tie-break: file order. */
  order: number
  message?: TrafficMessage
  request?: TrafficRequest
}

/** What the arrows are drawn from: the steps' results before them. */
interface ArrowContext {
  bySeq: ReadonlyMap<number, TrafficMessage>
  replayed: ReadonlyMap<number, ReplayedMessage>
  findings: ReadonlyMap<number, LadderFinding[]>
  linked: ReadonlyMap<number, number[]>
  causedBy: ReadonlyMap<number, number[]>
  callOf: ReadonlyMap<number, string>
  engagementCall: ReadonlyMap<number, string>
}

/** The file's messages in seq order and requests in id order, each up to its limit (a note says what was left out). */
function withinLimits(file: TrafficFile, notes: string[]): { messages: TrafficMessage[]; requests: TrafficRequest[] } {
  const messages = file.messages.slice(0, TRAFFIC_LIMITS.maxMessages).sort((a, b) => a.seq - b.seq)
  const requests = file.requests.slice(0, TRAFFIC_LIMITS.maxRequests).sort((a, b) => a.id - b.id)
  if (file.messages.length > messages.length) notes.push(`Only the first ${messages.length} of ${file.messages.length} messages are drawn.`)
  if (file.requests.length > requests.length) notes.push(`Only the first ${requests.length} of ${file.requests.length} requests are drawn.`)
  return { messages, requests }
}

/** Findings: the file's own, pinned by seq; without any, the widget messages judged as the host judges them. */
function pinFindings(file: TrafficFile, ctx: { bySeq: ReadonlyMap<number, TrafficMessage>; replayed: ReadonlyMap<number, ReplayedMessage> }, notes: string[]) {
  const { bySeq, replayed } = ctx
  const findings = new Map<number, LadderFinding[]>()
  const unpinned: LadderFinding[] = []
  const pin = (seq: number | null, finding: LadderFinding) => {
    if (seq === null || !bySeq.has(seq)) unpinned.push(finding)
    else findings.set(seq, [...(findings.get(seq) ?? []), finding])
  }
  if (file.findings !== undefined) {
    for (const f of file.findings) {
      const finding: LadderFinding = { severity: f.severity, rule: f.rule, message: f.message }
      if (f.title !== undefined) finding.title = f.title
      pin(f.seq, finding)
    }
  } else {
    for (const [seq, r] of replayed) {
      if (!r.judgement.act && r.judgement.notSdk !== true) {
        const unknown = getEntry(r.type) === undefined
        pin(seq, { severity: 'error', rule: unknown ? 'unknown-type' : 'invalid-payload', message: `${r.type}: ${r.judgement.reason}` })
      }
      for (const f of findingsOf(r)) pin(seq, { severity: f.severity, rule: 'judgement', message: f.text })
    }
    if (bySeq.size > 0) notes.push('The file has no findings: the widget messages were judged as the host judges them.')
  }
  return { findings, unpinned }
}

/** The newest message whose time is at most `time` (-1: none), for requests recorded without afterSeq. */
function seqAtTimeOf(messages: readonly TrafficMessage[]): (time: number) => number {
  let runningMax = -Infinity
  const timeline = messages.map((m) => {
    runningMax = Math.max(runningMax, m.time)
    return { seq: m.seq, time: runningMax }
  })
  return (time: number): number => {
    let lo = 0
    let hi = timeline.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (timeline[mid]!.time <= time) lo = mid + 1
      else hi = mid
    }
    return lo > 0 ? timeline[lo - 1]!.seq : -1
  }
}

/** Requests: their cause and their place among the messages; the items in the order they are drawn. */
function placeRequests(messages: readonly TrafficMessage[], requests: readonly TrafficRequest[], bySeq: ReadonlyMap<number, TrafficMessage>, notes: string[]) {
  const causedBy = new Map<number, number[]>()
  const items: Item[] = messages.map((m, order) => ({ at: m.seq, rank: 0, time: 0, answer: 0, order, message: m }))
  const seqAtTime = seqAtTimeOf(messages)
  let unplaced = 0
  for (const [order, r] of requests.entries()) {
    const cause = r.causeSeq !== undefined && bySeq.has(r.causeSeq) ? r.causeSeq : undefined
    if (cause !== undefined) causedBy.set(cause, [...(causedBy.get(cause) ?? []), r.id])
    // The answer follows afterSeq (or its time); the request its start time, never before its cause nor after its answer.
    let answerAt = r.afterSeq
    if (answerAt === undefined) {
      unplaced += 1
      answerAt = seqAtTime(r.time + r.durationMs)
    }
    if (cause !== undefined && answerAt < cause) answerAt = cause
    const startAt = Math.min(answerAt, Math.max(cause ?? -1, seqAtTime(r.time)))
    items.push({ at: startAt, rank: 1, time: r.time, answer: 0, order, request: r }, { at: answerAt, rank: 1, time: r.time + r.durationMs, answer: 1, order, request: r })
  }
  if (unplaced > 0) notes.push(`${unplaced} ${unplaced === 1 ? 'request was' : 'requests were'} placed by time (the file does not say which message each followed).`)
  items.sort((a, b) => a.at - b.at || a.rank - b.rank || a.time - b.time || a.order - b.order || a.answer - b.answer)
  return { items, causedBy }
}

/** A message's arrow; `missingReply`: a widget request that expects an answer and got none. */
function messageArrow(m: TrafficMessage, ctx: ArrowContext): { arrow: LadderArrow; missingReply: boolean } {
  const r = ctx.replayed.get(m.seq)
  const list = sortFindings(ctx.findings.get(m.seq) ?? [])
  const partners = ctx.linked.get(m.seq) ?? []
  const replies = m.direction === 'in' ? expectedReplies(m.type, m.message) : []
  const missingReply = replies.length > 0 && alwaysAnswered(replies) && !partners.some((s) => (ctx.bySeq.get(s)?.seq ?? -1) > m.seq)
  const known = m.type !== null && getEntry(m.type) !== undefined
  let state: ArrowState = 'ok'
  let note: string | undefined
  if (m.direction === 'in' && (m.notSdk === true || (r !== undefined && !r.judgement.act && r.judgement.notSdk === true))) {
    state = 'not-sdk'
    note = 'not a calling-SDK message'
  } else if (!known) state = 'unknown-type'
  else if (m.direction === 'in' && (m.valid === false || (r !== undefined && (!r.judgement.act || r.verdict?.act === false)))) {
    state = 'ignored'
    note = m.reason ?? (r && !r.judgement.act ? r.judgement.reason : r?.verdict && !r.verdict.act ? r.verdict.reason : undefined)
  } else if (m.direction === 'out' && m.valid === false) {
    state = 'invalid'
    note = m.reason
  }
  if (m.fault !== undefined) note = note === undefined ? `fault: ${m.fault}` : `${note}; fault: ${m.fault}`
  const arrow: LadderArrow = {
    id: `m${m.seq}`,
    kind: 'message',
    from: m.direction === 'in' ? 'widget' : 'host',
    to: m.direction === 'in' ? 'host' : 'widget',
    label: clip(m.type ?? '(no type)'),
    time: m.time,
    seq: m.seq,
    requests: ctx.causedBy.get(m.seq) ?? [],
    linked: partners,
    findings: list,
    state,
    payload: m.message,
    description: '',
  }
  const key = ctx.callOf.get(m.seq)
  if (key !== undefined) arrow.callKey = key
  if (missingReply) arrow.missingReply = true
  if (m.truncated !== undefined) arrow.truncated = truncationNote(m.truncated)
  if (m.frame !== undefined) arrow.frame = m.frame
  if (list[0]) arrow.severity = list[0].severity
  if (note !== undefined) arrow.note = note
  return { arrow, missingReply }
}

/** The call of a request: its cause's, else the engagement its path names, else the engagement its answer created. */
function requestCall(r: TrafficRequest, ctx: ArrowContext): string | undefined {
  if (r.causeSeq !== undefined && ctx.callOf.has(r.causeSeq)) return ctx.callOf.get(r.causeSeq)
  const engagement = engagementOfPath(r.path)
  if (engagement !== undefined) return ctx.engagementCall.get(engagement)
  // A created engagement names its call in its answer.
  if (r.method.toUpperCase() === 'POST' && isRecord(r.responseBody)) return ctx.engagementCall.get(positiveInt(r.responseBody.id) ?? -1)
  return undefined
}

/** A request's arrow (`answer` 0) or its answer's (`answer` 1). */
function requestArrow(r: TrafficRequest, answer: number, ctx: ArrowContext): LadderArrow {
  const key = requestCall(r, ctx)
  const cause = r.causeSeq !== undefined && ctx.bySeq.has(r.causeSeq) ? r.causeSeq : undefined
  const state: ArrowState = r.status === 0 ? 'no-answer' : r.status >= 400 ? 'failed' : 'ok'
  const payload = {
    method: r.method,
    path: r.path,
    status: r.status,
    durationMs: r.durationMs,
    ...(r.requestBody !== undefined ? { requestBody: r.requestBody } : {}),
    ...(r.responseBody !== undefined ? { responseBody: r.responseBody } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  }
  const base = { requestId: r.id, requests: [], linked: [], findings: [], state, payload, description: '' }
  const arrow: LadderArrow =
    answer === 0
      ? { ...base, id: `q${r.id}`, kind: 'request', from: 'host', to: 'api', label: clip(`${requestLine(r)} → ${statusText(r)}`), time: r.time }
      : {
          ...base,
          id: `a${r.id}`,
          kind: 'response',
          from: 'api',
          to: 'host',
          label: r.status === 0 ? 'no answer' : `${r.status} (${Math.round(r.durationMs)} ms)`,
          time: r.time + r.durationMs,
        }
  if (key !== undefined) arrow.callKey = key
  if (cause !== undefined) arrow.causeSeq = cause
  if (r.error !== undefined) arrow.note = r.error
  const body = answer === 0 ? r.requestBody : r.responseBody
  if (isTruncatedBody(body)) arrow.truncated = truncationNote({ chars: body.chars, keptChars: body.preview.length }, answer === 0 ? 'request body' : 'response body')
  return arrow
}

/** One row per item, in order, and how many widget requests got no reply. */
function drawArrows(items: readonly Item[], ctx: ArrowContext): { rows: LadderRow[]; missingReplies: number } {
  const rows: LadderRow[] = []
  let missingReplies = 0
  for (const item of items) {
    if (item.message) {
      const { arrow, missingReply } = messageArrow(item.message, ctx)
      if (missingReply) missingReplies += 1
      rows.push({ arrow, offsetMs: 0 })
    } else if (item.request) {
      rows.push({ arrow: requestArrow(item.request, item.answer, ctx), offsetMs: 0 })
    }
  }
  return { rows, missingReplies }
}

/** The ladder of a traffic file. Never throws on a file parseTrafficFile accepted. */
export function buildLadder(file: TrafficFile, options: LadderOptions = {}): LadderModel {
  const gapMs = options.gapMs ?? DEFAULT_GAP_MS
  const notes: string[] = []
  const { messages, requests } = withinLimits(file, notes)
  const bySeq = new Map<number, TrafficMessage>()
  for (const m of messages) bySeq.set(m.seq, m)

  const host = replayHost(messages)
  const callOf = callsOfWidgetMessages(messages, host.replayed)
  const linked = linkReplies(messages, bySeq, notes)
  callsOfHostMessages(messages, linked, callOf, host)
  const { findings, unpinned } = pinFindings(file, { bySeq, replayed: host.replayed }, notes)
  const { items, causedBy } = placeRequests(messages, requests, bySeq, notes)
  const { rows, missingReplies } = drawArrows(items, { bySeq, replayed: host.replayed, findings, linked, causedBy, callOf, engagementCall: host.engagementCall })

  const all: LadderModel = {
    lanes: LANES,
    rows,
    allRows: rows,
    calls: groupCalls(rows, host.replay.session),
    unpinned: sortFindings(unpinned),
    startTime: 0,
    endTime: 0,
    counts: { messages: messages.length, requests: requests.length, errors: 0, warnings: 0, missingReplies },
    gapMs,
    notes,
  }
  for (const f of [...unpinned, ...[...findings.values()].flat()]) all.counts[f.severity === 'error' ? 'errors' : 'warnings'] += 1
  return present(all, options.callKey, true)
}
