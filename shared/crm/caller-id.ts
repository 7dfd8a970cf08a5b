/**
 * Caller ID: which records "are" a phone number. The contacts whose phone or
 * mobile phone is the number, then the companies whose phone is, found with
 * the CRM's search (EQ on a phone property compares numbers, see phone.ts),
 * at most 10 of each, and how each found record is described as a caller-ID
 * match (the SDK's CALLER_ID_MATCH_SUCCEEDED data and the inbound-call API's
 * `callerIdMatches` share the shape). The host matches an incoming or dialled
 * number through the search API with these requests; the API's inbound-call
 * endpoint runs the same searches in process.
 */
import { OBJECT_TYPES } from './object-types.ts'
import { phoneDigits } from './phone.ts'

export interface CallerIdSearch {
  objectType: 'contacts' | 'companies'
  /** Properties a match needs (its name, e-mail, numbers). */
  properties: readonly string[]
  /** Properties whose number is compared. */
  phoneProperties: readonly string[]
}

/** The searches, in the order their matches are listed: contacts first. */
export const CALLER_ID_SEARCHES: readonly CallerIdSearch[] = [
  { objectType: 'contacts', properties: ['firstname', 'lastname', 'email', 'phone', 'mobilephone'], phoneProperties: ['phone', 'mobilephone'] },
  { objectType: 'companies', properties: ['name', 'phone'], phoneProperties: ['phone'] },
]

/** Matches per object type. */
export const CALLER_ID_LIMIT = 10

/** Whether a number is too short to look up (fewer than 3 digits match nothing). */
export function tooShortForCallerId(number: string): boolean {
  return phoneDigits(number).length < 3
}

/** The search-API body that finds the records of one search for `number`. */
export function callerIdSearchBody(search: CallerIdSearch, number: string) {
  return {
    filterGroups: search.phoneProperties.map((propertyName) => ({ filters: [{ propertyName, operator: 'EQ', value: number }] })),
    properties: [...search.properties],
    limit: CALLER_ID_LIMIT,
  }
}

/** A found record as a caller-ID match; a property without a value is null. */
export function callerIdMatch(
  objectType: CallerIdSearch['objectType'],
  found: { id: string; properties: Readonly<Record<string, string | null | undefined>> },
  portalId: number,
) {
  const p = found.properties
  const objectCoordinates = { portalId, objectId: Number(found.id), objectTypeId: OBJECT_TYPES[objectType].typeId }
  if (objectType === 'contacts') {
    return { callerIdType: 'CONTACT' as const, objectCoordinates, firstName: p.firstname ?? null, lastName: p.lastname ?? null, email: p.email ?? null }
  }
  return { callerIdType: 'COMPANY' as const, objectCoordinates, name: p.name ?? null }
}
