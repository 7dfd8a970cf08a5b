/**
 * Merging two records and erasing a contact, as the real API does them:
 *
 * - POST /crm/v3/objects/{contacts|companies|deals|tickets}/merge
 *   `{primaryObjectId, objectIdToMerge}` → 200 SimplePublicObject. As HubSpot
 *   merges since its "Updated merge functionality for contacts and companies"
 *   change (https://developers.hubspot.com/changelog/updated-merge-functionality-for-contacts-and-companies),
 *   the two records are replaced by a new record with a new id: the primary's
 *   values win, the other's fill the gaps, both records' associations move to
 *   it (a second "Primary" association of one type is dropped, the primary's
 *   kept), `hs_merged_object_ids` lists the replaced ids, and a GET of either
 *   old id answers with the new record. A merged contact's e-mail address
 *   joins `hs_additional_emails`.
 * - POST /crm/v3/objects/contacts/gdpr-delete `{objectId, idProperty?}` → 204:
 *   the contact is erased for good (not to the recycle bin), with its
 *   associations; `idProperty` may be `email` or another unique property.
 *
 * Both run in the request's transaction: when any step fails, nothing of the
 * merge or the deletion is left behind.
 */
import { z } from 'zod'
import { notFound, validationError } from '../http/errors.ts'
import { json, noContent, parseInput } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { associationTypeFrom } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, type BuiltinObjectType as ObjectType, type ObjectType as AnyObjectType } from './object-types.ts'
import { checkIdProperty, findRecord } from './object-inputs.ts'
import { toPublicObject } from './serialize.ts'
import type { CrmRecord } from './crm-record.ts'
import type { ObjectStore } from './object-store.ts'

/** The object types the official client merges. */
export const MERGEABLE_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const satisfies readonly ObjectType[]

const idValue = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String)
const mergeSchema = z.object({ primaryObjectId: idValue, objectIdToMerge: idValue })
const gdprSchema = z.object({ objectId: idValue, idProperty: z.string().max(200).optional() })

/** Properties the CRM maintains itself: never carried from the old records as they are. */
const SYSTEM = new Set(['hs_object_id', 'createdate', 'hs_lastmodifieddate', 'hs_merged_object_ids', 'hs_additional_emails', 'hs_pinned_engagement_id'])

const semicolonList = (...values: Array<string | undefined>) => [...new Set(values.flatMap((v) => (v ? v.split(';') : [])).filter((v) => v !== ''))]

function live(objects: ObjectStore, objectType: ObjectType, id: string): CrmRecord {
  const record = objects.get(objectType, id) ?? objects.getMerged(objectType, id)
  if (!record) throw notFound(`Object not found. objectId are usually numeric. (${OBJECT_TYPES[objectType].upper} ${id})`)
  return record
}

/** Merge `mergeId` into `primaryId`: both are replaced by a new record, which is returned. */
export function mergeRecords(objects: ObjectStore, objectType: ObjectType, primaryId: string, mergeId: string, now: number): CrmRecord {
  const primary = live(objects, objectType, primaryId)
  const secondary = live(objects, objectType, mergeId)
  if (primary.id === secondary.id) {
    throw validationError(`Cannot merge ${OBJECT_TYPES[objectType].singular} ${primary.id} into itself: primaryObjectId and objectIdToMerge must name two different records.`)
  }

  const values: Record<string, string> = {}
  for (const record of [secondary, primary]) {
    for (const [name, value] of Object.entries(record.properties)) if (!SYSTEM.has(name)) values[name] = value
  }
  const system: Record<string, string> = {
    hs_merged_object_ids: semicolonList(primary.properties.hs_merged_object_ids, secondary.properties.hs_merged_object_ids, primary.id, secondary.id).join(';'),
  }
  if (objectType === 'contacts') {
    const others = semicolonList(primary.properties.hs_additional_emails, secondary.properties.email, secondary.properties.hs_additional_emails).filter((e) => e !== values.email)
    if (others.length > 0) system.hs_additional_emails = others.join(';')
  }
  const pin = primary.properties.hs_pinned_engagement_id ?? secondary.properties.hs_pinned_engagement_id

  // The associations of both, the primary's first; read before the old records go.
  const links: Array<{ toType: AnyObjectType; toId: string; typeId: number; fromPrimary: boolean }> = []
  for (const [record, fromPrimary] of [[primary, true], [secondary, false]] as const) {
    for (const toType of [...OBJECT_TYPE_NAMES, ...objects.customTypes.liveTypes()]) {
      for (const a of objects.associations(objectType, record.id, toType)) {
        if (toType === objectType && (a.id === primary.id || a.id === secondary.id)) continue
        for (const typeId of a.typeIds) links.push({ toType, toId: a.id, typeId, fromPrimary })
      }
    }
  }

  // Out with the old records first: the merged contact takes over the primary's unique e-mail address.
  objects.purge(objectType, primary.id)
  objects.purge(objectType, secondary.id)
  const created = objects.create(objectType, values, now, 'API')
  const primaryLabelled = new Set<number>()
  for (const link of links) {
    const type = associationTypeFrom(objectType, link.typeId)
    if (type?.label === 'Primary') {
      // One primary association of a kind: the primary record's wins, the other's is dropped.
      if (!link.fromPrimary && primaryLabelled.has(link.typeId)) continue
      primaryLabelled.add(link.typeId)
    }
    objects.associate(objectType, created.id, link.toType, link.toId, link.typeId)
  }
  if (pin !== undefined && objects.isAssociated(objectType, created.id, 'calls', pin)) {
    objects.setProperties(objectType, created.id, { hs_pinned_engagement_id: pin }, now, 'API')
  }
  const merged = objects.setSystemProperties(objectType, created.id, system, now, 'MERGE')
  objects.recordMerge(objectType, [primary.id, secondary.id], merged.id)
  return merged
}

export function mergeRoutes(deps: ServiceDeps): Route[] {
  const { objects } = deps
  const routes: Route[] = MERGEABLE_TYPES.flatMap((objectType) => {
    const info = OBJECT_TYPES[objectType]
    return [`/crm/v3/objects/${objectType}/merge`, `/crm/v3/objects/${info.typeId}/merge`].map(
      (path): Route => ({
        method: 'POST',
        path,
        auth: { kind: 'bearer', scopes: [info.writeScope] },
        handler(ctx) {
          const input = parseInput(mergeSchema, ctx.jsonBody())
          const merged = mergeRecords(objects, objectType, input.primaryObjectId, input.objectIdToMerge, ctx.now)
          return json(toPublicObject(objectType, merged, { all: true }))
        },
      }),
    )
  })
  for (const path of ['/crm/v3/objects/contacts/gdpr-delete', `/crm/v3/objects/${OBJECT_TYPES.contacts.typeId}/gdpr-delete`]) {
    routes.push({
      method: 'POST',
      path,
      auth: { kind: 'bearer', scopes: [OBJECT_TYPES.contacts.writeScope] },
      handler(ctx) {
        const input = parseInput(gdprSchema, ctx.jsonBody())
        const idProperty = checkIdProperty(objects, 'contacts', input.idProperty)
        // A contact in the recycle bin can be erased too.
        const record = findRecord(objects, 'contacts', input.objectId, idProperty, false) ?? findRecord(objects, 'contacts', input.objectId, idProperty, true)
        if (!record) throw notFound(`Object not found. objectId are usually numeric. (CONTACT ${input.objectId})`)
        objects.purge('contacts', record.id)
        return noContent()
      },
    })
  }
  return routes
}
