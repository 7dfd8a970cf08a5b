/**
 * The CRM object types the emulator stores, with every name the real API
 * uses for them: the plural path name (`tickets`), the type id (`0-5`), the
 * singular (`ticket`, used in association type names) and the upper-case
 * form (`TICKET`, used in messages and timeline templates).
 */
import type { Scope } from '../auth.ts'

export const OBJECT_TYPE_NAMES = ['contacts', 'companies', 'deals', 'tickets', 'calls', 'tasks'] as const
export type ObjectType = (typeof OBJECT_TYPE_NAMES)[number]

export interface ObjectTypeInfo {
  name: ObjectType
  typeId: string
  singular: string
  upper: string
  readScope: Scope
  writeScope: Scope
}

export const OBJECT_TYPES: Readonly<Record<ObjectType, ObjectTypeInfo>> = {
  contacts: {
    name: 'contacts',
    typeId: '0-1',
    singular: 'contact',
    upper: 'CONTACT',
    readScope: 'crm.objects.contacts.read',
    writeScope: 'crm.objects.contacts.write',
  },
  companies: {
    name: 'companies',
    typeId: '0-2',
    singular: 'company',
    upper: 'COMPANY',
    readScope: 'crm.objects.companies.read',
    writeScope: 'crm.objects.companies.write',
  },
  deals: {
    name: 'deals',
    typeId: '0-3',
    singular: 'deal',
    upper: 'DEAL',
    readScope: 'crm.objects.deals.read',
    writeScope: 'crm.objects.deals.write',
  },
  tickets: { name: 'tickets', typeId: '0-5', singular: 'ticket', upper: 'TICKET', readScope: 'tickets', writeScope: 'tickets' },
  // Calls are engagements; a calling app reaches them with the contact scopes.
  calls: {
    name: 'calls',
    typeId: '0-48',
    singular: 'call',
    upper: 'CALL',
    readScope: 'crm.objects.contacts.read',
    writeScope: 'crm.objects.contacts.write',
  },
  // Tasks are engagements too (a task queue of call tasks is worked from the calling widget).
  tasks: {
    name: 'tasks',
    typeId: '0-27',
    singular: 'task',
    upper: 'TASK',
    readScope: 'crm.objects.contacts.read',
    writeScope: 'crm.objects.contacts.write',
  },
}

const BY_ALIAS = new Map<string, ObjectType>()
for (const info of Object.values(OBJECT_TYPES)) {
  for (const alias of [info.name, info.typeId, info.singular]) BY_ALIAS.set(alias, info.name)
}

/**
 * The object type named by `input` in any of its spellings (`tickets`,
 * `ticket`, `TICKET`, `0-5`), or undefined.
 */
export function parseObjectType(input: string): ObjectType | undefined {
  return BY_ALIAS.get(input.trim().toLowerCase())
}
