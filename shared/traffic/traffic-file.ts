/**
 * The saved traffic of a calling session: every SDK message both ways, the CRM API
 * requests the host made (with the message that caused each), and the conformance
 * findings. The harness inspector exports and imports it; `buildLadder` (ladder.ts)
 * draws it. A file may come from anywhere (a CI run, a colleague, an attacker), so
 * `parseTrafficFile` checks everything, within budgets, and says what is wrong and where.
 *
 * Pure: no DOM, no React; runs in the browser and in Node.
 */
import { z } from '../protocol/zod-config.ts'
import { safeJson } from './safe-json.ts'
import { boundValue, keptText, TRAFFIC_BOUNDS, type Truncation } from './bound.ts'

export const TRAFFIC_FORMAT = 'ringside-traffic'
export const TRAFFIC_VERSION = 1

/** Budgets for a file read from outside: a hostile file cannot freeze or bloat the page. */
export const TRAFFIC_LIMITS = {
  /** Characters of the file's text. */
  maxChars: 64 * 1024 * 1024,
  maxMessages: 20_000,
  maxRequests: 20_000,
  maxFindings: 20_000,
  /** Characters of one request or response body as JSON; a longer one is kept as a truncated preview (boundBody). */
  maxBodyChars: 16_000,
  /** Characters of one message as JSON; a longer one is kept in part, with `truncated` (shared/traffic/bound.ts). */
  maxMessageChars: TRAFFIC_BOUNDS.entryChars,
  /** Characters of a text field (type, path, reason, finding text). */
  maxTextChars: 10_000,
} as const

/** One deviation from the SDK's types that the host noted on a widget message. */
export interface TrafficDeviation {
  severity: 'error' | 'warning'
  /** Where, e.g. `data.engagementId` (empty for the whole message). */
  path: string
  message: string
  /** The leniency rule that let the host act on it anyway, if any. */
  rule?: string
}

/** One SDK message in or out, in wire order. */
export interface TrafficMessage {
  /** Increasing in wire order; unique in a file. */
  seq: number
  /** When it was posted or received (ms since the epoch, the recorder's clock). */
  time: number
  /** `in`: widget → host; `out`: host → widget. */
  direction: 'in' | 'out'
  /** null when the message has no string `type`. */
  type: string | null
  /** The object as posted or received; its first part when `truncated` says so. */
  message: unknown
  /** Set when the log kept only the first part of a huge message (its size, what was kept: shared/traffic/bound.ts). */
  truncated?: Truncation
  /**
   * out: passes the SDK's validation. in: the host acted on it; false when it was
   * ignored (the real CRM would ignore it) or came from the wrong origin. Absent: not judged.
   */
  valid?: boolean
  reason?: string
  /** in: every deviation from the SDK's types (also on messages the host acted on). */
  deviations?: readonly TrafficDeviation[]
  deprecation?: string
  /** out: requested before SYNC_ACK and flushed after it; in: arrived while not ready. */
  beforeHandshake?: boolean
  /**
   * in: not a calling-SDK message (no `type` or no `messageId`, as the SDK tests it): a vendor
   * library's own traffic from the widget's window, dropped as the SDK drops it. Never a finding.
   */
  notSdk?: boolean
  /** Set when fault injection changed this message (e.g. `dropped`, `duplicate`, `delayed`). */
  fault?: string
  /** Sent from the harness's composer (`invalid`: on purpose although it does not validate). */
  composed?: 'valid' | 'invalid'
  /** The seqs of its partners: the replies of a request, or the request of a reply. */
  linkedTo?: readonly number[]
  /**
   * The widget's frame it went to or came from (its SYNC's `iframeLocation`), where the host loads more than one:
   * with `usesCallingWindow` the CRM loads the widget in the calling window and in the remote beside it.
   */
  frame?: 'widget' | 'remote' | 'window'
}

/** One request the host made to the CRM API, and its answer. */
export interface TrafficRequest {
  /** Increasing in the order the requests started; unique in a file. */
  id: number
  /** When it started (ms since the epoch). */
  time: number
  method: string
  /** Path and query, e.g. `/crm/v3/objects/calls/5?properties=hs_call_status`. */
  path: string
  /** The HTTP status; 0 when no answer came (network error). */
  status: number
  durationMs: number
  /** The seq of the widget message the host made it for. */
  causeSeq?: number
  /** The seq of the newest message recorded when its answer came: orders it among the messages without trusting clocks. */
  afterSeq?: number
  /** JSON bodies, bounded by boundBody. */
  requestBody?: unknown
  responseBody?: unknown
  /** Why no answer came (status 0). */
  error?: string
}

/** A conformance finding, pinned to a message by seq (null: to none, e.g. a widget reload). */
export interface TrafficFinding {
  seq: number | null
  severity: 'error' | 'warning'
  rule: string
  /** The rule's title, e.g. "Unknown message type". */
  title?: string
  message: string
  externalCallId?: string
}

export interface TrafficFile {
  format: typeof TRAFFIC_FORMAT
  version: typeof TRAFFIC_VERSION
  /** ISO 8601. */
  exportedAt: string
  /** Who recorded it, e.g. `harness` or `check-widget`. */
  source?: string
  widgetUrl?: string | null
  messages: TrafficMessage[]
  requests: TrafficRequest[]
  /** The recorder's findings. Absent: the ladder judges the widget messages itself (ladder.ts). */
  findings?: TrafficFinding[]
}

/** Records that messages `a` and `b` are partners (a request and its reply) in a seq → partners index. */
export function linkBoth(index: Map<number, number[]>, a: number, b: number): void {
  if (a === b) return
  const left = index.get(a) ?? []
  if (!left.includes(b)) index.set(a, [...left, b])
  const right = index.get(b) ?? []
  if (!right.includes(a)) index.set(b, [...right, a])
}

// --- bodies ------------------------------------------------------------------------

/** What a body longer than the budget becomes. */
export interface TruncatedBody {
  'ringside:truncated': true
  /** Characters of the whole body as JSON. */
  chars: number
  /** Its first characters. */
  preview: string
}

export function isTruncatedBody(value: unknown): value is TruncatedBody {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)['ringside:truncated'] === true
}

/** A body as a traffic file keeps it, with the characters of what is kept (bound.ts measures it). Never throws. */
export function boundBodySized(value: unknown, maxChars: number = TRAFFIC_LIMITS.maxBodyChars): { value: unknown; chars: number } {
  // A body a file already holds as a preview (within the budget) stays as it is.
  if (isTruncatedBody(value) && typeof value.preview === 'string' && value.preview.length <= maxChars) return { value, chars: value.preview.length + 60 }
  const bounded = boundValue(value, maxChars)
  if (bounded.truncation === undefined) return { value, chars: bounded.chars }
  const preview = typeof bounded.value === 'string' ? bounded.value : safeJson(bounded.value, 0)
  return { value: { 'ringside:truncated': true, chars: bounded.chars, preview } satisfies TruncatedBody, chars: preview.length + 60 }
}

/** A body as a traffic file keeps it: itself when its JSON fits `maxChars`, else a truncated preview. Never throws. */
export function boundBody(value: unknown, maxChars: number = TRAFFIC_LIMITS.maxBodyChars): unknown {
  return boundBodySized(value, maxChars).value
}

/** A request with its bodies bounded (boundBody). */
function boundBodies(request: TrafficRequest): TrafficRequest {
  const requestBody = boundBody(request.requestBody)
  const responseBody = boundBody(request.responseBody)
  if (requestBody === request.requestBody && responseBody === request.responseBody) return request
  const bounded: TrafficRequest = { ...request }
  if (request.requestBody !== undefined) bounded.requestBody = requestBody
  if (request.responseBody !== undefined) bounded.responseBody = responseBody
  return bounded
}

/** At most this many deviations of one message are kept (the file's budget). */
const MAX_DEVIATIONS = 100

/** A message's texts as the log keeps them: within the file's budgets, so what the log exports imports back. */
function boundTexts<T extends Pick<TrafficMessage, 'reason' | 'deprecation' | 'deviations'>>(entry: T): T {
  const max = TRAFFIC_LIMITS.maxTextChars
  const long = (text: string | undefined) => text !== undefined && text.length > max
  const deviations = entry.deviations
  const deviationsOver = deviations !== undefined && (deviations.length > MAX_DEVIATIONS || deviations.some((d) => long(d.message) || long(d.path) || long(d.rule)))
  if (!long(entry.reason) && !long(entry.deprecation) && !deviationsOver) return entry
  const kept = { ...entry }
  if (entry.reason !== undefined) kept.reason = keptText(entry.reason, max)
  if (entry.deprecation !== undefined) kept.deprecation = keptText(entry.deprecation, max)
  if (deviations !== undefined && deviationsOver) {
    kept.deviations = deviations.slice(0, MAX_DEVIATIONS).map((d) => {
      const deviation: TrafficDeviation = { ...d, path: keptText(d.path, max), message: keptText(d.message, max) }
      if (d.rule !== undefined) deviation.rule = keptText(d.rule, max)
      return deviation
    })
  }
  return kept
}

/**
 * A message as the log keeps it (the live log and an imported file), with the characters kept: the one
 * per-entry rule of bound.ts for the message, and the file's budgets for its texts. A message already
 * truncated keeps the size it was recorded with.
 */
export function boundMessage<T extends Pick<TrafficMessage, 'message' | 'truncated' | 'reason' | 'deprecation' | 'deviations'>>(entry: T): { kept: T; chars: number } {
  const texts = boundTexts(entry)
  let textChars = (texts.reason?.length ?? 0) + (texts.deprecation?.length ?? 0)
  for (const d of texts.deviations ?? []) textChars += d.path.length + d.message.length + (d.rule?.length ?? 0)
  const bounded = boundValue(entry.message, TRAFFIC_LIMITS.maxMessageChars)
  if (bounded.truncation === undefined) return { kept: texts, chars: bounded.chars + textChars }
  const recorded = entry.truncated !== undefined && entry.truncated.chars > bounded.truncation.chars
  const truncated = recorded ? { ...entry.truncated!, keptChars: bounded.truncation.keptChars } : bounded.truncation
  return { kept: { ...texts, message: bounded.value, truncated }, chars: bounded.truncation.keptChars + textChars }
}

// --- parsing -----------------------------------------------------------------------

const text = z.string().max(TRAFFIC_LIMITS.maxTextChars)
const seq = z.number().int().nonnegative()
/** ms since the epoch, or an ISO 8601 date (the inspector's first export format). */
const time = z.union([z.number().finite(), z.string().max(64)]).transform((value, ctx) => {
  if (typeof value === 'number') return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `not a date: ${JSON.stringify(value.slice(0, 40))}` })
    return z.NEVER
  }
  return ms
})
const severity = z.enum(['error', 'warning'])

const deviationSchema = z.object({ severity, path: text, message: text, rule: text.optional() })

const messageSchema = z.object({
  seq,
  time,
  direction: z.enum(['in', 'out']),
  type: text.nullable(),
  message: z.unknown(),
  valid: z.boolean().optional(),
  reason: text.optional(),
  deviations: z.array(deviationSchema).max(MAX_DEVIATIONS).optional(),
  deprecation: text.optional(),
  beforeHandshake: z.boolean().optional(),
  notSdk: z.boolean().optional(),
  fault: text.optional(),
  composed: z.enum(['valid', 'invalid']).optional(),
  linkedTo: z.array(seq).max(100).optional(),
  truncated: z.object({ chars: z.number().nonnegative(), keptChars: z.number().nonnegative(), atLeast: z.boolean().optional() }).optional(),
  frame: z.enum(['widget', 'remote', 'window']).optional(),
})

const requestSchema = z.object({
  id: seq,
  time,
  method: z.string().min(1).max(16),
  path: text,
  status: z.number().int().min(0).max(999),
  durationMs: z.number().finite().nonnegative(),
  causeSeq: seq.optional(),
  afterSeq: seq.optional(),
  requestBody: z.unknown().optional(),
  responseBody: z.unknown().optional(),
  error: text.optional(),
})

const findingSchema = z.object({
  seq: seq.nullable(),
  severity,
  rule: text,
  title: text.optional(),
  message: text,
  externalCallId: text.optional(),
})

const findings = z.array(findingSchema).max(TRAFFIC_LIMITS.maxFindings)

const fileSchema = z.object({
  format: z.literal(TRAFFIC_FORMAT),
  version: z.literal(TRAFFIC_VERSION),
  exportedAt: text,
  source: text.optional(),
  widgetUrl: text.nullable().optional(),
  messages: z.array(messageSchema).max(TRAFFIC_LIMITS.maxMessages),
  requests: z.array(requestSchema).max(TRAFFIC_LIMITS.maxRequests),
  findings: findings.optional(),
})

/** The inspector's export before the traffic file had a format: messages as `entries`, no requests. */
const legacySchema = z.object({
  exportedAt: text,
  widgetUrl: text.nullable().optional(),
  entries: z.array(messageSchema).max(TRAFFIC_LIMITS.maxMessages),
  findings: findings.optional(),
})

export type TrafficFileResult = { ok: true; file: TrafficFile } | { ok: false; error: string }

/** JSON.parse that drops `__proto__` keys, so a file's names never reach Object.prototype. */
function parseJson(source: string): unknown {
  return JSON.parse(source, (key, value: unknown) => (key === '__proto__' ? undefined : value))
}

function where(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`
  return out === '' ? 'the file' : out
}

function issuesText(error: z.ZodError): string {
  const [first, ...rest] = error.issues
  if (!first) return 'invalid'
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more ${rest.length === 1 ? 'problem' : 'problems'})`
  return `${where(first.path)}: ${first.message}${more}`
}

/** Seqs and ids are unique, so a link, a cause or a finding names one message. */
function duplicate(file: TrafficFile): string | undefined {
  const seqs = new Map<number, number>()
  for (const [index, message] of file.messages.entries()) {
    const first = seqs.get(message.seq)
    if (first !== undefined) return `messages[${index}].seq: ${message.seq} is also the seq of messages[${first}]`
    seqs.set(message.seq, index)
  }
  const ids = new Map<number, number>()
  for (const [index, request] of file.requests.entries()) {
    const first = ids.get(request.id)
    if (first !== undefined) return `requests[${index}].id: ${request.id} is also the id of requests[${first}]`
    ids.set(request.id, index)
  }
  return undefined
}

/**
 * Reads a saved traffic file (this format, or the inspector's earlier export with
 * `entries` and no requests). Never throws: a file it cannot use gets an error that
 * says what is wrong and where, e.g. `messages[3].direction: Invalid option: expected one of "in"|"out"`.
 */
export function parseTrafficFile(source: string): TrafficFileResult {
  const fail = (error: string): TrafficFileResult => ({ ok: false, error: `Not a usable Ringside traffic file: ${error}` })
  if (typeof source !== 'string') return fail('no text')
  if (source.length > TRAFFIC_LIMITS.maxChars) return fail(`it has ${source.length} characters, more than the ${TRAFFIC_LIMITS.maxChars} allowed`)
  let raw: unknown
  try {
    raw = parseJson(source)
  } catch (error) {
    return fail(`it is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('it is not a JSON object')
  const record = raw as Record<string, unknown>
  let file: TrafficFile
  if ('format' in record || !('entries' in record)) {
    if (record.format !== TRAFFIC_FORMAT) return fail(`format: expected "${TRAFFIC_FORMAT}"${'format' in record ? `, got ${JSON.stringify(record.format)?.slice(0, 60)}` : ' (or the inspector\'s earlier export, with "entries")'}`)
    if (record.version !== TRAFFIC_VERSION) return fail(`version: expected ${TRAFFIC_VERSION}, got ${JSON.stringify(record.version)?.slice(0, 20)} (a newer Ringside wrote it?)`)
    const parsed = fileSchema.safeParse(raw)
    if (!parsed.success) return fail(issuesText(parsed.error))
    file = parsed.data as TrafficFile
  } else {
    const parsed = legacySchema.safeParse(raw)
    if (!parsed.success) return fail(issuesText(parsed.error))
    const { entries, ...rest } = parsed.data
    file = { format: TRAFFIC_FORMAT, version: TRAFFIC_VERSION, source: 'harness', ...rest, messages: entries as TrafficMessage[], requests: [] }
  }
  const repeated = duplicate(file)
  if (repeated !== undefined) return fail(repeated)
  // What the inspector holds of a file is bounded as the live log is: each message and body.
  file.messages = file.messages.map((message) => boundMessage(message).kept)
  file.requests = file.requests.map(boundBodies)
  return { ok: true, file }
}

/** A file's JSON text (two-space indented; values JSON cannot hold, such as cycles, are written as text). */
export function stringifyTrafficFile(file: TrafficFile): string {
  return safeJson(file)
}
