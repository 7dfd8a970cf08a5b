/**
 * A stored CRM record: its shape, the form it is saved in, and its property
 * history (ValueWithTimestamp, as the real API's `propertiesWithHistory`
 * returns it). Pure functions of records: the tables that hold them are in
 * record-tables.ts.
 */
import { z } from 'zod'
import { own } from '../http/http.ts'

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

/** A timestamp as the API writes them (`Date.prototype.toISOString`). */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The last instant isoAt wrote, and its text. */
let lastInstant = Number.NaN
let lastIso = ''

/**
 * `new Date(now).toISOString()`, as one string for one instant: the records
 * a request writes (a batch of 100 shares its clock reading) hold one copy
 * of their timestamp between them instead of one each.
 */
export function isoAt(now: number): string {
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

export const recordSchema: z.ZodType<CrmRecord> = z
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

/** Values to write: a property name → its stored form, or null to clear it. */
export type Values = Map<string, string | null>

/** A copy of `record` with `values` written and their history appended (an implied history is not stored). */
export function withValues(record: CrmRecord, values: Values, iso: string, sourceType: SourceType): CrmRecord {
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
