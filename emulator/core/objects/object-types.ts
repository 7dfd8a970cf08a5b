/**
 * The object types as the API serves them: the CRM's facts (shared/crm), the
 * OAuth scopes that read and write each type, and custom object types.
 *
 * A custom object type (made through the schemas API, see custom-objects.ts)
 * is named inside the API by its objectTypeId, `2-<n>`; `ObjectType` is a
 * built-in type's plural name or such an id.
 */
import type { Scope } from '../http/auth.ts'
import { OBJECT_TYPES as CRM_OBJECT_TYPES, type ObjectType as BuiltinObjectType, type ObjectTypeInfo } from '../../../shared/crm/object-types.ts'

export { OBJECT_TYPE_NAMES, parseObjectType } from '../../../shared/crm/object-types.ts'
export type { BuiltinObjectType }
/** A custom object type, named by its objectTypeId (`2-<n>`). */
export type CustomObjectType = `2-${number}`
export type ObjectType = BuiltinObjectType | CustomObjectType

interface TypeScopes {
  readScope: Scope
  writeScope: Scope
}

const SCOPES: Readonly<Record<BuiltinObjectType, TypeScopes>> = {
  contacts: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  companies: { readScope: 'crm.objects.companies.read', writeScope: 'crm.objects.companies.write' },
  deals: { readScope: 'crm.objects.deals.read', writeScope: 'crm.objects.deals.write' },
  tickets: { readScope: 'tickets', writeScope: 'tickets' },
  // Calls, tasks and notes are engagements; a calling app reaches them with the contact scopes.
  calls: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  tasks: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  notes: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
}

/** The records of every custom object type are read and written with these scopes (as in the real API). */
export const CUSTOM_OBJECT_SCOPES: TypeScopes = { readScope: 'crm.objects.custom.read', writeScope: 'crm.objects.custom.write' }

export type ApiObjectTypeInfo = ObjectTypeInfo & TypeScopes

export const OBJECT_TYPES = Object.fromEntries(
  Object.entries(CRM_OBJECT_TYPES).map(([name, info]) => [name, { ...info, ...SCOPES[name as BuiltinObjectType] }]),
) as Readonly<Record<BuiltinObjectType, ApiObjectTypeInfo>>

/** Whether the type is one of the CRM's own (not a custom object type). */
export function isBuiltinType(type: ObjectType): type is BuiltinObjectType {
  return Object.hasOwn(OBJECT_TYPES, type)
}

/** The scopes that read and write records of the type. */
export function scopesOf(type: ObjectType): TypeScopes {
  return isBuiltinType(type) ? OBJECT_TYPES[type] : CUSTOM_OBJECT_SCOPES
}

/** The type's name in messages: `TICKET`, or the custom type's id. */
export function upperName(type: ObjectType): string {
  return isBuiltinType(type) ? OBJECT_TYPES[type].upper : type
}
