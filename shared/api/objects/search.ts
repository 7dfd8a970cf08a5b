/**
 * POST /crm/v3/objects/{type}/search: the request body, its limits, and how
 * a filter matches a record.
 *
 * Matching rules (documented in shared/api/README.md):
 * - Strings compare case-insensitively; numbers numerically; dates and
 *   datetimes as instants (a filter value may be epoch ms or ISO 8601).
 * - Phone numbers (every phone_number property: phone, mobilephone,
 *   hs_call_from_number, hs_call_to_number): EQ, NEQ, IN and NOT_IN compare
 *   digits only, and when both numbers have at least 10 digits only their
 *   last 10, so "+1 (617) 555-0101", "617.555.0101" and "16175550101" are
 *   one number. The host uses this to match a caller's number.
 * - CONTAINS_TOKEN: every word of the value is a word of the property
 *   (words split at spaces and punctuation); `*` is a wildcard matched
 *   against the whole value or any word.
 */
import { z } from 'zod'
import { validationError } from '../errors.ts'
import { parseInput } from '../http.ts'
import type { ObjectType } from './object-types.ts'
import { parseInstant, propertyDefinition, type PropertyDefinition } from './properties.ts'
import type { CrmRecord } from './store.ts'

/** Limits since 2024-08-26 (api-shapes §4). */
export const SEARCH_LIMITS = { filterGroups: 5, filtersPerGroup: 10, filtersTotal: 25, maxLimit: 200, valuesPerFilter: 100 } as const

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
type Operator = (typeof OPERATORS)[number]

const scalar = z.union([z.string(), z.number(), z.boolean()])

const filterSchema = z.object({
  propertyName: z.string().min(1),
  operator: z.enum(OPERATORS),
  value: scalar.optional(),
  highValue: scalar.optional(),
  values: z.array(scalar).max(SEARCH_LIMITS.valuesPerFilter).optional(),
})
type Filter = z.infer<typeof filterSchema>

const sortSchema = z.union([
  z.string().min(1),
  z.object({ propertyName: z.string().min(1), direction: z.enum(['ASCENDING', 'DESCENDING']).optional() }),
])

const searchSchema = z.object({
  filterGroups: z.array(z.object({ filters: z.array(filterSchema) })).optional(),
  sorts: z.array(sortSchema).max(5).optional(),
  query: z.string().max(3000).optional(),
  properties: z.array(z.string()).optional(),
  limit: z.number().int().min(1).max(SEARCH_LIMITS.maxLimit).optional(),
  after: z.union([z.string().regex(/^\d{1,9}$/), z.number().int().min(0).max(999_999_999)]).optional(),
})

export interface SearchRequest {
  filterGroups: Filter[][]
  sorts: Array<{ propertyName: string; descending: boolean }>
  query?: string
  properties?: string[]
  limit: number
  offset: number
}

/** Parse and check a search body: shape, limits, known properties, values the operators need. */
export function parseSearchRequest(objectType: ObjectType, body: unknown): SearchRequest {
  const input = parseInput(searchSchema, body)
  const groups = (input.filterGroups ?? []).map((g) => g.filters)
  if (groups.length > SEARCH_LIMITS.filterGroups) {
    throw validationError(`Too many filterGroups: ${groups.length}; at most ${SEARCH_LIMITS.filterGroups} are allowed.`)
  }
  let total = 0
  for (const [index, filters] of groups.entries()) {
    if (filters.length > SEARCH_LIMITS.filtersPerGroup) {
      throw validationError(
        `Too many filters in filterGroups[${index}]: ${filters.length}; at most ${SEARCH_LIMITS.filtersPerGroup} per group are allowed.`,
      )
    }
    total += filters.length
    for (const filter of filters) checkFilter(objectType, filter)
  }
  if (total > SEARCH_LIMITS.filtersTotal) {
    throw validationError(`Too many filters: ${total} in all; at most ${SEARCH_LIMITS.filtersTotal} are allowed.`)
  }
  const sorts = (input.sorts ?? []).map((s) =>
    typeof s === 'string'
      ? { propertyName: s.replace(/^-/, ''), descending: s.startsWith('-') }
      : { propertyName: s.propertyName, descending: s.direction === 'DESCENDING' },
  )
  for (const sort of sorts) {
    if (!propertyDefinition(objectType, sort.propertyName)) {
      throw validationError(`Cannot sort by "${sort.propertyName}": ${objectType} have no such property.`)
    }
  }
  return {
    filterGroups: groups,
    sorts,
    ...(input.query !== undefined && input.query.trim() !== '' && { query: input.query.trim() }),
    ...(input.properties !== undefined && { properties: input.properties }),
    limit: input.limit ?? 10,
    offset: input.after === undefined ? 0 : Number(input.after),
  }
}

function checkFilter(objectType: ObjectType, filter: Filter): void {
  const def = propertyDefinition(objectType, filter.propertyName)
  if (!def) throw validationError(`Cannot filter on "${filter.propertyName}": ${objectType} have no such property.`)
  const needs = (what: string) => validationError(`Operator ${filter.operator} on "${filter.propertyName}" needs ${what}.`)
  switch (filter.operator) {
    case 'HAS_PROPERTY':
    case 'NOT_HAS_PROPERTY':
      return
    case 'IN':
    case 'NOT_IN':
      if (!filter.values || filter.values.length === 0) throw needs('a non-empty "values" array')
      for (const v of filter.values) comparable(def, v, filter)
      return
    case 'BETWEEN':
      if (filter.value === undefined || filter.highValue === undefined) throw needs('"value" and "highValue"')
      comparable(def, filter.value, filter)
      comparable(def, filter.highValue, filter)
      return
    default:
      if (filter.value === undefined) throw needs('a "value"')
      comparable(def, filter.value, filter)
  }
}

/** A value in comparable form: a number for numeric and date types, else lower-case text. */
function comparable(def: PropertyDefinition, raw: string | number | boolean, filter?: Filter): number | string {
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
    const instant = parseInstant(text.trim())
    if (!instant && filter) throw validationError(`"${text}" is not a date; "${def.name}" takes epoch milliseconds or ISO 8601.`)
    return instant ? instant.getTime() : Number.NaN
  }
  return text.toLowerCase()
}

/** Digits of a phone number, reduced to the last 10 when longer (see the module comment). */
export function phoneKey(value: string): string {
  const digits = value.replace(/\D/g, '')
  return digits.length > 10 ? digits.slice(-10) : digits
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s,;:.!?@()[\]{}"'<>/\\|+&=#-]+/)
    .filter((w) => w.length > 0)
}

function containsToken(value: string, token: string): boolean {
  const pattern = token.toLowerCase()
  if (pattern.includes('*')) {
    const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`)
    return re.test(value.toLowerCase()) || words(value).some((w) => re.test(w))
  }
  const have = new Set(words(value))
  const want = words(pattern)
  return want.length > 0 && want.every((w) => have.has(w))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function matchesFilter(objectType: ObjectType, record: CrmRecord, filter: Filter): boolean {
  const def = propertyDefinition(objectType, filter.propertyName) as PropertyDefinition
  const stored = record.properties[filter.propertyName]
  const op: Operator = filter.operator
  if (op === 'HAS_PROPERTY') return stored !== undefined
  if (op === 'NOT_HAS_PROPERTY') return stored === undefined
  const negated = op === 'NEQ' || op === 'NOT_IN' || op === 'NOT_CONTAINS_TOKEN'
  if (stored === undefined) return negated
  const equal = (raw: string | number | boolean): boolean => {
    if (def.type === 'phone_number') {
      const key = phoneKey(String(raw))
      return key.length > 0 && key === phoneKey(stored)
    }
    return comparable(def, raw) === comparable(def, stored)
  }
  const cmp = (raw: string | number | boolean): number => {
    const a = comparable(def, stored)
    const b = comparable(def, raw)
    return a < b ? -1 : a > b ? 1 : 0
  }
  switch (op) {
    case 'EQ':
      return equal(filter.value as string)
    case 'NEQ':
      return !equal(filter.value as string)
    case 'IN':
      return (filter.values ?? []).some(equal)
    case 'NOT_IN':
      return !(filter.values ?? []).some(equal)
    case 'LT':
      return cmp(filter.value as string) < 0
    case 'LTE':
      return cmp(filter.value as string) <= 0
    case 'GT':
      return cmp(filter.value as string) > 0
    case 'GTE':
      return cmp(filter.value as string) >= 0
    case 'BETWEEN':
      return cmp(filter.value as string) >= 0 && cmp(filter.highValue as string) <= 0
    case 'CONTAINS_TOKEN':
      return containsToken(stored, String(filter.value))
    case 'NOT_CONTAINS_TOKEN':
      return !containsToken(stored, String(filter.value))
  }
}

/** Properties the free-text `query` looks in, per type. */
const QUERY_PROPERTIES: Record<ObjectType, readonly string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'mobilephone', 'company'],
  companies: ['name', 'domain', 'phone', 'website'],
  deals: ['dealname'],
  tickets: ['subject', 'content'],
  calls: ['hs_call_title', 'hs_call_body', 'hs_call_from_number', 'hs_call_to_number'],
  tasks: ['hs_task_subject', 'hs_task_body'],
}

function matchesQuery(objectType: ObjectType, record: CrmRecord, query: string): boolean {
  const needle = query.toLowerCase()
  const digits = /^[\d\s()+.-]+$/.test(query) ? query.replace(/\D/g, '') : ''
  return QUERY_PROPERTIES[objectType].some((name) => {
    const value = record.properties[name]
    if (value === undefined) return false
    if (value.toLowerCase().includes(needle)) return true
    return digits.length >= 3 && propertyDefinition(objectType, name)?.type === 'phone_number' && value.replace(/\D/g, '').includes(digits)
  })
}

/** A record matches when it matches the query (if any) and every filter of at least one group (if any). */
export function matchesSearch(objectType: ObjectType, record: CrmRecord, request: SearchRequest): boolean {
  if (request.query !== undefined && !matchesQuery(objectType, record, request.query)) return false
  if (request.filterGroups.length === 0) return true
  return request.filterGroups.some((filters) => filters.every((f) => matchesFilter(objectType, record, f)))
}

/** Order for the `sorts` of a request; records without the value go last; ties by id. */
export function compareForSearch(objectType: ObjectType, sorts: SearchRequest['sorts']): (a: CrmRecord, b: CrmRecord) => number {
  return (a, b) => {
    for (const sort of sorts) {
      const def = propertyDefinition(objectType, sort.propertyName) as PropertyDefinition
      const va = a.properties[sort.propertyName]
      const vb = b.properties[sort.propertyName]
      if (va === vb) continue
      if (va === undefined) return 1
      if (vb === undefined) return -1
      const ca = comparable(def, va)
      const cb = comparable(def, vb)
      const order = ca < cb ? -1 : ca > cb ? 1 : 0
      if (order !== 0) return sort.descending ? -order : order
    }
    return Number(a.id) - Number(b.id)
  }
}
