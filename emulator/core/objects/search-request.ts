/**
 * POST /crm/v3/objects/{type}/search: the request body, its limits, the
 * filters resolved against the type's properties, the values put in
 * comparable form, and the properties the free-text `query` looks in. How a
 * filter matches a record is in search-match.ts; running a search over the
 * store in search.ts.
 */
import { z } from 'zod'
import { validationError } from '../http/errors.ts'
import { boundedArray, parseInput } from '../http/http.ts'
import { isBuiltinType, OBJECT_TYPES, type BuiltinObjectType, type ObjectType } from './object-types.ts'
import { propertyDefinition, type PropertyDefinition } from './properties.ts'
import { parseInstant } from '../../../shared/crm/time.ts'

/**
 * The real API's limits: filter groups and filters as raised on 2024-08-26
 * (https://developers.hubspot.com/changelog/breaking-change-expanded-filtering-capabilities-and-error-messaging-in-hubspots-search-api),
 * 200 results a page, 100 `values` per filter, 3,000 characters per query or filter value.
 */
export const SEARCH_LIMITS = {
  filterGroups: 5,
  filtersPerGroup: 10,
  filtersTotal: 25,
  maxLimit: 200,
  valuesPerFilter: 100,
  valueLength: 3000,
} as const

export const OPERATORS = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const
export type Operator = (typeof OPERATORS)[number]

const scalar = z.union([
  z.string().max(SEARCH_LIMITS.valueLength, `must be at most ${SEARCH_LIMITS.valueLength} characters`),
  z.number(),
  z.boolean(),
])

const filterSchema = z.object({
  propertyName: z.string().min(1),
  operator: z.enum(OPERATORS),
  value: scalar.optional(),
  highValue: scalar.optional(),
  values: boundedArray(scalar, SEARCH_LIMITS.valuesPerFilter).optional(),
})
export type Filter = z.infer<typeof filterSchema>

const sortSchema = z.union([
  z.string().min(1),
  z.object({ propertyName: z.string().min(1), direction: z.enum(['ASCENDING', 'DESCENDING']).optional() }),
])

const searchSchema = z.object({
  filterGroups: z.array(z.object({ filters: z.array(filterSchema) })).optional(),
  sorts: boundedArray(sortSchema, 5).optional(),
  query: z.string().max(SEARCH_LIMITS.valueLength, `must be at most ${SEARCH_LIMITS.valueLength} characters`).optional(),
  properties: z.array(z.string()).optional(),
  limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
  after: z.union([z.string().regex(/^\d{1,9}$/), z.number().int().min(0).max(999_999_999)]).optional(),
})

/** A filter on a property, with the property's definition, resolved when the request is parsed. */
export type PropertyFilter = Filter & { def: PropertyDefinition; association?: undefined }
/** A filter on `associations.<type>`: the associated type and the record ids it names (canonical, for EQ, NEQ, IN and NOT_IN). */
export type AssociationFilter = Filter & { association: BuiltinObjectType; ids: readonly string[]; def?: undefined }
export type ResolvedFilter = PropertyFilter | AssociationFilter

/** The prefix of the association pseudo-properties (`associations.contact`). */
const ASSOCIATIONS_PREFIX = 'associations.'
/** The operators a filter on an association takes. */
const ASSOCIATION_OPERATORS: readonly Operator[] = ['EQ', 'NEQ', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY']

/** The account's property definitions of one type (built-in and custom). */
export type PropertyLookup = (name: string) => PropertyDefinition | undefined

export interface SearchRequest {
  objectType: ObjectType
  filterGroups: ResolvedFilter[][]
  sorts: Array<{ propertyName: string; descending: boolean; def: PropertyDefinition }>
  query?: string
  properties?: string[]
  limit: number
  offset: number
}

/** Parse and check a search body: shape, limits, known properties, values the operators need. */
export function parseSearchRequest(objectType: ObjectType, body: unknown, lookup: PropertyLookup): SearchRequest {
  const input = parseInput(searchSchema, body)
  const rawGroups = (input.filterGroups ?? []).map((g) => g.filters)
  if (rawGroups.length > SEARCH_LIMITS.filterGroups) {
    throw validationError(`Too many filterGroups: ${rawGroups.length}; at most ${SEARCH_LIMITS.filterGroups} are allowed.`)
  }
  let total = 0
  for (const [index, filters] of rawGroups.entries()) {
    if (filters.length > SEARCH_LIMITS.filtersPerGroup) {
      throw validationError(
        `Too many filters in filterGroups[${index}]: ${filters.length}; at most ${SEARCH_LIMITS.filtersPerGroup} per group are allowed.`,
      )
    }
    total += filters.length
  }
  if (total > SEARCH_LIMITS.filtersTotal) {
    throw validationError(`Too many filters: ${total} in all; at most ${SEARCH_LIMITS.filtersTotal} are allowed.`)
  }
  const groups = rawGroups.map((filters) => filters.map((filter) => checkFilter(objectType, filter, lookup)))
  const sorts = (input.sorts ?? []).map((s) => {
    const sort =
      typeof s === 'string'
        ? { propertyName: s.replace(/^-/, ''), descending: s.startsWith('-') }
        : { propertyName: s.propertyName, descending: s.direction === 'DESCENDING' }
    const def = lookup(sort.propertyName)
    if (!def) throw validationError(`Cannot sort by "${sort.propertyName}": ${objectType} have no such property.`)
    return { ...sort, def }
  })
  return {
    objectType,
    filterGroups: groups,
    sorts,
    ...(input.query !== undefined && input.query.trim() !== '' && { query: input.query.trim() }),
    ...(input.properties !== undefined && { properties: input.properties }),
    limit: input.limit ?? 10,
    offset: input.after === undefined ? 0 : Number(input.after),
  }
}

function checkFilter(objectType: ObjectType, filter: Filter, lookup: PropertyLookup): ResolvedFilter {
  if (filter.propertyName.startsWith(ASSOCIATIONS_PREFIX)) return checkAssociationFilter(objectType, filter)
  const def = lookup(filter.propertyName)
  if (!def) throw validationError(`Cannot filter on "${filter.propertyName}": ${objectType} have no such property.`)
  const resolved = { ...filter, def }
  const needs = (what: string) => validationError(`Operator ${filter.operator} on "${filter.propertyName}" needs ${what}.`)
  switch (filter.operator) {
    case 'HAS_PROPERTY':
    case 'NOT_HAS_PROPERTY':
      return resolved
    case 'IN':
    case 'NOT_IN':
      if (!filter.values || filter.values.length === 0) throw needs('a non-empty "values" array')
      for (const v of filter.values) comparable(def, v, filter)
      return resolved
    case 'BETWEEN':
      if (filter.value === undefined || filter.highValue === undefined) throw needs('"value" and "highValue"')
      comparable(def, filter.value, filter)
      comparable(def, filter.highValue, filter)
      return resolved
    default:
      if (filter.value === undefined) throw needs('a "value"')
      comparable(def, filter.value, filter)
      return resolved
  }
}

/** A record id as the store keys records (canonical digits), or undefined for a value that names no record. */
function recordId(raw: string | number | boolean): string | undefined {
  const text = String(raw).trim()
  if (!/^\d{1,16}$/.test(text)) return undefined
  const n = Number(text)
  return n > 0 && Number.isSafeInteger(n) ? String(n) : undefined
}

function checkAssociationFilter(objectType: ObjectType, filter: Filter): AssociationFilter {
  const name = filter.propertyName.slice(ASSOCIATIONS_PREFIX.length)
  const target = Object.values(OBJECT_TYPES).find((info) => info.singular === name)?.name
  if (target === undefined) {
    const singulars = Object.values(OBJECT_TYPES).map((info) => `${ASSOCIATIONS_PREFIX}${info.singular}`)
    throw validationError(
      `Cannot filter on "${filter.propertyName}": associations are searched by ${singulars.join(', ')} (not through custom object associations).`,
    )
  }
  if (!isBuiltinType(objectType)) throw validationError(`Cannot filter on "${filter.propertyName}": searching through associations is not supported for custom objects.`)
  if (!ASSOCIATION_OPERATORS.includes(filter.operator)) {
    throw validationError(`Operator ${filter.operator} is not supported on "${filter.propertyName}"; use one of ${ASSOCIATION_OPERATORS.join(', ')}.`)
  }
  const needs = (what: string) => validationError(`Operator ${filter.operator} on "${filter.propertyName}" needs ${what}.`)
  let wanted: ReadonlyArray<string | number | boolean> = []
  if (filter.operator === 'IN' || filter.operator === 'NOT_IN') {
    if (!filter.values || filter.values.length === 0) throw needs('a non-empty "values" array')
    wanted = filter.values
  } else if (filter.operator === 'EQ' || filter.operator === 'NEQ') {
    if (filter.value === undefined) throw needs('a "value"')
    wanted = [filter.value]
  }
  const ids = wanted.map(recordId).filter((id) => id !== undefined)
  return { ...filter, association: target, ids }
}

/** A value in comparable form: a number for numeric and date types, else lower-case text. */
export function comparable(def: PropertyDefinition, raw: string | number | boolean, filter?: Filter): number | string {
  const text = String(raw)
  if (def.type === 'number') {
    const n = Number(text)
    if (text.trim() === '' || !Number.isFinite(n)) {
      if (filter) throw validationError(`"${text}" is not a number; "${def.name}" is a number property.`)
      return Number.NaN
    }
    return n
  }
  if (def.type === 'datetime' || def.type === 'date') {
    const instant = parseInstant(text)
    if (instant === undefined && filter) throw validationError(`"${text}" is not a date; "${def.name}" takes epoch milliseconds or ISO 8601.`)
    return instant ?? Number.NaN
  }
  return text.toLowerCase()
}

/** Properties the free-text `query` looks in, per type. */
const QUERY_PROPERTIES: Record<BuiltinObjectType, readonly string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'company'],
  companies: ['name', 'domain', 'phone', 'website'],
  deals: ['dealname'],
  tickets: ['subject', 'content'],
  calls: ['hs_call_title', 'hs_call_body', 'hs_call_from_number', 'hs_call_to_number'],
  tasks: ['hs_task_subject', 'hs_task_body'],
  notes: ['hs_note_body'],
}

/** A property the free-text query looks in; a phone number also matches by its digits. */
export interface QueryField {
  name: string
  phone: boolean
}

/**
 * The properties `query` looks in: the type's main text properties; a
 * custom type names its own (its schema's searchableProperties) in
 * `queryProperties`. A phone number also matches by its digits.
 */
export function queryFields(objectType: ObjectType, queryProperties: readonly string[] = []): QueryField[] {
  const names = isBuiltinType(objectType) ? QUERY_PROPERTIES[objectType] : queryProperties
  return names.map((name) => ({ name, phone: propertyDefinition(objectType, name)?.type === 'phone_number' }))
}
