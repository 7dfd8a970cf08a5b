/**
 * The objects API for one record of a type (POST, GET list, GET, PATCH and
 * DELETE on /crm/v3/objects/{type}, and the emulator's restore from the
 * recycle bin).
 */
import { boolParam, intParam, json, noContent, parseInput } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import type { ObjectType } from './object-types.ts'
import { toPublicObject, withAssociations } from './serialize.ts'
import { LIST_LIMIT, createSchema, updateSchema, toAssociationInputs, readSelection, checkIdProperty, findRecord, missing, afterParam, nextLink, routeAuth } from './object-inputs.ts'

/** A type's single-record routes: create, list, read, update, archive, restore. */
export function recordRoutes(deps: ServiceDeps, objectType: ObjectType, base: string): Route[] {
  const { objects } = deps
  const { read, write } = routeAuth(objectType)

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
  ]
}
