/**
 * How each record type is shown in lists and on record pages: its labels
 * (shared/crm), list columns, and where its phone numbers are.
 */
import { LABEL_PROPERTIES, objectTypeInfo, type ObjectType } from '../lib/crm-types.ts'

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

function names(type: ObjectType): Pick<ObjectConfig, 'type' | 'singular' | 'plural' | 'titleProperties'> {
  const info = objectTypeInfo(type)
  return { type, singular: info.label, plural: info.pluralLabel, titleProperties: LABEL_PROPERTIES[type] }
}

export const OBJECT_CONFIG: Record<ObjectType, ObjectConfig> = {
  contacts: {
    ...names('contacts'),
    titleLabel: 'Name',
    columns: [
      { name: 'email', label: 'Email' },
      { name: 'phone', label: 'Phone' },
      { name: 'jobtitle', label: 'Job title' },
    ],
    phoneFallback: ['phone', 'mobilephone'],
  },
  companies: {
    ...names('companies'),
    titleLabel: 'Company name',
    columns: [
      { name: 'domain', label: 'Domain' },
      { name: 'phone', label: 'Phone' },
      { name: 'city', label: 'City' },
    ],
    phoneFallback: ['phone'],
  },
  deals: {
    ...names('deals'),
    titleLabel: 'Deal name',
    columns: [
      { name: 'amount', label: 'Amount' },
      { name: 'dealstage', label: 'Stage' },
      { name: 'closedate', label: 'Close date' },
    ],
    phoneFallback: [],
  },
  tickets: {
    ...names('tickets'),
    titleLabel: 'Subject',
    columns: [
      { name: 'hs_pipeline_stage', label: 'Stage' },
      { name: 'hs_ticket_priority', label: 'Priority' },
      { name: 'createdate', label: 'Created' },
    ],
    phoneFallback: [],
  },
}
