/**
 * How each CRM object type is shown: names, list columns, the record title.
 */
import type { ObjectType } from '../layout/routes.ts'
import type { CrmObject } from './crm-api.ts'

export interface ObjectConfig {
  type: ObjectType
  singular: string
  plural: string
  /** Header of the list's title column. */
  titleLabel: string
  /** Properties shown as list columns (after the title). */
  columns: ReadonlyArray<{ name: string; label: string }>
  /** Properties needed to build the title. */
  titleProperties: readonly string[]
  /** Phone properties looked for when the properties API does not mark them. */
  phoneFallback: readonly string[]
}

export const OBJECT_CONFIG: Record<ObjectType, ObjectConfig> = {
  contacts: {
    type: 'contacts',
    singular: 'Contact',
    plural: 'Contacts',
    titleLabel: 'Name',
    columns: [
      { name: 'email', label: 'Email' },
      { name: 'phone', label: 'Phone' },
      { name: 'jobtitle', label: 'Job title' },
    ],
    titleProperties: ['firstname', 'lastname', 'email'],
    phoneFallback: ['phone', 'mobilephone'],
  },
  companies: {
    type: 'companies',
    singular: 'Company',
    plural: 'Companies',
    titleLabel: 'Company name',
    columns: [
      { name: 'domain', label: 'Domain' },
      { name: 'phone', label: 'Phone' },
      { name: 'city', label: 'City' },
    ],
    titleProperties: ['name', 'domain'],
    phoneFallback: ['phone'],
  },
  deals: {
    type: 'deals',
    singular: 'Deal',
    plural: 'Deals',
    titleLabel: 'Deal name',
    columns: [
      { name: 'amount', label: 'Amount' },
      { name: 'dealstage', label: 'Stage' },
      { name: 'closedate', label: 'Close date' },
    ],
    titleProperties: ['dealname'],
    phoneFallback: [],
  },
  tickets: {
    type: 'tickets',
    singular: 'Ticket',
    plural: 'Tickets',
    titleLabel: 'Subject',
    columns: [
      { name: 'hs_pipeline_stage', label: 'Stage' },
      { name: 'hs_ticket_priority', label: 'Priority' },
      { name: 'createdate', label: 'Created' },
    ],
    titleProperties: ['subject'],
    phoneFallback: [],
  },
}

function value(record: CrmObject, name: string): string {
  const v = record.properties[name]
  return typeof v === 'string' ? v.trim() : ''
}

/** The record's display title, e.g. "Ada Lovelace", "Acme Inc.", "Ticket 12". */
export function recordTitle(type: ObjectType, record: CrmObject): string {
  const config = OBJECT_CONFIG[type]
  let title = ''
  if (type === 'contacts') {
    title = [value(record, 'firstname'), value(record, 'lastname')].filter(Boolean).join(' ') || value(record, 'email')
  } else {
    for (const name of config.titleProperties) {
      title = value(record, name)
      if (title) break
    }
  }
  return title || `${config.singular} ${record.id}`
}
