/**
 * The property definitions of one account (PropertyCatalog): the built-in
 * ones of every type (properties.ts) plus the custom properties and property
 * groups created through the properties API, stored in the database so an
 * export carries them.
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import type { ObjectType } from './object-types.ts'
import { builtin, definitionsOf, FIELD_TYPES, propertyDefinitions, PROPERTY_TYPES, withoutRules, type CheckedDefinition, type PropertyDefinition } from './properties.ts'

/** A property group (PropertyGroup of the properties API). */
export interface PropertyGroup {
  name: string
  label: string
  displayOrder: number
  archived: boolean
}

const GROUP_LABELS: Record<string, string> = {
  contactinformation: 'Contact information',
  companyinformation: 'Company information',
  dealinformation: 'Deal information',
  ticketinformation: 'Ticket information',
  callinformation: 'Call information',
  noteinformation: 'Note information',
  objectinformation: 'Object information',
}

/** The built-in groups of a type: every groupName its built-in properties use. */
function builtinGroups(objectType: ObjectType): PropertyGroup[] {
  const names = [...new Set([...definitionsOf(objectType).values()].map((d) => d.groupName))]
  return names.map((name, displayOrder) => ({ name, label: GROUP_LABELS[name] ?? name, displayOrder, archived: false }))
}

const optionSchema = z.object({
  label: z.string(),
  value: z.string(),
  hidden: z.boolean(),
  displayOrder: z.number().int(),
  description: z.string().optional(),
})

const definitionSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(PROPERTY_TYPES),
  fieldType: z.enum(FIELD_TYPES),
  groupName: z.string(),
  description: z.string(),
  options: z.array(optionSchema),
  displayOrder: z.number().int(),
  hidden: z.boolean(),
  hasUniqueValue: z.boolean(),
  formField: z.boolean(),
  calculated: z.boolean(),
  externalOptions: z.boolean(),
  hubspotDefined: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archived: z.boolean(),
  archivedAt: z.string().optional(),
  modificationMetadata: z.object({ archivable: z.boolean(), readOnlyDefinition: z.boolean(), readOnlyValue: z.boolean() }),
})
const groupSchema = z.object({ name: z.string(), label: z.string(), displayOrder: z.number().int(), archived: z.boolean() })

/** A custom property as stored (the Property model; archivedAt once archived). */
export type CustomPropertyRow = z.infer<typeof definitionSchema>

/**
 * The property definitions of one account: the built-in ones of every type
 * plus the custom properties and groups created through the properties API,
 * stored in the database (so an export carries them). Keys are
 * `${objectType}:${name}`.
 */
export class PropertyCatalog {
  readonly custom: Table<CustomPropertyRow>
  readonly groups: Table<PropertyGroup>

  constructor(db: Database) {
    this.custom = db.table('crm_properties', definitionSchema as z.ZodType<CustomPropertyRow>)
    this.groups = db.table('crm_property_groups', groupSchema)
  }

  /** A live property (built-in or custom) of the type, with its checks. */
  get(objectType: ObjectType, name: string): CheckedDefinition | undefined {
    const found = builtin(objectType, name)
    if (found) return found
    const row = this.custom.get(key(objectType, name))
    if (!row || row.archived) return undefined
    const { archivedAt: _archivedAt, ...def } = row
    return { ...def, rules: {} }
  }

  /** The Property model of a live property, or undefined. */
  definition(objectType: ObjectType, name: string): PropertyDefinition | undefined {
    const def = this.get(objectType, name)
    return def && withoutRules(def)
  }

  /** Every live property of the type (built-in first), or only the archived custom ones. */
  list(objectType: ObjectType, archived = false): PropertyDefinition[] {
    const custom = this.#customOf(objectType).filter((row) => row.archived === archived)
    return [...(archived ? [] : propertyDefinitions(objectType)), ...(custom as PropertyDefinition[])]
  }

  /** A custom property row, live or archived. */
  customRow(objectType: ObjectType, name: string): CustomPropertyRow | undefined {
    return this.custom.get(key(objectType, name))
  }

  isBuiltin(objectType: ObjectType, name: string): boolean {
    return builtin(objectType, name) !== undefined
  }

  putCustom(objectType: ObjectType, row: CustomPropertyRow): void {
    this.custom.set(key(objectType, row.name), row)
  }

  /** Live custom properties of the type whose values must be unique. */
  uniqueCustom(objectType: ObjectType): CustomPropertyRow[] {
    return this.#customOf(objectType).filter((row) => !row.archived && row.hasUniqueValue)
  }

  #customOf(objectType: ObjectType): CustomPropertyRow[] {
    const prefix = `${objectType}:`
    return [...this.custom.entries()].filter(([k]) => k.startsWith(prefix)).map(([, row]) => row)
  }

  /** Groups of the type: built-in ones, then created ones (archived ones only when asked). */
  listGroups(objectType: ObjectType, archived = false): PropertyGroup[] {
    const created = [...this.groups.entries()].filter(([k, g]) => k.startsWith(`${objectType}:`) && g.archived === archived).map(([, g]) => g)
    return [...(archived ? [] : builtinGroups(objectType)), ...created]
  }

  group(objectType: ObjectType, name: string): PropertyGroup | undefined {
    const found = builtinGroups(objectType).find((g) => g.name === name)
    if (found) return found
    const row = this.groups.get(key(objectType, name))
    return row && !row.archived ? row : undefined
  }

  isBuiltinGroup(objectType: ObjectType, name: string): boolean {
    return builtinGroups(objectType).some((g) => g.name === name)
  }

  putGroup(objectType: ObjectType, group: PropertyGroup): void {
    this.groups.set(key(objectType, group.name), group)
  }
}

function key(objectType: ObjectType, name: string): string {
  return `${objectType}:${name}`
}
