/**
 * The call's engagement as the API holds it (read back by the controller after
 * every change): one line shown by the dock and the inspector, so the views
 * cannot disagree with the timeline, which reads the same API.
 */
import type { CallInfo } from './calling-types.ts'

/** "4.2 s" / "1 min 5 s" for a duration in ms (as hs_call_duration holds it). */
export function formatDuration(ms: string | null | undefined): string | null {
  if (ms === null || ms === undefined || ms.trim() === '') return null
  const n = Number(ms)
  if (!Number.isFinite(n) || n < 0) return ms
  if (n < 60_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} s`
  const minutes = Math.floor(n / 60_000)
  return `${minutes} min ${Math.round((n % 60_000) / 1000)} s`
}

const NOTES_SHOWN = 60

/** The engagement line's text, or null when the call has no engagement. */
export function callLogText(call: CallInfo): string | null {
  const engagement = call.engagement
  if (!engagement) return call.engagementId !== undefined ? `Call log: engagement ${call.engagementId} (reading it from the API…)` : null
  if (engagement.error) return `Call log: engagement ${engagement.id} could not be read from the API: ${engagement.error}`
  const p = engagement.properties
  const parts = [`Call log (API): engagement ${engagement.id}`, p.hs_call_status ?? 'no status']
  const duration = formatDuration(p.hs_call_duration)
  if (duration) parts.push(duration)
  const body = p.hs_call_body?.trim()
  if (body) parts.push(`notes: “${body.length > NOTES_SHOWN ? `${body.slice(0, NOTES_SHOWN)}…` : body}”`)
  return parts.join(' · ')
}

export function CallLogLine({ call, className }: { call: CallInfo; className?: string }) {
  const text = callLogText(call)
  if (text === null) return null
  return (
    <p className={className} aria-label="Call log">
      {text}
    </p>
  )
}
