/**
 * The built-in property definitions of each object type (the Property model
 * of GET /crm/v3/properties/{objectType}) and the properties a read returns
 * by default. The account's custom properties are in property-catalog.ts;
 * checking a value a client sends, in property-values.ts.
 */
import { isBuiltinType, type BuiltinObjectType, type ObjectType } from './object-types.ts'
import { CALL_OUTCOMES } from '../../../shared/crm/call-outcomes.ts'
import { CALL_STATUSES } from '../../../shared/crm/call-status.ts'

export const PROPERTY_TYPES = ['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number'] as const
export type PropertyType = (typeof PROPERTY_TYPES)[number]
export const FIELD_TYPES = ['text', 'textarea', 'select', 'radio', 'checkbox', 'booleancheckbox', 'date', 'number', 'phonenumber', 'html'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

export interface PropertyOption {
  label: string
  value: string
  hidden: boolean
  displayOrder: number
  description?: string
}

/** The Property model of the real properties API (https://developers.hubspot.com/docs/api-reference/crm-properties-v3/guide). */
export interface PropertyDefinition {
  name: string
  label: string
  type: PropertyType
  fieldType: FieldType
  groupName: string
  description: string
  options: PropertyOption[]
  displayOrder: number
  hidden: boolean
  hasUniqueValue: boolean
  formField: boolean
  calculated: boolean
  externalOptions: boolean
  hubspotDefined: boolean
  createdAt: string
  updatedAt: string
  archived: boolean
  modificationMetadata: { archivable: boolean; readOnlyDefinition: boolean; readOnlyValue: boolean }
}

/** Emulator-only checks that the Property model has no field for. */
interface ExtraRules {
  /** The value must be an absolute URL: http(s), or https only. */
  url?: UrlRule
  /** The value must be the id of an active owner of the account (the owners API's `id`). */
  owner?: boolean
}

/** Which URLs a URL property takes. */
type UrlRule = 'http(s)' | 'https'

interface Spec {
  label: string
  type?: PropertyType
  fieldType?: FieldType
  group?: string
  description?: string
  options?: ReadonlyArray<string | readonly [value: string, label: string]>
  externalOptions?: boolean
  readOnly?: boolean
  unique?: boolean
  url?: UrlRule
  owner?: boolean
}

const DEFAULT_FIELD_TYPE: Record<PropertyType, FieldType> = {
  string: 'text',
  number: 'number',
  date: 'date',
  datetime: 'date',
  enumeration: 'select',
  bool: 'booleancheckbox',
  phone_number: 'phonenumber',
}

const EPOCH = new Date(0).toISOString()

function define(groupDefault: string, specs: Record<string, Spec>): Map<string, PropertyDefinition & { rules: ExtraRules }> {
  const map = new Map<string, PropertyDefinition & { rules: ExtraRules }>()
  let order = 0
  for (const [name, spec] of Object.entries(specs)) {
    const type = spec.type ?? 'string'
    map.set(name, {
      name,
      label: spec.label,
      type,
      fieldType: spec.fieldType ?? DEFAULT_FIELD_TYPE[type],
      groupName: spec.group ?? groupDefault,
      description: spec.description ?? '',
      options: (spec.options ?? []).map((o, i) => {
        const [value, label] = typeof o === 'string' ? [o, o.charAt(0) + o.slice(1).toLowerCase().replaceAll('_', ' ')] : o
        return { label, value, hidden: false, displayOrder: i }
      }),
      displayOrder: order++,
      hidden: false,
      hasUniqueValue: spec.unique ?? false,
      formField: !spec.readOnly,
      calculated: false,
      externalOptions: spec.externalOptions ?? false,
      hubspotDefined: true,
      createdAt: EPOCH,
      updatedAt: EPOCH,
      archived: false,
      modificationMetadata: { archivable: false, readOnlyDefinition: true, readOnlyValue: spec.readOnly ?? false },
      rules: { url: spec.url, owner: spec.owner },
    })
  }
  return map
}

/** Properties every object type has; the API maintains their values. */
const SYSTEM: Record<string, Spec> = {
  hs_object_id: { label: 'Record ID', type: 'number', readOnly: true, description: 'The unique ID of this record. Set automatically.' },
  createdate: { label: 'Create Date', type: 'datetime', readOnly: true, description: 'When the record was created.' },
  hs_lastmodifieddate: { label: 'Last Modified Date', type: 'datetime', readOnly: true, description: 'When any property last changed.' },
}

/** The ids a merge replaced (the real API keeps them in this property of the merged record). */
const MERGED_IDS: Spec = { label: 'Merged record IDs', readOnly: true, description: 'The ids of the records merged into this one, separated by ";". Set by a merge.' }

const OWNER: Spec = { label: 'Owner', type: 'enumeration', externalOptions: true, owner: true, description: 'The user who owns the record: an owner id from GET /crm/v3/owners.' }

/** hs_call_disposition options: the account's default call outcomes, by label. */
export const CALL_DISPOSITIONS: ReadonlyArray<readonly [id: string, label: string]> = [...CALL_OUTCOMES]
  .sort((a, b) => a.label.localeCompare(b.label))
  .map((o) => [o.id, o.label] as const)

const DEFINITIONS: Record<BuiltinObjectType, Map<string, PropertyDefinition & { rules: ExtraRules }>> = {
  contacts: define('contactinformation', {
    ...SYSTEM,
    email: { label: 'Email', unique: true, description: "The contact's e-mail address (unique; stored in lower case)." },
    firstname: { label: 'First Name' },
    lastname: { label: 'Last Name' },
    phone: { label: 'Phone Number', type: 'phone_number' },
    mobilephone: { label: 'Mobile Phone Number', type: 'phone_number' },
    company: { label: 'Company Name' },
    jobtitle: { label: 'Job Title' },
    website: { label: 'Website URL' },
    address: { label: 'Street Address' },
    city: { label: 'City' },
    state: { label: 'State/Region' },
    zip: { label: 'Postal Code' },
    country: { label: 'Country/Region' },
    lifecyclestage: {
      label: 'Lifecycle Stage',
      type: 'enumeration',
      fieldType: 'radio',
      options: [
        ['subscriber', 'Subscriber'],
        ['lead', 'Lead'],
        ['marketingqualifiedlead', 'Marketing Qualified Lead'],
        ['salesqualifiedlead', 'Sales Qualified Lead'],
        ['opportunity', 'Opportunity'],
        ['customer', 'Customer'],
        ['evangelist', 'Evangelist'],
        ['other', 'Other'],
      ],
    },
    hs_lead_status: {
      label: 'Lead Status',
      type: 'enumeration',
      fieldType: 'radio',
      options: ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'],
    },
    notes_last_contacted: { label: 'Last Contacted', type: 'datetime' },
    hs_additional_emails: { label: 'Additional email addresses', readOnly: true, description: 'E-mail addresses of contacts merged into this one, separated by ";".' },
    hs_merged_object_ids: MERGED_IDS,
    hubspot_owner_id: OWNER,
  }),
  companies: define('companyinformation', {
    ...SYSTEM,
    name: { label: 'Company name' },
    domain: { label: 'Company Domain Name' },
    phone: { label: 'Phone Number', type: 'phone_number' },
    website: { label: 'Website URL' },
    industry: { label: 'Industry' },
    city: { label: 'City' },
    state: { label: 'State/Region' },
    country: { label: 'Country/Region' },
    numberofemployees: { label: 'Number of Employees', type: 'number' },
    description: { label: 'Description', fieldType: 'textarea' },
    hs_merged_object_ids: MERGED_IDS,
    hubspot_owner_id: OWNER,
  }),
  deals: define('dealinformation', {
    ...SYSTEM,
    dealname: { label: 'Deal Name' },
    amount: { label: 'Amount', type: 'number' },
    pipeline: { label: 'Pipeline', type: 'enumeration', externalOptions: true },
    dealstage: { label: 'Deal Stage', type: 'enumeration', fieldType: 'radio', externalOptions: true },
    closedate: { label: 'Close Date', type: 'datetime' },
    dealtype: {
      label: 'Deal Type',
      type: 'enumeration',
      fieldType: 'radio',
      options: [
        ['newbusiness', 'New Business'],
        ['existingbusiness', 'Existing Business'],
      ],
    },
    description: { label: 'Deal Description', fieldType: 'textarea' },
    hs_merged_object_ids: MERGED_IDS,
    hubspot_owner_id: OWNER,
  }),
  tickets: define('ticketinformation', {
    ...SYSTEM,
    subject: { label: 'Ticket name', description: 'Required when a ticket is created.' },
    content: { label: 'Ticket description', fieldType: 'textarea' },
    hs_pipeline: { label: 'Pipeline', type: 'enumeration', externalOptions: true, description: 'Defaults to the pipeline "0".' },
    hs_pipeline_stage: {
      label: 'Ticket status',
      type: 'enumeration',
      fieldType: 'radio',
      externalOptions: true,
      description: 'Required when a ticket is created; a stage id of the ticket\'s pipeline.',
    },
    hs_ticket_priority: { label: 'Priority', type: 'enumeration', options: ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] },
    hs_ticket_category: {
      label: 'Category',
      type: 'enumeration',
      fieldType: 'radio',
      options: [
        ['PRODUCT_ISSUE', 'Product issue'],
        ['BILLING_ISSUE', 'Billing issue'],
        ['FEATURE_REQUEST', 'Feature request'],
        ['GENERAL_INQUIRY', 'General inquiry'],
      ],
    },
    source_type: { label: 'Source', type: 'enumeration', options: ['EMAIL', 'CHAT', 'PHONE', 'FORM'] },
    hs_pinned_engagement_id: {
      label: 'Pinned Engagement ID',
      type: 'number',
      description: 'The id of one activity (a call) associated with this ticket, shown pinned at the top of its timeline.',
    },
    closed_date: { label: 'Close date', type: 'datetime' },
    hs_merged_object_ids: MERGED_IDS,
    hubspot_owner_id: OWNER,
  }),
  calls: define('callinformation', {
    ...SYSTEM,
    hs_timestamp: { label: 'Activity date', type: 'datetime', description: 'When the call happened; defaults to the create date.' },
    hs_call_title: { label: 'Call Title' },
    hs_call_body: { label: 'Call notes', fieldType: 'html' },
    hs_call_status: {
      label: 'Call status',
      type: 'enumeration',
      options: CALL_STATUSES,
    },
    hs_call_duration: { label: 'Call duration', type: 'number', description: 'Milliseconds.' },
    hs_call_direction: { label: 'Call direction', type: 'enumeration', options: ['INBOUND', 'OUTBOUND'] },
    hs_call_disposition: { label: 'Call outcome', type: 'enumeration', options: CALL_DISPOSITIONS },
    hs_call_from_number: { label: 'From number', type: 'phone_number' },
    hs_call_to_number: { label: 'To number', type: 'phone_number' },
    hs_call_recording_url: { label: 'Recording URL', url: 'https', description: 'An absolute https URL (the CRM takes only secure recording URLs).' },
    hs_call_external_id: { label: 'External call ID', description: "The calling app's own id of the call (externalCallId)." },
    hs_call_external_account_id: { label: 'External account ID', description: "The calling app's id of the account the call belongs to; passed to its recording endpoint." },
    hs_call_source: { label: 'Call source', description: 'e.g. INTEGRATIONS_PLATFORM for calls logged by a calling app.' },
    hs_call_app_id: { label: 'Calling app ID', type: 'number' },
    hs_call_callee_object_id: { label: 'Callee object ID', type: 'number' },
    hs_call_callee_object_type_id: { label: 'Callee object type ID' },
    hubspot_owner_id: OWNER,
  }),
  tasks: define('taskinformation', {
    ...SYSTEM,
    hs_timestamp: { label: 'Due date', type: 'datetime', description: 'When the task is due; defaults to the create date.' },
    hs_task_subject: { label: 'Task Title' },
    hs_task_body: { label: 'Notes', fieldType: 'html' },
    hs_task_status: { label: 'Task Status', type: 'enumeration', options: ['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED'] },
    hs_task_type: { label: 'Task Type', type: 'enumeration', options: ['CALL', 'EMAIL', 'LINKED_IN', 'MEETING', 'TODO'] },
    hs_task_priority: { label: 'Priority', type: 'enumeration', options: ['NONE', 'LOW', 'MEDIUM', 'HIGH'] },
    hs_task_completion_date: { label: 'Completed at', type: 'datetime' },
    hubspot_owner_id: OWNER,
  }),
  notes: define('noteinformation', {
    ...SYSTEM,
    hs_timestamp: { label: 'Activity date', type: 'datetime', description: 'When the note was taken; defaults to the create date.' },
    hs_note_body: { label: 'Note body', fieldType: 'html', description: 'The text of the note (up to 65,536 characters).' },
    hs_attachment_ids: { label: 'Attachment IDs', description: 'The ids of files attached to the note, separated by ";".' },
    hubspot_owner_id: OWNER,
  }),
}

/** What every custom object type has before its own properties (made through the schemas API) are added. */
const CUSTOM_OBJECT_DEFINITIONS = define('objectinformation', { ...SYSTEM, hubspot_owner_id: OWNER })

/** The built-in definitions of a type: its own, or those every custom type has. */
export function definitionsOf(objectType: ObjectType): Map<string, CheckedDefinition> {
  return isBuiltinType(objectType) ? DEFINITIONS[objectType] : CUSTOM_OBJECT_DEFINITIONS
}

/** Properties returned when a request names none, as the real API's default sets (custom types: the system three). */
export function defaultProperties(objectType: ObjectType): readonly string[] {
  return isBuiltinType(objectType) ? DEFAULT_PROPERTIES[objectType] : ['createdate', 'hs_lastmodifieddate', 'hs_object_id']
}

/** Properties returned when a request names none, as the real API's default sets. */
export const DEFAULT_PROPERTIES: Readonly<Record<BuiltinObjectType, readonly string[]>> = {
  contacts: ['createdate', 'email', 'firstname', 'lastname', 'hs_lastmodifieddate', 'hs_object_id'],
  companies: ['createdate', 'domain', 'name', 'hs_lastmodifieddate', 'hs_object_id'],
  deals: ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'],
  tickets: [
    'content',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
  ],
  calls: ['createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_timestamp'],
  tasks: ['createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_timestamp'],
  notes: ['createdate', 'hs_lastmodifieddate', 'hs_object_id', 'hs_timestamp'],
}

/** A definition with the emulator-only rules the Property model has no field for. */
export type CheckedDefinition = PropertyDefinition & { rules: ExtraRules }

/** The Property model of a definition: without the emulator-only rules. */
export function withoutRules(def: CheckedDefinition): PropertyDefinition {
  const { rules: _rules, ...publicDef } = def
  return publicDef
}

/** A built-in (HubSpot-defined) property of a type. Custom properties are in a PropertyCatalog. */
export function propertyDefinition(objectType: ObjectType, name: string): PropertyDefinition | undefined {
  const def = builtin(objectType, name)
  return def && withoutRules(def)
}

/** Every built-in property of a type. */
export function propertyDefinitions(objectType: ObjectType): PropertyDefinition[] {
  return [...definitionsOf(objectType).values()].map(withoutRules)
}

/** Own lookups only: a name such as "__proto__" or "constructor" is never a property. */
export function builtin(objectType: ObjectType, name: string): CheckedDefinition | undefined {
  return definitionsOf(objectType).get(name)
}
