/**
 * The v4 associations API, as the official client's `crm.associations.v4`
 * calls it (https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide):
 *
 * - `PUT    /crm/v4/objects/{type}/{id}/associations/{toType}/{toId}`, body
 *   `[{associationCategory, associationTypeId}]` → 201 LabelsBetweenObjectPair;
 * - `DELETE` the same path → 204, every association type between the two records;
 * - `PUT    /crm/v4/objects/{type}/{id}/associations/default/{toType}/{toId}` → 200,
 *   the default (unlabelled) type, both directions listed;
 * - `GET    /crm/v4/objects/{type}/{id}/associations/{toType}` → 200
 *   `{results: [{toObjectId, associationTypes: [{category, typeId, label}]}], paging?}`
 *   (`limit` 1–500, default 500; `after` is the last toObjectId of the page);
 * - `POST   /crm/v4/associations/{type}/{toType}/batch/create | read | archive |
 *   labels/archive | associate/default`.
 *
 * Record ids in v4 responses are numbers (`toObjectId: 12345`), except the
 * `{id}` objects of batch inputs and results, which are strings, as in the
 * real API. A type is HubSpot's (HUBSPOT_DEFINED) or one of the account's
 * labels (USER_DEFINED, see association-labels.ts); the category sent must
 * be the type's, else 400.
 */
import { z } from 'zod'
import { notFound, validationError } from '../http/errors.ts'
import { boundedArray, intParam, json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { defaultAssociationType, type AssociationType } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, parseObjectType, type BuiltinObjectType as ObjectType } from './object-types.ts'
import { batchResponse, eachInput, toStandardError, type StandardError } from './serialize.ts'
import type { ObjectStore } from './object-store.ts'

/** Most inputs in one v4 batch (the real API's limit for association batches). */
export const V4_BATCH_LIMIT = 1000
/** Largest and default `limit` of GET …/associations/{toType}. */
export const V4_PAGE_LIMIT = 500

const recordId = z.union([z.string().regex(/^\d{1,18}$/, 'must be a record id'), z.number().int().nonnegative()]).transform(String)
const specSchema = z.object({
  associationCategory: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED', 'WORK']),
  associationTypeId: z.number().int(),
})
const specsSchema = boundedArray(specSchema, 20, { count: 1, message: 'name at least one association type' })
const idObject = z.object({ id: recordId })
const batchCreateSchema = z.object({ inputs: boundedArray(z.object({ from: idObject, to: idObject, types: specsSchema }), V4_BATCH_LIMIT) })
const batchDefaultSchema = z.object({ inputs: boundedArray(z.object({ from: idObject, to: idObject }), V4_BATCH_LIMIT) })
const batchReadSchema = z.object({ inputs: boundedArray(z.object({ id: recordId, after: z.string().optional() }), V4_BATCH_LIMIT) })
const batchArchiveSchema = z.object({ inputs: boundedArray(z.object({ from: idObject, to: boundedArray(idObject, V4_BATCH_LIMIT) }), V4_BATCH_LIMIT) })

/** The v4 label of a type: null for the unlabelled default, else its label. */
function typeWithLabel(type: AssociationType) {
  return { category: type.category, typeId: type.typeId, label: type.label }
}

function typeParam(raw: string): ObjectType {
  const type = parseObjectType(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

function checkRecordId(raw: string): string {
  if (!/^\d{1,18}$/.test(raw)) throw validationError(`Record ids are numeric; got '${raw}'.`)
  return raw
}

/** The types named by a request (HubSpot's or the account's labels), each checked to lead from `from` to `to`. */
function resolveSpecs(objects: ObjectStore, from: ObjectType, to: ObjectType, specs: z.infer<typeof specsSchema>): AssociationType[] {
  return specs.map((spec) => {
    const type = objects.labels.typeFrom(from, spec.associationTypeId)
    if (!type || spec.associationCategory !== type.category || type.to !== to) {
      throw validationError(
        `${spec.associationCategory} association type ${spec.associationTypeId} does not exist from ${from} to ${to}. See GET /crm/v4/associations/${from}/${to}/labels.`,
      )
    }
    return type
  })
}

/** Both records must be live. */
function requireRecords(objects: ObjectStore, from: ObjectType, fromId: string, to: ObjectType, toId: string): void {
  if (!objects.get(from, fromId)) throw notFound(`${OBJECT_TYPES[from].upper} ${fromId} does not exist.`)
  if (!objects.get(to, toId)) throw notFound(`${OBJECT_TYPES[to].upper} ${toId} does not exist.`)
}

/** LabelsBetweenObjectPair: the labels of every type now linking the two records. */
function labelsBetween(objects: ObjectStore, from: ObjectType, fromId: string, to: ObjectType, toId: string) {
  const typeIds = objects.associations(from, fromId, to).find((a) => a.id === toId)?.typeIds ?? []
  const labels = typeIds.map((id) => objects.associationTypeFrom(from, id)?.label).filter((l): l is string => typeof l === 'string')
  return {
    fromObjectTypeId: OBJECT_TYPES[from].typeId,
    fromObjectId: Number(fromId),
    toObjectTypeId: OBJECT_TYPES[to].typeId,
    toObjectId: Number(toId),
    labels,
  }
}

/** PublicDefaultAssociation items for a default association, both directions. */
function defaultResults(type: AssociationType, fromId: string, toId: string) {
  return [
    { from: { id: fromId }, to: { id: toId }, associationSpec: { associationCategory: type.category, associationTypeId: type.typeId } },
    { from: { id: toId }, to: { id: fromId }, associationSpec: { associationCategory: type.category, associationTypeId: type.inverseTypeId } },
  ]
}

function defaultType(from: ObjectType, to: ObjectType): AssociationType {
  const type = defaultAssociationType(from, to)
  if (!type) throw validationError(`${from} cannot be associated with ${to}. See GET /crm/v4/associations/${from}/${to}/labels.`)
  return type
}

/** One record's associations with `to`, in toObjectId order, as MultiAssociatedObjectWithLabel. */
function associatedWithLabels(objects: ObjectStore, from: ObjectType, fromId: string, to: ObjectType) {
  return objects
    .associations(from, fromId, to)
    .map((a) => ({
      toObjectId: Number(a.id),
      associationTypes: a.typeIds.map((id) => objects.associationTypeFrom(from, id)).filter((t): t is AssociationType => t !== undefined).map(typeWithLabel),
    }))
    .sort((a, b) => a.toObjectId - b.toObjectId)
}

/** A page of `items` (sorted by toObjectId) after the cursor. */
function pageOf<T extends { toObjectId: number }>(items: T[], after: string | undefined, limit: number) {
  if (after !== undefined && !/^\d{1,18}$/.test(after)) throw validationError(`'after' must be the cursor from paging.next.after, got '${after}'.`)
  const start = after === undefined ? 0 : items.findIndex((i) => i.toObjectId > Number(after))
  const rest = start < 0 ? [] : items.slice(start)
  const page = rest.slice(0, limit)
  const last = page[page.length - 1]
  return { page, next: rest.length > limit && last ? String(last.toObjectId) : undefined }
}

function removeAll(objects: ObjectStore, from: ObjectType, fromId: string, to: ObjectType, toId: string, now: number): void {
  const linked = objects.associations(from, fromId, to).find((a) => a.id === toId)
  for (const typeId of linked?.typeIds ?? []) {
    // Removing a type also removes its inverse; a type already gone (an implied one) is skipped.
    if (objects.associationTypeFrom(from, typeId)) objects.dissociate(from, fromId, to, toId, typeId, now)
  }
}

function recordRoutes(deps: ServiceDeps, from: ObjectType, base: string): Route[] {
  const { objects } = deps
  const read = { kind: 'bearer', scopes: [OBJECT_TYPES[from].readScope] } as const
  const write = { kind: 'bearer', scopes: [OBJECT_TYPES[from].writeScope] } as const
  const params = (ctx: RouteContext) => ({
    fromId: checkRecordId(ctx.params.objectId!),
    to: typeParam(ctx.params.toObjectType!),
    toId: ctx.params.toObjectId === undefined ? '' : checkRecordId(ctx.params.toObjectId),
  })
  return [
    {
      method: 'PUT',
      path: `${base}/:objectId/associations/default/:toObjectType/:toObjectId`,
      auth: write,
      handler(ctx) {
        const { fromId, to, toId } = params(ctx)
        const type = defaultType(from, to)
        requireRecords(objects, from, fromId, to, toId)
        objects.associate(from, fromId, to, toId, type.typeId)
        return json(batchResponse(defaultResults(type, fromId, toId), [], ctx.now, deps.now()))
      },
    },
    {
      method: 'PUT',
      path: `${base}/:objectId/associations/:toObjectType/:toObjectId`,
      auth: write,
      handler(ctx) {
        const { fromId, to, toId } = params(ctx)
        const types = resolveSpecs(objects, from, to, parseInput(specsSchema, ctx.jsonBody()))
        requireRecords(objects, from, fromId, to, toId)
        for (const type of types) objects.associate(from, fromId, to, toId, type.typeId)
        return json(labelsBetween(objects, from, fromId, to, toId), 201)
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:objectId/associations/:toObjectType/:toObjectId`,
      auth: write,
      handler(ctx) {
        const { fromId, to, toId } = params(ctx)
        if (!objects.get(from, fromId)) throw notFound(`${OBJECT_TYPES[from].upper} ${fromId} does not exist.`)
        removeAll(objects, from, fromId, to, toId, ctx.now)
        return noContent()
      },
    },
    {
      method: 'GET',
      path: `${base}/:objectId/associations/:toObjectType`,
      auth: read,
      handler(ctx) {
        const { fromId, to } = params(ctx)
        if (!objects.get(from, fromId)) throw notFound(`${OBJECT_TYPES[from].upper} ${fromId} does not exist.`)
        const limit = intParam(ctx.query, 'limit', V4_PAGE_LIMIT, 1, V4_PAGE_LIMIT)
        const { page, next } = pageOf(associatedWithLabels(objects, from, fromId, to), ctx.query.get('after') ?? undefined, limit)
        return json({ results: page, ...(next && { paging: { next: { after: next } } }) })
      },
    },
  ]
}

function batchRoutes(deps: ServiceDeps, from: ObjectType, base: string): Route[] {
  const { objects } = deps
  const read = { kind: 'bearer', scopes: [OBJECT_TYPES[from].readScope] } as const
  const write = { kind: 'bearer', scopes: [OBJECT_TYPES[from].writeScope] } as const
  /** Each input in its own all-or-nothing attempt (serialize.ts's eachInput); an input may give several results. */
  const perInput = <I, R>(ctx: RouteContext, inputs: readonly I[], step: (input: I) => R[]) => {
    const { results, errors } = eachInput(ctx.db, inputs, step)
    return { results: results.flat(), errors }
  }
  return [
    {
      method: 'POST',
      path: `${base}/:toObjectType/batch/create`,
      auth: write,
      handler(ctx) {
        const to = typeParam(ctx.params.toObjectType!)
        const input = parseInput(batchCreateSchema, ctx.jsonBody())
        const { results, errors } = perInput(ctx, input.inputs, (item) => {
          const types = resolveSpecs(objects, from, to, item.types)
          requireRecords(objects, from, item.from.id, to, item.to.id)
          for (const type of types) objects.associate(from, item.from.id, to, item.to.id, type.typeId)
          return [labelsBetween(objects, from, item.from.id, to, item.to.id)]
        })
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 201)
      },
    },
    {
      method: 'POST',
      path: `${base}/:toObjectType/batch/associate/default`,
      auth: write,
      handler(ctx) {
        const to = typeParam(ctx.params.toObjectType!)
        const type = defaultType(from, to)
        const input = parseInput(batchDefaultSchema, ctx.jsonBody())
        const { results, errors } = perInput(ctx, input.inputs, (item) => {
          requireRecords(objects, from, item.from.id, to, item.to.id)
          objects.associate(from, item.from.id, to, item.to.id, type.typeId)
          return defaultResults(type, item.from.id, item.to.id)
        })
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/:toObjectType/batch/read`,
      auth: read,
      handler(ctx) {
        const to = typeParam(ctx.params.toObjectType!)
        const input = parseInput(batchReadSchema, ctx.jsonBody())
        const results: unknown[] = []
        const errors: StandardError[] = []
        const missing: string[] = []
        for (const item of input.inputs) {
          if (!objects.get(from, item.id)) {
            if (!missing.includes(item.id)) missing.push(item.id)
            continue
          }
          const { page, next } = pageOf(associatedWithLabels(objects, from, item.id, to), item.after, V4_PAGE_LIMIT)
          // Like the real API, a record without associations is an error of its own, not an empty result.
          if (page.length === 0 && item.after === undefined) {
            const none = notFound(`No ${OBJECT_TYPES[to].singular} is associated with ${OBJECT_TYPES[from].singular} ${item.id}.`, {
              subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
            })
            errors.push(toStandardError(none, { fromObjectId: [item.id] }))
            continue
          }
          results.push({ from: { id: item.id }, to: page, ...(next && { paging: { next: { after: next } } }) })
        }
        if (missing.length > 0) {
          errors.unshift(toStandardError(notFound(`${OBJECT_TYPES[from].upper} records do not exist: ${missing.join(', ')}.`), { ids: missing }))
        }
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/:toObjectType/batch/archive`,
      auth: write,
      handler(ctx) {
        const to = typeParam(ctx.params.toObjectType!)
        const input = parseInput(batchArchiveSchema, ctx.jsonBody())
        for (const item of input.inputs) {
          if (!objects.get(from, item.from.id)) continue
          for (const target of item.to) removeAll(objects, from, item.from.id, to, target.id, ctx.now)
        }
        return noContent()
      },
    },
    {
      method: 'POST',
      path: `${base}/:toObjectType/batch/labels/archive`,
      auth: write,
      handler(ctx) {
        const to = typeParam(ctx.params.toObjectType!)
        const input = parseInput(batchCreateSchema, ctx.jsonBody())
        // Every input is checked before anything is removed.
        const resolved = input.inputs.map((item) => ({ item, types: resolveSpecs(objects, from, to, item.types) }))
        for (const { item, types } of resolved) {
          if (!objects.get(from, item.from.id)) continue
          for (const type of types) objects.dissociate(from, item.from.id, to, item.to.id, type.typeId, ctx.now)
        }
        return noContent()
      },
    },
  ]
}

export function associationV4Routes(deps: ServiceDeps): Route[] {
  const routes: Route[] = []
  for (const type of OBJECT_TYPE_NAMES) {
    for (const segment of [type, OBJECT_TYPES[type].typeId]) {
      routes.push(...recordRoutes(deps, type, `/crm/v4/objects/${segment}`))
      routes.push(...batchRoutes(deps, type, `/crm/v4/associations/${segment}`))
    }
  }
  return routes
}

/** Every v4 association type between two types, with labels (GET …/labels uses the same shape). */
export function labelledTypesBetween(objects: ObjectStore, from: ObjectType, to: ObjectType) {
  return objects.labels.between(from, to).map(typeWithLabel)
}
