/**
 * The ladder's model: lanes, arrows, rows, calls and findings, as plain data. buildLadder
 * (ladder.ts) makes it from a traffic file; ladder-svg.ts and the harness inspector draw it.
 */
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
 * `failed` (an API answer of 4xx/5xx); `no-answer` (a request with no HTTP answer); `not-sdk` (from
 * the widget's window but not a calling-SDK message: a vendor library's, which the SDK drops; drawn
 * greyed, never a finding).
 */
export type ArrowState = 'ok' | 'ignored' | 'invalid' | 'unknown-type' | 'failed' | 'no-answer' | 'not-sdk'

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
