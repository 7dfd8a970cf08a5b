/**
 * The ladder as shown: the rows of every call or of one (selectCall), their offsets, the
 * pauses drawn as gaps, and each arrow's text alternative; and the ladder's words (durations,
 * clipped labels).
 */
import type { LadderArrow, LadderModel, LadderRow, LaneId } from './ladder-model.ts'

const MAX_LABEL = 120

export const clip = (text: string, max = MAX_LABEL) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export const formatSeconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`)
export { formatSeconds as formatDuration }

const LANE_LABEL: Readonly<Record<LaneId, string>> = { widget: 'widget', host: 'host', api: 'CRM API' }

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
  if (a.state === 'not-sdk') parts.push('not a calling-SDK message (dropped, as the SDK drops it)')
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

/** The arrow's drawn label: with its frame where the widget runs in two (`SYNC [remote]`). */
export function drawnLabel(a: Pick<LadderArrow, 'label' | 'frame'>): string {
  return a.frame === undefined ? a.label : `${a.label} [${a.frame}]`
}

/**
 * The model with only one call's rows (`callKey`), or all rows (undefined); offsets, gaps and
 * text alternatives are computed for the rows shown.
 */
export function selectCall(model: LadderModel, callKey: string | undefined): LadderModel {
  return present(model, callKey, false)
}

/** selectCall; `fresh`: the model's rows are new (buildLadder's own), so they are completed in place, not copied. */
export function present(model: LadderModel, callKey: string | undefined, fresh: boolean): LadderModel {
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
