/**
 * What the objects API reads from a request: the bodies (with the real
 * API's batch and list limits), the query's property selection, an
 * `idProperty` and the record it names, a cursor, association types and
 * target types; and the auth of a type's routes.
 */
import { z } from 'zod'
import { ApiError, notFound, validationError } from '../http/errors.ts'
import { boundedArray, listParam, own, ownRecord } from '../http/http.ts'
import type { RouteContext } from '../http/route.ts'
import { v3AssociationType } from './associations-v3.ts'
import { scopesOf, upperName, type BuiltinObjectType, type ObjectType } from './object-types.ts'
import type { PropertySelection } from './serialize.ts'
import type { AssociationInput } from './association-rows.ts'
import type { CrmRecord } from './crm-record.ts'
import type { ObjectStore } from './object-store.ts'

/** Most inputs one batch request may carry (the real API's limit). */
export const BATCH_LIMIT = 100
/** Largest `limit` of a list page. */
export const LIST_LIMIT = 100

const idValue = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String)
const propertyNames = boundedArray(z.string().max(200), 1000)
const propertyValues = ownRecord(z.unknown())

const associationSchema = z.object({
  to: z.object({ id: idValue }),
  types: z
    .array(
      z.object({
        associationCategory: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED', 'WORK']),
        associationTypeId: z.number().int(),
      }),
    )
    .min(1)
    .max(10),
})

export const createSchema = z.object({
  properties: propertyValues,
  associations: boundedArray(associationSchema, BATCH_LIMIT).optional(),
  objectWriteTraceId: z.string().optional(),
})
export const updateSchema = z.object({ properties: propertyValues })
export const batchReadSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue }), BATCH_LIMIT),
  properties: propertyNames.optional(),
  propertiesWithHistory: propertyNames.optional(),
  idProperty: z.string().optional(),
})
export const batchCreateSchema = z.object({ inputs: boundedArray(createSchema, BATCH_LIMIT) })
export const batchUpdateSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue, idProperty: z.string().optional(), properties: propertyValues }), BATCH_LIMIT),
})
export const batchArchiveSchema = z.object({ inputs: boundedArray(z.object({ id: idValue }), BATCH_LIMIT) })
export const batchUpsertSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue, idProperty: z.string().min(1), properties: propertyValues, objectWriteTraceId: z.string().optional() }), BATCH_LIMIT),
})

export function toAssociationInputs(input: z.infer<typeof createSchema>): AssociationInput[] {
  return (input.associations ?? []).map((a) => ({ to: { id: a.to.id }, types: a.types }))
}

/** properties / propertiesWithHistory / associations query parameters. */
export function readSelection(objects: ObjectStore, query: URLSearchParams): { selection: PropertySelection; associations: ObjectType[] } {
  const properties = listParam(query, 'properties')
  const propertiesWithHistory = listParam(query, 'propertiesWithHistory')
  const associations = (listParam(query, 'associations') ?? []).map((name) => parseToType(objects, name))
  return {
    selection: { ...(properties && { properties }), ...(propertiesWithHistory && { propertiesWithHistory }) },
    associations: [...new Set(associations)],
  }
}

/** idProperty must be hs_object_id or a property with unique values. */
export function checkIdProperty(objects: ObjectStore, objectType: ObjectType, idProperty: string | undefined | null): string | undefined {
  if (idProperty === undefined || idProperty === null || idProperty === '' || idProperty === 'hs_object_id') return undefined
  const def = objects.definition(objectType, idProperty)
  if (!def) throw validationError(`idProperty "${idProperty}" is not a property of ${objectType}.`)
  if (!def.hasUniqueValue) throw validationError(`idProperty "${idProperty}" is not a unique-value property of ${objectType}.`)
  return idProperty
}

/** The live (or archived) record named by an id, or by a unique property value. */
export function findRecord(objects: ObjectStore, objectType: ObjectType, id: string, idProperty: string | undefined, archived: boolean): CrmRecord | undefined {
  if (archived) {
    if (idProperty) {
      const wanted = objects.normalize(objectType, idProperty, id)
      if (!wanted.ok || wanted.value === null) return undefined
      for (const r of objects.records(objectType, true)) if (own(r.properties, idProperty) === wanted.value) return r
      return undefined
    }
    return objects.getArchived(objectType, id)
  }
  return idProperty ? objects.findByProperty(objectType, idProperty, id) : (objects.get(objectType, id) ?? objects.getMerged(objectType, id))
}

/** The real API refuses a batch update or upsert that names one id twice, before writing anything. */
export function rejectDuplicateIds(ids: readonly string[]): void {
  const seen = new Set<string>()
  const duplicates = new Set<string>()
  for (const id of ids) (seen.has(id) ? duplicates : seen).add(id)
  if (duplicates.size === 0) return
  const list = [...duplicates]
  throw validationError(`Duplicate IDs found in batch input: [${list.join(', ')}]. IDs must be unique`, { context: { ids: list } })
}

export function missing(objectType: ObjectType, id: string): ApiError {
  return notFound(`Object not found. objectId are usually numeric. (${upperName(objectType)} ${id})`)
}

/** The `after` cursor of a list: a record id. */
export function afterParam(query: URLSearchParams): number | undefined {
  const raw = query.get('after')
  if (raw === null || raw === '') return undefined
  if (!/^\d{1,15}$/.test(raw)) throw validationError(`Query parameter 'after' must be the cursor from paging.next.after, got '${raw}'.`)
  return Number(raw)
}

export function nextLink(ctx: RouteContext, after: string): string {
  const url = new URL(ctx.url)
  url.searchParams.set('after', after)
  return url.toString()
}

/** An association type id given as a number, or by its v3 name (ticket_to_contact, a label's name, a custom object's association). */
export function parseTypeId(objects: ObjectStore, fromType: ObjectType, raw: string): number {
  if (/^\d{1,9}$/.test(raw)) return Number(raw)
  const custom = objects.customTypes.associationTypesFrom(fromType).find((t) => t.name === raw)
  return custom ? custom.typeId : v3AssociationType(objects, fromType as BuiltinObjectType, raw).typeId
}

/** A type named in a path or query: a built-in one in any spelling, or a live custom one. */
export function parseToType(objects: ObjectStore, raw: string): ObjectType {
  const type = objects.customTypes.resolveAny(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

/** The auth of a type's routes: a bearer token with the type's read scope, or with its write scope. */
export function routeAuth(objectType: ObjectType) {
  const scopes = scopesOf(objectType)
  return { read: { kind: 'bearer', scopes: [scopes.readScope] } as const, write: { kind: 'bearer', scopes: [scopes.writeScope] } as const }
}
