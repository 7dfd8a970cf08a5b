/**
 * The data of a fresh account: contacts, companies, deals, tickets, one
 * logged call and a note, associated as in a small real portal, plus the default
 * pipelines and the calling settings of the reference widget.
 *
 * Deterministic: on an empty database the same ids are produced every time
 * (contacts 1-9, companies 1-4, deals 1-3, tickets 1-2, call 1, note 1, tasks 1-4), and every
 * timestamp is a fixed offset before `now`.
 */
import { ACCOUNT } from '../http/auth.ts'
import { defaultAssociationType } from '../../../shared/crm/association-types.ts'
import { callOutcomeId } from '../../../shared/crm/call-outcomes.ts'
import { putCallingSettings } from '../calling/calling-settings.ts'
import type { Database } from './db.ts'
import { DEFAULT_PIPELINES, pipelineTable } from '../objects/pipelines.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { seedRedirectUrls } from '../oauth/oauth-tables.ts'
import { DEFAULT_REDIRECT_URLS } from '../../../shared/crm/redirect-urls.ts'
import { DEFAULT_WIDGET_URL, WIDGET_NAME } from '../../../shared/crm/reference-widget.ts'

export interface SeedOptions {
  /** URL of the calling widget registered for the developer app. */
  widgetUrl?: string
  /** Its name in the dock (default WIDGET_NAME, the reference widget's). */
  widgetName?: string
  /** Redirect URLs the developer app registers besides DEFAULT_REDIRECT_URLS (--redirect-url). */
  redirectUrls?: readonly string[]
}

const DAY = 86_400_000
const HOUR = 3_600_000

/** Seed contacts: [firstname, lastname, email, phone, company index or -1, mobilephone?]. */
const CONTACTS: ReadonlyArray<readonly [string, string, string, string, number, string?]> = [
  ['Maria', 'Garcia', 'maria.garcia@northwind.example', '+1 617 555 0101', 0, '+1 617 555 0191'],
  ['James', 'Chen', 'james.chen@northwind.example', '+1 617 555 0102', 0],
  ['Aisha', 'Okafor', 'aisha.okafor@contoso.example', '+1 617 555 0103', 1],
  ['Lukas', 'Müller', 'lukas.mueller@contoso.example', '+1 617 555 0104', 1],
  ['Priya', 'Raman', 'priya.raman@fabrikam.example', '+1 617 555 0105', 2],
  ['Sofia', 'Rossi', 'sofia.rossi@fabrikam.example', '+1 617 555 0106', 2],
  ['Kenji', 'Tanaka', 'kenji.tanaka@tailspin.example', '+1 617 555 0107', 3],
  ['Olivia', 'Brown', 'olivia.brown@tailspin.example', '+1 617 555 0108', 3],
  ['Diego', 'Fernández', 'diego.fernandez@example.org', '+1 617 555 0109', -1],
]

const COMPANIES: ReadonlyArray<readonly [name: string, domain: string, phone: string, city: string, industry: string]> = [
  ['Northwind Traders', 'northwind.example', '+1 617 555 0120', 'Boston', 'Wholesale'],
  ['Contoso Ltd', 'contoso.example', '+1 617 555 0130', 'Cambridge', 'Software'],
  ['Fabrikam Inc', 'fabrikam.example', '+1 617 555 0140', 'Somerville', 'Manufacturing'],
  ['Tailspin Toys', 'tailspin.example', '+1 617 555 0150', 'Quincy', 'Retail'],
]

/** Populate an empty database. */
export function seed(db: Database, objects: ObjectStore, now: number, options: SeedOptions = {}): void {
  for (const pipeline of DEFAULT_PIPELINES) pipelineTable(db).set(`${pipeline.objectType}:${pipeline.id}`, pipeline)

  const at = (daysAgo: number) => now - daysAgo * DAY
  const source = 'CRM_UI'

  const companies = COMPANIES.map(([name, domain, phone, city, industry], i) =>
    objects.create('companies', { name, domain, phone, city, industry, website: `https://www.${domain}` }, at(60 - i), source),
  )

  const contacts = CONTACTS.map(([firstname, lastname, email, phone, companyIndex, mobilephone], i) => {
    const company = companies[companyIndex]
    const contact = objects.create(
      'contacts',
      {
        firstname,
        lastname,
        email,
        phone,
        ...(mobilephone !== undefined && { mobilephone }),
        ...(company && { company: company.properties.name }),
        lifecyclestage: i % 3 === 0 ? 'customer' : 'lead',
      },
      at(45 - i),
      source,
    )
    if (company) objects.associate('contacts', contact.id, 'companies', company.id, 1)
    return contact
  })

  const deals: ReadonlyArray<readonly [string, string, string, number, number]> = [
    ['Northwind annual renewal', 'contractsent', '24000', 0, 0],
    ['Contoso support pilot', 'qualifiedtobuy', '5000', 1, 2],
    ['Fabrikam line expansion', 'appointmentscheduled', '12000', 2, 4],
  ]
  for (const [i, [dealname, dealstage, amount, companyIndex, contactIndex]] of deals.entries()) {
    const deal = objects.create(
      'deals',
      { dealname, dealstage, pipeline: 'default', amount, closedate: new Date(at(-30 - i * 10)).toISOString() },
      at(20 - i),
      source,
    )
    objects.associate('deals', deal.id, 'companies', companies[companyIndex]!.id, 5)
    objects.associate('deals', deal.id, 'contacts', contacts[contactIndex]!.id, 3)
  }

  const maria = contacts[0]!
  const aisha = contacts[2]!
  const call = objects.create(
    'calls',
    {
      hs_timestamp: new Date(at(2)).toISOString(),
      hs_call_title: 'Call with Maria Garcia',
      hs_call_body: 'Maria cannot log in since the password reset. Opened a ticket.',
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_duration: String(7 * 60_000 + 12_000),
      hs_call_disposition: callOutcomeId('CONNECTED'),
      hs_call_from_number: maria.properties.phone ?? '',
      hs_call_to_number: '+1 617 555 0100',
      hubspot_owner_id: String(ACCOUNT.ownerId),
    },
    at(2),
    source,
  )
  objects.associate('calls', call.id, 'contacts', maria.id, defaultAssociationType('calls', 'contacts')!.typeId)
  objects.create(
    'notes',
    {
      hs_timestamp: new Date(at(2) + HOUR / 2).toISOString(),
      hs_note_body: '<p>Maria prefers a call in the morning (Boston time). Follow up on the password reset ticket.</p>',
      hubspot_owner_id: String(ACCOUNT.ownerId),
    },
    at(2) + HOUR / 2,
    source,
    [{ to: { id: maria.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: defaultAssociationType('notes', 'contacts')!.typeId }] }],
  )

  objects.create(
    'tickets',
    {
      subject: 'Cannot log in to the customer portal',
      content: 'Since the password reset on Monday the portal rejects the new password.',
      hs_pipeline: '0',
      hs_pipeline_stage: '1',
      hs_ticket_priority: 'HIGH',
      hs_ticket_category: 'PRODUCT_ISSUE',
      source_type: 'PHONE',
      hs_pinned_engagement_id: call.id,
    },
    at(2) + HOUR,
    source,
    [
      { to: { id: maria.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 16 }] },
      { to: { id: companies[0]!.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 26 }] },
      { to: { id: call.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 219 }] },
    ],
  )
  objects.create(
    'tickets',
    {
      subject: 'Invoice shows the wrong amount',
      content: 'The March invoice bills 12 seats; the contract has 10.',
      hs_pipeline_stage: '3',
      hs_ticket_priority: 'MEDIUM',
      hs_ticket_category: 'BILLING_ISSUE',
      source_type: 'EMAIL',
    },
    at(5),
    source,
    [
      { to: { id: aisha.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 16 }] },
      { to: { id: companies[1]!.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 26 }] },
    ],
  )

  // A small call queue: three open CALL tasks (worked in the harness's task queue) and a to-do.
  const TASKS: ReadonlyArray<readonly [subject: string, type: string, contactIndex: number, dueInHours: number, priority: string]> = [
    ['Call James about the renewal quote', 'CALL', 1, 1, 'HIGH'],
    ['Follow up with Aisha on the support pilot', 'CALL', 2, 2, 'MEDIUM'],
    ['Check in with Priya after the line expansion', 'CALL', 4, 3, 'LOW'],
    ['Send Maria the portal how-to', 'TODO', 0, 4, 'NONE'],
  ]
  for (const [subject, type, contactIndex, dueInHours, priority] of TASKS) {
    objects.create(
      'tasks',
      {
        hs_task_subject: subject,
        hs_task_type: type,
        hs_task_status: 'NOT_STARTED',
        hs_task_priority: priority,
        hs_timestamp: new Date(now + dueInHours * HOUR).toISOString(),
        hubspot_owner_id: String(ACCOUNT.ownerId),
      },
      at(1),
      source,
      [{ to: { id: contacts[contactIndex]!.id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 204 }] }],
    )
  }

  putCallingSettings(
    db,
    ACCOUNT.appId,
    {
      name: options.widgetName ?? WIDGET_NAME,
      url: options.widgetUrl ?? DEFAULT_WIDGET_URL,
      width: 400,
      height: 600,
      isReady: true,
      supportsInboundCalling: true,
    },
    at(90),
  )
  seedRedirectUrls(db, [...DEFAULT_REDIRECT_URLS, ...(options.redirectUrls ?? [])], at(90))
}
