/**
 * Notes (the engagement type 0-46), merges of contacts, companies, deals and
 * tickets, the GDPR delete of a contact, and `hubspot_owner_id` checked
 * against the account's owners.
 */
import { createTestService, expectError, T0, type TestService } from '../timeline/testing.ts'
import { assoc, client, details, tablesOf, ticket, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const newContact = (properties: Record<string, unknown>) => c.ok('POST', '/crm/v3/objects/contacts', { properties }, 201)

// ------------------------------------------------------------------ notes

test('a note is created with its associations, read back by id and type id, and listed on the contact', async () => {
  const note = await c.ok('POST', '/crm/v3/objects/notes', { properties: { hs_note_body: '<p>Wants a callback</p>', hubspot_owner_id: '2' }, associations: [assoc('2', 202)] }, 201)
  expect(note.properties).toMatchObject({ hs_note_body: '<p>Wants a callback</p>', hubspot_owner_id: '2', hs_timestamp: new Date(T0).toISOString() })
  const read = await c.ok('GET', `/crm/v3/objects/0-46/${note.id}?properties=hs_note_body&associations=contacts`)
  expect(read.properties.hs_note_body).toBe('<p>Wants a callback</p>')
  expect(read.associations.contacts.results).toEqual([{ id: '2', type: 'note_to_contact' }])
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/2?associations=notes')
  expect(contact.associations.notes.results).toEqual([{ id: note.id, type: 'contact_to_note' }])
})

test('notes: batch create, search by body text, batch archive; the seed has a note on Maria', async () => {
  const seeded = await c.ok('GET', '/crm/v3/objects/contacts/1?associations=notes')
  expect(seeded.associations.notes.results).toHaveLength(1)
  const batch = await c.ok('POST', '/crm/v3/objects/notes/batch/create', { inputs: [{ properties: { hs_note_body: 'Quarterly review booked' } }, { properties: { hs_note_body: 'Sent the quote' } }] }, 201)
  expect(batch.results).toHaveLength(2)
  const found = await c.ok('POST', '/crm/v3/objects/notes/search', { query: 'quarterly', properties: ['hs_note_body'] })
  expect(found.results.map((r: { properties: { hs_note_body: string } }) => r.properties.hs_note_body)).toEqual(['Quarterly review booked'])
  await c.ok('POST', '/crm/v3/objects/notes/batch/archive', { inputs: batch.results.map((r: { id: string }) => ({ id: r.id })) }, 204)
  expect((await c.ok('POST', '/crm/v3/objects/notes/search', { query: 'quarterly' })).total).toBe(0)
})

test('a note cannot be associated with a call: 400 and nothing written', async () => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', '/crm/v3/objects/notes', { properties: { hs_note_body: 'x' }, associations: [assoc('1', 194)] }), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

// ------------------------------------------------------------------ owners on records

test('hubspot_owner_id must be an active owner: an unknown or deactivated one is INVALID_OWNER_ID on calls, tasks and contacts', async () => {
  for (const [type, properties] of [
    ['calls', { hs_call_title: 'x' }],
    ['tasks', { hs_task_subject: 'x' }],
    ['contacts', { email: 'owner.check@example.com' }],
  ] as const) {
    for (const owner of ['999', '4']) {
      const before = tablesOf(api)
      const error = await expectError(await c.req('POST', `/crm/v3/objects/${type}`, { properties: { ...properties, hubspot_owner_id: owner } }), 400, 'VALIDATION_ERROR')
      expect(error.message).toContain(`"error":"INVALID_OWNER_ID"`)
      expect(details(error)).toEqual([{ message: `${owner} is not a valid owner id`, code: 'INVALID_OWNER_ID', context: { propertyName: ['hubspot_owner_id'] } }])
      expect(tablesOf(api)).toBe(before)
    }
  }
  const task = await c.ok('POST', '/crm/v3/objects/tasks', { properties: { hs_task_subject: 'Owned', hubspot_owner_id: 3 } }, 201)
  expect(task.properties.hubspot_owner_id).toBe('3')
  await expectError(await c.req('PATCH', `/crm/v3/objects/tasks/${task.id}`, { properties: { hubspot_owner_id: '1234' } }), 400, 'VALIDATION_ERROR')
})

// ------------------------------------------------------------------ merges

test('merging two contacts makes a new record; both old ids answer with it; values and associations move', async () => {
  const primary = await newContact({ email: 'pat@example.com', firstname: 'Pat', phone: '+1 617 555 0170' })
  const other = await newContact({ email: 'pat.lee@work.example', firstname: 'Patricia', lastname: 'Lee' })
  await c.ok('PUT', `/crm/v4/objects/contacts/${primary.id}/associations/companies/1`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }], 201)
  await c.ok('PUT', `/crm/v4/objects/contacts/${other.id}/associations/companies/2`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }], 201)
  await c.ok('PUT', `/crm/v4/objects/contacts/${other.id}/associations/tickets/2`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 15 }], 201)

  const merged = await c.ok('POST', '/crm/v3/objects/contacts/merge', { primaryObjectId: primary.id, objectIdToMerge: other.id })
  expect(merged.id).not.toBe(primary.id)
  expect(merged.id).not.toBe(other.id)
  expect(merged.properties).toMatchObject({
    email: 'pat@example.com',
    firstname: 'Pat',
    lastname: 'Lee',
    phone: '+1 617 555 0170',
    hs_additional_emails: 'pat.lee@work.example',
    hs_merged_object_ids: `${primary.id};${other.id}`,
  })
  for (const old of [primary.id, other.id]) {
    const read = await c.ok('GET', `/crm/v3/objects/contacts/${old}?properties=firstname`)
    expect(read.id).toBe(merged.id)
  }
  const withLinks = await c.ok('GET', `/crm/v3/objects/contacts/${merged.id}?associations=companies,tickets`)
  // The primary's primary company wins; the other contact's company stays as a plain association.
  expect(withLinks.associations.companies.results).toEqual(
    expect.arrayContaining([{ id: '1', type: 'contact_to_company' }, { id: '1', type: 'contact_to_company_unlabeled' }, { id: '2', type: 'contact_to_company_unlabeled' }]),
  )
  expect(withLinks.associations.companies.results).toHaveLength(3)
  expect(withLinks.associations.tickets.results).toEqual([{ id: '2', type: 'contact_to_ticket' }])
  const ticket2 = await c.ok('GET', '/crm/v3/objects/tickets/2?associations=contacts')
  expect(ticket2.associations.contacts.results.map((r: { id: string }) => r.id)).toContain(merged.id)
  expect(ticket2.associations.contacts.results.map((r: { id: string }) => r.id)).not.toContain(other.id)
  // The old e-mail addresses belong to the merged record now: a new contact cannot take the primary's.
  await expectError(await c.req('POST', '/crm/v3/objects/contacts', { properties: { email: 'pat@example.com' } }), 409, 'CONFLICT')
})

test('merging again follows earlier merges; a ticket keeps its pinned call', async () => {
  const a = await c.ok('POST', '/crm/v3/objects/tickets', { ...ticket({ hs_pinned_engagement_id: '1' }), associations: [assoc('1', 219)] }, 201)
  const b = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Duplicate' }), 201)
  const first = await c.ok('POST', '/crm/v3/objects/tickets/merge', { primaryObjectId: a.id, objectIdToMerge: b.id })
  expect(first.properties).toMatchObject({ subject: 'Printer on fire', hs_pinned_engagement_id: '1' })
  const third = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Third' }), 201)
  const second = await c.ok('POST', '/crm/v3/objects/0-5/merge', { primaryObjectId: third.id, objectIdToMerge: a.id })
  expect(second.properties.hs_merged_object_ids.split(';').sort()).toEqual([a.id, b.id, first.id, third.id].sort())
  expect((await c.ok('GET', `/crm/v3/objects/tickets/${b.id}`)).id).toBe(second.id)
  expect((await c.ok('GET', `/crm/v3/objects/tickets/${second.id}?properties=hs_pinned_engagement_id`)).properties.hs_pinned_engagement_id).toBe('1')
})

test('a merge of a record into itself, of a missing record, or with a bad body fails and writes nothing', async () => {
  const before = tablesOf(api)
  const self = await expectError(await c.req('POST', '/crm/v3/objects/deals/merge', { primaryObjectId: '1', objectIdToMerge: 1 }), 400, 'VALIDATION_ERROR')
  expect(self.message).toContain('into itself')
  await expectError(await c.req('POST', '/crm/v3/objects/companies/merge', { primaryObjectId: '1', objectIdToMerge: '999' }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('POST', '/crm/v3/objects/companies/merge', { primaryObjectId: '1' }), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('merge and gdpr-delete are served only where the real API has them (elsewhere the path is a record id: 405)', async () => {
  await expectError(await c.req('POST', '/crm/v3/objects/calls/merge', { primaryObjectId: '1', objectIdToMerge: '1' }), 405, 'METHOD_NOT_ALLOWED')
  await expectError(await c.req('POST', '/crm/v3/objects/companies/gdpr-delete', { objectId: '1' }), 405, 'METHOD_NOT_ALLOWED')
})

// ------------------------------------------------------------------ GDPR delete

test('gdpr-delete erases a contact for good, by id or by email, with its associations', async () => {
  const made = await newContact({ email: 'Erase.Me@example.com' })
  await c.ok('PUT', `/crm/v4/objects/contacts/${made.id}/associations/companies/1`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }], 201)
  await c.ok('POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: 'erase.me@EXAMPLE.com', idProperty: 'email' }, 204)
  await expectError(await c.req('GET', `/crm/v3/objects/contacts/${made.id}`), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('GET', `/crm/v3/objects/contacts/${made.id}?archived=true`), 404, 'OBJECT_NOT_FOUND')
  const company = await c.ok('GET', '/crm/v3/objects/companies/1?associations=contacts')
  expect(company.associations.contacts.results.map((r: { id: string }) => r.id)).not.toContain(made.id)
  // A contact in the recycle bin goes too.
  const binned = await newContact({ email: 'binned@example.com' })
  await c.ok('DELETE', `/crm/v3/objects/contacts/${binned.id}`, undefined, 204)
  await c.ok('POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: binned.id }, 204)
  await expectError(await c.req('GET', `/crm/v3/objects/contacts/${binned.id}?archived=true`), 404, 'OBJECT_NOT_FOUND')
})

test('gdpr-delete of a missing contact, or by a property that is not unique, is refused and writes nothing', async () => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: '999' }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: 'Maria', idProperty: 'firstname' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/gdpr-delete', {}), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})
