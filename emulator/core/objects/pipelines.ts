/**
 * Pipelines and their stages (SPEC PIPE shapes): the ticket pipeline "0" and
 * the deal pipeline "default" of a fresh account. Stored in the database so
 * an export carries them.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import type { ObjectType } from './object-types.ts'

const stageSchema = z.object({
  id: z.string(),
  label: z.string(),
  displayOrder: z.number().int(),
  metadata: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  archived: z.boolean(),
  writePermissions: z.literal('CRM_PERMISSIONS_ENFORCEMENT'),
})
export type PipelineStage = z.infer<typeof stageSchema>

const pipelineSchema = z.object({
  objectType: z.enum(['tickets', 'deals']),
  id: z.string(),
  label: z.string(),
  displayOrder: z.number().int(),
  stages: z.array(stageSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  archived: z.boolean(),
})
export type PipelineRow = z.infer<typeof pipelineSchema>
export type PipelineObjectType = PipelineRow['objectType']

/** The object types that have pipelines, and the property names holding pipeline and stage. */
export const PIPELINE_PROPERTIES: Readonly<Partial<Record<ObjectType, { pipeline: string; stage: string; defaultPipeline: string }>>> = {
  tickets: { pipeline: 'hs_pipeline', stage: 'hs_pipeline_stage', defaultPipeline: '0' },
  deals: { pipeline: 'pipeline', stage: 'dealstage', defaultPipeline: 'default' },
}

export function isPipelineObjectType(type: string): type is PipelineObjectType {
  return type === 'tickets' || type === 'deals'
}

/** Pipelines keyed `${objectType}:${pipelineId}`. */
export function pipelineTable(db: Database): Table<PipelineRow> {
  return db.table('crm_pipelines', pipelineSchema)
}

const EPOCH = new Date(0).toISOString()

function stage(id: string, label: string, displayOrder: number, metadata: Record<string, string>): PipelineStage {
  return { id, label, displayOrder, metadata, createdAt: EPOCH, updatedAt: EPOCH, archived: false, writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT' }
}

/** Default pipelines exist from the start of the account: createdAt is epoch 0 (SPEC PIPE). */
export const DEFAULT_PIPELINES: readonly PipelineRow[] = z.array(pipelineSchema).parse([
  {
    objectType: 'tickets',
    id: '0',
    label: 'Support Pipeline',
    displayOrder: 0,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    archived: false,
    stages: [
      stage('1', 'New', 0, { ticketState: 'OPEN', isClosed: 'false' }),
      stage('2', 'Waiting on contact', 1, { ticketState: 'OPEN', isClosed: 'false' }),
      stage('3', 'Waiting on us', 2, { ticketState: 'OPEN', isClosed: 'false' }),
      stage('4', 'Closed', 3, { ticketState: 'CLOSED', isClosed: 'true' }),
    ],
  },
  {
    objectType: 'deals',
    id: 'default',
    label: 'Sales Pipeline',
    displayOrder: 0,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    archived: false,
    stages: [
      stage('appointmentscheduled', 'Appointment Scheduled', 0, { probability: '0.2', isClosed: 'false' }),
      stage('qualifiedtobuy', 'Qualified To Buy', 1, { probability: '0.4', isClosed: 'false' }),
      stage('presentationscheduled', 'Presentation Scheduled', 2, { probability: '0.6', isClosed: 'false' }),
      stage('decisionmakerboughtin', 'Decision Maker Bought-In', 3, { probability: '0.8', isClosed: 'false' }),
      stage('contractsent', 'Contract Sent', 4, { probability: '0.9', isClosed: 'false' }),
      stage('closedwon', 'Closed Won', 5, { probability: '1.0', isClosed: 'true' }),
      stage('closedlost', 'Closed Lost', 6, { probability: '0.0', isClosed: 'true' }),
    ],
  },
] satisfies PipelineRow[]) // parsed: rows in the schema's key order, as a restored snapshot has them

export function pipelinesOf(db: Database, objectType: PipelineObjectType): PipelineRow[] {
  return [...pipelineTable(db).values()].filter((p) => p.objectType === objectType && !p.archived)
}

export function findPipeline(db: Database, objectType: PipelineObjectType, id: string): PipelineRow | undefined {
  const row = pipelineTable(db).get(`${objectType}:${id}`)
  return row && !row.archived ? row : undefined
}

/** The Pipeline shape of the API (without our objectType key). */
export function toPublicPipeline(row: PipelineRow): Omit<PipelineRow, 'objectType'> {
  const { objectType: _objectType, ...pipeline } = row
  return pipeline
}
