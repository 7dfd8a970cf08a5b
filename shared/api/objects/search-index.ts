/**
 * Indexes of one type's live records for the search API, kept in step with
 * the table by `Table.addIndex` (every write, every undo, every load).
 *
 * An index only narrows: it yields candidates, a superset of the records
 * that can match, and the search still runs the full test on each one. So a
 * search answers exactly what the scan of every record answers, and a
 * request that no index can narrow simply scans (`candidates` → undefined).
 *
 * - Lookup properties (e-mail, domain, phone numbers, properties named
 *   `…_id`): a hash from the value, in the form EQ and IN compare, to the
 *   records holding it. Phone numbers are keyed by their last four digits
 *   (a number EQ matches always contains the last four digits of the
 *   wanted one); a value with anything but digits, spaces and `+().-` goes
 *   in a bucket every phone lookup looks at.
 * - `hs_object_id` is the record id: looked up in the table itself.
 * - The free-text `query`: per record, the lower-case text of the type's
 *   query properties (and the digits of its phone numbers) in one string,
 *   so the query costs one substring search per record instead of a
 *   lower-casing of every property of every record.
 */
import type { Table, TableIndex } from '../db.ts'
import { own } from '../http.ts'
import { phoneDigits, phoneKey } from '../../crm/phone.ts'
import type { PropertyDefinition } from './properties.ts'
import { comparable, type QueryField, type ResolvedFilter, type SearchRequest } from './search.ts'
import type { CrmRecord } from './store.ts'
import { IdBuckets } from './id-buckets.ts'

type Key = string | number

/** Key of the bucket of phone values that are not plain numbers (never a run of digits). */
const OTHER_PHONES = '*'
/** A phone number written with digits, spaces and `+().-` only: libphonenumber reads its national number from its last digits. */
const PLAIN_PHONE = /^[\d\s()+.-]*$/

/** Whether EQ and IN on a property are served by a hash index: the properties the CRM looks records up by. */
export function isLookupProperty(def: PropertyDefinition): boolean {
  if (def.name === 'hs_object_id') return false
  return def.name === 'email' || def.name === 'domain' || def.type === 'phone_number' || def.name.endsWith('_id')
}

/** The bucket key of a stored value, undefined for none (a number property's value that is not a number matches no EQ). */
function storedKey(def: PropertyDefinition, stored: string): Key | undefined {
  if (def.type === 'phone_number') return PLAIN_PHONE.test(stored) ? phoneDigits(stored).slice(-4) : OTHER_PHONES
  const key = comparable(def, stored)
  return typeof key === 'number' && Number.isNaN(key) ? undefined : key
}

/**
 * The bucket keys a wanted value (of EQ or IN) can be found under; undefined
 * when the index cannot narrow it (a phone number of fewer than four digits).
 */
function wantedKeys(def: PropertyDefinition, wanted: string | number | boolean): Key[] | undefined {
  if (def.type === 'phone_number') {
    const key = phoneKey(String(wanted))
    if (key === '') return []
    const tail = phoneDigits(key.split(';')[0]!).slice(-4)
    return tail.length < 4 ? undefined : [tail, OTHER_PHONES]
  }
  return [comparable(def, wanted)]
}

class HashIndex {
  readonly #buckets = new IdBuckets<Key>()

  constructor(readonly def: PropertyDefinition) {}

  add(id: string, record: CrmRecord): void {
    const key = this.#keyOf(record)
    if (key !== undefined) this.#buckets.add(key, id)
  }

  remove(id: string, record: CrmRecord): void {
    const key = this.#keyOf(record)
    if (key !== undefined) this.#buckets.remove(key, id)
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** Ids that may hold one of the wanted values, or undefined when this index cannot say. */
  lookup(wanted: ReadonlyArray<string | number | boolean>, into: Set<string>): boolean {
    for (const value of wanted) {
      const keys = wantedKeys(this.def, value)
      if (keys === undefined) return false
      for (const key of keys) this.#buckets.addTo(key, into)
    }
    return true
  }

  #keyOf(record: CrmRecord): Key | undefined {
    const stored = own(record.properties, this.def.name)
    return stored === undefined ? undefined : storedKey(this.def, stored)
  }
}

/**
 * The text a record offers to the free-text query: every query property's
 * value in lower case, and a phone number's digits where the value does not
 * already hold them in one run, one per line (a flat string, built by join).
 */
function queryText(record: CrmRecord, fields: readonly QueryField[]): string {
  const parts: string[] = []
  for (const field of fields) {
    const value = own(record.properties, field.name)
    if (value === undefined) continue
    const lower = value.toLowerCase()
    parts.push(lower)
    if (field.phone) {
      const digits = phoneDigits(value)
      if (!lower.includes(digits)) parts.push(digits)
    }
  }
  return parts.join('\n')
}

export class RecordSearchIndex implements TableIndex<CrmRecord> {
  readonly #table: Table<CrmRecord>
  readonly #hashes = new Map<string, HashIndex>()
  readonly #fields: readonly QueryField[]
  /** Record id → its query text (see queryText); records with none are left out. */
  readonly #text = new Map<string, string>()

  constructor(table: Table<CrmRecord>, lookups: readonly PropertyDefinition[], fields: readonly QueryField[]) {
    this.#table = table
    for (const def of lookups) this.#hashes.set(def.name, new HashIndex(def))
    this.#fields = fields
    table.addIndex(this)
  }

  /** Stop following the table (the index is replaced by another). */
  detach(): void {
    this.#table.removeIndex(this)
  }

  /** Whether this index was made for these query properties (a custom type's schema may change them). */
  servesQueryOf(fields: readonly QueryField[]): boolean {
    return fields.length === this.#fields.length && fields.every((f, i) => f.name === this.#fields[i]!.name && f.phone === this.#fields[i]!.phone)
  }

  add(id: string, record: CrmRecord): void {
    for (const hash of this.#hashes.values()) hash.add(id, record)
    const text = queryText(record, this.#fields)
    if (text !== '') this.#text.set(id, text)
  }

  remove(id: string, record: CrmRecord): void {
    for (const hash of this.#hashes.values()) hash.remove(id, record)
    this.#text.delete(id)
  }

  clear(): void {
    for (const hash of this.#hashes.values()) hash.clear()
    this.#text.clear()
  }

  /**
   * Ids of the records that may match the request, in id order, or
   * undefined when no index narrows it (the caller scans every record).
   * Filter groups are narrowed when every group has an EQ or IN filter on
   * an indexed property; else the query, if any, narrows.
   */
  candidates(request: SearchRequest, fields: readonly QueryField[]): string[] | undefined {
    const found = this.#byFilters(request.filterGroups) ?? (request.query !== undefined && this.servesQueryOf(fields) ? this.#byQuery(request.query) : undefined)
    return found && [...found].sort((a, b) => Number(a) - Number(b))
  }

  #byFilters(groups: ReadonlyArray<readonly ResolvedFilter[]>): Set<string> | undefined {
    if (groups.length === 0) return undefined
    const all = new Set<string>()
    for (const filters of groups) {
      let best: Set<string> | undefined
      for (const filter of filters) {
        if (filter.operator !== 'EQ' && filter.operator !== 'IN') continue
        const wanted = filter.operator === 'EQ' ? [filter.value!] : filter.values!
        const ids = this.#lookup(filter.def, wanted)
        if (ids !== undefined && (best === undefined || ids.size < best.size)) best = ids
      }
      if (best === undefined) return undefined
      for (const id of best) all.add(id)
    }
    return all
  }

  #lookup(def: PropertyDefinition, wanted: ReadonlyArray<string | number | boolean>): Set<string> | undefined {
    const ids = new Set<string>()
    if (def.name === 'hs_object_id' && def.type === 'number') {
      // The record id: canonical digits, so a safe integer names at most one record; beyond 2^53 many texts read as one number.
      for (const value of wanted) {
        const n = comparable(def, value) as number
        if (Number.isInteger(n) && !Number.isSafeInteger(n)) return undefined
        if (Number.isSafeInteger(n) && this.#table.has(String(n))) ids.add(String(n))
      }
      return ids
    }
    const hash = this.#hashes.get(def.name)
    if (hash === undefined || hash.def.type !== def.type) return undefined
    return hash.lookup(wanted, ids) ? ids : undefined
  }

  #byQuery(query: string): Set<string> {
    const needle = query.toLowerCase()
    const digits = /^[\d\s()+.-]+$/.test(query) ? phoneDigits(query) : ''
    const ids = new Set<string>()
    for (const [id, text] of this.#text) {
      if (text.includes(needle) || (digits.length >= 3 && text.includes(digits))) ids.add(id)
    }
    return ids
  }
}
