/**
 * POST /crm/v3/objects/{type}/search: how a filter and the free-text query
 * match a record (the request itself is parsed in search-request.ts).
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
import { own } from '../http/http.ts'
import type { ObjectType } from './object-types.ts'
import { phoneDigits, phoneMatcher } from '../../../shared/crm/phone.ts'
import type { CrmRecord } from './crm-record.ts'
import { comparable, type AssociationFilter, type Operator, type QueryField, type ResolvedFilter, type SearchRequest } from './search-request.ts'

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

export type RecordTest = (record: CrmRecord) => boolean

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
