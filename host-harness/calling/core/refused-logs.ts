/**
 * The call logs the CRM refused: a CALL_COMPLETED whose update the engagements API
 * answered with an error (an outcome, hs_call_disposition, that is not one of the
 * account's call outcomes; a property it cannot store). The widget hears
 * UPDATE_ENGAGEMENT_FAILED; the person at the harness sees, on the record page beside
 * that call, why its log was not saved and the notes the widget sent, which the CRM
 * does not hold (the update is all or nothing), so typed notes are never silently lost.
 *
 * Kept in this page's memory, per engagement, the newest MAX_REFUSED.
 */
import { create } from 'zustand'
import { keptText } from '../../../shared/traffic/bound.ts'
import { ApiRequestError } from '../../lib/api-client.ts'

export interface RefusedLog {
  engagementId: string
  externalCallId: string
  /** The API's answer, as one sentence. */
  reason: string
  /** hs_call_body as the widget sent it (HTML from the calling app: shown sanitized), when it sent one. */
  notes?: string
  /** hs_call_disposition as the widget sent it. */
  outcome?: string
  at: number
}

export const MAX_REFUSED = 20
/** A widget controls these texts: kept readable, whatever it sends. */
const MAX_TEXT = 10_000

interface RefusedLogs {
  logs: readonly RefusedLog[]
  note(log: RefusedLog): void
  /** The log of an engagement was saved after all (a later CALL_COMPLETED): nothing refused to show. */
  saved(engagementId: string): void
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? keptText(value, MAX_TEXT) : undefined)

export const refusedLogs = create<RefusedLogs>()((set) => ({
  logs: [],
  note: (log) => set((state) => ({ logs: [...state.logs.filter((l) => l.engagementId !== log.engagementId), { ...log, reason: keptText(log.reason, MAX_TEXT) }].slice(-MAX_REFUSED) })),
  saved: (engagementId) => set((state) => (state.logs.some((l) => l.engagementId === engagementId) ? { logs: state.logs.filter((l) => l.engagementId !== engagementId) } : state)),
}))

/**
 * The API's refusal as a person reads it: each refused property with its message (an option
 * list cut off: "no-such-outcome was not one of the allowed options"), and the HTTP status.
 */
export function refusalReason(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return error instanceof Error ? error.message : String(error)
  const details = (error.body?.errors ?? []).slice(0, 5).map((detail) => {
    const property = detail.context?.propertyName?.[0]
    const message = String(detail.message).replace(/: \[[^\]]{40,}\]$/, '')
    return property !== undefined && !message.includes(property) ? `${property}: ${message}` : message
  })
  return `${details.length > 0 ? details.join('; ') : error.message} (HTTP ${error.status})`
}

/** What the widget's CALL_COMPLETED sent that the record page shows with the refusal. */
export function refusedContent(properties: Readonly<Record<string, unknown>>): Pick<RefusedLog, 'notes' | 'outcome'> {
  const notes = text(properties.hs_call_body)
  const outcome = text(properties.hs_call_disposition)
  return { ...(notes !== undefined ? { notes } : {}), ...(outcome !== undefined ? { outcome } : {}) }
}

/** The refused log of an engagement, for its timeline entry (undefined: none). */
export function useRefusedLog(engagementId: string): RefusedLog | undefined {
  return refusedLogs((state) => state.logs.find((l) => l.engagementId === engagementId))
}
