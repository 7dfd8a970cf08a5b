/**
 * Custom object types: the schemas made through the schemas API
 * (https://developers.hubspot.com/docs/api-reference/crm-schemas-v3/guide)
 * and the association definitions between a custom type and another type.
 * The ObjectStore keeps records of these types like any other; this module
 * says which types exist, what they are called and how they associate.
 *
 * Names, as in the real API: a schema has an `id` (`<n>`), an objectTypeId
 * (`2-<n>`), its `name` and a fullyQualifiedName (`p<portalId>_<name>`). A
 * path may name the type by objectTypeId, by fullyQualifiedName or by the
 * short form `p_<name>`. Inside the API the type is its objectTypeId.
 *
 * An association definition links the custom type to another type; it has
 * one id per direction, each a USER_DEFINED association type id (the
 * unlabelled association of the pair, as the default association between a
 * custom object and a standard one is).
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { ACCOUNT } from '../../../shared/crm/account.ts'
import { OBJECT_TYPES, isBuiltinType, parseObjectType, type CustomObjectType, type ObjectType } from './object-types.ts'

/** An objectTypeId of a custom type. */
export const CUSTOM_TYPE_ID = /^2-[1-9]\d{0,9}$/
/** The first association type id handed to custom associations, clear of the CRM's own ids. */
const FIRST_ASSOCIATION_ID = 3000

const iso = z.string()
const schemaRow = z.object({
  id: z.string().regex(/^[1-9]\d*$/),
  name: z.string(),
  labels: z.object({ singular: z.string(), plural: z.string() }),
  description: z.string().optional(),
  requiredProperties: z.array(z.string()),
  searchableProperties: z.array(z.string()),
  primaryDisplayProperty: z.string().optional(),
  secondaryDisplayProperties: z.array(z.string()),
  createdAt: iso,
  updatedAt: iso,
  archived: z.boolean(),
  archivedAt: iso.optional(),
})
export type SchemaRow = z.infer<typeof schemaRow>

const associationRow = z.object({
  id: z.string().regex(/^[1-9]\d*$/),
  inverseId: z.string().regex(/^[1-9]\d*$/),
  fromObjectTypeId: z.string(),
  toObjectTypeId: z.string(),
  name: z.string(),
  inverseName: z.string(),
  createdAt: iso,
  updatedAt: iso,
})
export type AssociationDefinitionRow = z.infer<typeof associationRow>

/** An association type in one direction, as the store uses it (the shape of the CRM's own association types). */
export interface CustomAssociationType {
  from: ObjectType
  to: ObjectType
  typeId: number
  inverseTypeId: number
  category: 'USER_DEFINED'
  label: null
  name: string
  implies?: undefined
}

export class CustomObjectTypes {
  /** objectTypeId → schema (archived ones stay until purged). */
  readonly schemas: Table<SchemaRow>
  /** id of the definition's forward direction → definition. */
  readonly associations: Table<AssociationDefinitionRow>
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
    this.schemas = db.table('crm_schemas', schemaRow)
    this.associations = db.table('crm_schema_associations', associationRow)
  }

  /** The live custom type a path segment names (objectTypeId, fullyQualifiedName or `p_<name>`), or undefined. */
  resolve(raw: string): CustomObjectType | undefined {
    const text = raw.trim()
    if (CUSTOM_TYPE_ID.test(text)) return this.schema(text as CustomObjectType) ? (text as CustomObjectType) : undefined
    const lower = text.toLowerCase()
    for (const [typeId, row] of this.schemas.entries()) {
      if (row.archived) continue
      const name = row.name.toLowerCase()
      if (lower === fullyQualifiedName(name) || lower === `p_${name}`) return typeId as CustomObjectType
    }
    return undefined
  }

  /** Any type a path segment names: a built-in one in any of its spellings, or a live custom one. */
  resolveAny(raw: string): ObjectType | undefined {
    return parseObjectType(raw) ?? this.resolve(raw)
  }

  /** The live schema of a custom type. */
  schema(type: ObjectType): SchemaRow | undefined {
    if (isBuiltinType(type)) return undefined
    const row = this.schemas.get(type)
    return row && !row.archived ? row : undefined
  }

  /** Every live custom type, oldest first. */
  liveTypes(): CustomObjectType[] {
    return [...this.schemas.entries()].filter(([, row]) => !row.archived).map(([typeId]) => typeId as CustomObjectType)
  }

  /** The type's objectTypeId (`0-1`, `2-7`). */
  typeIdOf(type: ObjectType): string {
    return isBuiltinType(type) ? OBJECT_TYPES[type].typeId : type
  }

  /** The type as `ObjectType` from an objectTypeId or name stored in a definition. */
  #typeOf(typeId: string): ObjectType | undefined {
    return CUSTOM_TYPE_ID.test(typeId) ? (typeId as CustomObjectType) : parseObjectType(typeId)
  }

  /** Custom association types from `from` (live definitions between live types). */
  associationTypesFrom(from: ObjectType): CustomAssociationType[] {
    const types: CustomAssociationType[] = []
    for (const row of this.associations.values()) {
      const a = this.#typeOf(row.fromObjectTypeId)
      const b = this.#typeOf(row.toObjectTypeId)
      if (!a || !b || !this.#isLive(a) || !this.#isLive(b)) continue
      if (a === from) types.push({ from: a, to: b, typeId: Number(row.id), inverseTypeId: Number(row.inverseId), category: 'USER_DEFINED', label: null, name: row.name })
      if (b === from) types.push({ from: b, to: a, typeId: Number(row.inverseId), inverseTypeId: Number(row.id), category: 'USER_DEFINED', label: null, name: row.inverseName })
    }
    return types
  }

  /** The custom association type with this id from `from`. */
  associationType(from: ObjectType, typeId: number): CustomAssociationType | undefined {
    return this.associationTypesFrom(from).find((t) => t.typeId === typeId)
  }

  /**
   * Define the association between `from` (a custom type) and `to`, or
   * return the existing definition. Ids come from one sequence, above the
   * CRM's own association type ids.
   */
  defineAssociation(from: CustomObjectType, to: ObjectType, name: string | undefined, now: string): AssociationDefinitionRow {
    const fromId = this.typeIdOf(from)
    const toId = this.typeIdOf(to)
    const existing = [...this.associations.values()].find(
      (row) => (row.fromObjectTypeId === fromId && row.toObjectTypeId === toId) || (row.fromObjectTypeId === toId && row.toObjectTypeId === fromId),
    )
    if (existing) return existing
    const id = String(this.#db.nextId('crm_schema_associations', FIRST_ASSOCIATION_ID))
    const inverseId = String(this.#db.nextId('crm_schema_associations', FIRST_ASSOCIATION_ID))
    const row: AssociationDefinitionRow = {
      id,
      inverseId,
      fromObjectTypeId: fromId,
      toObjectTypeId: toId,
      name: name ?? `${this.singularOf(from)}_to_${this.singularOf(to)}`,
      inverseName: `${this.singularOf(to)}_to_${this.singularOf(from)}`,
      createdAt: now,
      updatedAt: now,
    }
    this.associations.set(id, row)
    return row
  }

  /** Definitions that involve the type (either side). */
  definitionsOf(type: CustomObjectType): AssociationDefinitionRow[] {
    return [...this.associations.values()].filter((row) => row.fromObjectTypeId === type || row.toObjectTypeId === type)
  }

  /** The singular name used in association names: `contact`, or the custom type's name. */
  singularOf(type: ObjectType): string {
    return isBuiltinType(type) ? OBJECT_TYPES[type].singular : (this.schemas.get(type)?.name ?? type)
  }

  /** The key of the type in a record's `associations` map: `contacts`, or the custom type's fullyQualifiedName. */
  keyOf(type: ObjectType): string {
    if (isBuiltinType(type)) return type
    const row = this.schemas.get(type)
    return row ? fullyQualifiedName(row.name) : type
  }

  #isLive(type: ObjectType): boolean {
    return isBuiltinType(type) || this.schema(type) !== undefined
  }
}

/** `p<portalId>_<name>`, the fullyQualifiedName the real API gives a custom type. */
export function fullyQualifiedName(name: string): string {
  return `p${ACCOUNT.hubId}_${name.toLowerCase()}`
}
