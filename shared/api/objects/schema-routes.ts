/**
 * Schema endpoints: the properties API (property-routes.ts), pipelines and
 * stages (GET /crm/v3/pipelines/{tickets|deals}/...), and association type
 * ids (GET /crm/v4/associations/{from}/{to}/labels).
 */
import { notFound, validationError } from '../errors.ts'
import { boolParam, json } from '../http.ts'
import type { Route } from '../router.ts'
import type { ServiceDeps } from '../service.ts'
import { labelledTypesBetween } from './associations-v4.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, parseObjectType, type ObjectType } from './object-types.ts'
import { findPipeline, pipelinesOf, toPublicPipeline, type PipelineObjectType } from './pipelines.ts'
import { propertiesRoutes } from './property-routes.ts'

function pipelineRoutes(deps: ServiceDeps, objectType: PipelineObjectType, base: string): Route[] {
  const auth = { kind: 'bearer', scopes: [OBJECT_TYPES[objectType].readScope] } as const
  const pipelineOr404 = (id: string) => {
    const pipeline = findPipeline(deps.db, objectType, id)
    if (!pipeline) throw notFound(`Unable to find pipeline ${id} for ${objectType}.`)
    return pipeline
  }
  return [
    {
      method: 'GET',
      path: base,
      auth,
      handler() {
        const pipelines = pipelinesOf(deps.db, objectType).sort((a, b) => a.displayOrder - b.displayOrder)
        return json({ results: pipelines.map(toPublicPipeline) })
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId`,
      auth,
      handler(ctx) {
        return json(toPublicPipeline(pipelineOr404(ctx.params.pipelineId!)))
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/stages`,
      auth,
      handler(ctx) {
        return json({ results: pipelineOr404(ctx.params.pipelineId!).stages.filter((s) => !s.archived) })
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/stages/:stageId`,
      auth,
      handler(ctx) {
        const pipeline = pipelineOr404(ctx.params.pipelineId!)
        const stage = pipeline.stages.find((s) => s.id === ctx.params.stageId && !s.archived)
        if (!stage) throw notFound(`Unable to find stage ${ctx.params.stageId} in pipeline ${pipeline.id}.`)
        return json(stage)
      },
    },
  ]
}

function objectTypeParam(raw: string): ObjectType {
  const type = parseObjectType(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

export function schemaRoutes(deps: ServiceDeps): Route[] {
  const routes: Route[] = []
  routes.push(...propertiesRoutes(deps))
  for (const type of ['tickets', 'deals'] as const) {
    for (const segment of [type, OBJECT_TYPES[type].typeId]) routes.push(...pipelineRoutes(deps, type, `/crm/v3/pipelines/${segment}`))
  }
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
