/**
 * The CRM types the harness works with: the record types it has pages for,
 * their names and labels (from shared/crm), and a record's display label.
 */
import { OBJECT_TYPES as CRM_OBJECT_TYPES, parseObjectType, type ObjectTypeInfo } from '../../shared/crm/object-types.ts'
import { defaultAssociationType } from '../../shared/crm/association-types.ts'

/** The record types with list and record pages (calls and tasks are activities, shown on a record's timeline). */
export const OBJECT_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const
export type ObjectType = (typeof OBJECT_TYPES)[number]

export function isObjectType(value: unknown): value is ObjectType {
  return (OBJECT_TYPES as readonly unknown[]).includes(value)
}

/** The record type named in any spelling the API or the SDK uses (`contacts`, `contact`, `CONTACT`, `0-1`), or undefined. */
export function recordTypeOf(input: unknown): ObjectType | undefined {
  const type = parseObjectType(input)
  return isObjectType(type) ? type : undefined
}

/** Names, type id and labels of a record type. */
export function objectTypeInfo(type: ObjectType): ObjectTypeInfo {
  return CRM_OBJECT_TYPES[type]
}

/** The association type id of a call to a record of this type (HUBSPOT_DEFINED, call → record). */
export function callAssociationTypeId(type: ObjectType): number {
  const found = defaultAssociationType('calls', type)
  if (!found) throw new Error(`calls cannot be associated with ${type}`)
  return found.typeId
}

/** The properties a record's label is made of, in the order they are tried. */
export const LABEL_PROPERTIES: Readonly<Record<ObjectType, readonly string[]>> = {
  contacts: ['firstname', 'lastname', 'email'],
  companies: ['name', 'domain'],
  deals: ['dealname'],
  tickets: ['subject'],
}

type Properties = Readonly<Record<string, string | null | undefined>>

function text(properties: Properties, name: string): string {
  const value = properties[name]
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * How the CRM names a record: a contact by first and last name, else e-mail;
 * other types by their first non-empty label property. undefined when none is set.
 */
export function recordLabel(type: ObjectType, properties: Properties): string | undefined {
  if (type === 'contacts') {
    const name = [text(properties, 'firstname'), text(properties, 'lastname')].filter(Boolean).join(' ')
    return name || text(properties, 'email') || undefined
  }
  for (const name of LABEL_PROPERTIES[type]) {
    const value = text(properties, name)
    if (value) return value
  }
  return undefined
}

/** A record's title on its page and in lists: its label, else e.g. "Ticket 12". */
export function recordTitle(type: ObjectType, record: { id: string; properties: Properties }): string {
  return recordLabel(type, record.properties) ?? `${objectTypeInfo(type).label} ${record.id}`
}
