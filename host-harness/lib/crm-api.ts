/**
 * Typed reads of CRM records for the record pages, over the API client
 * (HubSpot v3 shapes: SimplePublicObject, list paging, search).
 */
import { api } from './api-client.ts'
import type { ObjectType } from './crm-types.ts'

export interface AssociatedId {
  id: string
  type: string
}

export interface CrmObject {
  id: string
  properties: Record<string, string | null | undefined>
  createdAt: string
  updatedAt: string
  archived?: boolean
  archivedAt?: string
  associations?: Record<string, { results: AssociatedId[] }>
}

export interface Paging {
  next?: { after: string; link?: string }
}

export interface ListResponse {
  results: CrmObject[]
  paging?: Paging
}

export interface SearchResponse extends ListResponse {
  total: number
}

export interface PropertyDefinition {
  name: string
  label: string
  type: string
  fieldType: string
  groupName?: string
  description?: string
  options?: Array<{ label: string; value: string; hidden?: boolean }>
  hidden?: boolean
  displayOrder?: number
}

/** Record types plus the activities shown on a record's timeline. */
export type AssociatedType = ObjectType | 'calls' | 'notes'

export const objectsPath = (type: AssociatedType) => `/crm/v3/objects/${type}`

export async function listObjects(
  type: ObjectType,
  options: { limit: number; after?: string; properties: readonly string[]; archived?: boolean },
): Promise<ListResponse> {
  return api.get<ListResponse>(objectsPath(type), {
    query: {
      limit: options.limit,
      after: options.after,
      properties: options.properties.join(','),
      archived: options.archived ? 'true' : undefined,
    },
  })
}

export async function searchObjects(
  type: ObjectType,
  options: { query: string; limit: number; after?: string; properties: readonly string[] },
): Promise<SearchResponse> {
  return api.post<SearchResponse>(`${objectsPath(type)}/search`, {
    query: options.query,
    limit: options.limit,
    after: options.after,
    properties: [...options.properties],
  })
}

export async function getObject(
  type: AssociatedType,
  id: string,
  options: { properties?: readonly string[]; associations?: readonly AssociatedType[] } = {},
): Promise<CrmObject> {
  return api.get<CrmObject>(`${objectsPath(type)}/${encodeURIComponent(id)}`, {
    query: {
      properties: options.properties?.join(','),
      associations: options.associations?.join(','),
    },
  })
}

/** Read many records of one type (in chunks of 100, the batch limit). */
export async function batchRead(type: AssociatedType, ids: readonly string[], properties: readonly string[]): Promise<CrmObject[]> {
  const unique = [...new Set(ids)]
  const results: CrmObject[] = []
  for (let i = 0; i < unique.length; i += 100) {
    const inputs = unique.slice(i, i + 100).map((id) => ({ id }))
    const response = await api.post<{ results: CrmObject[] }>(`${objectsPath(type)}/batch/read`, {
      inputs,
      properties: [...properties],
      propertiesWithHistory: [],
    })
    results.push(...response.results)
  }
  return results
}

export async function listProperties(type: AssociatedType): Promise<PropertyDefinition[]> {
  const response = await api.get<{ results: PropertyDefinition[] }>(`/crm/v3/properties/${type}`)
  return response.results
}

/** Ids associated with a record, by target type (from the record's `associations`). */
export function associatedIds(record: CrmObject, type: AssociatedType): string[] {
  const ids = record.associations?.[type]?.results.map((a) => a.id) ?? []
  return [...new Set(ids)]
}

export interface PipelineStage {
  id: string
  label: string
  displayOrder: number
  metadata?: Record<string, string>
}

export interface Pipeline {
  id: string
  label: string
  displayOrder: number
  stages: PipelineStage[]
}

/** The pipelines of a type, in display order. */
export async function listPipelines(objectType: 'tickets' | 'deals'): Promise<Pipeline[]> {
  const response = await api.get<{ results: Pipeline[] }>(`/crm/v3/pipelines/${objectType}`)
  return [...response.results].sort((a, b) => a.displayOrder - b.displayOrder)
}
