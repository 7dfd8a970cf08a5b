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
 * This file holds the writes: records, associations and the recycle bin. The
 * tables and reads are in record-tables.ts, the checks in record-rules.ts,
 * the record's shape and history in crm-record.ts.
 */
import { notFound } from '../http/errors.ts'
import { recordKey, type AnyAssociationType, type AssociatedRecord, type AssociationInput, type AssociationRow } from './association-rows.ts'
import { isoAt, withValues, type CrmRecord, type SourceType, type Values } from './crm-record.ts'
import { upperName, type ObjectType } from './object-types.ts'
import type { PropertyProblem } from './property-values.ts'
import { CheckedRecords, propertyValuesError } from './record-rules.ts'

export class ObjectStore extends CheckedRecords {
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
    const values = this.checkValues(objectType, properties, undefined)
    const links = this.resolveAssociations(objectType, associations)
    // A new record has no associations yet: only the far side's limits can be reached.
    for (const link of links) this.checkLimit(link.toType, link.toId, objectType, undefined, this.associationTypeFrom(link.toType, link.type.inverseTypeId)!)
    this.applyDefaults(objectType, values, now)
    this.checkRules(objectType, undefined, values, links)
    this.checkUnique(objectType, undefined, values)

    const id = this.newId(objectType)
    const iso = isoAt(now)
    values.set('hs_object_id', id)
    values.set('createdate', iso)
    values.set('hs_lastmodifieddate', iso)
    const empty: CrmRecord = { id, properties: {}, history: {}, createdAt: iso, updatedAt: iso, archived: false }
    const record = withValues(empty, values, iso, sourceType)
    this.table(objectType, false).set(id, record)
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
    const values = this.checkValues(objectType, properties, current)
    this.checkRules(objectType, current, values, [])
    this.checkUnique(objectType, current, values)
    const iso = isoAt(now)
    values.set('hs_lastmodifieddate', iso)
    const next = { ...withValues(current, values, iso, sourceType), updatedAt: iso }
    this.table(objectType, false).set(id, next)
    return next
  }

  /**
   * Associate two live records with an association type id valid from
   * `fromType` to `toType` (the inverse is recorded too). Idempotent.
   * Throws 400 for an unknown type id, 404 for a missing record.
   */
  associate(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number): void {
    const type = this.associationType(fromType, toType, typeId)
    if (!this.get(fromType, fromId)) throw notFound(`${upperName(fromType)} ${fromId} does not exist.`)
    if (!this.get(toType, toId)) throw notFound(`${upperName(toType)} ${toId} does not exist.`)
    this.checkLimit(fromType, fromId, toType, toId, type)
    this.#link(fromType, fromId, toType, toId, type)
  }

  /**
   * Remove one association type (and its inverse) between two records.
   * Returns whether it existed. When no association is left between a
   * ticket and a call, a pin of that call on the ticket is cleared.
   */
  dissociate(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number, now: number): boolean {
    const type = this.associationType(fromType, toType, typeId)
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
    for (const table of [this.table(objectType, false), this.table(objectType, true)]) {
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
    this.table(objectType, false).delete(id)
    this.table(objectType, true).set(id, archived)
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
    this.checkUnique(objectType, undefined, new Map(Object.entries(restored.properties)))
    this.table(objectType, true).delete(id)
    this.table(objectType, false).set(id, restored)
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
    for (const [toType, links] of Object.entries(this.associationRows.get(key) ?? {}) as Array<[ObjectType, AssociatedRecord[]]>) {
      for (const link of links) {
        const otherKey = recordKey(toType, link.id)
        const other = this.associationRows.get(otherKey)
        const rest = (other?.[objectType] ?? []).filter((a) => a.id !== id)
        if (!other) continue
        const { [objectType]: _dropped, ...others } = other
        // An emptied row is kept (not deleted): a merge links the record again in the same transaction, and a
        // row deleted and set again would move to the end of the table, where a reload from saved rows would not put it.
        this.associationRows.set(otherKey, rest.length > 0 ? { ...others, [objectType]: rest } : others)
      }
    }
    this.associationRows.delete(key)
    this.table(objectType, false).delete(id)
    this.table(objectType, true).delete(id)
    return record
  }

  /** Make the record tables of a new custom type now, so that later requests only ever write rows. */
  declareType(objectType: ObjectType): void {
    this.table(objectType, false)
    this.table(objectType, true)
  }

  /** Remove every association of these type ids (a custom association definition that was deleted), in both directions. */
  dropAssociationTypes(typeIds: readonly number[]): void {
    const gone = new Set(typeIds)
    for (const [key, row] of [...this.associationRows.entries()]) {
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
      if (Object.keys(next).length === 0) this.associationRows.delete(key)
      else this.associationRows.set(key, next)
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
    this.table(objectType, false).set(id, next)
    return next
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
    const row = this.associationRows.get(key) ?? {}
    const list = row[toType] ?? []
    const existing = list.find((a) => a.id === toId)
    if (existing?.typeIds.includes(typeId)) return
    const nextList = existing
      ? list.map((a) => (a.id === toId ? { id: a.id, typeIds: [...a.typeIds, typeId] } : a))
      : [...list, { id: toId, typeIds: [typeId] }]
    this.associationRows.set(key, { ...row, [toType]: nextList })
  }

  #unlinkOne(fromType: ObjectType, fromId: string, toType: ObjectType, toId: string, typeId: number): boolean {
    const key = recordKey(fromType, fromId)
    const row = this.associationRows.get(key)
    const list = row?.[toType]
    const existing = list?.find((a) => a.id === toId)
    if (!row || !list || !existing?.typeIds.includes(typeId)) return false
    const typeIds = existing.typeIds.filter((t) => t !== typeId)
    const nextList = typeIds.length > 0 ? list.map((a) => (a.id === toId ? { id: toId, typeIds } : a)) : list.filter((a) => a.id !== toId)
    const { [toType]: _dropped, ...others } = row
    const next: AssociationRow = nextList.length > 0 ? { ...others, [toType]: nextList } : others
    if (Object.keys(next).length === 0) this.associationRows.delete(key)
    else this.associationRows.set(key, next)
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
