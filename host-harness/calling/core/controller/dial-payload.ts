/**
 * The Call button's DIAL_NUMBER: the payload the real CRM sends for a call
 * placed from a record, and the record the call is then made from.
 */
import type { DialNumberPayload } from '../../../../shared/protocol/index.ts'
import { phoneCountry } from '../../../../shared/crm/phone.ts'
import { objectTypeInfo, recordLabel, recordTypeOf } from '../../../lib/crm-types.ts'
import { positiveId, type CallRecord, type HarnessAccount } from '../ports.ts'

export interface StartCallInput {
  /** contacts / companies / deals / tickets, or CONTACT / COMPANY, or a type id (0-1). */
  objectType: string
  objectId: string | number
  phoneNumber: string
  /** Name of the phone property the number came from (toPhoneNumberSrc). */
  phoneProperty: string
  /** The record as the page holds it (used for the label). */
  record?: { id?: string; properties?: Record<string, string | null | undefined> } | null
}

export type DialRequest = { ok: true; payload: DialNumberPayload; record: CallRecord } | { ok: false; reason: string }

/** DIAL_NUMBER for a Call button press, or why there is nothing to dial. */
export function dialRequest(input: StartCallInput, account: HarnessAccount, now: number): DialRequest {
  const type = recordTypeOf(input.objectType)
  const objectId = positiveId(input.objectId)
  if (!type || objectId === undefined) return { ok: false, reason: `Cannot call from ${String(input.objectType)} ${String(input.objectId)}.` }
  const phoneNumber = typeof input.phoneNumber === 'string' ? input.phoneNumber.trim() : ''
  if (phoneNumber === '') return { ok: false, reason: 'This record has no phone number to call.' }
  const info = objectTypeInfo(type)
  // Calls from deals and tickets carry objectId 0 and no objectType, as the real host does (SDK #228).
  const isPerson = type === 'contacts' || type === 'companies'
  const payload: DialNumberPayload = {
    phoneNumber,
    ownerId: account.ownerId,
    subjectId: objectId,
    objectId: isPerson ? objectId : 0,
    ...(isPerson ? { objectType: info.upper } : {}),
    portalId: account.portalId,
    countryCode: phoneCountry(phoneNumber),
    ...(isPerson ? { calleeInfo: { calleeId: objectId, calleeObjectTypeId: info.typeId } } : {}),
    startTimestamp: now,
    toPhoneNumberSrc: input.phoneProperty,
  }
  const label = recordLabel(type, input.record?.properties ?? {})
  return { ok: true, payload, record: { objectType: type, objectId: String(objectId), ...(label ? { label } : {}) } }
}
