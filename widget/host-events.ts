import type { CallerIdMatch, DialNumberData, HostEvent, ReadyData } from './sdk-port.ts'
import { isRecord } from '../shared/crm/guards.ts'

/**
 * Turns the payload of each host handler into a call-machine event, after
 * checking it. The SDK checks the envelope (origin, source, type); these
 * functions check the payload, because the machine trusts its events.
 * A payload that cannot be used gives `{ ok: false, reason }`: the bridge logs
 * it and reports it on screen; it never throws.
 */

export type Parsed = { ok: true; event: HostEvent } | { ok: false; reason: string }

type Obj = Record<string, unknown>

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined)
const idLike = (v: unknown): string | number | undefined => str(v) ?? num(v)

/** Copies the keys whose value is defined, so optional fields stay absent. */
function defined<T extends Obj>(o: T): Partial<T> {
  const out: Partial<T> = {}
  for (const key of Object.keys(o) as Array<keyof T>) if (o[key] !== undefined) out[key] = o[key]
  return out
}

const ok = (event: HostEvent): Parsed => ({ ok: true, event })
const bad = (reason: string): Parsed => ({ ok: false, reason })

/** Text for the screen: the host's `error.message` (or `message`), trimmed. */
function errorMessage(data: unknown, fallback: string): string {
  const raw = isRecord(data) ? (isRecord(data.error) ? str(data.error.message) : undefined) ?? str(data.message) : undefined
  const text = raw?.trim()
  return text ? text.slice(0, 300) : fallback
}

export function parseReady(data: unknown): Parsed {
  const d = isRecord(data) ? data : {}
  const ready: ReadyData = defined({
    engagementId: num(d.engagementId),
    portalId: num(d.portalId),
    userId: num(d.userId),
    ownerId: idLike(d.ownerId),
    iframeLocation: str(d.iframeLocation),
  })
  return ok({ type: 'host.ready', ...ready })
}

const KNOWN_DIAL_KEYS = new Set([
  'phoneNumber',
  'ownerId',
  'subjectId',
  'objectId',
  'objectType',
  'portalId',
  'countryCode',
  'calleeInfo',
  'startTimestamp',
  'toPhoneNumberSrc',
])

/**
 * DIAL_NUMBER. Tolerates what real hosts send: `objectId`/`subjectId` 0, no
 * `objectType` (ticket calls), the legacy `phone_number` duplicate.
 */
export function parseDialNumber(data: unknown): Parsed {
  if (!isRecord(data)) return bad('DIAL_NUMBER without a payload')
  const phoneNumber = (str(data.phoneNumber) ?? str(data.phone_number))?.trim()
  if (!phoneNumber) return bad('DIAL_NUMBER without a phoneNumber')
  const callee = isRecord(data.calleeInfo) ? data.calleeInfo : undefined
  const calleeId = idLike(callee?.calleeId)
  const calleeObjectTypeId = str(callee?.calleeObjectTypeId)
  const extra: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(data)) {
    if (KNOWN_DIAL_KEYS.has(key)) continue
    const primitive = str(value) ?? num(value) ?? bool(value)
    if (primitive !== undefined) extra[key] = primitive
  }
  const parsed: DialNumberData = {
    phoneNumber: phoneNumber.slice(0, 40),
    ...defined({
      ownerId: idLike(data.ownerId),
      subjectId: idLike(data.subjectId),
      objectId: idLike(data.objectId),
      objectType: str(data.objectType),
      portalId: num(data.portalId),
      countryCode: str(data.countryCode),
      calleeInfo: calleeId !== undefined && calleeObjectTypeId !== undefined ? { calleeId, calleeObjectTypeId } : undefined,
      startTimestamp: num(data.startTimestamp),
      toPhoneNumberSrc: str(data.toPhoneNumberSrc),
      extra: Object.keys(extra).length > 0 ? extra : undefined,
    }),
  }
  return ok({ type: 'host.dialNumber', data: parsed })
}

export function parseEngagementCreated(data: unknown): Parsed {
  const engagementId = isRecord(data) ? num(data.engagementId) : undefined
  if (engagementId === undefined) return bad('CREATE_ENGAGEMENT_SUCCEEDED without a numeric engagementId')
  return ok({ type: 'host.engagementCreated', engagementId })
}

export function parseEngagementCreateFailed(data: unknown): Parsed {
  return ok({ type: 'host.engagementCreateFailed', message: errorMessage(data, 'The host could not create the call engagement.') })
}

export function parseEngagementUpdated(data: unknown): Parsed {
  const engagementId = isRecord(data) ? num(data.engagementId) : undefined
  return ok({ type: 'host.engagementUpdated', engagementId: engagementId ?? null })
}

export function parseEngagementUpdateFailed(data: unknown): Parsed {
  return ok({ type: 'host.engagementUpdateFailed', message: errorMessage(data, 'The host could not save the call.') })
}

function parseMatch(m: unknown): CallerIdMatch | null {
  if (!isRecord(m)) return null
  if (m.callerIdType === 'CONTACT') {
    const firstName = str(m.firstName)?.trim() ?? ''
    const lastName = str(m.lastName)?.trim() ?? ''
    if (!firstName && !lastName) return null
    return { callerIdType: 'CONTACT', firstName, lastName, ...defined({ email: str(m.email) }) }
  }
  if (m.callerIdType === 'COMPANY') {
    const name = str(m.name)?.trim()
    return name ? { callerIdType: 'COMPANY', name } : null
  }
  return null
}

export function parseCallerIdMatched(data: unknown): Parsed {
  const list = isRecord(data) && Array.isArray(data.callerIdMatches) ? data.callerIdMatches : null
  if (!list) return bad('CALLER_ID_MATCH_SUCCEEDED without a callerIdMatches list')
  const matches = list.map(parseMatch).filter((m): m is CallerIdMatch => m !== null)
  return ok({ type: 'host.callerIdMatched', matches })
}

export function parseCallerIdMatchFailed(data: unknown): Parsed {
  return ok({ type: 'host.callerIdMatchFailed', message: errorMessage(data, 'No CRM record matches this caller.') })
}

export function parseVisibilityChanged(data: unknown): Parsed {
  const isMinimized = isRecord(data) ? bool(data.isMinimized) : undefined
  const isHidden = isRecord(data) ? bool(data.isHidden) : undefined
  if (isMinimized === undefined && isHidden === undefined) return bad('VISIBILITY_CHANGED without isMinimized/isHidden')
  return ok({ type: 'host.visibilityChanged', isMinimized: isMinimized ?? false, isHidden: isHidden ?? false })
}

/** Failure replies the widget only reports: navigate, finalize, set URL, … */
export function parseFailureNotice(what: string, data: unknown): Parsed {
  return ok({ type: 'host.notice', message: `${what}: ${errorMessage(data, 'failed')}` })
}
