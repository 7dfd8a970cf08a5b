/**
 * The v3 associations API, as `crm.associations.batchApi` and
 * `crm.associations.schema.typesApi` of the official client call it
 * (https://developers.hubspot.com/docs/api-reference/crm-associations-v3/guide):
 *
 * - `POST /crm/v3/associations/{from}/{to}/batch/create`, body
 *   `{inputs: [{from: {id}, to: {id}, type}]}` → 201 (207 with errors);
 * - `POST …/batch/read`, body `{inputs: [{id}]}` → 200
 *   `{results: [{from: {id}, to: [{id, type}]}]}` (207 with errors);
 * - `POST …/batch/archive`, same body as create → 204;
 * - `GET /crm/v3/associations/{from}/{to}/types` → 200 `{results: [{id, name}]}`.
 *
 * `type` is the v3 name of an association type (`contact_to_company`,
 * `contact_to_company_unlabeled`, a label's `name`) or its numeric id as a
 * string. Every input of create is handled on its own: a failing one leaves
 * no trace and is reported in `errors[]` with its index.
 */
import { z } from 'zod'
import { notFound, validationError } from '../http/errors.ts'
import { boundedArray, json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import type { AssociationType } from '../../../shared/crm/association-types.ts'
import { V4_BATCH_LIMIT } from './associations-v4.ts'
import { OBJECT_TYPES, parseObjectType, type BuiltinObjectType as ObjectType } from './object-types.ts'
import { batchResponse, eachInput, toStandardError, type StandardError } from './serialize.ts'
import type { ObjectStore } from './object-store.ts'

const recordId = z.union([z.string().regex(/^\d{1,18}$/, 'must be a record id'), z.number().int().nonnegative()]).transform(String)
const idObject = z.object({ id: recordId })
const pairSchema = z.object({ inputs: boundedArray(z.object({ from: idObject, to: idObject, type: z.string().min(1).max(200) }), V4_BATCH_LIMIT) })
const readSchema = z.object({ inputs: boundedArray(idObject, V4_BATCH_LIMIT) })

/** The association type a v3 request names, by its v3 name or numeric id; `to` narrows it to one target type. */
export function v3AssociationType(objects: ObjectStore, from: ObjectType, raw: string, to?: ObjectType): AssociationType {
  const type = /^\d{1,9}$/.test(raw)
    ? objects.labels.typeFrom(from, Number(raw))
    : (to ? objects.labels.between(from, to) : Object.keys(OBJECT_TYPES).flatMap((t) => objects.labels.between(from, t as ObjectType))).find((t) => t.name === raw)
  if (!type || (to && type.to !== to)) throw validationError(`Unknown association type "${raw}" from ${from}${to ? ` to ${to}` : ''}.`)
  return type
}

function typeParam(raw: string): ObjectType {
  const type = parseObjectType(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

export function associationV3Routes(deps: ServiceDeps): Route[] {
  const { objects } = deps
  const base = '/crm/v3/associations/:fromObjectType/:toObjectType'
  const auth = (write: boolean) =>
    ({
      kind: 'bearer',
      scopes: [],
      scopesOf: (params: Readonly<Record<string, string>>) => {
        const from = parseObjectType(params.fromObjectType ?? '')
        return from ? [write ? OBJECT_TYPES[from].writeScope : OBJECT_TYPES[from].readScope] : []
      },
    }) as const
  const pair = (ctx: RouteContext) => ({ from: typeParam(ctx.params.fromObjectType!), to: typeParam(ctx.params.toObjectType!) })
  return [
    {
      method: 'GET',
      path: `${base}/types`,
      auth: auth(false),
      handler(ctx) {
        const { from, to } = pair(ctx)
        return json({ results: objects.labels.between(from, to).map((t) => ({ id: String(t.typeId), name: t.name })) })
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/create`,
      auth: auth(true),
      handler(ctx) {
        const { from, to } = pair(ctx)
        const input = parseInput(pairSchema, ctx.jsonBody())
        const { results, errors } = eachInput(ctx.db, input.inputs, (item) => {
          objects.associate(from, item.from.id, to, item.to.id, v3AssociationType(objects, from, item.type, to).typeId)
          return { from: { id: item.from.id }, to: { id: item.to.id }, type: item.type }
        })
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 201)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/read`,
      auth: auth(false),
      handler(ctx) {
        const { from, to } = pair(ctx)
        const input = parseInput(readSchema, ctx.jsonBody())
        const results: unknown[] = []
        const errors: StandardError[] = []
        const missing: string[] = []
        for (const { id } of input.inputs) {
          if (!objects.get(from, id)) {
            if (!missing.includes(id)) missing.push(id)
            continue
          }
          const linked = objects
            .associations(from, id, to)
            .flatMap((a) => a.typeIds.map((typeId) => ({ id: a.id, type: objects.associationTypeFrom(from, typeId)?.name ?? String(typeId) })))
          if (linked.length === 0) {
            const none = notFound(`No ${OBJECT_TYPES[to].singular} is associated with ${OBJECT_TYPES[from].singular} ${id}.`, { subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND' })
            errors.push(toStandardError(none, { fromObjectId: [id] }))
            continue
          }
          results.push({ from: { id }, to: linked })
        }
        if (missing.length > 0) errors.unshift(toStandardError(notFound(`${OBJECT_TYPES[from].upper} records do not exist: ${missing.join(', ')}.`), { ids: missing }))
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/archive`,
      auth: auth(true),
      handler(ctx) {
        const { from, to } = pair(ctx)
        const input = parseInput(pairSchema, ctx.jsonBody())
        // Every input is checked before anything is removed; pairs that are not associated are skipped.
        const resolved = input.inputs.map((item) => ({ item, type: v3AssociationType(objects, from, item.type, to) }))
        for (const { item, type } of resolved) {
          if (objects.get(from, item.from.id)) objects.dissociate(from, item.from.id, to, item.to.id, type.typeId, ctx.now)
        }
        return noContent()
      },
    },
  ]
}
