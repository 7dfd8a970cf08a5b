/**
 * Schema endpoints: the properties API (property-routes.ts), the pipelines
 * API (pipeline-routes.ts), and association type ids
 * (GET /crm/v4/associations/{from}/{to}/labels).
 */
import { validationError } from '../errors.ts'
import { json } from '../http.ts'
import type { Route, ServiceDeps } from '../route.ts'
import { labelledTypesBetween } from './associations-v4.ts'
import { parseObjectType, type ObjectType } from './object-types.ts'
import { pipelinesRoutes } from './pipeline-routes.ts'
import { propertiesRoutes } from './property-routes.ts'

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
    auth: { kind: 'bearer', scopes: [] },
    handler(ctx) {
      const from = objectTypeParam(ctx.params.fromObjectType!)
      const to = objectTypeParam(ctx.params.toObjectType!)
      return json({ results: labelledTypesBetween(from, to) })
    },
  })
  return routes
}
