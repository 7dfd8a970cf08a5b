/**
 * The audit trail of pipelines and their stages: one entry per change made
 * through the pipelines API (create, update, delete of a pipeline or of a
 * stage), as `GET /crm/v3/pipelines/{type}/{pipelineId}/audit` and
 * `…/stages/{stageId}/audit` return them, newest first, in the real API's
 * PublicAuditInfo shape: `{identifier, action, timestamp, portalId,
 * fromUserId?, message, rawObject}`. `identifier` is the id of the pipeline or
 * stage changed; `rawObject` is it after the change (before it, for a delete).
 *
 * Stored in the database, so the trail survives restarts and travels in an
 * export. The default pipelines of a fresh account have no entries (HubSpot
 * made them). At most AUDIT_LIMIT entries are kept per pipeline, oldest
 * dropped first.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import type { PipelineObjectType, PipelineRow, PipelineStage } from './pipelines.ts'

/** Most entries kept per pipeline (its stages' included). */
export const AUDIT_LIMIT = 500

export type AuditAction = 'CREATE' | 'UPDATE' | 'DELETE'

const entrySchema = z.object({
  objectType: z.enum(['tickets', 'deals']),
  pipelineId: z.string(),
  stageId: z.string().optional(),
  action: z.enum(['CREATE', 'UPDATE', 'DELETE']),
  timestamp: z.string(),
  portalId: z.number().int(),
  fromUserId: z.number().int().optional(),
  message: z.string(),
  rawObject: z.record(z.string(), z.unknown()),
})
export type AuditEntry = z.infer<typeof entrySchema>

export function auditTable(db: Database): Table<AuditEntry> {
  return db.table('crm_pipeline_audit', entrySchema)
}

export interface AuditContext {
  objectType: PipelineObjectType
  timestamp: string
  portalId: number
  fromUserId: number | undefined
}

/** Record one change of a pipeline (no stage) or of one of its stages. */
export function recordAudit(db: Database, at: AuditContext, action: AuditAction, pipeline: PipelineRow, stage?: PipelineStage): void {
  const table = auditTable(db)
  const { objectType: _type, ...rawPipeline } = pipeline
  const what = stage ? `Stage ${stage.id} ("${stage.label}") of pipeline ${pipeline.id}` : `Pipeline ${pipeline.id} ("${pipeline.label}")`
  const verb = { CREATE: 'created', UPDATE: 'updated', DELETE: 'deleted' }[action]
  table.set(String(db.nextId('crm_pipeline_audit')), {
    objectType: at.objectType,
    pipelineId: pipeline.id,
    ...(stage && { stageId: stage.id }),
    action,
    timestamp: at.timestamp,
    portalId: at.portalId,
    ...(at.fromUserId !== undefined && { fromUserId: at.fromUserId }),
    message: `${what} ${verb} through the API.`,
    rawObject: stage ? { ...stage } : rawPipeline,
  })
  // The oldest entries of this pipeline beyond the limit go.
  const mine = [...table.entries()].filter(([, e]) => e.objectType === at.objectType && e.pipelineId === pipeline.id)
  for (const [key] of mine.slice(0, Math.max(0, mine.length - AUDIT_LIMIT))) table.delete(key)
}

/** The stage changes (CREATE, UPDATE, DELETE) that turn `before`'s stages into `after`'s. */
export function stageChanges(before: readonly PipelineStage[], after: readonly PipelineStage[]): Array<[AuditAction, PipelineStage]> {
  const changes: Array<[AuditAction, PipelineStage]> = []
  for (const stage of after) {
    const old = before.find((s) => s.id === stage.id)
    if (!old) changes.push(['CREATE', stage])
    else if (JSON.stringify(old) !== JSON.stringify(stage)) changes.push(['UPDATE', stage])
  }
  for (const old of before) if (!after.some((s) => s.id === old.id)) changes.push(['DELETE', old])
  return changes
}

/** PublicAuditInfo entries of a pipeline (every entry) or of one stage, newest first. */
export function auditOf(db: Database, objectType: PipelineObjectType, pipelineId: string, stageId?: string) {
  return [...auditTable(db).values()]
    .filter((e) => e.objectType === objectType && e.pipelineId === pipelineId && (stageId === undefined ? e.stageId === undefined : e.stageId === stageId))
    .reverse()
    .map((e) => ({
      identifier: e.stageId ?? e.pipelineId,
      action: e.action,
      timestamp: e.timestamp,
      portalId: e.portalId,
      ...(e.fromUserId !== undefined && { fromUserId: e.fromUserId }),
      message: e.message,
      rawObject: e.rawObject,
    }))
}
