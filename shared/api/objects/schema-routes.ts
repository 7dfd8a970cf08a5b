/**
 * Schema endpoints: the properties API (property-routes.ts), the pipelines
 * API (pipeline-routes.ts), and association type ids
 * (GET /crm/v4/associations/{from}/{to}/labels).
 */
import { validationError } from '../errors.ts'
import { json } from '../http.ts'
import type { Route, ServiceDeps } from '../route.ts'
import { labelledTypesBetween } from './associations-v4.ts'
import type { Scope } from '../auth.ts'
import { OBJECT_TYPES, parseObjectType, type BuiltinObjectType as ObjectType } from './object-types.ts'
import { pipelinesRoutes } from './pipeline-routes.ts'
import { propertiesRoutes } from './property-routes.ts'

/** The read scope of an object type named in a path (undefined for an unknown one, which the handler refuses). */
function readScopeOf(raw: string | undefined): Scope | undefined {
  const type = raw === undefined ? undefined : parseObjectType(raw)
  return type ? OBJECT_TYPES[type].readScope : undefined
}

function objectTypeParam(raw: string): ObjectType {
  const type = parseObjectType(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

export function schemaRoutes(deps: ServiceDeps): Route[] {
  const routes: Route[] = []
  routes.push(...propertiesRoutes(deps))
  routes.push(...pipelinesRoutes(deps))
  routes.push({
    method: 'GET',
    path: '/crm/v4/associations/:fromObjectType/:toObjectType/labels',
    // The real API asks for the read scopes of the object types whose labels are listed.
    auth: { kind: 'bearer', scopes: [], scopesOf: (params) => [readScopeOf(params.fromObjectType), readScopeOf(params.toObjectType)].filter((s) => s !== undefined) },
    handler(ctx) {
      const from = objectTypeParam(ctx.params.fromObjectType!)
      const to = objectTypeParam(ctx.params.toObjectType!)
      return json({ results: labelledTypesBetween(from, to) })
    },
  })
  return routes
}
