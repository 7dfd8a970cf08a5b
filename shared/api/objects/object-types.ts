/**
 * The object types as the API serves them: the CRM's facts (shared/crm) and
 * the OAuth scopes that read and write each type.
 */
import type { Scope } from '../auth.ts'
import { OBJECT_TYPES as CRM_OBJECT_TYPES, type ObjectType, type ObjectTypeInfo } from '../../crm/object-types.ts'

export { OBJECT_TYPE_NAMES, parseObjectType, type ObjectType } from '../../crm/object-types.ts'

const SCOPES: Readonly<Record<ObjectType, { readScope: Scope; writeScope: Scope }>> = {
  contacts: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  companies: { readScope: 'crm.objects.companies.read', writeScope: 'crm.objects.companies.write' },
  deals: { readScope: 'crm.objects.deals.read', writeScope: 'crm.objects.deals.write' },
  tickets: { readScope: 'tickets', writeScope: 'tickets' },
  // Calls, tasks and notes are engagements; a calling app reaches them with the contact scopes.
  calls: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  tasks: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
  notes: { readScope: 'crm.objects.contacts.read', writeScope: 'crm.objects.contacts.write' },
}

export type ApiObjectTypeInfo = ObjectTypeInfo & { readScope: Scope; writeScope: Scope }

export const OBJECT_TYPES = Object.fromEntries(
  Object.entries(CRM_OBJECT_TYPES).map(([name, info]) => [name, { ...info, ...SCOPES[name as ObjectType] }]),
) as Readonly<Record<ObjectType, ApiObjectTypeInfo>>
