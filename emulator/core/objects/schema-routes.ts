/**
 * Schema endpoints: the properties API (property-routes.ts), the pipelines
 * API (pipeline-routes.ts) and the association schema API (labels, limits:
 * association-schema-routes.ts).
 */
import type { Route, ServiceDeps } from '../http/route.ts'
import { associationSchemaRoutes } from './association-schema-routes.ts'
import { pipelinesRoutes } from './pipeline-routes.ts'
import { propertiesRoutes } from './property-routes.ts'

export function schemaRoutes(deps: ServiceDeps): Route[] {
  const routes: Route[] = []
  routes.push(...propertiesRoutes(deps))
  routes.push(...pipelinesRoutes(deps))
  routes.push(...associationSchemaRoutes(deps))
  return routes
}
