/**
 * Running a search over a type's live records (POST /crm/v3/objects/{type}/search):
 * the candidates the indexes name (search-index.ts), the compiled test
 * (search-match.ts), the sort and the page.
 */
import { own } from '../http/http.ts'
import type { ObjectType } from './object-types.ts'
import type { CrmRecord } from './crm-record.ts'
import { searchPredicate, type AssociationSource } from './search-match.ts'
import { comparable, queryFields, type QueryField, type SearchRequest } from './search-request.ts'
import type { RecordSearchIndex } from './search-index.ts'

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
