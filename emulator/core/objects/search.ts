/**
 * POST /crm/v3/objects/{type}/search: the request body, its limits, and how
 * a filter matches a record.
 *
 * Matching rules (documented in emulator/core/README.md):
 * - Strings compare case-insensitively; numbers numerically; dates and
 *   datetimes as instants (a filter value may be epoch ms or ISO 8601).
 * - Phone numbers (every phone_number property: phone, mobilephone,
 *   hs_call_from_number, hs_call_to_number): EQ, NEQ, IN and NOT_IN compare
 *   the numbers, not the text: "+1 (617) 555-0101", "617.555.0101" and
 *   "16175550101" are one number, "+44 617 555 0101" another (shared/crm/phone.ts,
 *   the same rule the host's caller-ID match uses).
 * - CONTAINS_TOKEN: every word of the value is a word of the property
 *   (words split at spaces and punctuation); `*` is a wildcard matched
 *   against the whole value or any word. Wildcards are matched by plain
 *   substring search, never by a regular expression built from the value,
 *   so a hostile pattern (`*a*a*a*…b`) costs linear time.
 *
 * - Associations: the pseudo-property `associations.<type>` (the singular
 *   name of a built-in type: `associations.contact`, `associations.deal`)
 *   filters by associated record
 *   (https://developers.hubspot.com/docs/guides/api/crm/search#search-through-associations):
 *   EQ and IN name record ids, a record matching when it is associated with
 *   one of them; NEQ and NOT_IN match records associated with none of them;
 *   HAS_PROPERTY and NOT_HAS_PROPERTY whether it has any association of that
 *   type. Only live records count on either side. The real API does not search
 *   through custom object associations, and neither does this.
 *
 * Every filter is compiled once per request (its values put in comparable
 * form up front), so a search costs one pass over the records.
 */
import { z } from 'zod'
import { validationError } from '../http/errors.ts'
import { boundedArray, own, parseInput } from '../http/http.ts'
import { isBuiltinType, OBJECT_TYPES, type BuiltinObjectType, type ObjectType } from './object-types.ts'
import { propertyDefinition, type PropertyDefinition } from './properties.ts'
import { phoneDigits, phoneMatcher } from '../../../shared/crm/phone.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import type { CrmRecord } from './object-store.ts'
import type { RecordSearchIndex } from './search-index.ts'

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
type Operator = (typeof OPERATORS)[number]

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
type Filter = z.infer<typeof filterSchema>

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

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s,;:.!?@()[\]{}"'<>/\\|+&=#-]+/)
    .filter((w) => w.length > 0)
}

/**
 * Whether `text` matches a pattern in which `*` stands for any run of
 * characters, given as the pattern's pieces between the stars (`parts`,
 * at least two). The first piece must start the text, the last end it, and
 * the others are found left to right, each at its first place after the
 * previous one: taking the first place is always safe, so there is no
 * backtracking and the cost is a few substring searches over the text.
 */
export function wildcardMatch(text: string, parts: readonly string[]): boolean {
  const first = parts[0] as string
  const last = parts[parts.length - 1] as string
  if (text.length < first.length + last.length) return false
  if (!text.startsWith(first) || !text.endsWith(last)) return false
  let from = first.length
  const end = text.length - last.length
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string
    if (part.length === 0) continue
    const at = text.indexOf(part, from)
    if (at < 0 || at + part.length > end) return false
    from = at + part.length
  }
  return true
}

/** A CONTAINS_TOKEN test for one filter value, prepared once per request. */
function tokenMatcher(token: string): (value: string) => boolean {
  const pattern = token.toLowerCase()
  if (pattern.includes('*')) {
    const parts = pattern.split('*')
    const [first, last] = [parts[0] as string, parts[parts.length - 1] as string]
    return (value) => {
      // One star (`tick*`, `*@contoso.example`): only the ends of the value matter, so only they are lower-cased.
      if (parts.length === 2 && value.length >= first.length + last.length) {
        if (value.slice(0, first.length).toLowerCase() === first && value.slice(value.length - last.length).toLowerCase() === last) return true
      }
      const lower = value.toLowerCase()
      return wildcardMatch(lower, parts) || words(lower).some((w) => wildcardMatch(w, parts))
    }
  }
  const want = words(pattern)
  return (value) => {
    if (want.length === 0) return false
    const have = new Set(words(value))
    return want.every((w) => have.has(w))
  }
}

type RecordTest = (record: CrmRecord) => boolean

/** Rough cost of each operator per record, to run cheap tests first. */
const COST: Record<Operator, number> = {
  HAS_PROPERTY: 0,
  NOT_HAS_PROPERTY: 0,
  EQ: 1,
  NEQ: 1,
  IN: 2,
  NOT_IN: 2,
  LT: 2,
  LTE: 2,
  GT: 2,
  GTE: 2,
  BETWEEN: 2,
  CONTAINS_TOKEN: 3,
  NOT_CONTAINS_TOKEN: 3,
}

/** The associations a search reads. */
export interface AssociationSource {
  /** Whether a record is associated with a live record of `toType` (one of `among`, when given). */
  isLinkedTo(objectType: ObjectType, id: string, toType: ObjectType, among?: ReadonlySet<string>): boolean
}

/** An association filter as a test on a record of `objectType`. */
function compileAssociationFilter(filter: AssociationFilter, objectType: ObjectType, links: AssociationSource): RecordTest {
  const to = filter.association
  if (filter.operator === 'HAS_PROPERTY') return (r) => links.isLinkedTo(objectType, r.id, to)
  if (filter.operator === 'NOT_HAS_PROPERTY') return (r) => !links.isLinkedTo(objectType, r.id, to)
  const wanted = new Set(filter.ids)
  if (filter.operator === 'EQ' || filter.operator === 'IN') return (r) => links.isLinkedTo(objectType, r.id, to, wanted)
  return (r) => !links.isLinkedTo(objectType, r.id, to, wanted)
}

/** One filter as a test on a record, with its values converted once. */
function compileFilter(filter: ResolvedFilter, objectType: ObjectType, links: AssociationSource): RecordTest {
  if (filter.association !== undefined) return compileAssociationFilter(filter, objectType, links)
  const def = filter.def
  const name = filter.propertyName
  const op: Operator = filter.operator
  if (op === 'HAS_PROPERTY') return (r) => own(r.properties, name) !== undefined
  if (op === 'NOT_HAS_PROPERTY') return (r) => own(r.properties, name) === undefined
  const negated = op === 'NEQ' || op === 'NOT_IN' || op === 'NOT_CONTAINS_TOKEN'
  const withValue = (test: (stored: string) => boolean): RecordTest => (r) => {
    const stored = own(r.properties, name)
    return stored === undefined ? negated : test(stored)
  }
  if (op === 'CONTAINS_TOKEN' || op === 'NOT_CONTAINS_TOKEN') {
    const matches = tokenMatcher(String(filter.value))
    return withValue(op === 'CONTAINS_TOKEN' ? matches : (v) => !matches(v))
  }
  if (def.type === 'phone_number' && (op === 'EQ' || op === 'NEQ' || op === 'IN' || op === 'NOT_IN')) {
    const matchers = (op === 'EQ' || op === 'NEQ' ? [filter.value] : (filter.values ?? [])).map((v) => phoneMatcher(String(v)))
    const isAny = (stored: string) => matchers.some((same) => same(stored))
    return withValue(op === 'EQ' || op === 'IN' ? isAny : (v) => !isAny(v))
  }
  const cmp = (stored: string, wanted: number | string) => {
    const a = comparable(def, stored)
    return a < wanted ? -1 : a > wanted ? 1 : 0
  }
  const isEqual = (wanted: number | string, stored: string) => wanted === comparable(def, stored)
  const value = filter.value === undefined ? undefined : comparable(def, filter.value)
  const low = value
  const high = filter.highValue === undefined ? undefined : comparable(def, filter.highValue)
  const values = (filter.values ?? []).map((v) => comparable(def, v))
  switch (op) {
    case 'EQ':
      return withValue((v) => isEqual(value as string | number, v))
    case 'NEQ':
      return withValue((v) => !isEqual(value as string | number, v))
    case 'IN':
      return withValue((v) => values.some((w) => isEqual(w, v)))
    case 'NOT_IN':
      return withValue((v) => !values.some((w) => isEqual(w, v)))
    case 'LT':
      return withValue((v) => cmp(v, low as string | number) < 0)
    case 'LTE':
      return withValue((v) => cmp(v, low as string | number) <= 0)
    case 'GT':
      return withValue((v) => cmp(v, low as string | number) > 0)
    case 'GTE':
      return withValue((v) => cmp(v, low as string | number) >= 0)
    case 'BETWEEN':
      return withValue((v) => cmp(v, low as string | number) >= 0 && cmp(v, high as string | number) <= 0)
  }
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

/** The free-text query as a test: a case-insensitive substring of a query property, or 3+ digits within a phone number's digits. */
function queryTest(query: string, fields: readonly QueryField[]): RecordTest {
  const needle = query.toLowerCase()
  const digits = /^[\d\s()+.-]+$/.test(query) ? phoneDigits(query) : ''
  return (record) =>
    fields.some((field) => {
      const value = own(record.properties, field.name)
      if (value === undefined) return false
      if (value.toLowerCase().includes(needle)) return true
      return digits.length >= 3 && field.phone && phoneDigits(value).includes(digits)
    })
}

/** Rough cost of a filter per record: an association filter reads the record's associations first. */
const costOf = (filter: ResolvedFilter) => COST[filter.operator] + (filter.association === undefined ? 0 : 3)

/**
 * The test a record must pass: the query (if any) and every filter of at
 * least one group (if any). Build it once per request, then run it per record.
 */
export function searchPredicate(request: SearchRequest, fields: readonly QueryField[], links: AssociationSource): RecordTest {
  // Filters of a group are ANDed, so their order does not change the answer: cheap tests go first.
  const groups = request.filterGroups.map((filters) =>
    [...filters].sort((a, b) => costOf(a) - costOf(b)).map((filter) => compileFilter(filter, request.objectType, links)),
  )
  const query = request.query === undefined ? undefined : queryTest(request.query, fields)
  return (record) => {
    if (query !== undefined && !query(record)) return false
    if (groups.length === 0) return true
    return groups.some((tests) => tests.every((test) => test(record)))
  }
}

/**
 * `records` in the order of the request's `sorts`: records without the
 * value go last (in either direction); ties by id. Each record's sort
 * values are put in comparable form once, not at every comparison.
 */
export function sortForSearch(records: readonly CrmRecord[], sorts: SearchRequest['sorts']): CrmRecord[] {
  const n = records.length
  const k = sorts.length
  // Record i's value of sort s is at i * k + s: as stored (to spot equal values and missing ones) and comparable.
  const raw: Array<string | undefined> = new Array<string | undefined>(n * k)
  const keys: Array<string | number> = new Array<string | number>(n * k)
  const ids = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const record = records[i]!
    ids[i] = Number(record.id)
    for (let s = 0; s < k; s++) {
      const value = own(record.properties, sorts[s]!.propertyName)
      raw[i * k + s] = value
      if (value !== undefined) keys[i * k + s] = comparable(sorts[s]!.def, value)
    }
  }
  const descending = sorts.map((sort) => sort.descending)
  const order = Array.from({ length: n }, (_, i) => i)
  order.sort((a, b) => {
    for (let s = 0; s < k; s++) {
      const va = raw[a * k + s]
      const vb = raw[b * k + s]
      if (va === vb) continue
      if (va === undefined) return 1
      if (vb === undefined) return -1
      const ca = keys[a * k + s]!
      const cb = keys[b * k + s]!
      const cmp = ca < cb ? -1 : ca > cb ? 1 : 0
      if (cmp !== 0) return descending[s] ? -cmp : cmp
    }
    return ids[a]! - ids[b]!
  })
  return order.map((i) => records[i]!)
}

/** What a search needs of the store: a type's live records in id order, by id, by position, their associations, and the type's search index. */
export interface SearchSource extends AssociationSource {
  records(objectType: ObjectType): Iterable<CrmRecord>
  get(objectType: ObjectType, id: string): CrmRecord | undefined
  count(objectType: ObjectType): number
  recordAt(objectType: ObjectType, position: number): CrmRecord | undefined
  searchIndex(objectType: ObjectType, fields: readonly QueryField[]): RecordSearchIndex
}

/**
 * Run a search over a type's live records: every match counted (`total`),
 * the page `offset`..`offset + limit` returned. With no filter, query or
 * sort the answer is the table's own order (ids ascending), read by
 * position; else the indexes name the candidates (see search-index.ts), or
 * every record is tested when they cannot.
 */
export function runSearch(
  source: SearchSource,
  objectType: ObjectType,
  request: SearchRequest,
  queryProperties: readonly string[] = [],
): { total: number; page: CrmRecord[] } {
  const end = request.offset + request.limit
  if (request.filterGroups.length === 0 && request.query === undefined && request.sorts.length === 0) {
    const total = source.count(objectType)
    const page: CrmRecord[] = []
    for (let i = request.offset; i < Math.min(end, total); i++) page.push(source.recordAt(objectType, i)!)
    return { total, page }
  }
  const fields = queryFields(objectType, queryProperties)
  const test = searchPredicate(request, fields, source)
  const ids = source.searchIndex(objectType, fields).candidates(request, fields)
  const candidates: Iterable<CrmRecord> = ids === undefined ? source.records(objectType) : ids.map((id) => source.get(objectType, id)!)
  if (request.sorts.length > 0) {
    const matches: CrmRecord[] = []
    for (const record of candidates) if (test(record)) matches.push(record)
    return { total: matches.length, page: sortForSearch(matches, request.sorts).slice(request.offset, end) }
  }
  // In id order: count every match, keep only the page's.
  const page: CrmRecord[] = []
  let total = 0
  for (const record of candidates) {
    if (!test(record)) continue
    if (total >= request.offset && total < end) page.push(record)
    total++
  }
  return { total, page }
}
