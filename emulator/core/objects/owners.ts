/**
 * The owners API (https://developers.hubspot.com/docs/guides/api/crm/owners):
 * the account's users as owners, read-only.
 *
 * - GET /crm/v3/owners            → 200 `{results: PublicOwner[], paging?}`;
 *   `email` (exact, any case), `limit` 1–500 (default 100), `after` (the
 *   cursor of `paging.next.after`), `archived=true` (only deactivated users).
 * - GET /crm/v3/owners/{ownerId}  → 200 PublicOwner; `idProperty=id|userId`
 *   (default id), `archived`.
 *
 * The owners are the account's users, listed once in shared/crm/account.ts
 * (OWNERS); `hubspot_owner_id` on every object type is checked against them.
 * A deactivated user keeps its owner id but loses `userId` (the real API then
 * gives the user id only as `userIdIncludingInactive`).
 */
import { OWNERS, type AccountOwner } from '../../../shared/crm/account.ts'
import { notFound, validationError } from '../http/errors.ts'
import { boolParam, intParam, json } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'

/** Largest `limit` of a page of owners (the real API's). */
export const OWNERS_LIMIT = 500

/** When the account's users were created: fixed, as the users exist before any data. */
const CREATED_AT = '2025-01-06T09:00:00.000Z'

/** An owner as the owners API returns it (PublicOwner). */
export function toPublicOwner(owner: AccountOwner) {
  return {
    id: owner.id,
    email: owner.email,
    type: 'PERSON' as const,
    firstName: owner.firstName,
    lastName: owner.lastName,
    ...(!owner.archived && { userId: owner.userId }),
    userIdIncludingInactive: owner.userId,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    archived: owner.archived,
    teams: [{ id: owner.team.id, name: owner.team.name, primary: true }],
  }
}

export function ownerRoutes(_deps: ServiceDeps): Route[] {
  const auth = { kind: 'bearer', scopes: ['crm.objects.owners.read'] } as const
  return [
    {
      method: 'GET',
      path: '/crm/v3/owners',
      auth,
      handler(ctx) {
        const limit = intParam(ctx.query, 'limit', 100, 1, OWNERS_LIMIT)
        const archived = boolParam(ctx.query, 'archived', false)
        const email = ctx.query.get('email')?.trim().toLowerCase()
        const after = ctx.query.get('after')
        if (after !== null && after !== '' && !/^\d{1,15}$/.test(after)) {
          throw validationError(`Query parameter 'after' must be the cursor from paging.next.after, got '${after}'.`)
        }
        const matching = OWNERS.filter(
          (o) => o.archived === archived && (!email || o.email === email) && (after === null || after === '' || Number(o.id) > Number(after)),
        )
        const page = matching.slice(0, limit)
        const last = page[page.length - 1]
        return json({
          results: page.map(toPublicOwner),
          ...(matching.length > limit && last && { paging: { next: { after: last.id, link: `${ctx.url.origin}/crm/v3/owners?after=${last.id}` } } }),
        })
      },
    },
    {
      method: 'GET',
      path: '/crm/v3/owners/:ownerId',
      auth,
      handler(ctx) {
        const idProperty = ctx.query.get('idProperty') ?? 'id'
        if (idProperty !== 'id' && idProperty !== 'userId') {
          throw validationError(`idProperty must be one of [id, userId], got '${idProperty}'.`)
        }
        const archived = boolParam(ctx.query, 'archived', false)
        const raw = ctx.params.ownerId!
        if (!/^\d{1,10}$/.test(raw)) throw validationError(`Unable to parse ownerId '${raw}': it must be a numeric id.`, { context: { ownerId: ['Must be a valid ID'] } })
        const owner = OWNERS.find((o) => o.archived === archived && (idProperty === 'id' ? o.id === raw : String(o.userId) === raw))
        if (!owner) throw notFound(`No ${archived ? 'archived ' : ''}owner with ${idProperty} ${raw} was found.`)
        return json(toPublicOwner(owner))
      },
    },
  ]
}
