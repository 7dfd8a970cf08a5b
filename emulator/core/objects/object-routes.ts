/**
 * The CRM object endpoints, for every object type (contacts, companies,
 * deals, tickets, calls; also reachable by type id, e.g. /objects/0-5):
 * create, read, list, update, archive (recycle bin), restore (emulator
 * extension), batch read/create/update/archive, search, and the legacy v3
 * association endpoints. Property, pipeline and association-label endpoints
 * are in schema-routes.ts.
 */
import { z } from 'zod'
import { ApiError, notFound, validationError } from '../http/errors.ts'
import { boolParam, boundedArray, intParam, json, listParam, noContent, own, ownRecord, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { associationV3Routes, v3AssociationType } from './associations-v3.ts'
import { associationV4Routes } from './associations-v4.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, scopesOf, upperName, type BuiltinObjectType, type CustomObjectType, type ObjectType } from './object-types.ts'
import { schemaRoutes } from './schema-routes.ts'
import { runSearch } from './search.ts'
import { parseSearchRequest } from './search-request.ts'
import {
  batchResponse,
  eachInput,
  toPublicObject,
  toStandardError,
  withAssociations,
  type PropertySelection,
  type SimplePublicObject,
  type StandardError,
} from './serialize.ts'
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

const createSchema = z.object({
  properties: propertyValues,
  associations: boundedArray(associationSchema, BATCH_LIMIT).optional(),
  objectWriteTraceId: z.string().optional(),
})
const updateSchema = z.object({ properties: propertyValues })
const batchReadSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue }), BATCH_LIMIT),
  properties: propertyNames.optional(),
  propertiesWithHistory: propertyNames.optional(),
  idProperty: z.string().optional(),
})
const batchCreateSchema = z.object({ inputs: boundedArray(createSchema, BATCH_LIMIT) })
const batchUpdateSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue, idProperty: z.string().optional(), properties: propertyValues }), BATCH_LIMIT),
})
const batchArchiveSchema = z.object({ inputs: boundedArray(z.object({ id: idValue }), BATCH_LIMIT) })
const batchUpsertSchema = z.object({
  inputs: boundedArray(z.object({ id: idValue, idProperty: z.string().min(1), properties: propertyValues, objectWriteTraceId: z.string().optional() }), BATCH_LIMIT),
})

function toAssociationInputs(input: z.infer<typeof createSchema>): AssociationInput[] {
  return (input.associations ?? []).map((a) => ({ to: { id: a.to.id }, types: a.types }))
}

/** properties / propertiesWithHistory / associations query parameters. */
function readSelection(objects: ObjectStore, query: URLSearchParams): { selection: PropertySelection; associations: ObjectType[] } {
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
function rejectDuplicateIds(ids: readonly string[]): void {
  const seen = new Set<string>()
  const duplicates = new Set<string>()
  for (const id of ids) (seen.has(id) ? duplicates : seen).add(id)
  if (duplicates.size === 0) return
  const list = [...duplicates]
  throw validationError(`Duplicate IDs found in batch input: [${list.join(', ')}]. IDs must be unique`, { context: { ids: list } })
}

function missing(objectType: ObjectType, id: string): ApiError {
  return notFound(`Object not found. objectId are usually numeric. (${upperName(objectType)} ${id})`)
}

/** The `after` cursor of a list: a record id. */
function afterParam(query: URLSearchParams): number | undefined {
  const raw = query.get('after')
  if (raw === null || raw === '') return undefined
  if (!/^\d{1,15}$/.test(raw)) throw validationError(`Query parameter 'after' must be the cursor from paging.next.after, got '${raw}'.`)
  return Number(raw)
}

function nextLink(ctx: RouteContext, after: string): string {
  const url = new URL(ctx.url)
  url.searchParams.set('after', after)
  return url.toString()
}

/** An association type id given as a number, or by its v3 name (ticket_to_contact, a label's name, a custom object's association). */
function parseTypeId(objects: ObjectStore, fromType: ObjectType, raw: string): number {
  if (/^\d{1,9}$/.test(raw)) return Number(raw)
  const custom = objects.customTypes.associationTypesFrom(fromType).find((t) => t.name === raw)
  return custom ? custom.typeId : v3AssociationType(objects, fromType as BuiltinObjectType, raw).typeId
}

/** A type named in a path or query: a built-in one in any spelling, or a live custom one. */
function parseToType(objects: ObjectStore, raw: string): ObjectType {
  const type = objects.customTypes.resolveAny(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

function routesFor(deps: ServiceDeps, objectType: ObjectType, base: string): Route[] {
  const { objects } = deps
  const scopes = scopesOf(objectType)
  const read = { kind: 'bearer', scopes: [scopes.readScope] } as const
  const write = { kind: 'bearer', scopes: [scopes.writeScope] } as const

  const batchCreateOrUpdate = (ctx: RouteContext, run: () => { results: SimplePublicObject[]; errors: StandardError[] }, ok: number) => {
    const { results, errors } = run()
    return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : ok)
  }

  return [
    {
      method: 'POST',
      path: base,
      auth: write,
      handler(ctx) {
        const input = parseInput(createSchema, ctx.jsonBody())
        const record = objects.create(objectType, input.properties, ctx.now, 'API', toAssociationInputs(input))
        return json(toPublicObject(objectType, record, { all: true }), 201)
      },
    },
    {
      method: 'GET',
      path: base,
      auth: read,
      handler(ctx) {
        const limit = intParam(ctx.query, 'limit', 10, 1, LIST_LIMIT)
        const archived = boolParam(ctx.query, 'archived', false)
        const { selection, associations } = readSelection(objects, ctx.query)
        const { records, more } = objects.page(objectType, afterParam(ctx.query), limit, archived)
        const results = records.map((r) => withAssociations(objects, objectType, r, selection, associations))
        const last = records[records.length - 1]
        return json({
          results,
          ...(more && last && { paging: { next: { after: last.id, link: nextLink(ctx, last.id) } } }),
        })
      },
    },
    {
      method: 'GET',
      path: `${base}/:objectId`,
      auth: read,
      handler(ctx) {
        const archived = boolParam(ctx.query, 'archived', false)
        const idProperty = checkIdProperty(objects, objectType, ctx.query.get('idProperty'))
        const { selection, associations } = readSelection(objects, ctx.query)
        const record = findRecord(objects, objectType, ctx.params.objectId!, idProperty, archived)
        if (!record) throw missing(objectType, ctx.params.objectId!)
        return json(withAssociations(objects, objectType, record, selection, associations))
      },
    },
    {
      method: 'PATCH',
      path: `${base}/:objectId`,
      auth: write,
      handler(ctx) {
        const idProperty = checkIdProperty(objects, objectType, ctx.query.get('idProperty'))
        const input = parseInput(updateSchema, ctx.jsonBody())
        const record = findRecord(objects, objectType, ctx.params.objectId!, idProperty, false)
        if (!record) throw missing(objectType, ctx.params.objectId!)
        const updated = objects.setProperties(objectType, record.id, input.properties, ctx.now, 'API')
        return json(toPublicObject(objectType, updated, { all: true }))
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:objectId`,
      auth: write,
      handler(ctx) {
        objects.archive(objectType, ctx.params.objectId!, ctx.now)
        return noContent()
      },
    },
    {
      // Emulator extension: the real API restores from the recycle bin only in its UI.
      method: 'POST',
      path: `${base}/:objectId/restore`,
      auth: write,
      handler(ctx) {
        const record = objects.restore(objectType, ctx.params.objectId!, ctx.now)
        return json(toPublicObject(objectType, record))
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/read`,
      auth: read,
      handler(ctx) {
        const archived = boolParam(ctx.query, 'archived', false)
        const input = parseInput(batchReadSchema, ctx.jsonBody())
        const idProperty = checkIdProperty(objects, objectType, input.idProperty)
        const selection: PropertySelection = {
          ...(input.properties && input.properties.length > 0 && { properties: input.properties }),
          ...(input.propertiesWithHistory && { propertiesWithHistory: input.propertiesWithHistory }),
        }
        const results: SimplePublicObject[] = []
        const seen = new Set<string>()
        const notFoundIds: string[] = []
        for (const { id } of input.inputs) {
          const record = findRecord(objects, objectType, id, idProperty, archived)
          if (!record) {
            if (!notFoundIds.includes(id)) notFoundIds.push(id)
          } else if (!seen.has(record.id)) {
            seen.add(record.id)
            results.push(toPublicObject(objectType, record, selection))
          }
        }
        const errors =
          notFoundIds.length > 0
            ? [
                toStandardError(
                  notFound(`Could not get some ${upperName(objectType)} objects, they may be deleted or not exist. Check that ids are valid.`),
                  { ids: notFoundIds },
                ),
              ]
            : []
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/create`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchCreateSchema, ctx.jsonBody())
        return batchCreateOrUpdate(
          ctx,
          () =>
            eachInput(ctx.db, input.inputs, (item) =>
              toPublicObject(objectType, objects.create(objectType, item.properties, ctx.now, 'API', toAssociationInputs(item)), { all: true }),
            ),
          201,
        )
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/update`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchUpdateSchema, ctx.jsonBody())
        rejectDuplicateIds(input.inputs.map((i) => i.id))
        return batchCreateOrUpdate(
          ctx,
          () => {
            const results: SimplePublicObject[] = []
            const errors: StandardError[] = []
            const notFoundIds: string[] = []
            for (const [index, item] of input.inputs.entries()) {
              try {
                const idProperty = checkIdProperty(objects, objectType, item.idProperty)
                const record = findRecord(objects, objectType, item.id, idProperty, false)
                if (!record) {
                  notFoundIds.push(item.id)
                  continue
                }
                const updated = ctx.db.attempt(() => objects.setProperties(objectType, record.id, item.properties, ctx.now, 'API'))
                results.push(toPublicObject(objectType, updated, { all: true }))
              } catch (error) {
                if (!(error instanceof ApiError)) throw error
                errors.push(toStandardError(error, { inputIndex: [String(index)] }))
              }
            }
            if (notFoundIds.length > 0) {
              errors.unshift(
                toStandardError(notFound(`Could not update some ${upperName(objectType)} objects, they may be deleted or not exist.`), { ids: notFoundIds }),
              )
            }
            return { results, errors }
          },
          200,
        )
      },
    },
    {
      // Update the record whose unique idProperty equals id, or create it (with that value) if there is none.
      method: 'POST',
      path: `${base}/batch/upsert`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchUpsertSchema, ctx.jsonBody())
        for (const item of input.inputs) {
          const idProperty = checkIdProperty(objects, objectType, item.idProperty)
          if (!idProperty) throw validationError('batch/upsert needs an idProperty with unique values; hs_object_id cannot be used to create records.')
        }
        // Duplicates compare in stored form (e-mail addresses in any case are one id).
        rejectDuplicateIds(input.inputs.map((i) => {
          const stored = objects.normalize(objectType, i.idProperty, i.id)
          return stored.ok && stored.value !== null ? stored.value : i.id
        }))
        return batchCreateOrUpdate(
          ctx,
          () => {
            const results: Array<SimplePublicObject & { new: boolean }> = []
            const errors: StandardError[] = []
            for (const [index, item] of input.inputs.entries()) {
              try {
                const existing = objects.findByProperty(objectType, item.idProperty, item.id)
                const record = ctx.db.attempt(() =>
                  existing
                    ? objects.setProperties(objectType, existing.id, item.properties, ctx.now, 'API')
                    : objects.create(objectType, { ...item.properties, [item.idProperty]: item.id }, ctx.now, 'API'),
                )
                results.push({ ...toPublicObject(objectType, record, { all: true }), new: existing === undefined })
              } catch (error) {
                if (!(error instanceof ApiError)) throw error
                errors.push(toStandardError(error, { inputIndex: [String(index)] }))
              }
            }
            return { results, errors }
          },
          200,
        )
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/archive`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchArchiveSchema, ctx.jsonBody())
        // Like the real API: ids that are not live records are skipped.
        for (const { id } of input.inputs) if (objects.get(objectType, id)) objects.archive(objectType, id, ctx.now)
        return noContent()
      },
    },
    {
      method: 'POST',
      path: `${base}/search`,
      auth: read,
      handler(ctx) {
        const request = parseSearchRequest(objectType, ctx.jsonBody(), (name) => objects.definition(objectType, name))
        const { total, page } = runSearch(objects, objectType, request, objects.customTypes.schema(objectType)?.searchableProperties)
        const end = request.offset + request.limit
        const selection: PropertySelection = request.properties && request.properties.length > 0 ? { properties: request.properties } : {}
        return json({
          total,
          results: page.map((r) => toPublicObject(objectType, r, selection)),
          ...(end < total && { paging: { next: { after: String(end) } } }),
        })
      },
    },
    {
      method: 'GET',
      path: `${base}/:objectId/associations/:toObjectType`,
      auth: read,
      handler(ctx) {
        const toType = parseToType(objects, ctx.params.toObjectType!)
        const record = objects.get(objectType, ctx.params.objectId!)
        if (!record) throw missing(objectType, ctx.params.objectId!)
        const named = withAssociations(objects, objectType, record, {}, [toType])
        return json({ results: named.associations?.[objects.customTypes.keyOf(toType)]?.results ?? [] })
      },
    },
    {
      method: 'PUT',
      path: `${base}/:objectId/associations/:toObjectType/:toObjectId/:associationTypeId`,
      auth: write,
      handler(ctx) {
        const toType = parseToType(objects, ctx.params.toObjectType!)
        const typeId = parseTypeId(objects, objectType, ctx.params.associationTypeId!)
        objects.associate(objectType, ctx.params.objectId!, toType, ctx.params.toObjectId!, typeId)
        const record = objects.get(objectType, ctx.params.objectId!) as CrmRecord
        return json(withAssociations(objects, objectType, record, {}, [toType]))
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:objectId/associations/:toObjectType/:toObjectId/:associationTypeId`,
      auth: write,
      handler(ctx) {
        const toType = parseToType(objects, ctx.params.toObjectType!)
        const typeId = parseTypeId(objects, objectType, ctx.params.associationTypeId!)
        if (!objects.get(objectType, ctx.params.objectId!)) throw missing(objectType, ctx.params.objectId!)
        objects.dissociate(objectType, ctx.params.objectId!, toType, ctx.params.toObjectId!, typeId, ctx.now)
        return noContent()
      },
    },
  ]
}

/**
 * The objects API under any name of a type that the built-in routes do not
 * spell out: a custom type's objectTypeId, fullyQualifiedName or `p_<name>`
 * (and a built-in type's singular, `contact`). Each request runs the handler
 * that the type's own route table has at the same place, with that type's
 * scopes; a name that is no type is 400 "Unable to infer object type from".
 */
function namedTypeRoutes(deps: ServiceDeps): Route[] {
  const base = '/crm/v3/objects/:objectType'
  const resolve = (raw: string | undefined) => (raw === undefined ? undefined : deps.objects.customTypes.resolveAny(raw))
  return routesFor(deps, CUSTOM_PLACEHOLDER, base).map((route, index) => {
    const writes = route.auth.kind === 'bearer' && route.auth.scopes.includes(scopesOf(CUSTOM_PLACEHOLDER).writeScope)
    return {
      ...route,
      auth: {
        kind: 'bearer',
        scopes: [],
        scopesOf: (params) => {
          const type = resolve(params.objectType)
          return type ? [writes ? scopesOf(type).writeScope : scopesOf(type).readScope] : []
        },
      },
      handler(ctx) {
        const type = resolve(ctx.params.objectType)
        if (!type) throw validationError(`Unable to infer object type from: ${ctx.params.objectType}`)
        return routesFor(deps, type, base)[index]!.handler(ctx)
      },
    }
  })
}

/** Stands for "a custom type" where routes are built before any type is known. */
const CUSTOM_PLACEHOLDER: CustomObjectType = '2-0'

export function objectRoutes(deps: ServiceDeps): Route[] {
  const routes: Route[] = []
  for (const type of OBJECT_TYPE_NAMES) {
    routes.push(...routesFor(deps, type, `/crm/v3/objects/${type}`))
    routes.push(...routesFor(deps, type, `/crm/v3/objects/${OBJECT_TYPES[type].typeId}`))
  }
  routes.push(...schemaRoutes(deps))
  routes.push(...associationV3Routes(deps))
  routes.push(...associationV4Routes(deps))
  // Last: the built-in routes above match their own paths first.
  routes.push(...namedTypeRoutes(deps))
  return routes
}
