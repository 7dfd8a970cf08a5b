/**
 * The pipelines API for tickets and deals
 * (https://developers.hubspot.com/docs/api-reference/crm-pipelines-v3/guide):
 *
 * - `GET    /crm/v3/pipelines/{type}` and `/{pipelineId}`; `POST` → 201; `PUT /{id}` (replace) and
 *   `PATCH /{id}` → 200; `DELETE /{id}` → 204.
 * - `GET    /{pipelineId}/stages` and `/stages/{stageId}`; `POST /stages` → 201; `PUT` and `PATCH
 *   /stages/{stageId}` → 200; `DELETE` → 204.
 * - `GET    /{pipelineId}/audit` and `/stages/{stageId}/audit`: every change
 *   made through this API, newest first (pipeline-audit.ts). A change of a
 *   stage is also an UPDATE of its pipeline.
 *
 * Rules: a pipeline has at least one stage; labels are unique among the
 * type's pipelines and among a pipeline's stages (409); ticket stages need
 * `metadata.ticketState` OPEN or CLOSED, deal stages `metadata.probability`
 * between 0.0 and 1.0 (as the real API requires). New pipeline and stage ids
 * are numeric strings. A pipeline or stage that live records still use
 * cannot be deleted or dropped by a PUT (400 naming how many records), nor
 * can the last pipeline of a type. Once a type has several pipelines, a new
 * record must name its pipeline (`hs_pipeline` / `pipeline`).
 */
import { z } from 'zod'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { boundedArray, json, noContent, own, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { ACCOUNT } from '../../../shared/crm/account.ts'
import { OBJECT_TYPES } from './object-types.ts'
import { auditOf, auditTable, recordAudit, stageChanges, type AuditAction } from './pipeline-audit.ts'
import {
  findPipeline,
  PIPELINE_PROPERTIES,
  pipelinesOf,
  pipelineTable,
  toPublicPipeline,
  type PipelineObjectType,
  type PipelineRow,
  type PipelineStage,
} from './pipelines.ts'

const stageInput = z.object({
  label: z.string().trim().min(1, 'must not be empty').max(100),
  displayOrder: z.number().int(),
  metadata: z.record(z.string().max(100), z.string().max(100)).default({}),
})
const stageWithId = stageInput.extend({ id: z.string().max(100).optional() })
const pipelineInput = z.object({
  label: z.string().trim().min(1, 'must not be empty').max(100),
  displayOrder: z.number().int(),
  stages: boundedArray(stageWithId, 100, { count: 1, message: 'a pipeline needs at least one stage' }),
})
const pipelinePatch = z.object({ label: pipelineInput.shape.label.optional(), displayOrder: z.number().int().optional(), archived: z.literal(false).optional() })
const stagePatch = z.object({
  label: stageInput.shape.label.optional(),
  displayOrder: z.number().int().optional(),
  metadata: z.record(z.string().max(100), z.string().max(100)).optional(),
  archived: z.literal(false).optional(),
})

function checkMetadata(objectType: PipelineObjectType, metadata: Record<string, string>, label: string): void {
  if (objectType === 'tickets') {
    if (metadata.ticketState !== 'OPEN' && metadata.ticketState !== 'CLOSED') {
      throw validationError(`Stage "${label}": metadata.ticketState must be OPEN or CLOSED.`)
    }
  } else {
    const p = Number(metadata.probability)
    if (metadata.probability === undefined || metadata.probability.trim() === '' || !(p >= 0 && p <= 1)) {
      throw validationError(`Stage "${label}": metadata.probability must be a number from 0.0 to 1.0.`)
    }
  }
}

function checkUniqueLabels(labels: string[], what: string): void {
  const seen = new Set<string>()
  for (const label of labels) {
    const key = label.toLowerCase()
    if (seen.has(key)) throw conflict(`${what} labels must be unique; "${label}" is used twice.`)
    seen.add(key)
  }
}

function pipelineRoutes(deps: ServiceDeps, objectType: PipelineObjectType, base: string): Route[] {
  const { db, objects } = deps
  const table = pipelineTable(db)
  const props = PIPELINE_PROPERTIES[objectType]!
  const read = { kind: 'bearer', scopes: [OBJECT_TYPES[objectType].readScope] } as const
  const write = { kind: 'bearer', scopes: [OBJECT_TYPES[objectType].writeScope] } as const
  const iso = (ctx: RouteContext) => new Date(ctx.now).toISOString()

  const pipelineOr404 = (id: string) => {
    const pipeline = findPipeline(db, objectType, id)
    if (!pipeline) throw notFound(`Unable to find pipeline ${id} for ${objectType}.`)
    return pipeline
  }
  const stageOr404 = (pipeline: PipelineRow, stageId: string) => {
    const stage = pipeline.stages.find((s) => s.id === stageId && !s.archived)
    if (!stage) throw notFound(`Unable to find stage ${stageId} in pipeline ${pipeline.id}.`)
    return stage
  }
  /** How many live records sit in the pipeline (or one of its stages). */
  const usage = (pipelineId: string, stageId?: string) => {
    let count = 0
    for (const record of objects.records(objectType)) {
      if (own(record.properties, props.pipeline) === pipelineId && (stageId === undefined || own(record.properties, props.stage) === stageId)) count++
    }
    return count
  }
  const refuseIfUsed = (pipelineId: string, stageId?: string) => {
    const count = usage(pipelineId, stageId)
    if (count > 0) {
      const what = stageId === undefined ? `Pipeline ${pipelineId}` : `Stage ${stageId} of pipeline ${pipelineId}`
      throw validationError(`${what} still holds ${count} ${objectType}; move them first.`, { context: { records: [String(count)] } })
    }
  }
  const newId = (sequence: string) => {
    for (;;) {
      const id = String(db.nextId(sequence, 1000))
      if (!table.has(`${objectType}:${id}`)) return id
    }
  }
  const buildStage = (input: z.infer<typeof stageWithId>, id: string, now: string, previous?: PipelineStage): PipelineStage => {
    checkMetadata(objectType, input.metadata, input.label)
    return {
      id,
      label: input.label,
      displayOrder: input.displayOrder,
      metadata: input.metadata,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
      archived: false,
      writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
    }
  }
  const checkPipelineLabel = (label: string, exceptId?: string) => {
    const taken = pipelinesOf(db, objectType).some((p) => p.id !== exceptId && p.label.toLowerCase() === label.toLowerCase())
    if (taken) throw conflict(`A ${OBJECT_TYPES[objectType].singular} pipeline labelled "${label}" already exists.`)
  }
  const save = (pipeline: PipelineRow) => {
    table.set(`${objectType}:${pipeline.id}`, pipeline)
    return pipeline
  }
  const sortStages = (stages: PipelineStage[]) => [...stages].sort((a, b) => a.displayOrder - b.displayOrder)
  const audit = (ctx: RouteContext, action: AuditAction, pipeline: PipelineRow, stage?: PipelineStage) =>
    recordAudit(
      db,
      { objectType, timestamp: iso(ctx), portalId: ACCOUNT.hubId, fromUserId: ctx.principal.kind === 'oauth' ? ctx.principal.userId : undefined },
      action,
      pipeline,
      stage,
    )
  /** A pipeline saved after a stage endpoint changed one stage: the stage's entry and the pipeline's. */
  const auditStage = (ctx: RouteContext, action: AuditAction, pipeline: PipelineRow, stage: PipelineStage) => {
    audit(ctx, action, pipeline, stage)
    audit(ctx, 'UPDATE', pipeline)
  }

  return [
    {
      method: 'GET',
      path: base,
      auth: read,
      handler() {
        const pipelines = pipelinesOf(db, objectType).sort((a, b) => a.displayOrder - b.displayOrder)
        return json({ results: pipelines.map(toPublicPipeline) })
      },
    },
    {
      method: 'POST',
      path: base,
      auth: write,
      handler(ctx) {
        const input = parseInput(pipelineInput, ctx.jsonBody())
        checkPipelineLabel(input.label)
        checkUniqueLabels(input.stages.map((s) => s.label), 'Stage')
        const now = iso(ctx)
        const id = newId(`pipelines:${objectType}`)
        const stages = input.stages.map((s) => buildStage(s, newId(`pipeline_stages:${objectType}`), now))
        const pipeline = save({ objectType, id, label: input.label, displayOrder: input.displayOrder, stages: sortStages(stages), createdAt: now, updatedAt: now, archived: false })
        audit(ctx, 'CREATE', pipeline)
        for (const stage of pipeline.stages) audit(ctx, 'CREATE', pipeline, stage)
        return json(toPublicPipeline(pipeline), 201)
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId`,
      auth: read,
      handler(ctx) {
        return json(toPublicPipeline(pipelineOr404(ctx.params.pipelineId!)))
      },
    },
    {
      method: 'PUT',
      path: `${base}/:pipelineId`,
      auth: write,
      handler(ctx) {
        const current = pipelineOr404(ctx.params.pipelineId!)
        const input = parseInput(pipelineInput, ctx.jsonBody())
        checkPipelineLabel(input.label, current.id)
        checkUniqueLabels(input.stages.map((s) => s.label), 'Stage')
        const now = iso(ctx)
        const stages = input.stages.map((s) => {
          const previous = s.id === undefined ? undefined : current.stages.find((old) => old.id === s.id && !old.archived)
          if (s.id !== undefined && !previous) throw validationError(`Stage ${s.id} is not a stage of pipeline ${current.id}; leave "id" out for a new stage.`)
          return buildStage(s, previous?.id ?? newId(`pipeline_stages:${objectType}`), now, previous)
        })
        // Stages left out are removed: only if no record sits in them.
        for (const old of current.stages) if (!old.archived && !stages.some((s) => s.id === old.id)) refuseIfUsed(current.id, old.id)
        const pipeline = save({ ...current, label: input.label, displayOrder: input.displayOrder, stages: sortStages(stages), updatedAt: now })
        audit(ctx, 'UPDATE', pipeline)
        for (const [action, stage] of stageChanges(current.stages.filter((s) => !s.archived), pipeline.stages)) audit(ctx, action, pipeline, stage)
        return json(toPublicPipeline(pipeline))
      },
    },
    {
      method: 'PATCH',
      path: `${base}/:pipelineId`,
      auth: write,
      handler(ctx) {
        const current = pipelineOr404(ctx.params.pipelineId!)
        const input = parseInput(pipelinePatch, ctx.jsonBody())
        if (input.label !== undefined) checkPipelineLabel(input.label, current.id)
        const pipeline = save({
          ...current,
          ...(input.label !== undefined && { label: input.label }),
          ...(input.displayOrder !== undefined && { displayOrder: input.displayOrder }),
          updatedAt: iso(ctx),
        })
        audit(ctx, 'UPDATE', pipeline)
        return json(toPublicPipeline(pipeline))
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:pipelineId`,
      auth: write,
      handler(ctx) {
        const current = pipelineOr404(ctx.params.pipelineId!)
        if (pipelinesOf(db, objectType).length === 1) throw validationError(`Pipeline ${current.id} is the only ${OBJECT_TYPES[objectType].singular} pipeline; it cannot be deleted.`)
        refuseIfUsed(current.id)
        table.delete(`${objectType}:${current.id}`)
        for (const stage of current.stages.filter((s) => !s.archived)) audit(ctx, 'DELETE', current, stage)
        audit(ctx, 'DELETE', current)
        return noContent()
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/stages`,
      auth: read,
      handler(ctx) {
        return json({ results: pipelineOr404(ctx.params.pipelineId!).stages.filter((s) => !s.archived) })
      },
    },
    {
      method: 'POST',
      path: `${base}/:pipelineId/stages`,
      auth: write,
      handler(ctx) {
        const current = pipelineOr404(ctx.params.pipelineId!)
        const input = parseInput(stageInput, ctx.jsonBody())
        const live = current.stages.filter((s) => !s.archived)
        checkUniqueLabels([...live.map((s) => s.label), input.label], 'Stage')
        const now = iso(ctx)
        const stage = buildStage(input, newId(`pipeline_stages:${objectType}`), now)
        auditStage(ctx, 'CREATE', save({ ...current, stages: sortStages([...current.stages, stage]), updatedAt: now }), stage)
        return json(stage, 201)
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/stages/:stageId`,
      auth: read,
      handler(ctx) {
        return json(stageOr404(pipelineOr404(ctx.params.pipelineId!), ctx.params.stageId!))
      },
    },
    ...(['PUT', 'PATCH'] as const).map(
      (method): Route => ({
        method,
        path: `${base}/:pipelineId/stages/:stageId`,
        auth: write,
        handler(ctx) {
          const current = pipelineOr404(ctx.params.pipelineId!)
          const previous = stageOr404(current, ctx.params.stageId!)
          const body = ctx.jsonBody()
          const patch = method === 'PUT' ? parseInput(stageInput, body) : parseInput(stagePatch, body)
          const merged = {
            label: patch.label ?? previous.label,
            displayOrder: patch.displayOrder ?? previous.displayOrder,
            metadata: patch.metadata ?? previous.metadata,
          }
          const others = current.stages.filter((s) => !s.archived && s.id !== previous.id)
          checkUniqueLabels([...others.map((s) => s.label), merged.label], 'Stage')
          const now = iso(ctx)
          const stage = buildStage(merged, previous.id, now, previous)
          auditStage(ctx, 'UPDATE', save({ ...current, stages: sortStages(current.stages.map((s) => (s.id === previous.id ? stage : s))), updatedAt: now }), stage)
          return json(stage)
        },
      }),
    ),
    {
      method: 'DELETE',
      path: `${base}/:pipelineId/stages/:stageId`,
      auth: write,
      handler(ctx) {
        const current = pipelineOr404(ctx.params.pipelineId!)
        const stage = stageOr404(current, ctx.params.stageId!)
        if (current.stages.filter((s) => !s.archived).length === 1) throw validationError(`Stage ${stage.id} is the only stage of pipeline ${current.id}; a pipeline needs at least one.`)
        refuseIfUsed(current.id, stage.id)
        auditStage(ctx, 'DELETE', save({ ...current, stages: current.stages.filter((s) => s.id !== stage.id), updatedAt: iso(ctx) }), stage)
        return noContent()
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/audit`,
      auth: read,
      handler(ctx) {
        return json({ results: auditOf(db, objectType, pipelineOr404(ctx.params.pipelineId!).id) })
      },
    },
    {
      method: 'GET',
      path: `${base}/:pipelineId/stages/:stageId/audit`,
      auth: read,
      handler(ctx) {
        // The official client (14.0.1, PipelineStageAuditsApi.getAudit) leaves `{pipelineId}` unfilled in
        // this path. Stage ids are unique within an account, so a segment that names no pipeline finds the
        // stage by its id in any of the type's pipelines.
        const named = findPipeline(db, objectType, ctx.params.pipelineId!)
        const stageId = ctx.params.stageId!
        const pipeline = named ?? pipelinesOf(db, objectType).find((p) => p.stages.some((s) => s.id === stageId && !s.archived))
        if (!pipeline) throw notFound(`Unable to find pipeline ${ctx.params.pipelineId} for ${objectType}.`)
        return json({ results: auditOf(db, objectType, pipeline.id, stageOr404(pipeline, stageId).id) })
      },
    },
  ]
}

export function pipelinesRoutes(deps: ServiceDeps): Route[] {
  // Declared now, not on first use, so saved data holding a trail loads into a service that never wrote one.
  auditTable(deps.db)
  const routes: Route[] = []
  for (const type of ['tickets', 'deals'] as const) {
    for (const segment of [type, OBJECT_TYPES[type].typeId]) routes.push(...pipelineRoutes(deps, type, `/crm/v3/pipelines/${segment}`))
  }
  return routes
}
