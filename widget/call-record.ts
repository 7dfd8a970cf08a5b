import type {
  CallCompletedData,
  CallEndedData,
  CallerIdMatch,
  DialNumberData,
  EndStatus,
  EngagementProperties,
  IncomingCallData,
  OutgoingCallData,
} from './sdk-port.ts'
import { callOutcomeId, type CallOutcomeKey } from '../shared/crm/call-outcomes.ts'
import { callStatusOf } from '../shared/crm/call-status.ts'

/**
 * One call as the widget tracks it, and the pure functions that turn it into
 * SDK payloads. No XState, no React: the machine and the UI both use these.
 */

export type Direction = 'OUTBOUND' | 'INBOUND'

export type EngagementState =
  | { status: 'none' }
  | { status: 'pending' }
  | { status: 'created'; engagementId: number }
  | { status: 'failed'; message: string }

export type CallerIdState =
  | { status: 'none' }
  | { status: 'pending' }
  | { status: 'matched'; matches: CallerIdMatch[] }
  | { status: 'unmatched'; message: string }

export interface ActiveCall {
  externalCallId: string
  direction: Direction
  fromNumber: string
  toNumber: string
  /** The DIAL_NUMBER payload this call was placed from, if any. */
  dialingContext: DialNumberData | null
  startedAt: number
  answeredAt: number | null
  endedAt: number | null
  endStatus: EndStatus | null
  /** Whether the host was told about this call (outgoingCall/incomingCall). */
  announced: boolean
  engagement: EngagementState
  callerId: CallerIdState
  muted: boolean
  held: boolean
  /** DTMF digits sent during the call. */
  digits: string
  transferredTo: string | null
  notes: string
  disposition: CallOutcomeKey | ''
}

/** What the idle screen shows about the call that was just saved. */
export interface LastCall {
  externalCallId: string
  engagementId: number | null
  title: string
  update: { status: 'none' } | { status: 'pending' } | { status: 'saved' } | { status: 'failed'; message: string }
}

export function newCall(init: {
  direction: Direction
  fromNumber: string
  toNumber: string
  dialingContext: DialNumberData | null
}): ActiveCall {
  return {
    ...init,
    externalCallId: crypto.randomUUID(),
    startedAt: Date.now(),
    answeredAt: null,
    endedAt: null,
    endStatus: null,
    announced: false,
    engagement: { status: 'none' },
    callerId: { status: 'none' },
    muted: false,
    held: false,
    digits: '',
    transferredTo: null,
    notes: '',
    disposition: '',
  }
}

/**
 * A number the line can dial: digits with optional leading +, spaces, dashes,
 * dots and parentheses; 3 to 15 digits (E.164 allows at most 15).
 */
export function isDialable(raw: string): boolean {
  const value = raw.trim()
  if (!/^\+?[0-9 ().-]+$/.test(value)) return false
  const digits = value.replace(/\D/g, '').length
  return digits >= 3 && digits <= 15
}

/** Keeps the leading + and the digits: "+1 (555) 010-0000" → "+15550100000". */
export function normalizeNumber(raw: string): string {
  const value = raw.trim()
  return (value.startsWith('+') ? '+' : '') + value.replace(/\D/g, '')
}

export const DTMF_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const

export function isDtmfKey(key: string): boolean {
  return (DTMF_KEYS as readonly string[]).includes(key)
}

/** The status the widget suggests in wrap-up for how the call ended. */
export function suggestedDisposition(status: EndStatus): CallOutcomeKey | '' {
  switch (status) {
    case 'COMPLETED':
      return 'CONNECTED'
    case 'BUSY':
      return 'BUSY'
    case 'NO_ANSWER':
    case 'MISSED':
      return 'NO_ANSWER'
    default:
      return ''
  }
}

export function durationMs(call: ActiveCall): number {
  if (call.answeredAt === null || call.endedAt === null) return 0
  return Math.max(0, call.endedAt - call.answeredAt)
}

/** "mm:ss" (or "h:mm:ss" past an hour) for a duration in ms. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
  return h > 0 ? `${h}:${mmss}` : mmss
}

/** The name the CRM gave the other party, if it knows one. */
export function partyName(call: ActiveCall): string | null {
  if (call.callerId.status === 'matched') {
    const first = call.callerId.matches[0]
    if (first) return first.callerIdType === 'CONTACT' ? `${first.firstName} ${first.lastName}`.trim() : first.name
  }
  return null
}

export function otherNumber(call: ActiveCall): string {
  return call.direction === 'OUTBOUND' ? call.toNumber : call.fromNumber
}

export function callTitle(call: ActiveCall): string {
  const who = partyName(call) ?? otherNumber(call)
  return call.direction === 'OUTBOUND' ? `Call to ${who}` : `Call from ${who}`
}

export function engagementIdOf(call: ActiveCall): number | null {
  return call.engagement.status === 'created' ? call.engagement.engagementId : null
}

/** All the DIAL_NUMBER fields, flat, as outgoingCall's dialingContext. */
export function dialingContextPayload(d: DialNumberData): Record<string, unknown> {
  const { extra, ...known } = d
  return { ...extra, ...known }
}

export function outgoingCallData(call: ActiveCall): OutgoingCallData {
  return {
    externalCallId: call.externalCallId,
    toNumber: call.toNumber,
    fromNumber: call.fromNumber,
    callStartTime: call.startedAt,
    createEngagement: true,
    ...(call.dialingContext ? { dialingContext: dialingContextPayload(call.dialingContext) } : {}),
  }
}

export function incomingCallData(call: ActiveCall): IncomingCallData {
  return {
    externalCallId: call.externalCallId,
    fromNumber: call.fromNumber,
    toNumber: call.toNumber,
    callStartTime: call.startedAt,
    createEngagement: true,
  }
}

export function callEndedData(call: ActiveCall): CallEndedData {
  return {
    externalCallId: call.externalCallId,
    // The wire type requires a number; 0 stands for "no engagement yet"
    // (creation pending or failed), which is what the host has too.
    engagementId: engagementIdOf(call) ?? 0,
    callEndStatus: call.endStatus ?? 'COMPLETED',
  }
}

/**
 * The call's log for callCompleted. No hs_call_title: the CRM named the call when
 * it created the engagement ("Call to" the record's name), and a property sent
 * here replaces the one it holds; the widget knows no better name.
 */
export function engagementProperties(call: ActiveCall): EngagementProperties {
  const status = call.endStatus ?? 'COMPLETED'
  return {
    hs_timestamp: String(call.startedAt),
    hs_call_body: call.notes.trim(),
    hs_call_status: callStatusOf(status),
    hs_call_duration: String(durationMs(call)),
    ...(call.disposition ? { hs_call_disposition: callOutcomeId(call.disposition) } : {}),
    hs_call_direction: call.direction,
    hs_call_from_number: call.fromNumber,
    hs_call_to_number: call.toNumber,
  }
}

export function callCompletedData(call: ActiveCall): CallCompletedData {
  const engagementId = engagementIdOf(call)
  return {
    externalCallId: call.externalCallId,
    ...(engagementId !== null ? { engagementId } : {}),
    // The widget stays shown after the call, as a softphone does; the SDK's default (absent) hides it.
    hideWidget: false,
    engagementProperties: engagementProperties(call),
  }
}
