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
import { FAILURE_REPLY, findingsOf, getEntry, replayWire, type ReplayedMessage, type WireEntry } from '../protocol/index.ts'
import { isRecord } from '../crm/guards.ts'
import { isTruncatedBody, linkBoth, TRAFFIC_LIMITS, type TrafficFile, type TrafficMessage, type TrafficRequest } from './traffic-file.ts'
import { truncationNote } from './bound.ts'

export type LaneId = 'widget' | 'host' | 'api'

export const LANES: ReadonlyArray<{ readonly id: LaneId; readonly label: string }> = [
  { id: 'widget', label: 'Widget' },
  { id: 'host', label: 'Host' },
  { id: 'api', label: 'CRM API' },
]

export type Severity = 'error' | 'warning'

export interface LadderFinding {
  severity: Severity
  rule: string
  title?: string
  message: string
}

/**
 * How the receiving side treated it: `ok`; `ignored` (the host did not act on a widget
 * message); `invalid` (a host message that fails the SDK's validation); `unknown-type`;
 * `failed` (an API answer of 4xx/5xx); `no-answer` (a request with no HTTP answer).
 */
export type ArrowState = 'ok' | 'ignored' | 'invalid' | 'unknown-type' | 'failed' | 'no-answer'

export interface LadderArrow {
  /** Unique in the model: `m<seq>` (message), `q<id>` (request), `a<id>` (its answer). */
  id: string
  kind: 'message' | 'request' | 'response'
  from: LaneId
  to: LaneId
  /** The message's type; `METHOD path → status` for a request; `status (N ms)` for its answer. */
  label: string
  /** ms since the epoch (a request: its start; its answer: start + duration). */
  time: number
  /** The message's seq (kind message). */
  seq?: number
  /** message: the widget's frame, where the host loads two (the calling window and the remote beside it). */
  frame?: string
  /** The request's id (kinds request and response). */
  requestId?: number
  /** The call it belongs to (its externalCallId). */
  callKey?: string
  /** request/response: the message that caused it. */
  causeSeq?: number
  /** message: the API requests it caused. */
  requests: number[]
  /** message: its partners (the replies of a request, the request of a reply). */
  linked: number[]
  /** A widget request that expects an answer and got none in this traffic. */
  missingReply?: true
  /** Most severe first. */
  findings: LadderFinding[]
  /** The most severe finding's. */
  severity?: Severity
  state: ArrowState
  /** Why (the host's reason for ignoring, the request's error, a fault). */
  note?: string
  /** The log kept only part of it, e.g. "truncated: 16.0 MB message, first 64 KB kept" (shared/traffic/bound.ts). */
  truncated?: string
  /** What the list shows when the arrow is opened: the message, or the request and its answer. */
  payload: unknown
  /** Text alternative: everything the picture says about this arrow. */
  description: string
}

export interface LadderRow {
  arrow: LadderArrow
  /** ms since the first row's time. */
  offsetMs: number
  /** Time since the previous row, when at least the model's gap threshold. */
  gapMs?: number
  /** What the call was doing in the gap: `ringing`, `talking`, `wrap-up`. */
  gapPhase?: string
  /** This row's time is earlier than a row before it (clocks disagree or the file was edited). */
  clockBack?: true
}

export interface LadderCall {
  key: string
  externalCallId: string
  direction?: 'outbound' | 'inbound'
  engagementId?: number
  label: string
  /** Rows of the whole ladder that belong to it. */
  rows: number
  firstTime: number
  lastTime: number
  /** Start → CALL_ANSWERED; CALL_ANSWERED → CALL_ENDED (or the call's last message). */
  ringMs?: number
  talkMs?: number
  errors: number
  warnings: number
}

export interface LadderModel {
  lanes: typeof LANES
  /** The rows shown: every row, or the chosen call's. */
  rows: LadderRow[]
  /** Every row of the traffic, whichever call is shown (selectCall picks from these). */
  allRows: LadderRow[]
  /** Every call of the traffic (not only the one shown), oldest first. */
  calls: LadderCall[]
  /** The call shown alone, if one was chosen. */
  callKey?: string
  /** Findings pinned to no message (e.g. a widget reload), and those whose seq names no message. */
  unpinned: LadderFinding[]
  startTime: number
  endTime: number
  counts: { messages: number; requests: number; errors: number; warnings: number; missingReplies: number }
  /** The shortest pause drawn as a gap, ms. */
  gapMs: number
  /** What the drawing leaves out or had to guess, in a sentence each. */
  notes: string[]
}

export interface LadderOptions {
  /** Show one call alone (its externalCallId). */
  callKey?: string
  /** The shortest pause drawn as a gap (default 1000 ms). */
  gapMs?: number
}

const DEFAULT_GAP_MS = 1000
const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1 }
const MAX_LABEL = 120

const dataOf = (message: unknown): Record<string, unknown> => (isRecord(message) && isRecord(message.data) ? message.data : {})
const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) && Number(v) > 0 ? Number(v) : undefined)
const clip = (text: string, max = MAX_LABEL) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The replies a widget request expects: its failure reply (FAILURE_REPLY) and the success of the same family. */
function expectedReplies(type: string | null, message: unknown): string[] {
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
const alwaysAnswered = (replies: readonly string[]) => replies.some((r) => r.endsWith('_SUCCEEDED'))

const formatSeconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`)
export { formatSeconds as formatDuration }

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

/** The ladder of a traffic file. Never throws on a file parseTrafficFile accepted. */
export function buildLadder(file: TrafficFile, options: LadderOptions = {}): LadderModel {
  const gapMs = options.gapMs ?? DEFAULT_GAP_MS
  const notes: string[] = []
  const messages = file.messages.slice(0, TRAFFIC_LIMITS.maxMessages).sort((a, b) => a.seq - b.seq)
  const requests = file.requests.slice(0, TRAFFIC_LIMITS.maxRequests).sort((a, b) => a.id - b.id)
  if (file.messages.length > messages.length) notes.push(`Only the first ${messages.length} of ${file.messages.length} messages are drawn.`)
  if (file.requests.length > requests.length) notes.push(`Only the first ${requests.length} of ${file.requests.length} requests are drawn.`)
  const bySeq = new Map<number, TrafficMessage>()
  for (const m of messages) bySeq.set(m.seq, m)

  // --- the host's verdicts: which call each widget message belongs to --------------------
  const wire: WireEntry[] = messages.map((m) => ({ direction: m.direction === 'in' ? 'from-widget' : 'to-widget', data: m.message }))
  const replay = replayWire(wire, messages.length)
  const replayed = new Map<number, ReplayedMessage>()
  for (const r of replay.messages) replayed.set(messages[r.index]!.seq, r)
  const engagementCall = new Map<number, string>()
  for (const call of replay.session.calls.values()) if (call.engagementId !== undefined) engagementCall.set(call.engagementId, call.externalCallId)

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

  // --- reply links: the file's, else each reply to the oldest request of its family -----
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
  for (const m of messages) {
    if (m.direction !== 'out' || callOf.has(m.seq)) continue
    const partner = (linked.get(m.seq) ?? []).map((s) => callOf.get(s)).find((k) => k !== undefined)
    const data = dataOf(m.message)
    const byEngagement = engagementCall.get(positiveInt(data.engagementId) ?? -1)
    const byName = typeof data.externalCallId === 'string' && replay.session.calls.has(data.externalCallId) ? data.externalCallId : undefined
    const key = partner ?? byEngagement ?? byName
    if (key !== undefined) callOf.set(m.seq, key)
  }

  // --- findings ---------------------------------------------------------------------------
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
      if (!r.judgement.act) {
        const unknown = getEntry(r.type) === undefined
        pin(seq, { severity: 'error', rule: unknown ? 'unknown-type' : 'invalid-payload', message: `${r.type}: ${r.judgement.reason}` })
      }
      for (const f of findingsOf(r)) pin(seq, { severity: f.severity, rule: 'judgement', message: f.text })
    }
    if (messages.length > 0) notes.push('The file has no findings: the widget messages were judged as the host judges them.')
  }

  // --- requests: their cause and their place among the messages ---------------------------
  const causedBy = new Map<number, number[]>()
  const items: Item[] = messages.map((m, order) => ({ at: m.seq, rank: 0, time: 0, answer: 0, order, message: m }))
  // Messages by time for requests recorded without afterSeq: the newest message whose time is at most the answer's.
  let runningMax = -Infinity
  const timeline = messages.map((m) => {
    runningMax = Math.max(runningMax, m.time)
    return { seq: m.seq, time: runningMax }
  })
  /** The newest message whose time is at most `time` (-1: none). */
  const seqAtTime = (time: number): number => {
    let lo = 0
    let hi = timeline.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (timeline[mid]!.time <= time) lo = mid + 1
      else hi = mid
    }
    return lo > 0 ? timeline[lo - 1]!.seq : -1
  }
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

  // --- arrows -------------------------------------------------------------------------------
  const rows: LadderRow[] = []
  let missingReplies = 0
  const requestCall = (r: TrafficRequest): string | undefined => {
    if (r.causeSeq !== undefined && callOf.has(r.causeSeq)) return callOf.get(r.causeSeq)
    const engagement = engagementOfPath(r.path)
    if (engagement !== undefined) return engagementCall.get(engagement)
    // A created engagement names its call in its answer.
    if (r.method.toUpperCase() === 'POST' && isRecord(r.responseBody)) return engagementCall.get(positiveInt(r.responseBody.id) ?? -1)
    return undefined
  }
  for (const item of items) {
    if (item.message) {
      const m = item.message
      const r = replayed.get(m.seq)
      const list = sortFindings(findings.get(m.seq) ?? [])
      const partners = linked.get(m.seq) ?? []
      const replies = m.direction === 'in' ? expectedReplies(m.type, m.message) : []
      const missingReply = replies.length > 0 && alwaysAnswered(replies) && !partners.some((s) => (bySeq.get(s)?.seq ?? -1) > m.seq)
      const known = m.type !== null && getEntry(m.type) !== undefined
      let state: ArrowState = 'ok'
      let note: string | undefined
      if (!known) state = 'unknown-type'
      else if (m.direction === 'in' && (m.valid === false || (r !== undefined && (!r.judgement.act || r.verdict?.act === false)))) {
        state = 'ignored'
        note = m.reason ?? (r && !r.judgement.act ? r.judgement.reason : r?.verdict && !r.verdict.act ? r.verdict.reason : undefined)
      } else if (m.direction === 'out' && m.valid === false) {
        state = 'invalid'
        note = m.reason
      }
      if (m.fault !== undefined) note = note === undefined ? `fault: ${m.fault}` : `${note}; fault: ${m.fault}`
      if (missingReply) missingReplies += 1
      const arrow: LadderArrow = {
        id: `m${m.seq}`,
        kind: 'message',
        from: m.direction === 'in' ? 'widget' : 'host',
        to: m.direction === 'in' ? 'host' : 'widget',
        label: clip(m.type ?? '(no type)'),
        time: m.time,
        seq: m.seq,
        requests: causedBy.get(m.seq) ?? [],
        linked: partners,
        findings: list,
        state,
        payload: m.message,
        description: '',
      }
      const key = callOf.get(m.seq)
      if (key !== undefined) arrow.callKey = key
      if (missingReply) arrow.missingReply = true
      if (m.truncated !== undefined) arrow.truncated = truncationNote(m.truncated)
      if (m.frame !== undefined) arrow.frame = m.frame
      if (list[0]) arrow.severity = list[0].severity
      if (note !== undefined) arrow.note = note
      rows.push({ arrow, offsetMs: 0 })
    } else if (item.request) {
      const r = item.request
      const key = requestCall(r)
      const cause = r.causeSeq !== undefined && bySeq.has(r.causeSeq) ? r.causeSeq : undefined
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
        item.answer === 0
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
      const body = item.answer === 0 ? r.requestBody : r.responseBody
      if (isTruncatedBody(body)) arrow.truncated = truncationNote({ chars: body.chars, keptChars: body.preview.length }, item.answer === 0 ? 'request body' : 'response body')
      rows.push({ arrow, offsetMs: 0 })
    }
  }

  // --- calls ----------------------------------------------------------------------------------
  const calls = new Map<string, LadderCall>()
  const phases = new Map<string, { started?: number; answered?: number; ended?: number }>()
  for (const row of rows) {
    const a = row.arrow
    if (a.callKey === undefined) continue
    let call = calls.get(a.callKey)
    if (!call) {
      const session = replay.session.calls.get(a.callKey)
      call = { key: a.callKey, externalCallId: a.callKey, label: '', rows: 0, firstTime: a.time, lastTime: a.time, errors: 0, warnings: 0 }
      if (session) {
        call.direction = session.direction
        if (session.engagementId !== undefined) call.engagementId = session.engagementId
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

  const all: LadderModel = {
    lanes: LANES,
    rows,
    allRows: rows,
    calls: [...calls.values()],
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

const LANE_LABEL: Readonly<Record<LaneId, string>> = { widget: 'widget', host: 'host', api: 'CRM API' }

/** The arrow's drawn label: with its frame where the widget runs in two (`SYNC [remote]`). */
export function drawnLabel(a: Pick<LadderArrow, 'label' | 'frame'>): string {
  return a.frame === undefined ? a.label : `${a.label} [${a.frame}]`
}

function describe(row: LadderRow, bySeq: ReadonlyMap<number, LadderArrow>, byRequest: ReadonlyMap<number, LadderArrow>): string {
  const a = row.arrow
  const parts: string[] = []
  const head = a.kind === 'message' ? `#${a.seq} ${a.label}` : a.kind === 'request' ? `Request ${a.label}` : `Answer ${a.label} to request ${byRequest.get(a.requestId ?? -1)?.label ?? ''}`.trim()
  parts.push(`${head}, ${LANE_LABEL[a.from]} → ${LANE_LABEL[a.to]}, at +${formatSeconds(row.offsetMs)}`)
  if (row.clockBack) parts.push('its timestamp is earlier than the one before it')
  if (row.gapMs !== undefined) parts.push(`after a pause of ${formatSeconds(row.gapMs)}${row.gapPhase ? ` (${row.gapPhase})` : ''}`)
  if (a.frame !== undefined) parts.push(`the widget's ${a.frame} frame`)
  if (a.callKey !== undefined) parts.push(`call ${a.callKey}`)
  if (a.state === 'unknown-type') parts.push('unknown message type')
  if (a.state === 'ignored') parts.push(`ignored by the host${a.note ? `: ${a.note}` : ''}`)
  if (a.state === 'invalid') parts.push(`invalid${a.note ? `: ${a.note}` : ''}`)
  if (a.state === 'failed') parts.push('the API refused it')
  if (a.state === 'no-answer') parts.push(`no answer${a.note ? `: ${a.note}` : ''}`)
  if (a.missingReply) parts.push('no reply was sent')
  if (a.truncated !== undefined) parts.push(a.truncated)
  if (a.causeSeq !== undefined) parts.push(`caused by #${a.causeSeq} ${bySeq.get(a.causeSeq)?.label ?? ''}`.trimEnd())
  if (a.requests.length > 0) parts.push(`caused ${a.requests.map((id) => byRequest.get(id)?.label ?? `request ${id}`).join('; ')}`)
  const partners = a.linked.map((s) => bySeq.get(s)).filter((p): p is LadderArrow => p !== undefined)
  if (partners.length > 0) parts.push(`${partners.some((p) => (p.seq ?? 0) > (a.seq ?? 0)) ? 'answered by' : 'answers'} ${partners.map((p) => `#${p.seq} ${p.label}`).join(', ')}`)
  for (const f of a.findings) parts.push(`${f.severity}: ${f.title ? `${f.title}: ` : ''}${f.message}`)
  return parts.join('; ')
}

/**
 * The model with only one call's rows (`callKey`), or all rows (undefined); offsets, gaps and
 * text alternatives are computed for the rows shown.
 */
export function selectCall(model: LadderModel, callKey: string | undefined): LadderModel {
  return present(model, callKey, false)
}

/** selectCall; `fresh`: the model's rows are new (buildLadder's own), so they are completed in place, not copied. */
function present(model: LadderModel, callKey: string | undefined, fresh: boolean): LadderModel {
  const source = callKey === undefined ? model.allRows : model.allRows.filter((r) => r.arrow.callKey === callKey)
  const bySeq = new Map<number, LadderArrow>()
  const byRequest = new Map<number, LadderArrow>()
  for (const r of model.allRows) {
    if (r.arrow.seq !== undefined) bySeq.set(r.arrow.seq, r.arrow)
    if (r.arrow.kind === 'request' && r.arrow.requestId !== undefined) byRequest.set(r.arrow.requestId, r.arrow)
  }
  const startTime = source[0]?.arrow.time ?? 0
  let latest = -Infinity
  // Only messages are in wire order (seq), so only a message can show the clock going back: requests overlap, and an
  // answer drawn where it came back may well be older than a request that started after it.
  let latestMessage = -Infinity
  const phase = new Map<string, string>()
  const rows = source.map((input) => {
    const arrow = fresh ? input.arrow : { ...input.arrow }
    const row: LadderRow = fresh ? input : { arrow, offsetMs: 0 }
    row.offsetMs = Math.max(0, arrow.time - startTime)
    if (arrow.kind === 'message' && arrow.time < latestMessage) row.clockBack = true
    else if (latest !== -Infinity && arrow.time - latest >= model.gapMs) {
      row.gapMs = arrow.time - latest
      const p = arrow.callKey === undefined ? undefined : phase.get(arrow.callKey)
      if (p !== undefined) row.gapPhase = p
    }
    latest = Math.max(latest, arrow.time)
    if (arrow.kind === 'message') latestMessage = Math.max(latestMessage, arrow.time)
    if (arrow.callKey !== undefined && arrow.kind === 'message' && arrow.from === 'widget') {
      if (arrow.label === 'OUTGOING_CALL_STARTED' || arrow.label === 'INCOMING_CALL') phase.set(arrow.callKey, 'ringing')
      else if (arrow.label === 'CALL_ANSWERED') phase.set(arrow.callKey, 'talking')
      else if (arrow.label === 'CALL_ENDED' || arrow.label === 'CALL_TRANSFERRED') phase.set(arrow.callKey, 'wrap-up')
      else if (arrow.label === 'CALL_COMPLETED') phase.delete(arrow.callKey)
    }
    return row
  })
  for (const row of rows) row.arrow.description = describe(row, bySeq, byRequest)
  const out: LadderModel = { ...model, rows, allRows: callKey === undefined ? rows : model.allRows, startTime, endTime: latest === -Infinity ? startTime : latest }
  if (callKey === undefined) delete out.callKey
  else out.callKey = callKey
  return out
}
