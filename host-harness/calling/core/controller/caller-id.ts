/**
 * Caller ID in the host: the records whose number is this one, found with the
 * CRM's search API. Which records match and how a match is described is the
 * one rule in shared/crm/caller-id.ts (the API's inbound-call endpoint uses it
 * too), so the host matches exactly the records a search for the number returns.
 */
import type { CallerIdMatch } from '../../../../shared/protocol/index.ts'
import { CALLER_ID_SEARCHES, callerIdMatch, callerIdSearchBody, tooShortForCallerId } from '../../../../shared/crm/caller-id.ts'
import { recordLabel } from '../../../lib/crm-types.ts'
import type { ApiPort, CallRecord, SimpleObject } from '../ports.ts'

export interface PhoneMatch {
  match: CallerIdMatch
  record: CallRecord
}

/** The records whose number is this one, contacts first, as caller-ID matches. */
export async function matchCaller(api: ApiPort, number: string, portalId: number): Promise<PhoneMatch[]> {
  if (tooShortForCallerId(number)) return []
  const matches: PhoneMatch[] = []
  for (const search of CALLER_ID_SEARCHES) {
    const body = await api.post<{ results?: SimpleObject[] }>(`/crm/v3/objects/${search.objectType}/search`, callerIdSearchBody(search, number))
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
