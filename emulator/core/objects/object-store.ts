/**
 * ObjectStore: the one place CRM records live (contacts, companies, deals,
 * tickets, calls), with their property history, their associations and the
 * rules every write must pass. Routes, the seed and other resources (the
 * timeline writes tokens into record properties) all go through it.
 *
 * Every method checks everything before it writes anything, so a method that
 * throws has changed nothing, even outside a transaction. Records returned
 * are the stored rows: treat them as read-only.
 *
 * Storage, per object type: a table of live records and a table of archived
 * ones (the recycle bin), both ordered by numeric id so a page is found by
 * binary search; ids come from one sequence per type. Associations live in a
 * table keyed by record. Unique values (contact e-mail) are looked up in an
 * index of the live records held in memory (UniqueIndex), never stored: it is
 * rebuilt from the records at every load.
 */
import { z } from 'zod'
import type { Database, Table, TableIndex } from '../data/db.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { own } from '../http/http.ts'
import type { AssociationType as BuiltinAssociationType } from '../../../shared/crm/association-types.ts'
import { AssociationLabels } from './association-labels.ts'
import { CustomObjectTypes, type CustomAssociationType } from './custom-objects.ts'
import { OBJECT_TYPE_NAMES, isBuiltinType, upperName, type ObjectType } from './object-types.ts'
import { findPipeline, PIPELINE_PROPERTIES, pipelinesOf, pipelineTable, type PipelineRow } from './pipelines.ts'
import { normalizeValue, propertyDefinitions, PropertyCatalog, type CheckedDefinition, type PropertyProblem } from './properties.ts'
import { AssociationIndex, Buckets, isLookupProperty, RecordSearchIndex, type AssociationTargets } from './search-index.ts'
import type { QueryField } from './search-request.ts'
import { parseInstant } from '../../../shared/crm/time.ts'

export type { ObjectType } from './object-types.ts'

/** Where a value came from (ValueWithTimestamp.sourceType), e.g. API, CRM_UI, INTEGRATION. */
export type SourceType = string

export interface ValueWithTimestamp {
  readonly value: string
  readonly timestamp: string
  readonly sourceType: SourceType
  readonly sourceId?: string
}

/** A stored record. Immutable: every write stores a new object. */
export interface CrmRecord {
  readonly id: string
  readonly properties: Readonly<Record<string, string>>
  /**
   * Past and current values per property, newest first, where they are not
   * implied: a property whose one value was set by the API when the record
   * was created has no entry here (see `propertyHistory`). Rows of earlier
   * versions, with an entry for every property, are read as they are.
   */
  readonly history: Readonly<Record<string, readonly ValueWithTimestamp[]>>
  readonly createdAt: string
  readonly updatedAt: string
  readonly archived: boolean
  readonly archivedAt?: string
}

/** One item of the `associations` array of a create: `{to: {id}, types: [{associationCategory, associationTypeId}]}`, as in the real API. */
export interface AssociationInput {
  to: { id: string }
  types: ReadonlyArray<{ associationCategory: string; associationTypeId: number }>
}

/** One associated record: its id and every association type id that links it. */
export interface AssociatedRecord {
  id: string
  typeIds: number[]
}

/** A timestamp as the API writes them (`Date.prototype.toISOString`). */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The last instant isoAt wrote, and its text. */
let lastInstant = Number.NaN
let lastIso = ''

/**
 * `new Date(now).toISOString()`, as one string for one instant: the records
 * a request writes (a batch of 100 shares its clock reading) hold one copy
 * of their timestamp between them instead of one each.
 */
function isoAt(now: number): string {
  if (now !== lastInstant) {
    lastIso = new Date(now).toISOString()
    lastInstant = now
  }
  return lastIso
}

/** How many past values of one property are kept. */
export const HISTORY_LIMIT = 50

const valueSchema = z.object({
  value: z.string(),
  timestamp: z.string(),
  sourceType: z.string(),
  sourceId: z.string().optional(),
})

const recordSchema: z.ZodType<CrmRecord> = z
  .object({
    id: z.string().regex(/^[1-9]\d*$/),
    properties: z.record(z.string(), z.string()),
    history: z.record(z.string(), z.array(valueSchema)),
    createdAt: z.string(),
    updatedAt: z.string(),
    archived: z.boolean(),
    archivedAt: z.string().optional(),
  })
  .transform(compactRecord)

/** The source of the history a property has when none is stored (see CrmRecord.history). */
const IMPLIED_SOURCE: SourceType = 'API'
/** The history of a record whose every history is implied: one object shared by all of them. */
const NO_HISTORY: CrmRecord['history'] = Object.freeze({})

/** A property's values, newest first: as stored, or the one value the record was created with. */
export function propertyHistory(record: CrmRecord, name: string): readonly ValueWithTimestamp[] | undefined {
  const stored = own(record.history, name)
  if (stored !== undefined) return stored
  const value = own(record.properties, name)
  return value === undefined ? undefined : [{ value, timestamp: record.createdAt, sourceType: IMPLIED_SOURCE }]
}

/** Whether `entries` are the history `propertyHistory` implies for the property, so need not be stored. */
function isImplied(record: CrmRecord, name: string, entries: readonly ValueWithTimestamp[]): boolean {
  const first = entries[0]
  return (
    entries.length === 1 &&
    first!.sourceId === undefined &&
    first!.sourceType === IMPLIED_SOURCE &&
    first!.timestamp === record.createdAt &&
    first!.value === own(record.properties, name)
  )
}

/**
 * A freshly read row (an import, saved data) in the form the store keeps:
 * implied histories dropped, and the id and timestamps that properties
 * repeat (hs_object_id, createdate, hs_lastmodifieddate) held once.
 */
function compactRecord(record: CrmRecord): CrmRecord {
  const properties = record.properties as Record<string, string>
  const updatedAt = record.updatedAt === record.createdAt ? record.createdAt : record.updatedAt
  for (const [name, shared] of [['hs_object_id', record.id], ['createdate', record.createdAt], ['hs_lastmodifieddate', updatedAt]] as const) {
    if (own(properties, name) === shared) properties[name] = shared
  }
  let history: Record<string, readonly ValueWithTimestamp[]> | undefined
  for (const [name, entries] of Object.entries(record.history)) {
    if (isImplied(record, name, entries)) continue
    ;(history ??= {})[name] = entries
  }
  return { ...record, properties, history: history ?? NO_HISTORY, updatedAt }
}

/** The associations of one record: per target type (a built-in type's name or a custom type's id), the linked records. */
export type AssociationRow = Partial<Record<ObjectType, AssociatedRecord[]>>
const associationsSchema = z.record(
  z.string().regex(new RegExp(`^(${OBJECT_TYPE_NAMES.join('|')}|2-[1-9]\\d*)$`)),
  z.array(z.object({ id: z.string(), typeIds: z.array(z.number().int()) })),
) as z.ZodType<AssociationRow>

/** An association type between the CRM's own types, or one a custom object schema defines. */
export type AnyAssociationType = BuiltinAssociationType | CustomAssociationType

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

interface ResolvedAssociation {
  toType: ObjectType
  toId: string
  type: AnyAssociationType
}

type Values = Map<string, string | null>

/** The VALIDATION_ERROR for bad property values, in the real API's words ("Property values were not valid: [...]"). */
export function propertyValuesError(problems: readonly PropertyProblem[]) {
  const items = problems.map((p) => ({ isValid: false, message: p.message, error: p.error, name: p.name }))
  return validationError(`Property values were not valid: ${JSON.stringify(items)}`, {
    errors: problems.map((p) => ({ message: p.message, code: p.error, context: { propertyName: [p.name] } })),
  })
}

export class ObjectStore {
  readonly #db: Database
  /** Built-in and custom property definitions of this account. */
  readonly properties: PropertyCatalog
  /** The custom object types of this account (schemas and their association definitions). */
  readonly customTypes: CustomObjectTypes
  /** The account's own association types (labels) and association limits. */
  readonly labels: AssociationLabels
  readonly #associations: Table<AssociationRow>
  /** Per type, per unique property, its index (see UniqueIndex). */
  readonly #unique = new Map<ObjectType, Map<string, UniqueIndex>>()
  /** `${type}:${id}` of a record a merge replaced → the id of the record it became. */
  readonly #merged: Table<string>
  /** Search indexes by table name (see searchIndex). */
  readonly #searchIndexes = new Map<string, RecordSearchIndex>()
  /** The association rows turned around, for association filters: made at the first search that has one. */
  #associationIndex: AssociationIndex | undefined
  readonly #targets: AssociationTargets = {
    index: () => (this.#associationIndex ??= new AssociationIndex(this.#associations)),
    isLive: (objectType, id) => this.get(objectType, id) !== undefined,
  }

  constructor(db: Database) {
    this.#db = db
    this.properties = new PropertyCatalog(db)
    this.customTypes = new CustomObjectTypes(db)
    this.labels = new AssociationLabels(db)
    for (const type of OBJECT_TYPE_NAMES) {
      db.table(`crm_${type}`, recordSchema)
      db.table(`crm_${type}_archived`, recordSchema)
    }
    // A custom type's tables are made on first use, and by a restore that brings them.
    db.tableFamily(CUSTOM_RECORD_TABLES, recordSchema)
    this.#associations = db.table('crm_associations', associationsSchema)
    db.retireTable(RETIRED_UNIQUE_TABLE)
    for (const [type, names] of Object.entries(UNIQUE) as Array<[ObjectType, readonly string[]]>) {
      const indexes = new Map<string, UniqueIndex>()
      for (const name of names) {
        const index = new UniqueIndex(name)
        this.#table(type, false).addIndex(index)
        indexes.set(name, index)
      }
      this.#unique.set(type, indexes)
    }
    this.#merged = db.table('crm_merged_ids', z.string().regex(/^[1-9]\d*$/))
    // Declared now, not on first use, so a snapshot restores into a database that was never seeded.
    pipelineTable(db)
  }

  /** The table of a type's live records, or of its recycle bin (a custom type's is made on first use). */
  #table(objectType: ObjectType, archived: boolean): Table<CrmRecord> {
    return this.#db.table(`crm_${objectType}${archived ? '_archived' : ''}`, recordSchema)
  }

  /** Whether the type exists: a built-in one, or a custom type with a live schema. */
  #isType(objectType: string): objectType is ObjectType {
    return isBuiltinType(objectType as ObjectType) || this.customTypes.schema(objectType as ObjectType) !== undefined
  }

  /** The association type with this id from `fromType` (to whatever type it points at): HubSpot's, a label's, or a custom object schema's. */
  associationTypeFrom(fromType: ObjectType, typeId: number): AnyAssociationType | undefined {
    return (isBuiltinType(fromType) ? this.labels.typeFrom(fromType, typeId) : undefined) ?? this.customTypes.associationType(fromType, typeId)
  }

  // ---------------------------------------------------------------- reads

  /** A live (not archived) record, or undefined. */
  get(objectType: ObjectType, id: string): CrmRecord | undefined {
    return this.#table(objectType, false).get(id)
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
    return this.#table(objectType, true).get(id)
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
    const unique = this.#unique.get(objectType)?.get(propertyName)
    if (unique) {
      const id = unique.holder(wanted)
      return id === undefined ? undefined : this.get(objectType, id)
    }
    for (const record of this.#table(objectType, false).values()) {
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
    return this.#table(objectType, archived).size
  }

  /** Every live (or archived) record in id order. Scans: use `page` for lists. */
  records(objectType: ObjectType, archived = false): IterableIterator<CrmRecord> {
    return this.#table(objectType, archived).values()
  }

  /** The live record at a position of the id order (0 is the lowest id). */
  recordAt(objectType: ObjectType, position: number): CrmRecord | undefined {
    return this.#table(objectType, false).at(position)
  }

  /**
   * The search index of a type's live records, made on first use (from the
   * records then stored) and kept in step with every write after that.
   * `fields` are the query properties it is made for; a custom type whose
   * schema names others later gets a fresh one.
   */
  searchIndex(objectType: ObjectType, fields: readonly QueryField[]): RecordSearchIndex {
    const table = this.#table(objectType, false)
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
    const { rows, more } = this.#table(objectType, archived).pageAfter(after, limit, () => true)
    return { records: rows, more }
  }

  /** Live records associated with a record, per target type, with the linking type ids. */
  associations(objectType: ObjectType, id: string, toType: ObjectType): AssociatedRecord[] {
    const row = this.#associations.get(recordKey(objectType, id))
    return (row?.[toType] ?? []).filter((a) => this.get(toType, a.id) !== undefined)
  }


  /**
   * Whether a record is associated with a live record of `toType` (one of
   * `among`, when given): the test of the search's association filters, run
   * per record, so it builds no list.
   */
  isLinkedTo(objectType: ObjectType, id: string, toType: ObjectType, among?: ReadonlySet<string>): boolean {
    const links = this.#associations.get(recordKey(objectType, id))?.[toType]
    if (links === undefined) return false
    for (const link of links) if ((among === undefined || among.has(link.id)) && this.get(toType, link.id) !== undefined) return true
    return false
  }

  /** Whether two records are linked by any association type. */
  isAssociated(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string): boolean {
    const row = this.#associations.get(recordKey(fromType, fromId))
    return (row?.[toType] ?? []).some((a) => a.id === toId)
  }

  /** A live pipeline of tickets or deals. */
  pipeline(objectType: 'tickets' | 'deals', pipelineId: string): PipelineRow | undefined {
    return findPipeline(this.#db, objectType, pipelineId)
  }

  // --------------------------------------------------------------- writes

  /**
   * Create a record. `properties` are raw client values (string, number,
   * boolean or null); `associations` are made in the same step, so a ticket
   * can pin a call it is associated with on creation. Throws 400 for bad
   * values or broken rules and 409 for a duplicate unique value.
   */
  create(
    objectType: ObjectType,
    properties: Readonly<Record<string, unknown>>,
    now: number,
    sourceType: SourceType = 'API',
    associations: readonly AssociationInput[] = [],
  ): CrmRecord {
    const values = this.#checkValues(objectType, properties, undefined)
    const links = this.#resolveAssociations(objectType, associations)
    // A new record has no associations yet: only the far side's limits can be reached.
    for (const link of links) this.#checkLimit(link.toType, link.toId, objectType, undefined, this.associationTypeFrom(link.toType, link.type.inverseTypeId)!)
    this.#applyDefaults(objectType, values, now)
    this.#checkRules(objectType, undefined, values, links)
    this.#checkUnique(objectType, undefined, values)

    const id = this.#newId(objectType)
    const iso = isoAt(now)
    values.set('hs_object_id', id)
    values.set('createdate', iso)
    values.set('hs_lastmodifieddate', iso)
    const empty: CrmRecord = { id, properties: {}, history: {}, createdAt: iso, updatedAt: iso, archived: false }
    const record = withValues(empty, values, iso, sourceType)
    this.#table(objectType, false).set(id, record)
    for (const link of links) this.#link(objectType, id, link.toType, link.toId, link.type)
    return record
  }

  /**
   * Change properties of a live record (404 if there is none). Same checks
   * as `create`; a value of null or "" clears the property.
   */
  setProperties(
    objectType: ObjectType,
    id: string,
    properties: Readonly<Record<string, unknown>>,
    now: number,
    sourceType: SourceType = 'API',
  ): CrmRecord {
    const current = this.get(objectType, id)
    if (!current) throw notFound(`Object not found. objectId are usually numeric. (${upperName(objectType)} ${id})`)
    const values = this.#checkValues(objectType, properties, current)
    this.#checkRules(objectType, current, values, [])
    this.#checkUnique(objectType, current, values)
    const iso = isoAt(now)
    values.set('hs_lastmodifieddate', iso)
    const next = { ...withValues(current, values, iso, sourceType), updatedAt: iso }
    this.#table(objectType, false).set(id, next)
    return next
  }

  /**
   * Associate two live records with an association type id valid from
   * `fromType` to `toType` (the inverse is recorded too). Idempotent.
   * Throws 400 for an unknown type id, 404 for a missing record.
   */
  associate(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number): void {
    const type = this.#associationType(fromType, toType, typeId)
    if (!this.get(fromType, fromId)) throw notFound(`${upperName(fromType)} ${fromId} does not exist.`)
    if (!this.get(toType, toId)) throw notFound(`${upperName(toType)} ${toId} does not exist.`)
    this.#checkLimit(fromType, fromId, toType, toId, type)
    this.#link(fromType, fromId, toType, toId, type)
  }

  /**
   * Remove one association type (and its inverse) between two records.
   * Returns whether it existed. When no association is left between a
   * ticket and a call, a pin of that call on the ticket is cleared.
   */
  dissociate(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number, now: number): boolean {
    const type = this.#associationType(fromType, toType, typeId)
    const removed = this.#unlinkOne(fromType, fromId, toType, toId, type.typeId)
    this.#unlinkOne(toType, toId, fromType, fromId, type.inverseTypeId)
    if (removed && !this.isAssociated(fromType, fromId, toType, toId)) {
      this.#clearPin(fromType, fromId, toType, toId, now)
      this.#clearPin(toType, toId, fromType, fromId, now)
    }
    return removed
  }

  /**
   * Remove every value (and the history) of one property from every record,
   * live or archived: archiving a custom property takes its data with it.
   */
  dropProperty(objectType: ObjectType, propertyName: string): number {
    let changed = 0
    for (const table of [this.#table(objectType, false), this.#table(objectType, true)]) {
      for (const [id, record] of [...table.entries()]) {
        if (!Object.hasOwn(record.properties, propertyName) && !Object.hasOwn(record.history, propertyName)) continue
        const { [propertyName]: _value, ...properties } = record.properties
        const { [propertyName]: _history, ...history } = record.history
        table.set(id, { ...record, properties, history })
        changed++
      }
    }
    return changed
  }

  /** Whether any record (live or archived) holds a value of the property. */
  isPropertyUsed(objectType: ObjectType, propertyName: string): boolean {
    for (const archived of [false, true]) {
      for (const record of this.records(objectType, archived)) if (Object.hasOwn(record.properties, propertyName)) return true
    }
    return false
  }

  /** Move a live record to the recycle bin (404 if there is none). */
  archive(objectType: ObjectType, id: string, now: number): CrmRecord {
    const current = this.get(objectType, id)
    if (!current) throw notFound(`Object not found. objectId are usually numeric. (${upperName(objectType)} ${id})`)
    const iso = isoAt(now)
    const archived: CrmRecord = { ...current, archived: true, archivedAt: iso, updatedAt: iso }
    this.#table(objectType, false).delete(id)
    this.#table(objectType, true).set(id, archived)
    return archived
  }

  /**
   * Bring a record back from the recycle bin (an emulator extension: the
   * real API restores only through its UI). 404 if it is not in the bin,
   * 409 if a live record has taken one of its unique values meanwhile.
   */
  restore(objectType: ObjectType, id: string, now: number): CrmRecord {
    const archived = this.getArchived(objectType, id)
    if (!archived) throw notFound(`${upperName(objectType)} ${id} is not in the recycle bin.`)
    const { archivedAt: _archivedAt, ...rest } = archived
    const restored: CrmRecord = { ...rest, archived: false, updatedAt: isoAt(now) }
    this.#checkUnique(objectType, undefined, new Map(Object.entries(restored.properties)))
    this.#table(objectType, true).delete(id)
    this.#table(objectType, false).set(id, restored)
    return restored
  }

  /**
   * Remove a record for good, live or in the recycle bin, with its unique
   * values and every association from and to it (a merge replaces records;
   * a GDPR delete erases one). Returns the removed record, or undefined.
   */
  purge(objectType: ObjectType, id: string): CrmRecord | undefined {
    const record = this.get(objectType, id) ?? this.getArchived(objectType, id)
    if (!record) return undefined
    const key = recordKey(objectType, id)
    for (const [toType, links] of Object.entries(this.#associations.get(key) ?? {}) as Array<[ObjectType, AssociatedRecord[]]>) {
      for (const link of links) {
        const otherKey = recordKey(toType, link.id)
        const other = this.#associations.get(otherKey)
        const rest = (other?.[objectType] ?? []).filter((a) => a.id !== id)
        if (!other) continue
        const { [objectType]: _dropped, ...others } = other
        // An emptied row is kept (not deleted): a merge links the record again in the same transaction, and a
        // row deleted and set again would move to the end of the table, where a reload from saved rows would not put it.
        this.#associations.set(otherKey, rest.length > 0 ? { ...others, [objectType]: rest } : others)
      }
    }
    this.#associations.delete(key)
    this.#table(objectType, false).delete(id)
    this.#table(objectType, true).delete(id)
    return record
  }

  /** Make the record tables of a new custom type now, so that later requests only ever write rows. */
  declareType(objectType: ObjectType): void {
    this.#table(objectType, false)
    this.#table(objectType, true)
  }

  /** Remove every association of these type ids (a custom association definition that was deleted), in both directions. */
  dropAssociationTypes(typeIds: readonly number[]): void {
    const gone = new Set(typeIds)
    for (const [key, row] of [...this.#associations.entries()]) {
      let changed = false
      const next: AssociationRow = {}
      for (const [toType, links] of Object.entries(row) as Array<[ObjectType, AssociatedRecord[]]>) {
        const kept = links
          .map((link) => ({ id: link.id, typeIds: link.typeIds.filter((t) => !gone.has(t)) }))
          .filter((link) => link.typeIds.length > 0)
        if (kept.length !== links.length || kept.some((link, i) => link.typeIds.length !== links[i]?.typeIds.length)) changed = true
        if (kept.length > 0) next[toType] = kept
      }
      if (!changed) continue
      if (Object.keys(next).length === 0) this.#associations.delete(key)
      else this.#associations.set(key, next)
    }
  }

  /**
   * Write values of read-only properties that the CRM itself maintains
   * (e.g. `hs_merged_object_ids` after a merge), with their history. Each
   * value is checked like any other; only the read-only rule is skipped.
   */
  setSystemProperties(objectType: ObjectType, id: string, properties: Readonly<Record<string, string>>, now: number, sourceType: SourceType): CrmRecord {
    const current = this.get(objectType, id)
    if (!current) throw notFound(`Object not found. objectId are usually numeric. (${upperName(objectType)} ${id})`)
    const values: Values = new Map()
    const problems: PropertyProblem[] = []
    for (const [name, raw] of Object.entries(properties)) {
      const result = this.normalize(objectType, name, raw)
      if (result.ok) values.set(name, result.value)
      else problems.push(result.problem)
    }
    if (problems.length > 0) throw propertyValuesError(problems)
    const next = withValues(current, values, isoAt(now), sourceType)
    this.#table(objectType, false).set(id, next)
    return next
  }

  /**
   * Check every stored record as if it were written now: a well-formed id
   * and timestamps, every property value valid and in its stored form, the
   * object rules (required properties, pipeline and stage, pinned call), and
   * associations of known types between records that exist. An import runs
   * it after loading a snapshot, so an export edited by hand cannot bring in
   * what the API itself would refuse (`createdAt: "x"`, a stage "99").
   * Returns the first problem found, or undefined.
   */
  findIntegrityProblem(): string | undefined {
    const labelProblem = this.labels.findIntegrityProblem()
    if (labelProblem) return labelProblem
    const isoTime = (text: string | undefined) => text !== undefined && ISO_TIMESTAMP.test(text) && parseInstant(text) !== undefined
    for (const type of [...OBJECT_TYPE_NAMES, ...this.customTypes.liveTypes()]) {
      for (const archived of [false, true]) {
        const table = this.#table(type, archived)
        for (const [key, record] of table.entries()) {
          const where = `${table.name} row "${key}"`
          if (record.id !== key) return `${where}: its id is "${record.id}"`
          if (record.archived !== archived) return `${where}: "archived" is ${record.archived} in the ${archived ? 'recycle bin' : 'live table'}`
          const times: Array<['createdAt' | 'updatedAt' | 'archivedAt', string | undefined]> = [
            ['createdAt', record.createdAt],
            ['updatedAt', record.updatedAt],
            ...(archived ? [['archivedAt', record.archivedAt] as ['archivedAt', string | undefined]] : []),
          ]
          for (const [field, value] of times) {
            if (!isoTime(value)) return `${where}: ${field} ${JSON.stringify(value ?? null)} is not an ISO 8601 timestamp`
          }
          for (const [name, value] of Object.entries(record.properties)) {
            const result = this.normalize(type, name, value)
            if (!result.ok) return `${where}: ${result.problem.message}`
            if (result.value !== value) return `${where}: property "${name}" is not in its stored form (${JSON.stringify(result.value)})`
          }
          if (record.properties.hs_object_id !== record.id) return `${where}: hs_object_id must equal the id`
          try {
            this.#checkRules(type, record, new Map(Object.entries(record.properties)), [])
          } catch (error) {
            if (error instanceof Error) return `${where}: ${error.message}`
            throw error
          }
        }
      }
    }
    for (const [key, row] of this.#associations.entries()) {
      const [fromType, fromId] = key.split(':') as [ObjectType, string]
      if (!this.#isType(fromType) || (!this.get(fromType, fromId) && !this.getArchived(fromType, fromId))) {
        return `crm_associations row "${key}": no such record`
      }
      for (const [toType, links] of Object.entries(row) as Array<[ObjectType, AssociatedRecord[]]>) {
        for (const link of links) {
          if (!this.get(toType, link.id) && !this.getArchived(toType, link.id)) return `crm_associations row "${key}": ${toType} ${link.id} does not exist`
          for (const typeId of link.typeIds) {
            if (this.associationTypeFrom(fromType, typeId)?.to !== toType) return `crm_associations row "${key}": ${typeId} is not an association type from ${fromType} to ${toType}`
          }
        }
      }
    }
    return undefined
  }

  /** The next id of the type's sequence that no record holds (an imported snapshot may hold ids above its sequence). */
  #newId(objectType: ObjectType): string {
    for (;;) {
      const id = String(this.#db.nextId(`crm_${objectType}`))
      if (!this.#table(objectType, false).has(id) && !this.#table(objectType, true).has(id)) return id
    }
  }

  // -------------------------------------------------------------- checks

  /** Normalize every value; collect every problem and throw them together. */
  #checkValues(objectType: ObjectType, input: Readonly<Record<string, unknown>>, current: CrmRecord | undefined): Values {
    const values: Values = new Map()
    const problems: PropertyProblem[] = []
    for (const [name, raw] of Object.entries(input)) {
      const result = this.normalize(objectType, name, raw)
      if (!result.ok) {
        problems.push(result.problem)
        continue
      }
      if (this.definition(objectType, name)?.modificationMetadata.readOnlyValue) {
        // Echoing a read-only value back unchanged is harmless; changing it is not.
        if (result.value !== ((current && own(current.properties, name)) ?? null)) {
          problems.push({ name, error: 'READ_ONLY_VALUE', message: `Property "${name}" is read-only` })
        }
        continue
      }
      values.set(name, result.value)
    }
    if (problems.length > 0) throw propertyValuesError(problems)
    return values
  }

  #applyDefaults(objectType: ObjectType, values: Values, now: number): void {
    // The pipeline defaults to the type's only pipeline; once there are several, a new record must name one.
    const pp = PIPELINE_PROPERTIES[objectType]
    if ((objectType === 'tickets' || objectType === 'deals') && pp && (values.get(pp.pipeline) ?? null) === null) {
      const needed = objectType === 'tickets' || (values.get(pp.stage) ?? null) !== null
      const live = pipelinesOf(this.#db, objectType)
      if (needed && live.length === 1) values.set(pp.pipeline, live[0]!.id)
    }
    if ((objectType === 'calls' || objectType === 'tasks' || objectType === 'notes') && (values.get('hs_timestamp') ?? null) === null) {
      values.set('hs_timestamp', isoAt(now))
    }
  }

  /** Object-level rules: required properties, pipeline/stage, pinned activity. */
  #checkRules(objectType: ObjectType, current: CrmRecord | undefined, values: Values, links: readonly ResolvedAssociation[]): void {
    const merged = (name: string): string | null => (values.has(name) ? (values.get(name) ?? null) : ((current && own(current.properties, name)) ?? null))

    // Tickets need these; a custom type needs its schema's requiredProperties.
    const required = objectType === 'tickets' ? ['subject', 'hs_pipeline', 'hs_pipeline_stage'] : (this.customTypes.schema(objectType)?.requiredProperties ?? [])
    if (required.length > 0) {
      const missing = required.filter((name) => merged(name) === null)
      if (missing.length > 0) {
        const message = current
          ? `Properties ${missing.join(', ')} of a ${this.customTypes.singularOf(objectType)} cannot be cleared.`
          : `Cannot create object with type: ${upperName(objectType)}. The following required properties were missing: [${missing.join(', ')}]`
        throw validationError(message, {
          errors: missing.map((name) => ({ message: `${name} is required`, code: 'REQUIRED_PROPERTY', context: { propertyName: [name] } })),
        })
      }
    }

    const problems: PropertyProblem[] = []
    const pp = PIPELINE_PROPERTIES[objectType]
    if (pp && (objectType === 'tickets' || objectType === 'deals') && (values.has(pp.pipeline) || values.has(pp.stage))) {
      const pipelineId = merged(pp.pipeline)
      const stageId = merged(pp.stage)
      const pipeline = pipelineId === null ? undefined : this.pipeline(objectType, pipelineId)
      if (pipelineId !== null && !pipeline) {
        problems.push({ name: pp.pipeline, error: 'INVALID_OPTION', message: `${pipelineId} is not a valid pipeline id` })
      } else if (stageId !== null && pipelineId === null) {
        problems.push({ name: pp.pipeline, error: 'REQUIRED_PROPERTY', message: `${pp.stage} needs ${pp.pipeline}` })
      } else if (pipeline && stageId !== null && !pipeline.stages.some((s) => s.id === stageId && !s.archived)) {
        problems.push({
          name: pp.stage,
          error: 'INVALID_OPTION',
          message: `${stageId} is not a valid stage of pipeline ${pipeline.id}; its stages are [${pipeline.stages.map((s) => s.id).join(', ')}]`,
        })
      }
    }

    if (objectType === 'tickets' && values.has('hs_pinned_engagement_id')) {
      const pinned = values.get('hs_pinned_engagement_id') ?? null
      if (pinned !== null) {
        const inSameCreate = links.some((l) => l.toType === 'calls' && l.toId === pinned)
        const alreadyLinked = current !== undefined && this.isAssociated('tickets', current.id, 'calls', pinned)
        if (!this.get('calls', pinned)) {
          problems.push({ name: 'hs_pinned_engagement_id', error: 'INVALID_PINNED_ENGAGEMENT', message: `No call activity with id ${pinned} exists` })
        } else if (!inSameCreate && !alreadyLinked) {
          problems.push({
            name: 'hs_pinned_engagement_id',
            error: 'INVALID_PINNED_ENGAGEMENT',
            message: `Call ${pinned} cannot be pinned: it is not associated with this ticket`,
          })
        }
      }
    }
    if (problems.length > 0) throw propertyValuesError(problems)
  }

  #checkUnique(objectType: ObjectType, current: CrmRecord | undefined, values: ReadonlyMap<string, string | null>): void {
    // Custom properties created with hasUniqueValue: checked by a scan (only when such a value is written).
    for (const def of this.properties.uniqueCustom(objectType)) {
      const value = values.get(def.name)
      if (value === undefined || value === null) continue
      for (const record of this.#table(objectType, false).values()) {
        if (record.id !== current?.id && own(record.properties, def.name) === value) {
          throw conflict(`A ${this.customTypes.singularOf(objectType)} with ${def.name}=${value} already exists. Existing ID: ${record.id}`, {
            context: { [def.name]: [value], existingId: [record.id] },
          })
        }
      }
    }
    for (const [name, index] of this.#unique.get(objectType) ?? []) {
      const value = values.get(name)
      if (value === undefined || value === null) continue
      const owner = index.holder(value)
      if (owner !== undefined && owner !== current?.id) {
        throw conflict(`${this.customTypes.singularOf(objectType).replace(/^./, (c) => c.toUpperCase())} already exists. Existing ID: ${owner}`, {
          context: { [name]: [value], existingId: [owner] },
        })
      }
    }
  }

  #associationType(fromType: ObjectType, toType: ObjectType, typeId: number): AnyAssociationType {
    const type = this.associationTypeFrom(fromType, typeId)
    if (!type || type.to !== toType) {
      throw validationError(
        `Association type id ${typeId} is not a valid association from ${fromType} to ${toType}. See GET /crm/v4/associations/${fromType}/${toType}/labels.`,
      )
    }
    return type
  }

  /**
   * The limits set on `type` (from `fromType`) and its inverse hold once
   * `fromId` is linked to `toId` (undefined: a record being created).
   */
  #checkLimit(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string | undefined, type: AnyAssociationType): void {
    const over = (aType: ObjectType, aId: string, bType: ObjectType, bId: string | undefined, typeId: number) => {
      const max = isBuiltinType(aType) ? this.labels.limitOf(aType, typeId) : undefined
      if (max === undefined) return
      const linked = this.associations(aType, aId, bType).filter((a) => a.typeIds.includes(typeId) && a.id !== bId).length
      if (linked + 1 > max) {
        throw validationError(
          `${upperName(aType)} ${aId} already has ${linked} ${bType} associated through association type ${typeId}, the limit configured for it (${max}).`,
          { context: { fromObjectId: [aId], associationTypeId: [String(typeId)], limit: [String(max)] } },
        )
      }
    }
    over(fromType, fromId, toType, toId, type.typeId)
    if (toId !== undefined) over(toType, toId, fromType, fromId, type.inverseTypeId)
  }

  #resolveAssociations(fromType: ObjectType, inputs: readonly AssociationInput[]): ResolvedAssociation[] {
    const resolved: ResolvedAssociation[] = []
    for (const [index, input] of inputs.entries()) {
      if (input.types.length === 0) throw validationError(`associations[${index}].types must name at least one association type.`)
      for (const spec of input.types) {
        const type = this.associationTypeFrom(fromType, spec.associationTypeId)
        if (!type || spec.associationCategory !== type.category) {
          throw validationError(
            `associations[${index}]: ${spec.associationCategory} association type ${spec.associationTypeId} does not exist for ${fromType}.`,
          )
        }
        if (!this.get(type.to, input.to.id)) {
          throw validationError(`associations[${index}]: ${upperName(type.to)} ${input.to.id} does not exist.`)
        }
        resolved.push({ toType: type.to, toId: input.to.id, type })
      }
    }
    return resolved
  }

  // ------------------------------------------------------- link storage

  #link(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, type: AnyAssociationType): void {
    this.#linkOne(fromType, fromId, toType, toId, type.typeId)
    this.#linkOne(toType, toId, fromType, fromId, type.inverseTypeId)
    if (type.implies !== undefined) {
      const implied = this.associationTypeFrom(fromType, type.implies)
      if (implied) this.#link(fromType, fromId, toType, toId, implied)
    }
  }

  #linkOne(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number): void {
    const key = recordKey(fromType, fromId)
    const row = this.#associations.get(key) ?? {}
    const list = row[toType] ?? []
    const existing = list.find((a) => a.id === toId)
    if (existing?.typeIds.includes(typeId)) return
    const nextList = existing
      ? list.map((a) => (a.id === toId ? { id: a.id, typeIds: [...a.typeIds, typeId] } : a))
      : [...list, { id: toId, typeIds: [typeId] }]
    this.#associations.set(key, { ...row, [toType]: nextList })
  }

  #unlinkOne(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number): boolean {
    const key = recordKey(fromType, fromId)
    const row = this.#associations.get(key)
    const list = row?.[toType]
    const existing = list?.find((a) => a.id === toId)
    if (!row || !list || !existing?.typeIds.includes(typeId)) return false
    const typeIds = existing.typeIds.filter((t) => t !== typeId)
    const nextList = typeIds.length > 0 ? list.map((a) => (a.id === toId ? { id: toId, typeIds } : a)) : list.filter((a) => a.id !== toId)
    const { [toType]: _dropped, ...others } = row
    const next: AssociationRow = nextList.length > 0 ? { ...others, [toType]: nextList } : others
    if (Object.keys(next).length === 0) this.#associations.delete(key)
    else this.#associations.set(key, next)
    return true
  }

  #clearPin(ticketType: ObjectType, ticketId: string, callType: ObjectType, callId: string, now: number): void {
    if (ticketType !== 'tickets' || callType !== 'calls') return
    const ticket = this.get('tickets', ticketId)
    if (ticket?.properties.hs_pinned_engagement_id === callId) {
      this.setProperties('tickets', ticketId, { hs_pinned_engagement_id: null }, now, 'API')
    }
  }
}

function recordKey(objectType: ObjectType, id: string): string {
  return `${objectType}:${id}`
}


/** A copy of `record` with `values` written and their history appended (an implied history is not stored). */
function withValues(record: CrmRecord, values: Values, iso: string, sourceType: SourceType): CrmRecord {
  const properties: Record<string, string> = { ...record.properties }
  const changed: Array<[string, ValueWithTimestamp[]]> = []
  for (const [name, value] of values) {
    const before = own(properties, name)
    if (value === null) {
      if (before === undefined) continue
      delete properties[name]
    } else {
      if (before === value) continue
      properties[name] = value
    }
    const entry: ValueWithTimestamp = { value: value ?? '', timestamp: iso, sourceType }
    changed.push([name, [entry, ...(propertyHistory(record, name) ?? [])].slice(0, HISTORY_LIMIT)])
  }
  const next: CrmRecord = { ...record, properties }
  const explicit = changed.filter(([name, entries]) => !isImplied(next, name, entries))
  if (explicit.length === 0) return { ...next, history: Object.keys(record.history).length === 0 ? NO_HISTORY : record.history }
  const history: Record<string, readonly ValueWithTimestamp[]> = { ...record.history }
  for (const [name, entries] of explicit) history[name] = entries
  return { ...next, history }
}