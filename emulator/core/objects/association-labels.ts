/**
 * Association types the account defines itself, and limits on associations:
 *
 * - **Labels** (`USER_DEFINED` types), as the v4 label API makes them: a label
 *   between two object types is a pair of types, one each way (the inverse
 *   carries `inverseLabel`, else the same label), as the real API's create
 *   answer lists them. At most 50 labels per pair of object types (HubSpot's
 *   knowledge base: "up to 50 labels per object pair").
 * - **Limits** (`definitions/configurations`): the most records of the target
 *   type one record may be associated with through a type. A label's limit
 *   may not exceed the limit of the pair's unlabelled type, and the other way
 *   round (the rule HubSpot's changelog of 2024-07-30 gives, "Label limits must
 *   always be less than or equal to the object limit if it is set").
 *
 * Both are stored in the database, so they survive restarts and travel in an
 * export. HUBSPOT_DEFINED types come from shared/crm/association-types.ts;
 * `typeFrom` answers for both kinds, and the object store resolves every type
 * id through it.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { ASSOCIATION_TYPES, associationTypeFrom, associationTypesBetween, type AssociationCategory, type AssociationType } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, type BuiltinObjectType as ObjectType } from './object-types.ts'

/** Most labels between one pair of object types. */
export const MAX_LABELS_PER_PAIR = 50
/** Longest label text taken. */
export const MAX_LABEL_LENGTH = 100

const labelSchema = z.object({
  from: z.enum(OBJECT_TYPE_NAMES),
  to: z.enum(OBJECT_TYPE_NAMES),
  typeId: z.number().int().positive(),
  inverseTypeId: z.number().int().positive(),
  name: z.string(),
  label: z.string(),
  inverseLabel: z.string().optional(),
})
export type LabelRow = z.infer<typeof labelSchema>

const limitSchema = z.object({
  from: z.enum(OBJECT_TYPE_NAMES),
  to: z.enum(OBJECT_TYPE_NAMES),
  category: z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED']),
  typeId: z.number().int(),
  maxToObjectIds: z.number().int().positive(),
})
export type LimitRow = z.infer<typeof limitSchema>

/** Type ids HubSpot defines: a label never gets one of these numbers, so a stored association names its type by number alone. */
const HUBSPOT_IDS = new Set(ASSOCIATION_TYPES.map((t) => t.typeId))

function typeOf(row: LabelRow, forward: boolean): AssociationType {
  return forward
    ? { from: row.from, to: row.to, typeId: row.typeId, inverseTypeId: row.inverseTypeId, category: 'USER_DEFINED', label: row.label, name: row.name }
    : {
        from: row.to,
        to: row.from,
        typeId: row.inverseTypeId,
        inverseTypeId: row.typeId,
        category: 'USER_DEFINED',
        label: row.inverseLabel ?? row.label,
        name: row.name,
      }
}

export class AssociationLabels {
  readonly #db: Database
  readonly #labels: Table<LabelRow>
  readonly #limits: Table<LimitRow>

  constructor(db: Database) {
    this.#db = db
    this.#labels = db.table('crm_association_labels', labelSchema)
    this.#limits = db.table('crm_association_limits', limitSchema)
  }

  /** The type with this id from `from`, HubSpot's or a label's. */
  typeFrom(from: ObjectType, typeId: number): AssociationType | undefined {
    const defined = associationTypeFrom(from, typeId)
    if (defined) return defined
    for (const row of this.#labels.values()) {
      if (row.from === from && row.typeId === typeId) return typeOf(row, true)
      if (row.to === from && row.inverseTypeId === typeId) return typeOf(row, false)
    }
    return undefined
  }

  /** Every type from `from` to `to`: HubSpot's, then the labels in the order they were made. */
  between(from: ObjectType, to: ObjectType): AssociationType[] {
    const types = associationTypesBetween(from, to)
    for (const row of this.#labels.values()) {
      if (row.from === from && row.to === to) types.push(typeOf(row, true))
      if (row.to === from && row.from === to && row.inverseTypeId !== row.typeId) types.push(typeOf(row, false))
    }
    return types
  }

  /** A user-defined type from `from` to `to`, or 404 in the real API's words. */
  #label(from: ObjectType, to: ObjectType, typeId: number): { row: LabelRow; forward: boolean } {
    for (const row of this.#labels.values()) {
      if (row.from === from && row.to === to && row.typeId === typeId) return { row, forward: true }
      if (row.to === from && row.from === to && row.inverseTypeId === typeId) return { row, forward: false }
    }
    if (associationTypeFrom(from, typeId)?.to === to) {
      throw validationError(`Association type ${typeId} from ${from} to ${to} is HUBSPOT_DEFINED; only USER_DEFINED labels can be changed or deleted.`)
    }
    throw notFound(`No USER_DEFINED association label with typeId ${typeId} exists from ${from} to ${to}.`)
  }

  /** POST …/labels: a new label both ways; returns the two types (this way first). */
  create(from: ObjectType, to: ObjectType, input: { name: string; label: string; inverseLabel?: string }): AssociationType[] {
    const existing = [...this.#labels.values()].filter((r) => (r.from === from && r.to === to) || (r.from === to && r.to === from))
    if (existing.length >= MAX_LABELS_PER_PAIR) {
      throw validationError(`There are already ${MAX_LABELS_PER_PAIR} association labels between ${from} and ${to}, the most allowed.`)
    }
    const clash = existing.find((r) => r.name === input.name)
    if (clash) throw conflict(`An association label named '${input.name}' already exists between ${from} and ${to} (typeId ${clash.typeId}).`)
    const typeId = this.#newTypeId()
    const inverseTypeId = this.#newTypeId()
    const row: LabelRow = { from, to, typeId, inverseTypeId, name: input.name, label: input.label, ...(input.inverseLabel !== undefined && { inverseLabel: input.inverseLabel }) }
    this.#labels.set(String(typeId), row)
    return [typeOf(row, true), typeOf(row, false)]
  }

  /** PUT …/labels: new label text (and inverse label) of a USER_DEFINED type. */
  update(from: ObjectType, to: ObjectType, input: { associationTypeId: number; label: string; inverseLabel?: string }): void {
    const { row, forward } = this.#label(from, to, input.associationTypeId)
    const next: LabelRow = forward
      ? { ...row, label: input.label, ...(input.inverseLabel !== undefined && { inverseLabel: input.inverseLabel }) }
      : { ...row, inverseLabel: input.label, ...(input.inverseLabel !== undefined && { label: input.inverseLabel }) }
    this.#labels.set(String(row.typeId), next)
  }

  /**
   * DELETE …/labels/{typeId}: removes both directions of the label and their
   * limits. `uses` counts the associations of the pair's types; a label that
   * links any records is refused (400), as nothing may be left pointing at a
   * type that no longer exists. HubSpot does not publish this error's
   * wording: the category is the real one (VALIDATION_ERROR), the message the
   * emulator's.
   */
  remove(from: ObjectType, to: ObjectType, typeId: number, uses: (type: AssociationType) => number): void {
    const { row } = this.#label(from, to, typeId)
    const inUse = uses(typeOf(row, true))
    if (inUse > 0) {
      throw validationError(
        `Association label '${row.label}' (typeId ${typeId}) is in use by ${inUse} association${inUse === 1 ? '' : 's'} and cannot be deleted. Remove the label from those associations first (POST /crm/v4/associations/${from}/${to}/batch/labels/archive).`,
        { context: { associationTypeId: [String(typeId)], usage: [String(inUse)] } },
      )
    }
    this.#labels.delete(String(row.typeId))
    for (const [key, limit] of [...this.#limits.entries()]) {
      if (limit.category === 'USER_DEFINED' && (limit.typeId === row.typeId || limit.typeId === row.inverseTypeId)) this.#limits.delete(key)
    }
  }

  #newTypeId(): number {
    for (;;) {
      const id = this.#db.nextId('crm_association_labels')
      if (!HUBSPOT_IDS.has(id) && !this.#labels.has(String(id))) return id
    }
  }

  // ------------------------------------------------------------- limits

  /** Every limit set, or those from `from` to `to`. */
  limits(from?: ObjectType, to?: ObjectType): Array<LimitRow & { label: string | null }> {
    return [...this.#limits.values()]
      .filter((l) => from === undefined || (l.from === from && l.to === to))
      .map((l) => ({ ...l, label: this.typeFrom(l.from, l.typeId)?.label ?? null }))
  }

  /** The limit on a type from `from`, if one is set. */
  limitOf(from: ObjectType, typeId: number): number | undefined {
    const type = this.typeFrom(from, typeId)
    return type ? this.#limits.get(limitKey(from, type.to, type.category, typeId))?.maxToObjectIds : undefined
  }

  /**
   * Set (create) or change (update) the limit on one type from `from` to `to`.
   * Throws 400/404/409 in the real API's way; nothing is written then.
   */
  setLimit(mode: 'create' | 'update', from: ObjectType, to: ObjectType, category: AssociationCategory, typeId: number, max: number): LimitRow & { label: string | null } {
    const type = this.typeFrom(from, typeId)
    if (!type || type.to !== to || type.category !== category) {
      throw validationError(`${category} association type ${typeId} does not exist from ${from} to ${to}. See GET /crm/v4/associations/${from}/${to}/labels.`)
    }
    const key = limitKey(from, to, category, typeId)
    const current = this.#limits.get(key)
    if (mode === 'create' && current) throw conflict(`A limit is already configured for ${category} association type ${typeId} from ${from} to ${to}; update it instead.`)
    if (mode === 'update' && !current) throw notFound(`No limit is configured for ${category} association type ${typeId} from ${from} to ${to}; create it first.`)
    const plain = associationTypesBetween(from, to).find((t) => t.label === null)
    if (plain && type.label !== null) {
      const objectLimit = this.#limits.get(limitKey(from, to, plain.category, plain.typeId))?.maxToObjectIds
      if (objectLimit !== undefined && max > objectLimit) {
        throw validationError(`The limit of a label must be within the limit of ${from} to ${to} associations (${objectLimit}): the valid range is 1-${objectLimit}.`)
      }
    } else if (plain && type.typeId === plain.typeId) {
      const highest = Math.max(0, ...this.limits(from, to).filter((l) => l.typeId !== plain.typeId).map((l) => l.maxToObjectIds))
      if (highest > max) throw validationError(`A label between ${from} and ${to} has a limit of ${highest}; the limit of all ${from} to ${to} associations must be at least that.`)
    }
    const row: LimitRow = { from, to, category, typeId, maxToObjectIds: max }
    this.#limits.set(key, row)
    return { ...row, label: type.label }
  }

  /** Remove the limit on a type; returns whether one was set. */
  purgeLimit(from: ObjectType, to: ObjectType, category: AssociationCategory, typeId: number): boolean {
    return this.#limits.delete(limitKey(from, to, category, typeId))
  }

  /** The first stored label or limit that does not fit the rest (for an import), or undefined. */
  findIntegrityProblem(): string | undefined {
    for (const [key, row] of this.#labels.entries()) {
      if (key !== String(row.typeId)) return `crm_association_labels row "${key}": its typeId is ${row.typeId}`
      if (HUBSPOT_IDS.has(row.typeId) || HUBSPOT_IDS.has(row.inverseTypeId)) return `crm_association_labels row "${key}": a HUBSPOT_DEFINED type id`
    }
    for (const [key, row] of this.#limits.entries()) {
      if (this.typeFrom(row.from, row.typeId)?.to !== row.to) return `crm_association_limits row "${key}": no association type ${row.typeId} from ${row.from} to ${row.to}`
    }
    return undefined
  }
}

function limitKey(from: ObjectType, to: ObjectType, category: string, typeId: number): string {
  return `${OBJECT_TYPES[from].typeId}:${OBJECT_TYPES[to].typeId}:${category}:${typeId}`
}
