/**
 * Notes, owners, merges and the GDPR delete through the official client
 * (@hubspot/api-client 14.x), its global `fetch` pointed at the service: the
 * requests are the client's own and every answer is read into its models.
 */
import { officialClient as hubspot, useServiceBehindFetch } from './official-client.ts'

useServiceBehindFetch()

test('notes: create with an association, read, update, batch, search, archive', async () => {
  const notes = hubspot().crm.objects.notes
  const created = await notes.basicApi.create({
    properties: { hs_note_body: 'Called back, left a voicemail', hs_timestamp: '2026-01-14T09:30:00Z' },
    associations: [{ to: { id: '1' }, types: [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: 202 }] }],
  })
  expect(created.createdAt).toBeInstanceOf(Date)
  const read = await notes.basicApi.getById(created.id, ['hs_note_body'], undefined, ['contacts'])
  expect(read.properties.hs_note_body).toBe('Called back, left a voicemail')
  expect(read.associations?.contacts?.results[0]).toMatchObject({ id: '1', type: 'note_to_contact' })
  const updated = await notes.basicApi.update(created.id, { properties: { hs_note_body: 'Voicemail; will call again' } })
  expect(updated.properties.hs_note_body).toBe('Voicemail; will call again')
  const batch = await notes.batchApi.create({ inputs: [{ properties: { hs_note_body: 'Batch note' }, associations: [] }] })
  expect(batch.results).toHaveLength(1)
  const read2 = await notes.batchApi.read({ inputs: [{ id: created.id }, { id: batch.results[0]!.id }], properties: ['hs_note_body'], propertiesWithHistory: [] })
  expect(read2.results).toHaveLength(2)
  const found = await notes.searchApi.doSearch({ query: 'voicemail', properties: ['hs_note_body'], limit: 10, after: '0', sorts: [], filterGroups: [] })
  expect(found.results.map((r) => r.id)).toEqual([created.id])
  const page = await notes.basicApi.getPage(10)
  expect(page.results.length).toBeGreaterThanOrEqual(3)
  await notes.basicApi.archive(created.id)
  await expect(notes.basicApi.getById(created.id)).rejects.toMatchObject({ code: 404 })
})

test('owners: list, filter, page, and one by id or userId', async () => {
  const owners = hubspot().crm.owners.ownersApi
  const page = await owners.getPage(undefined, undefined, 2)
  expect(page.results.map((o) => o.id)).toEqual(['1', '2'])
  expect(page.results[0]?.createdAt).toBeInstanceOf(Date)
  expect(page.results[0]?.teams?.[0]).toMatchObject({ name: 'Support', primary: true })
  expect(page.paging?.next?.after).toBe('2')
  const byEmail = await owners.getPage('sam.okoro@demo.local')
  expect(byEmail.results.map((o) => o.userId)).toEqual([3])
  const archived = await owners.getPage(undefined, undefined, undefined, true)
  expect(archived.results[0]).toMatchObject({ id: '4', archived: true, userIdIncludingInactive: 4 })
  expect((await owners.getById(2, 'userId')).email).toBe('alex.rivera@demo.local')
  await expect(owners.getById(99)).rejects.toMatchObject({ code: 404 })
})

test('an unknown hubspot_owner_id on a call raises ApiException with the real INVALID_OWNER_ID body', async () => {
  const error = await hubspot()
    .crm.objects.calls.basicApi.create({ properties: { hs_call_title: 'x', hubspot_owner_id: '77' }, associations: [] })
    .catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OWNER_ID', message: '77 is not a valid owner id' }] } })
})

test('merge contacts, companies, deals and tickets; the merged contact answers its old ids; gdpr-delete by email', async () => {
  const crm = hubspot().crm
  const a = await crm.contacts.basicApi.create({ properties: { email: 'one@example.com', firstname: 'One' }, associations: [] })
  const b = await crm.contacts.basicApi.create({ properties: { email: 'two@example.com', lastname: 'Two' }, associations: [] })
  const merged = await crm.contacts.basicApi.merge({ primaryObjectId: a.id, objectIdToMerge: b.id })
  expect(merged.properties).toMatchObject({ email: 'one@example.com', firstname: 'One', lastname: 'Two' })
  expect((await crm.contacts.basicApi.getById(b.id)).id).toBe(merged.id)
  expect((await crm.companies.basicApi.merge({ primaryObjectId: '1', objectIdToMerge: '2' })).properties.name).toBe('Northwind Traders')
  expect((await crm.deals.basicApi.merge({ primaryObjectId: '1', objectIdToMerge: '2' })).properties.dealname).toBe('Northwind annual renewal')
  expect((await crm.tickets.basicApi.merge({ primaryObjectId: '1', objectIdToMerge: '2' })).properties.hs_pinned_engagement_id).toBe('1')
  const self = await crm.deals.basicApi.merge({ primaryObjectId: '3', objectIdToMerge: '3' }).catch((e: unknown) => e)
  expect(self).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR' } })

  await crm.contacts.basicApi.purge({ objectId: 'one@example.com', idProperty: 'email' })
  await expect(crm.contacts.basicApi.purge({ objectId: 'three@example.com', idProperty: 'email' })).rejects.toMatchObject({ code: 404 })
  await expect(crm.contacts.basicApi.getById(merged.id)).rejects.toMatchObject({ code: 404 })
})
