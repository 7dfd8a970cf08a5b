/**
 * The CRM object types the emulator stores, with every name the real API
 * uses for them: the plural path name (`tickets`), the type id (`0-5`), the
 * singular (`ticket`, used in association type names), the upper-case form
 * (`TICKET`, used in SDK messages and timeline templates), and the labels the
 * CRM shows (https://developers.hubspot.com/docs/guides/api/crm/understanding-the-crm).
 */
export const OBJECT_TYPE_NAMES = ['contacts', 'companies', 'deals', 'tickets', 'calls', 'tasks', 'notes'] as const
export type ObjectType = (typeof OBJECT_TYPE_NAMES)[number]

export interface ObjectTypeInfo {
  name: ObjectType
  typeId: string
  singular: string
  upper: string
  /** "Contact" */
  label: string
  /** "Contacts" */
  pluralLabel: string
}

export const OBJECT_TYPES: Readonly<Record<ObjectType, ObjectTypeInfo>> = {
  contacts: { name: 'contacts', typeId: '0-1', singular: 'contact', upper: 'CONTACT', label: 'Contact', pluralLabel: 'Contacts' },
  companies: { name: 'companies', typeId: '0-2', singular: 'company', upper: 'COMPANY', label: 'Company', pluralLabel: 'Companies' },
  deals: { name: 'deals', typeId: '0-3', singular: 'deal', upper: 'DEAL', label: 'Deal', pluralLabel: 'Deals' },
  tickets: { name: 'tickets', typeId: '0-5', singular: 'ticket', upper: 'TICKET', label: 'Ticket', pluralLabel: 'Tickets' },
  // Calls, tasks and notes are engagements (activities on a record's timeline).
  calls: { name: 'calls', typeId: '0-48', singular: 'call', upper: 'CALL', label: 'Call', pluralLabel: 'Calls' },
  tasks: { name: 'tasks', typeId: '0-27', singular: 'task', upper: 'TASK', label: 'Task', pluralLabel: 'Tasks' },
  notes: { name: 'notes', typeId: '0-46', singular: 'note', upper: 'NOTE', label: 'Note', pluralLabel: 'Notes' },
}

const BY_ALIAS = new Map<string, ObjectType>()
for (const info of Object.values(OBJECT_TYPES)) {
  for (const alias of [info.name, info.typeId, info.singular]) BY_ALIAS.set(alias, info.name)
}

/**
 * The object type named by `input` in any of its spellings (`tickets`,
 * `ticket`, `TICKET`, `0-5`), or undefined.
 */
export function parseObjectType(input: unknown): ObjectType | undefined {
  return typeof input === 'string' ? BY_ALIAS.get(input.trim().toLowerCase()) : undefined
}
