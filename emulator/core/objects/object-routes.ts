/**
 * The CRM object endpoints, for every object type (contacts, companies,
 * deals, tickets, calls; also reachable by type id, e.g. /objects/0-5):
 * create, read, list, update, archive (recycle bin), restore (emulator
 * extension), batch read/create/update/archive, search, and the legacy v3
 * association endpoints. Property, pipeline and association-label endpoints
 * are in schema-routes.ts. Single-record routes are in record-routes.ts,
 * batch routes in batch-routes.ts, request parsing in object-inputs.ts.
 */
import { validationError } from '../http/errors.ts'
import { json, noContent } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { associationV3Routes } from './associations-v3.ts'
import { associationV4Routes } from './associations-v4.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, scopesOf, type CustomObjectType, type ObjectType } from './object-types.ts'
import { schemaRoutes } from './schema-routes.ts'
import { runSearch } from './search.ts'
import { parseSearchRequest } from './search-request.ts'
import { toPublicObject, withAssociations, type PropertySelection } from './serialize.ts'
import type { CrmRecord } from './crm-record.ts'
import { missing, parseTypeId, parseToType, routeAuth } from './object-inputs.ts'
import { recordRoutes } from './record-routes.ts'
import { batchRoutes } from './batch-routes.ts'

function routesFor(deps: ServiceDeps, objectType: ObjectType, base: string): Route[] {
  const { objects } = deps
  const { read, write } = routeAuth(objectType)

  return [
    ...recordRoutes(deps, objectType, base),
    ...batchRoutes(deps, objectType, base),
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
