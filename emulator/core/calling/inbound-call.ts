/**
 * POST /crm/v3/extensions/calling/inbound-call: a calling app tells the CRM
 * about an inbound call that reached it (CompletedThirdPartyCallRequest), and
 * gets back the caller-ID matches of the caller's number
 * (`{callerIdMatches: [ContactCallerId | CompanyCallerId]}`, 200), see
 * https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/inbound/create-inbound-call.
 * OAuth, with a contacts write scope.
 *
 * With `createEngagement: true` the CRM logs the call as a call engagement:
 * hs_call_direction INBOUND, hs_call_status the finalCallStatus (one of the
 * thirteen in shared/crm/call-status.ts), the numbers, hs_call_external_id
 * (externalCallId), hs_call_app_id and hs_call_source INTEGRATIONS_PLATFORM,
 * hs_timestamp (callStartedTimestamp, else now), hs_call_duration
 * (durationSeconds, in ms); then `engagementProperties` on top, checked like
 * any property write. The call is associated with every matched contact and
 * company, so it shows on their timelines (the emulator's reading of "the
 * CRM logs the call against the caller"). The answer carries only the
 * matches, as the real one does.
 */
import { z } from 'zod'
import { ACCOUNT } from '../http/auth.ts'
import { CALLER_ID_SEARCHES, callerIdMatch, callerIdSearchBody, tooShortForCallerId } from '../../../shared/crm/caller-id.ts'
import { CALL_STATUSES } from '../../../shared/crm/call-status.ts'
import { defaultAssociationType } from '../../../shared/crm/association-types.ts'
import { boundedArray, json, ownRecord, parseInput } from '../http/http.ts'
import { runSearch } from '../objects/search.ts'
import { parseSearchRequest } from '../objects/search-request.ts'
import type { AssociationInput } from '../objects/association-rows.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { validationError } from '../http/errors.ts'

const PHONE_NUMBER_TYPES = [
  'FIXED_LINE',
  'FIXED_LINE_OR_MOBILE',
  'MOBILE',
  'PAGER',
  'PERSONAL_NUMBER',
  'PREMIUM_RATE',
  'SHARED_COST',
  'TOLL_FREE',
  'UAN',
  'UNKNOWN',
  'VOICEMAIL',
  'VOIP',
] as const

/** FormattedPhoneNumber: an E.164 number (+, then 2 to 15 digits). */
const formattedPhoneNumber = z.object({
  e164Number: z.string().regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 number such as +16175550101'),
  extension: z.string().max(40).optional(),
  phoneNumberType: z.enum(PHONE_NUMBER_TYPES),
})

const requestSchema = z.object({
  createEngagement: z.boolean(),
  engagementProperties: ownRecord(z.string()),
  externalCallId: z.string().min(1).max(1000),
  finalCallStatus: z.enum(CALL_STATUSES),
  fromNumber: formattedPhoneNumber,
  toNumber: formattedPhoneNumber,
  potentialRecipientUserIds: boundedArray(z.number().int(), 1000),
  callStartedTimestamp: z.iso.datetime({ offset: true }).optional(),
  durationSeconds: z.number().int().nonnegative().optional(),
  userId: z.number().int().optional(),
})

/** A number as the call's properties hold it: E.164, with the extension if any. */
const written = (n: z.infer<typeof formattedPhoneNumber>) => (n.extension ? `${n.e164Number} ext. ${n.extension}` : n.e164Number)

/** The match without fields the record has no value for (the API leaves them out). */
function withoutNulls<T extends object>(match: T): T {
  return Object.fromEntries(Object.entries(match).filter(([, v]) => v !== null)) as T
}

export function inboundCallRoutes(deps: ServiceDeps): Route[] {
  /** Run the caller-ID searches for `number` over the store, exactly as the search API would. */
  const matchesOf = (number: string) => {
    if (tooShortForCallerId(number)) return []
    return CALLER_ID_SEARCHES.flatMap((search) => {
      const request = parseSearchRequest(search.objectType, callerIdSearchBody(search, number), (name) => deps.objects.definition(search.objectType, name))
      return runSearch(deps.objects, search.objectType, request).page.map((record) => ({ objectType: search.objectType, record }))
    })
  }

  return [
    {
      method: 'POST',
      path: '/crm/v3/extensions/calling/inbound-call',
      auth: { kind: 'bearer', scopes: ['crm.objects.contacts.write'] },
      handler(ctx) {
        const input = parseInput(requestSchema, ctx.jsonBody())
        const matches = matchesOf(input.fromNumber.e164Number)
        if (input.createEngagement) {
          const appId = ctx.principal.kind === 'oauth' ? ctx.principal.appId : ACCOUNT.appId
          const startedAt = input.callStartedTimestamp !== undefined ? Date.parse(input.callStartedTimestamp) : ctx.now
          // No prototype: an engagement property named __proto__ is refused like any unknown name.
          const properties: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, {
            hs_timestamp: startedAt,
            hs_call_direction: 'INBOUND',
            hs_call_status: input.finalCallStatus,
            hs_call_from_number: written(input.fromNumber),
            hs_call_to_number: written(input.toNumber),
            hs_call_external_id: input.externalCallId,
            hs_call_app_id: String(appId),
            hs_call_source: 'INTEGRATIONS_PLATFORM',
            ...(input.durationSeconds !== undefined && { hs_call_duration: String(input.durationSeconds * 1000) }),
          })
          for (const [name, value] of Object.entries(input.engagementProperties)) properties[name] = value
          const associations: AssociationInput[] = matches.map(({ objectType, record }) => {
            const type = defaultAssociationType('calls', objectType)
            if (!type) throw validationError(`No association type from calls to ${objectType}.`)
            return { to: { id: record.id }, types: [{ associationCategory: type.category, associationTypeId: type.typeId }] }
          })
          deps.objects.create('calls', properties, ctx.now, 'INTEGRATION', associations)
        }
        return json({ callerIdMatches: matches.map(({ objectType, record }) => withoutNulls(callerIdMatch(objectType, record, ACCOUNT.hubId))) })
      },
    },
  ]
}
