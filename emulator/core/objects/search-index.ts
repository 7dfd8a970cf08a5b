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
 * - Association targets (`associations.contact` and the like): one index of
 *   every association row (AssociationIndex), keyed by the associated
 *   record, names the records of each type linked to it. It follows the
 *   association table as the record indexes follow theirs, and is made at the
 *   first search that filters on an association.
 * - The free-text `query`: per record, the lower-case text of the type's
 *   query properties (and the digits of its phone numbers) in one string,
 *   so the query costs one substring search per record instead of a
 *   lower-casing of every property of every record.
 */
import type { Table, TableIndex } from '../data/table.ts'
import type { ObjectType } from './object-types.ts'
import { own } from '../http/http.ts'
import { phoneDigits, phoneKey } from '../../../shared/crm/phone.ts'
import type { PropertyDefinition } from './properties.ts'
import { comparable, type QueryField, type ResolvedFilter, type SearchRequest } from './search-request.ts'
import type { AssociationRow } from './association-rows.ts'
import type { CrmRecord } from './crm-record.ts'

type Key = string | number
/** Ids of the records holding one key: one id, or several. */
type Bucket = string | string[]

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

/** Keys to the ids holding each one, a lone id kept without an array (most keys have one). */
export class Buckets {
  readonly #buckets = new Map<Key, Bucket>()

  add(key: Key, id: string): void {
    const bucket = this.#buckets.get(key)
    if (bucket === undefined) this.#buckets.set(key, id)
    else if (typeof bucket === 'string') this.#buckets.set(key, [bucket, id])
    else bucket.push(id)
  }

  remove(key: Key, id: string): void {
    const bucket = this.#buckets.get(key)
    if (bucket === id) this.#buckets.delete(key)
    else if (Array.isArray(bucket)) {
      const at = bucket.lastIndexOf(id)
      if (at >= 0) bucket.splice(at, 1)
      if (bucket.length === 1) this.#buckets.set(key, bucket[0]!)
    }
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** The first id added under `key` (and not removed), or undefined. */
  first(key: Key): string | undefined {
    const bucket = this.#buckets.get(key)
    return typeof bucket === 'string' ? bucket : bucket?.[0]
  }

  /** Add the ids under `key` to `into`. */
  collect(key: Key, into: Set<string>): void {
    const bucket = this.#buckets.get(key)
    if (bucket === undefined) return
    if (typeof bucket === 'string') into.add(bucket)
    else for (const id of bucket) into.add(id)
  }
}

class HashIndex {
  readonly #buckets = new Buckets()

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
      for (const key of keys) this.#buckets.collect(key, into)
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

/** The key of the records of type `fromType` linked to the record `toType` `toId`. */
const linkKey = (fromType: string, toType: string, toId: string) => `${fromType}>${toType}:${toId}`

/**
 * The association rows turned around: for each associated record, the
 * records of each type linked to it. A row `deals:5` holding contact 123
 * puts deal 5 under (deals, contact 123). Kept in step with the association
 * table (every link and unlink, every undo, every load) by `Table.addIndex`.
 */
export class AssociationIndex implements TableIndex<AssociationRow> {
  readonly #buckets = new Buckets()

  constructor(table: Table<AssociationRow>) {
    table.addIndex(this)
  }

  add(key: string, row: AssociationRow): void {
    this.#each(key, row, (link, fromId) => this.#buckets.add(link, fromId))
  }

  remove(key: string, row: AssociationRow): void {
    this.#each(key, row, (link, fromId) => this.#buckets.remove(link, fromId))
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** Add to `into` the ids of the `fromType` records whose rows link them to the record `toType` `toId`. */
  linked(fromType: ObjectType, toType: ObjectType, toId: string, into: Set<string>): void {
    this.#buckets.collect(linkKey(fromType, toType, toId), into)
  }

  /** Each link of a row (keyed `<type>:<id>`, as the store keys them) with the id of the record it is from. */
  #each(key: string, row: AssociationRow, visit: (link: string, fromId: string) => void): void {
    const at = key.indexOf(':')
    const fromType = key.slice(0, at)
    const fromId = key.slice(at + 1)
    for (const [toType, links] of Object.entries(row)) {
      for (const link of links ?? []) visit(linkKey(fromType, toType, link.id), fromId)
    }
  }
}

/** What the record index needs for association filters: the association index (made on first use) and whether a record is live. */
export interface AssociationTargets {
  index(): AssociationIndex
  isLive(objectType: ObjectType, id: string): boolean
}

export class RecordSearchIndex implements TableIndex<CrmRecord> {
  readonly #type: ObjectType
  readonly #table: Table<CrmRecord>
  readonly #targets: AssociationTargets
  readonly #hashes = new Map<string, HashIndex>()
  readonly #fields: readonly QueryField[]
  /** Record id → its query text (see queryText); records with none are left out. */
  readonly #text = new Map<string, string>()

  constructor(type: ObjectType, table: Table<CrmRecord>, lookups: readonly PropertyDefinition[], fields: readonly QueryField[], targets: AssociationTargets) {
    this.#type = type
    this.#table = table
    this.#targets = targets
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
   * an indexed property or an association; else the query, if any, narrows.
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
        const ids = this.#lookup(filter)
        if (ids !== undefined && (best === undefined || ids.size < best.size)) best = ids
      }
      if (best === undefined) return undefined
      for (const id of best) all.add(id)
    }
    return all
  }

  #lookup(filter: ResolvedFilter): Set<string> | undefined {
    const ids = new Set<string>()
    if (filter.association !== undefined) {
      // The live records of this type linked to a live record among the wanted ones: exactly the matches.
      const index = this.#targets.index()
      for (const toId of filter.ids) {
        if (this.#targets.isLive(filter.association, toId)) index.linked(this.#type, filter.association, toId, ids)
      }
      for (const id of ids) if (!this.#table.has(id)) ids.delete(id)
      return ids
    }
    const def = filter.def
    const wanted = filter.operator === 'EQ' ? [filter.value!] : filter.values!
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
