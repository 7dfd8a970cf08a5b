/**
 * How associations are stored: one row per record, keyed by `<type>:<id>`,
 * listing per target type the linked records and every association type id
 * that links each, as the v4 associations API reports them. The store's
 * association methods (object-store.ts) keep both directions in step.
 */
import { z } from 'zod'
import type { AssociationType as BuiltinAssociationType } from '../../../shared/crm/association-types.ts'
import type { CustomAssociationType } from './custom-objects.ts'
import { OBJECT_TYPE_NAMES, type ObjectType } from './object-types.ts'

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

/** The associations of one record: per target type (a built-in type's name or a custom type's id), the linked records. */
export type AssociationRow = Partial<Record<ObjectType, AssociatedRecord[]>>
export const associationsSchema = z.record(
  z.string().regex(new RegExp(`^(${OBJECT_TYPE_NAMES.join('|')}|2-[1-9]\\d*)$`)),
  z.array(z.object({ id: z.string(), typeIds: z.array(z.number().int()) })),
) as z.ZodType<AssociationRow>

/** An association type between the CRM's own types, or one a custom object schema defines. */
export type AnyAssociationType = BuiltinAssociationType | CustomAssociationType

/** The key of a record's association row (and of a merged id): `<type>:<id>`. */
export function recordKey(objectType: ObjectType, id: string): string {
  return `${objectType}:${id}`
}
