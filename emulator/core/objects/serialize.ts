/**
 * Response shapes of the real object endpoints: SimplePublicObject,
 * SimplePublicObjectWithAssociations, BatchResponse (with errors for 207) and
 * StandardError, built from stored records in one place.
 */
import type { Database } from '../data/db.ts'
import { ApiError } from '../http/errors.ts'
import { own } from '../http/http.ts'
import type { ObjectType } from './object-types.ts'
import { defaultProperties } from './properties.ts'
import { propertyHistory, type CrmRecord, type ValueWithTimestamp } from './crm-record.ts'
import type { ObjectStore } from './object-store.ts'

export interface SimplePublicObject {
  id: string
  properties: Record<string, string>
  propertiesWithHistory?: Record<string, ValueWithTimestamp[]>
  createdAt: string
  updatedAt: string
  archived: boolean
  archivedAt?: string
}

export interface SimplePublicObjectWithAssociations extends SimplePublicObject {
  /** Keyed by the target type's plural name (`contacts`), or a custom type's fullyQualifiedName. */
  associations?: Record<string, { results: Array<{ id: string; type: string }> }>
}

export interface StandardError {
  status: 'error'
  category: string
  subCategory?: string
  message: string
  context: Record<string, string[]>
  errors: Array<{ message: string; code?: string; in?: string; context?: Record<string, string[]> }>
  links: Record<string, string>
}

export interface BatchResponse<T> {
  status: 'COMPLETE'
  results: T[]
  startedAt: string
  completedAt: string
  numErrors?: number
  errors?: StandardError[]
}

/** Which properties to show: the named ones (or the type's defaults), and which with history. */
export interface PropertySelection {
  properties?: readonly string[]
  propertiesWithHistory?: readonly string[]
  /** Show every stored property (create and update responses). */
  all?: boolean
}

/** A record as SimplePublicObject. Properties without a value are left out, as the real API documents, even when asked for by name. */
export function toPublicObject(objectType: ObjectType, record: CrmRecord, selection: PropertySelection = {}): SimplePublicObject {
  const names = selection.all ? Object.keys(record.properties) : (selection.properties ?? defaultProperties(objectType))
  const properties: Record<string, string> = {}
  for (const name of names) {
    const value = own(record.properties, name)
    if (value !== undefined) properties[name] = value
  }
  const result: SimplePublicObject = {
    id: record.id,
    properties,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    archived: record.archived,
    ...(record.archivedAt !== undefined && { archivedAt: record.archivedAt }),
  }
  if (selection.propertiesWithHistory && selection.propertiesWithHistory.length > 0) {
    const history: Record<string, ValueWithTimestamp[]> = {}
    for (const name of selection.propertiesWithHistory) {
      const values = propertyHistory(record, name)
      if (values && values.length > 0) history[name] = [...values]
    }
    result.propertiesWithHistory = history
  }
  return result
}

/** The record plus its associations with each of `toTypes` that has any. */
export function withAssociations(
  objects: ObjectStore,
  objectType: ObjectType,
  record: CrmRecord,
  selection: PropertySelection,
  toTypes: readonly ObjectType[],
): SimplePublicObjectWithAssociations {
  const result: SimplePublicObjectWithAssociations = toPublicObject(objectType, record, selection)
  if (record.archived) return result
  const associations: NonNullable<SimplePublicObjectWithAssociations['associations']> = {}
  for (const toType of toTypes) {
    const linked = objects.associations(objectType, record.id, toType)
    if (linked.length === 0) continue
    associations[objects.customTypes.keyOf(toType)] = {
      results: linked.flatMap((a) => a.typeIds.map((typeId) => ({ id: a.id, type: objects.associationTypeFrom(objectType, typeId)?.name ?? String(typeId) }))),
    }
  }
  if (Object.keys(associations).length > 0) result.associations = associations
  return result
}

export function toStandardError(error: ApiError, extraContext: Record<string, string[]> = {}): StandardError {
  return {
    status: 'error',
    category: error.category,
    ...(error.options.subCategory !== undefined && { subCategory: error.options.subCategory }),
    message: error.message,
    context: { ...error.options.context, ...extraContext },
    errors: error.options.errors ?? [],
    links: error.options.links ?? {},
  }
}

/**
 * Run `step` on each input of a batch in its own all-or-nothing attempt:
 * its result, or its ApiError as a StandardError carrying the input's index
 * (the real API's per-input errors of a 207); nothing of a failed input is
 * left. Any other error propagates.
 */
export function eachInput<I, R>(db: Database, inputs: readonly I[], step: (input: I) => R): { results: R[]; errors: StandardError[] } {
  const results: R[] = []
  const errors: StandardError[] = []
  for (const [index, input] of inputs.entries()) {
    try {
      results.push(db.attempt(() => step(input)))
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      errors.push(toStandardError(error, { inputIndex: [String(index)] }))
    }
  }
  return { results, errors }
}

export function batchResponse<T>(results: T[], errors: StandardError[], startedAt: number, completedAt: number): BatchResponse<T> {
  return {
    status: 'COMPLETE',
    results,
    startedAt: new Date(startedAt).toISOString(),
    completedAt: new Date(completedAt).toISOString(),
    // An OBJECT_NOT_FOUND error lists several inputs in context.ids; each counts.
    ...(errors.length > 0 && { numErrors: errors.reduce((n, e) => n + (e.context.ids?.length ?? 1), 0), errors }),
  }
}
