/**
 * The HUBSPOT_DEFINED association types between the emulated object types.
 * Each pair is declared once, with the id of each direction; the ids are the
 * real API's, from the AssociationTypes enum of the official Node client
 * (https://github.com/HubSpot/hubspot-api-nodejs, src/enums/AssociationTypes.ts).
 * Which ids are emulator choices is said in emulator/core/README.md.
 */
import type { ObjectType } from './object-types.ts'
import { OBJECT_TYPES } from './object-types.ts'

/** Who defined an association type: HubSpot, or the account (a label). */
export type AssociationCategory = 'HUBSPOT_DEFINED' | 'USER_DEFINED'

export interface AssociationType {
  from: ObjectType
  to: ObjectType
  typeId: number
  /** The id of the same association seen from the other side. */
  inverseTypeId: number
  category: AssociationCategory
  /** null for the unlabelled default type, "Primary" for the primary company, an account's label text. */
  label: string | null
  /** The v3 name shown in `associations.{type}.results[].type`, e.g. ticket_to_contact (a label's `name`). */
  name: string
  /** Another type this one implies (a primary company is also a plain association). */
  implies?: number
}

interface PairSpec {
  a: ObjectType
  b: ObjectType
  aToB: number
  bToA: number
  label?: string
  /** Suffix of the v3 name, e.g. "unlabeled". */
  suffix?: string
  implies?: [aToB: number, bToA: number]
}

const PAIRS: PairSpec[] = [
  { a: 'contacts', b: 'companies', aToB: 279, bToA: 280, suffix: 'unlabeled' },
  { a: 'contacts', b: 'companies', aToB: 1, bToA: 2, label: 'Primary', implies: [279, 280] },
  { a: 'contacts', b: 'deals', aToB: 4, bToA: 3 },
  { a: 'contacts', b: 'tickets', aToB: 15, bToA: 16 },
  { a: 'contacts', b: 'calls', aToB: 193, bToA: 194 },
  { a: 'companies', b: 'deals', aToB: 342, bToA: 341, suffix: 'unlabeled' },
  { a: 'companies', b: 'deals', aToB: 6, bToA: 5, label: 'Primary', implies: [342, 341] },
  { a: 'companies', b: 'tickets', aToB: 340, bToA: 339, suffix: 'unlabeled' },
  { a: 'companies', b: 'tickets', aToB: 25, bToA: 26, label: 'Primary', implies: [340, 339] },
  { a: 'companies', b: 'calls', aToB: 181, bToA: 182 },
  { a: 'deals', b: 'tickets', aToB: 27, bToA: 28 },
  { a: 'deals', b: 'calls', aToB: 205, bToA: 206 },
  { a: 'tickets', b: 'calls', aToB: 219, bToA: 220 },
  { a: 'contacts', b: 'tasks', aToB: 203, bToA: 204 },
  { a: 'companies', b: 'tasks', aToB: 191, bToA: 192 },
  { a: 'deals', b: 'tasks', aToB: 215, bToA: 216 },
  { a: 'tickets', b: 'tasks', aToB: 229, bToA: 230 },
  { a: 'contacts', b: 'notes', aToB: 201, bToA: 202 },
  { a: 'companies', b: 'notes', aToB: 189, bToA: 190 },
  { a: 'deals', b: 'notes', aToB: 213, bToA: 214 },
  { a: 'tickets', b: 'notes', aToB: 227, bToA: 228 },
]

function build(): AssociationType[] {
  return PAIRS.flatMap((p) => {
    const direction = (from: ObjectType, to: ObjectType, typeId: number, inverseTypeId: number, implies?: number): AssociationType => ({
      from,
      to,
      typeId,
      inverseTypeId,
      category: 'HUBSPOT_DEFINED',
      label: p.label ?? null,
      name: `${OBJECT_TYPES[from].singular}_to_${OBJECT_TYPES[to].singular}${p.suffix ? `_${p.suffix}` : ''}`,
      ...(implies !== undefined && { implies }),
    })
    return [direction(p.a, p.b, p.aToB, p.bToA, p.implies?.[0]), direction(p.b, p.a, p.bToA, p.aToB, p.implies?.[1])]
  })
}

export const ASSOCIATION_TYPES: readonly AssociationType[] = build()

/** The type with this id from `from` (to whatever type it points at). */
export function associationTypeFrom(from: ObjectType, typeId: number): AssociationType | undefined {
  return ASSOCIATION_TYPES.find((t) => t.from === from && t.typeId === typeId)
}

/** Every type from `from` to `to`. */
export function associationTypesBetween(from: ObjectType, to: ObjectType): AssociationType[] {
  return ASSOCIATION_TYPES.filter((t) => t.from === from && t.to === to)
}

/** The default (unlabelled) type from `from` to `to`, if the pair is associable. */
export function defaultAssociationType(from: ObjectType, to: ObjectType): AssociationType | undefined {
  return ASSOCIATION_TYPES.find((t) => t.from === from && t.to === to && t.label === null)
}
