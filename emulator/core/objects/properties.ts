/**
 * Property definitions of each object type (the Property model of
 * GET /crm/v3/properties/{objectType}) and the one place where a property
 * value sent by a client is checked and normalized before it is stored.
 *
 * Values are stored as strings, as the real API returns them: numbers as
 * decimal text, booleans as "true"/"false", datetimes as ISO-8601 UTC, dates
 * as YYYY-MM-DD, e-mail addresses in lower case.
 */
import { z } from 'zod'
import type { Database, Table } from '../data/db.ts'
import { isBuiltinType, type BuiltinObjectType, type ObjectType } from './object-types.ts'
import { CALL_OUTCOMES } from '../../../shared/crm/call-outcomes.ts'
import { CALL_STATUSES } from '../../../shared/crm/call-status.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import { urlFieldProblem } from '../http/url-field.ts'
import { isActiveOwnerId } from '../../../shared/crm/account.ts'

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
function definitionsOf(objectType: ObjectType): Map<string, CheckedDefinition> {
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

function withoutRules(def: CheckedDefinition): PropertyDefinition {
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
function builtin(objectType: ObjectType, name: string): CheckedDefinition | undefined {
  return definitionsOf(objectType).get(name)
}

// ---------------------------------------------------------------------------
// Custom properties and property groups (the properties API's writes)

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

/** One failed property of a write, as the real API lists them. */
export interface PropertyProblem {
  name: string
  /** PROPERTY_DOESNT_EXIST, INVALID_OPTION, INVALID_NUMBER, ... */
  error: string
  message: string
}

/** Longest string value the real API stores. */
export const MAX_VALUE_LENGTH = 65_536



/**
 * Check one value for one property. Returns the stored form (a string, or
 * null to clear the property) or the problem. Does not check read-only or
 * object-level rules (those are the store's).
 */
export function normalizeValue(
  def: CheckedDefinition | undefined,
  objectType: ObjectType,
  name: string,
  raw: unknown,
): { ok: true; value: string | null } | { ok: false; problem: PropertyProblem } {
  const fail = (error: string, message: string) => ({ ok: false as const, problem: { name, error, message } })
  if (!def) return fail('PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`)
  if (raw === null) return { ok: true, value: null }
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    return fail('INVALID_PROPERTY_VALUE', `Property "${name}" must be a string, number, boolean or null, got ${Array.isArray(raw) ? 'an array' : typeof raw}`)
  }
  if (typeof raw === 'number' && !Number.isFinite(raw)) return fail('INVALID_NUMBER', `${raw} is not a valid number for "${name}"`)
  const text = String(raw)
  // An empty string clears the property, as in the real API.
  if (text.trim() === '') return { ok: true, value: null }
  if (text.length > MAX_VALUE_LENGTH) {
    return fail('VALUE_TOO_LONG', `Property "${name}" is ${text.length} characters long; the limit is ${MAX_VALUE_LENGTH}`)
  }
  switch (def.type) {
    case 'number': {
      const trimmed = text.trim()
      if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) || !Number.isFinite(Number(trimmed))) {
        return fail('INVALID_NUMBER', `"${text}" is not a valid number for "${name}"`)
      }
      return { ok: true, value: trimmed }
    }
    case 'bool': {
      const lower = text.trim().toLowerCase()
      if (lower !== 'true' && lower !== 'false') return fail('INVALID_BOOLEAN', `"${text}" is not a valid boolean for "${name}" (true or false)`)
      return { ok: true, value: lower }
    }
    case 'datetime': {
      const ms = parseInstant(text)
      if (ms === undefined) {
        return fail('INVALID_DATE', `"${text}" is not a valid datetime for "${name}" (epoch milliseconds or ISO 8601 with a zone)`)
      }
      return { ok: true, value: new Date(ms).toISOString() }
    }
    case 'date': {
      const ms = parseInstant(text)
      if (ms === undefined) return fail('INVALID_DATE', `"${text}" is not a valid date for "${name}" (YYYY-MM-DD or epoch milliseconds)`)
      return { ok: true, value: new Date(ms).toISOString().slice(0, 10) }
    }
    case 'enumeration': {
      if (def.rules.owner) {
        // The real API checks the id against the account's active owners (a userId, or a deactivated owner, is refused).
        const id = text.trim()
        if (!isActiveOwnerId(id)) return fail('INVALID_OWNER_ID', `${text} is not a valid owner id`)
        return { ok: true, value: id }
      }
      if (def.externalOptions || def.options.length === 0) return { ok: true, value: text }
      if (def.fieldType === 'checkbox') {
        // Multiple checkboxes: several options, separated by ";".
        const chosen = text.split(';').filter((v) => v !== '')
        const wrong = chosen.filter((v) => !def.options.some((o) => o.value === v))
        if (wrong.length > 0) {
          return fail('INVALID_OPTION', `${wrong.join(';')} was not one of the allowed options: [${def.options.map((o) => o.value).join(', ')}]`)
        }
        return { ok: true, value: chosen.join(';') }
      }
      if (!def.options.some((o) => o.value === text)) {
        return fail(
          'INVALID_OPTION',
          `${text} was not one of the allowed options: [${def.options.map((o) => o.value).join(', ')}]`,
        )
      }
      return { ok: true, value: text }
    }
    case 'phone_number':
    case 'string':
      if (def.rules.url) {
        const problem = urlFieldProblem(text, def.rules.url === 'https')
        if (problem !== null) return fail('INVALID_URL', `"${name}" ${problem}`)
      }
      if (name === 'email' && objectType === 'contacts') {
        const email = text.trim().toLowerCase()
        if (!/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(email)) return fail('INVALID_EMAIL', `Email address ${text} is invalid`)
        return { ok: true, value: email }
      }
      return { ok: true, value: text }
  }
}
