/**
 * The record tables of every object type and what reads them: per type, a
 * table of live records and one of archived ones (the recycle bin), both
 * ordered by numeric id so a page is found by binary search; ids come from
 * one sequence per type. Associations live in a table keyed by record
 * (association-rows.ts). Unique values (contact e-mail) are looked up in an
 * index of the live records held in memory (UniqueIndex), never stored: it
 * is rebuilt from the records at every load.
 *
 * The base of ObjectStore (object-store.ts), which adds the writes; records
 * returned are the stored rows: treat them as read-only.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table, TableIndex } from '../data/table.ts'
import { own } from '../http/http.ts'
import { AssociationLabels } from './association-labels.ts'
import { associationsSchema, recordKey, type AnyAssociationType, type AssociatedRecord, type AssociationRow } from './association-rows.ts'
import { recordSchema, type CrmRecord } from './crm-record.ts'
import { CustomObjectTypes } from './custom-objects.ts'
import { OBJECT_TYPE_NAMES, isBuiltinType, type ObjectType } from './object-types.ts'
import { findPipeline, pipelineTable, type PipelineRow } from './pipelines.ts'
import { propertyDefinitions, type CheckedDefinition } from './properties.ts'
import { PropertyCatalog } from './property-catalog.ts'
import { normalizeValue } from './property-values.ts'
import { AssociationIndex, Buckets, isLookupProperty, RecordSearchIndex, type AssociationTargets } from './search-index.ts'
import type { QueryField } from './search-request.ts'

/** The tables of custom object types' records: `crm_2-<n>` and `crm_2-<n>_archived`. */
const CUSTOM_RECORD_TABLES = /^crm_2-[1-9]\d*(_archived)?$/

/** Properties whose value is unique among live records of the type. */
const UNIQUE: Partial<Record<ObjectType, readonly string[]>> = { contacts: ['email'] }

/** The table in which earlier builds stored the unique values; rows of it in saved data are dropped. */
const RETIRED_UNIQUE_TABLE = 'crm_unique_values'

/**
 * The live records of a type by the value of one unique property, kept in
 * step with the table (writes, undos, loads) and never stored. The key is
 * the record's own value string, so the index costs a map entry per record.
 * Saved data from before uniqueness was enforced may hold a value twice: the
 * first holder answers, and the others keep the value in the index.
 */
class UniqueIndex implements TableIndex<CrmRecord> {
  readonly #holders = new Buckets()

  constructor(readonly property: string) {}

  add(id: string, record: CrmRecord): void {
    const value = own(record.properties, this.property)
    if (value !== undefined) this.#holders.add(value, id)
  }

  remove(id: string, record: CrmRecord): void {
    const value = own(record.properties, this.property)
    if (value !== undefined) this.#holders.remove(value, id)
  }

  clear(): void {
    this.#holders.clear()
  }

  /** The id of the live record holding `value`, or undefined. */
  holder(value: string): string | undefined {
    return this.#holders.first(value)
  }
}

/** The record tables and their reads; ObjectStore adds the checked writes. */
export abstract class RecordTables {
  protected readonly db: Database
  /** Built-in and custom property definitions of this account. */
  readonly properties: PropertyCatalog
  /** The custom object types of this account (schemas and their association definitions). */
  readonly customTypes: CustomObjectTypes
  /** The account's own association types (labels) and association limits. */
  readonly labels: AssociationLabels
  /** Every record's association row (association-rows.ts); ObjectStore writes them. */
  protected readonly associationRows: Table<AssociationRow>
  /** Per type, per unique property, its index (see UniqueIndex). */
  protected readonly uniqueIndexes = new Map<ObjectType, Map<string, UniqueIndex>>()
  /** `${type}:${id}` of a record a merge replaced → the id of the record it became. */
  readonly #merged: Table<string>
  /** Search indexes by table name (see searchIndex). */
  readonly #searchIndexes = new Map<string, RecordSearchIndex>()
  /** The association rows turned around, for association filters: made at the first search that has one. */
  #associationIndex: AssociationIndex | undefined
  readonly #targets: AssociationTargets = {
    index: () => (this.#associationIndex ??= new AssociationIndex(this.associationRows)),
    isLive: (objectType, id) => this.get(objectType, id) !== undefined,
  }

  constructor(db: Database) {
    this.db = db
    this.properties = new PropertyCatalog(db)
    this.customTypes = new CustomObjectTypes(db)
    this.labels = new AssociationLabels(db)
    for (const type of OBJECT_TYPE_NAMES) {
      db.table(`crm_${type}`, recordSchema)
      db.table(`crm_${type}_archived`, recordSchema)
    }
    // A custom type's tables are made on first use, and by a restore that brings them.
    db.tableFamily(CUSTOM_RECORD_TABLES, recordSchema)
    this.associationRows = db.table('crm_associations', associationsSchema)
    db.retireTable(RETIRED_UNIQUE_TABLE)
    for (const [type, names] of Object.entries(UNIQUE) as Array<[ObjectType, readonly string[]]>) {
      const indexes = new Map<string, UniqueIndex>()
      for (const name of names) {
        const index = new UniqueIndex(name)
        this.table(type, false).addIndex(index)
        indexes.set(name, index)
      }
      this.uniqueIndexes.set(type, indexes)
    }
    this.#merged = db.table('crm_merged_ids', z.string().regex(/^[1-9]\d*$/))
    // Declared now, not on first use, so a snapshot restores into a database that was never seeded.
    pipelineTable(db)
  }

  /** The table of a type's live records, or of its recycle bin (a custom type's is made on first use). */
  protected table(objectType: ObjectType, archived: boolean): Table<CrmRecord> {
    return this.db.table(`crm_${objectType}${archived ? '_archived' : ''}`, recordSchema)
  }

  /** Whether the type exists: a built-in one, or a custom type with a live schema. */
  protected isType(objectType: string): objectType is ObjectType {
    return isBuiltinType(objectType as ObjectType) || this.customTypes.schema(objectType as ObjectType) !== undefined
  }

  /** The association type with this id from `fromType` (to whatever type it points at): HubSpot's, a label's, or a custom object schema's. */
  associationTypeFrom(fromType: ObjectType, typeId: number): AnyAssociationType | undefined {
    return (isBuiltinType(fromType) ? this.labels.typeFrom(fromType, typeId) : undefined) ?? this.customTypes.associationType(fromType, typeId)
  }

  // ---------------------------------------------------------------- reads

  /** A live (not archived) record, or undefined. */
  get(objectType: ObjectType, id: string): CrmRecord | undefined {
    return this.table(objectType, false).get(id)
  }

  /** The live record that a merge turned the record `id` into (the real API answers an old id with it), or undefined. */
  getMerged(objectType: ObjectType, id: string): CrmRecord | undefined {
    const into = this.#merged.get(recordKey(objectType, id))
    return into === undefined ? undefined : this.get(objectType, into)
  }

  /** Remember that the records `oldIds` were merged into `newId`, and point earlier merges into them at it too. */
  recordMerge(objectType: ObjectType, oldIds: readonly string[], newId: string): void {
    const prefix = `${objectType}:`
    for (const [key, into] of [...this.#merged.entries()]) {
      if (key.startsWith(prefix) && oldIds.includes(into)) this.#merged.set(key, newId)
    }
    for (const id of oldIds) this.#merged.set(recordKey(objectType, id), newId)
  }

  /** A record in the recycle bin, or undefined. */
  getArchived(objectType: ObjectType, id: string): CrmRecord | undefined {
    return this.table(objectType, true).get(id)
  }

  /**
   * The first live record whose property equals `value` (compared in stored
   * form: e-mail in lower case, datetimes as ISO). Unique properties and
   * hs_object_id are looked up directly; others are scanned.
   */
  findByProperty(objectType: ObjectType, propertyName: string, value: string): CrmRecord | undefined {
    if (propertyName === 'hs_object_id') return this.get(objectType, value)
    const normalized = this.normalize(objectType, propertyName, value)
    const wanted = normalized.ok ? normalized.value : value
    if (wanted === null) return undefined
    const unique = this.uniqueIndexes.get(objectType)?.get(propertyName)
    if (unique) {
      const id = unique.holder(wanted)
      return id === undefined ? undefined : this.get(objectType, id)
    }
    for (const record of this.table(objectType, false).values()) {
      if (own(record.properties, propertyName) === wanted) return record
    }
    return undefined
  }

  /** Whether the object type has a live property of that name (built-in or custom). */
  hasProperty(objectType: ObjectType, propertyName: string): boolean {
    return this.properties.get(objectType, propertyName) !== undefined
  }

  /** A property's definition with its checks (built-in or custom). */
  definition(objectType: ObjectType, propertyName: string): CheckedDefinition | undefined {
    return this.properties.get(objectType, propertyName)
  }

  /** Check one client value for one property: its stored form, or the problem. */
  normalize(objectType: ObjectType, propertyName: string, raw: unknown): ReturnType<typeof normalizeValue> {
    return normalizeValue(this.properties.get(objectType, propertyName), objectType, propertyName, raw)
  }

  /** Number of live records (or archived ones). */
  count(objectType: ObjectType, archived = false): number {
    return this.table(objectType, archived).size
  }

  /** Every live (or archived) record in id order. Scans: use `page` for lists. */
  records(objectType: ObjectType, archived = false): IterableIterator<CrmRecord> {
    return this.table(objectType, archived).values()
  }

  /** The live record at a position of the id order (0 is the lowest id). */
  recordAt(objectType: ObjectType, position: number): CrmRecord | undefined {
    return this.table(objectType, false).at(position)
  }

  /**
   * The search index of a type's live records, made on first use (from the
   * records then stored) and kept in step with every write after that.
   * `fields` are the query properties it is made for; a custom type whose
   * schema names others later gets a fresh one.
   */
  searchIndex(objectType: ObjectType, fields: readonly QueryField[]): RecordSearchIndex {
    const table = this.table(objectType, false)
    const existing = this.#searchIndexes.get(table.name)
    if (existing?.servesQueryOf(fields)) return existing
    existing?.detach()
    const index = new RecordSearchIndex(objectType, table, propertyDefinitions(objectType).filter(isLookupProperty), fields, this.#targets)
    this.#searchIndexes.set(table.name, index)
    return index
  }

  /**
   * Up to `limit` records with id greater than `after`, in id order, and
   * whether more follow. Costs O(log n + limit).
   */
  page(objectType: ObjectType, after: number | undefined, limit: number, archived = false): { records: CrmRecord[]; more: boolean } {
    const { rows, more } = this.table(objectType, archived).pageAfter(after, limit, () => true)
    return { records: rows, more }
  }

  /** Live records associated with a record, per target type, with the linking type ids. */
  associations(objectType: ObjectType, id: string, toType: ObjectType): AssociatedRecord[] {
    const row = this.associationRows.get(recordKey(objectType, id))
    return (row?.[toType] ?? []).filter((a) => this.get(toType, a.id) !== undefined)
  }

  /**
   * Whether a record is associated with a live record of `toType` (one of
   * `among`, when given): the test of the search's association filters, run
   * per record, so it builds no list.
   */
  isLinkedTo(objectType: ObjectType, id: string, toType: ObjectType, among?: ReadonlySet<string>): boolean {
    const links = this.associationRows.get(recordKey(objectType, id))?.[toType]
    if (links === undefined) return false
    for (const link of links) if ((among === undefined || among.has(link.id)) && this.get(toType, link.id) !== undefined) return true
    return false
  }

  /** Whether two records are linked by any association type. */
  isAssociated(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string): boolean {
    const row = this.associationRows.get(recordKey(fromType, fromId))
    return (row?.[toType] ?? []).some((a) => a.id === toId)
  }

  /** A live pipeline of tickets or deals. */
  pipeline(objectType: 'tickets' | 'deals', pipelineId: string): PipelineRow | undefined {
    return findPipeline(this.db, objectType, pipelineId)
  }

  /** The next id of the type's sequence that no record holds (an imported snapshot may hold ids above its sequence). */
  protected newId(objectType: ObjectType): string {
    for (;;) {
      const id = String(this.db.nextId(`crm_${objectType}`))
      if (!this.table(objectType, false).has(id) && !this.table(objectType, true).has(id)) return id
    }
  }
}
