/**
 * Caller ID: the contacts (then companies) whose phone or mobile phone is a
 * number, found with the CRM's search API. Whether two numbers are the same
 * is the API's rule (shared/crm/phone.ts), so the host matches exactly the
 * records a search for the number returns.
 */
import type { CallerIdMatch } from '../../../../shared/protocol/index.ts'
import { phoneDigits } from '../../../../shared/crm/phone.ts'
import { objectTypeInfo, recordLabel } from '../../../lib/crm-types.ts'
import type { ApiPort, CallRecord, SimpleObject } from '../ports.ts'

export interface PhoneMatch {
  match: CallerIdMatch
  record: CallRecord
}

const SEARCHES = [
  { objectType: 'contacts', properties: ['firstname', 'lastname', 'email', 'phone', 'mobilephone'], phoneProperties: ['phone', 'mobilephone'] },
  { objectType: 'companies', properties: ['name', 'phone'], phoneProperties: ['phone'] },
] as const

function callerIdMatch(objectType: 'contacts' | 'companies', found: SimpleObject, portalId: number): CallerIdMatch {
  const p = found.properties
  const objectCoordinates = { portalId, objectId: Number(found.id), objectTypeId: objectTypeInfo(objectType).typeId }
  if (objectType === 'contacts') {
    return { callerIdType: 'CONTACT', objectCoordinates, firstName: p.firstname ?? null, lastName: p.lastname ?? null, email: p.email ?? null }
  }
  return { callerIdType: 'COMPANY', objectCoordinates, name: p.name ?? null }
}

/** The records whose number is this one, contacts first, as caller-ID matches. */
export async function matchCaller(api: ApiPort, number: string, portalId: number): Promise<PhoneMatch[]> {
  if (phoneDigits(number).length < 3) return []
  const matches: PhoneMatch[] = []
  for (const search of SEARCHES) {
    const body = await api.post<{ results?: SimpleObject[] }>(`/crm/v3/objects/${search.objectType}/search`, {
      filterGroups: search.phoneProperties.map((propertyName) => ({ filters: [{ propertyName, operator: 'EQ', value: number }] })),
      properties: search.properties,
      limit: 10,
    })
    for (const found of body.results ?? []) {
      const label = recordLabel(search.objectType, found.properties)
      matches.push({
        match: callerIdMatch(search.objectType, found, portalId),
        record: { objectType: search.objectType, objectId: found.id, ...(label ? { label } : {}) },
      })
    }
  }
  return matches
}
