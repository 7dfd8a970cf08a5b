import { formatDuration } from './call-record.ts'
import type { CallSnapshot } from './call-context.ts'

/** The one-line softphone status for the header, e.g. "In call 00:12". */
export function statusText(snapshot: CallSnapshot, now: number): string {
  const { call, available } = snapshot.context
  if (snapshot.matches('signedOut') || snapshot.matches('boot')) return 'Logged out'
  if (snapshot.matches({ signedIn: 'idle' })) return available ? 'Ready' : 'Unavailable'
  if (snapshot.matches({ signedIn: { outgoing: 'dialing' } })) return 'Dialing…'
  if (snapshot.matches({ signedIn: { outgoing: 'ringing' } })) return 'Ringing…'
  if (snapshot.matches({ signedIn: 'incoming' })) return 'Incoming call…'
  if (snapshot.matches({ signedIn: 'answered' })) {
    const elapsed = formatDuration(call?.answeredAt != null ? now - call.answeredAt : 0)
    return call?.held ? `On hold ${elapsed}` : `In call ${elapsed}`
  }
  if (snapshot.matches({ signedIn: 'ended' })) return 'Call ended — wrap up'
  if (snapshot.matches({ signedIn: 'completed' })) return call?.announced ? 'Saving call…' : 'Call finished'
  return ''
}

export const END_STATUS_LABELS = {
  COMPLETED: 'Completed',
  FAILED: 'Line failure',
  CANCELED: 'Canceled',
  BUSY: 'Busy',
  NO_ANSWER: 'No answer',
  REJECTED: 'Declined',
  MISSED: 'Missed',
} as const
