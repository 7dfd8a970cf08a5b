/**
 * The v4 associations API: labelled and default PUT, DELETE, the paged GET,
 * and the batch create, read, archive, labels/archive and associate/default.
 * Seeded: ticket 1 is associated with contact 1 (16), company 1 (primary 26,
 * which implies 339) and call 1 (219); ticket 2 with one other contact and
 * company 2; contact 5 has no ticket.
 */
import { createTestService, expectError, type TestService } from '../timeline/testing.ts'
import { client, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const V4 = '/crm/v4/objects'
const spec = (associationTypeId: number, associationCategory = 'HUBSPOT_DEFINED') => ({ associationCategory, associationTypeId })

test('GET lists the associated records with every type and its label', async () => {
  const result = await c.ok('GET', `${V4}/tickets/1/associations/companies`)
  expect(result).toEqual({
    results: [
      {
        toObjectId: 1,
        associationTypes: expect.arrayContaining([
          { category: 'HUBSPOT_DEFINED', typeId: 26, label: 'Primary' },
          { category: 'HUBSPOT_DEFINED', typeId: 339, label: null },
        ]),
      },
    ],
  })
  expect(result.results[0].associationTypes).toHaveLength(2)
})

test('PUT with types is 201 LabelsBetweenObjectPair, and the association shows in v3 and v4 from both sides', async () => {
  const pair = await c.ok('PUT', `${V4}/tickets/2/associations/contacts/1`, [spec(16)], 201)
  expect(pair).toEqual({ fromObjectTypeId: '0-5', fromObjectId: 2, toObjectTypeId: '0-1', toObjectId: 1, labels: [] })
  const fromContact = await c.ok('GET', `${V4}/contacts/1/associations/tickets`)
  expect(fromContact.results.map((r: { toObjectId: number }) => r.toObjectId)).toEqual([1, 2])
  const v3 = await c.ok('GET', '/crm/v3/objects/tickets/2/associations/contacts')
  expect(v3.results.map((r: { id: string }) => r.id)).toContain('1')
})

test('PUT of the primary company returns its label', async () => {
  const pair = await c.ok('PUT', `${V4}/0-5/2/associations/0-2/3`, [spec(26)], 201)
  expect(pair.labels).toEqual(['Primary'])
})

test('PUT refuses a type that does not lead between the two types, a user-defined label, or an empty list; nothing changes', async () => {
  const before = tablesOf(api)
  for (const body of [[spec(219)], [spec(16, 'USER_DEFINED')], [], {}]) {
    await expectError(await c.req('PUT', `${V4}/tickets/2/associations/contacts/1`, body), 400, 'VALIDATION_ERROR')
  }
  await expectError(await c.req('PUT', `${V4}/tickets/2/associations/contacts/999`, [spec(16)]), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('PUT', `${V4}/tickets/x/associations/contacts/1`, [spec(16)]), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('PUT default is 200 with the default type in both directions', async () => {
  const result = await c.ok('PUT', `${V4}/tickets/2/associations/default/contacts/3`)
  expect(result.status).toBe('COMPLETE')
  expect(result.results).toEqual([
    { from: { id: '2' }, to: { id: '3' }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 16 } },
    { from: { id: '3' }, to: { id: '2' }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 15 } },
  ])
})

test('DELETE removes every type between the pair (204); the pin of a call goes with it', async () => {
  await c.ok('DELETE', `${V4}/tickets/1/associations/companies/1`, undefined, 204)
  expect((await c.ok('GET', `${V4}/tickets/1/associations/companies`)).results).toEqual([])
  expect((await c.ok('GET', `${V4}/companies/1/associations/tickets`)).results).toEqual([])
  await c.ok('DELETE', `${V4}/tickets/1/associations/calls/1`, undefined, 204)
  const ticket = await c.ok('GET', '/crm/v3/objects/tickets/1?properties=hs_pinned_engagement_id')
  expect(ticket.properties.hs_pinned_engagement_id).toBeUndefined()
})

test('GET pages with limit and after', async () => {
  for (const id of ['2', '3', '4']) await c.ok('PUT', `${V4}/tickets/1/associations/contacts/${id}`, [spec(16)], 201)
  const first = await c.ok('GET', `${V4}/tickets/1/associations/contacts?limit=2`)
  expect(first.results.map((r: { toObjectId: number }) => r.toObjectId)).toEqual([1, 2])
  expect(first.paging.next.after).toBe('2')
  const second = await c.ok('GET', `${V4}/tickets/1/associations/contacts?limit=2&after=2`)
  expect(second.results.map((r: { toObjectId: number }) => r.toObjectId)).toEqual([3, 4])
  expect(second.paging).toBeUndefined()
  await expectError(await c.req('GET', `${V4}/tickets/1/associations/contacts?limit=501`), 400, 'VALIDATION_ERROR')
})

test('batch/create is 201 when every input is made, 207 with a failed input that leaves no trace', async () => {
  const ok = await c.ok(
    'POST',
    '/crm/v4/associations/tickets/contacts/batch/create',
    { inputs: [{ from: { id: '2' }, to: { id: '3' }, types: [spec(16)] }] },
    201,
  )
  expect(ok.results).toEqual([{ fromObjectTypeId: '0-5', fromObjectId: 2, toObjectTypeId: '0-1', toObjectId: 3, labels: [] }])
  const mixed = await c.ok(
    'POST',
    '/crm/v4/associations/tickets/contacts/batch/create',
    {
      inputs: [
        { from: { id: '2' }, to: { id: '4' }, types: [spec(16)] },
        { from: { id: '2' }, to: { id: '999' }, types: [spec(16)] },
      ],
    },
    207,
  )
  expect(mixed.results).toHaveLength(1)
  expect(mixed.errors[0].context.inputIndex).toEqual(['1'])
  const now = await c.ok('GET', `${V4}/tickets/2/associations/contacts`)
  expect(now.results.map((r: { toObjectId: number }) => r.toObjectId)).not.toContain(999)
})

test('batch/read returns each record’s associations; a record without any and a missing record are errors (207)', async () => {
  const result = await c.ok('POST', '/crm/v4/associations/tickets/companies/batch/read', { inputs: [{ id: '1' }, { id: '2' }] })
  expect(result.results.map((r: { from: { id: string } }) => r.from.id)).toEqual(['1', '2'])
  const partial = await c.ok('POST', '/crm/v4/associations/contacts/tickets/batch/read', { inputs: [{ id: '1' }, { id: '5' }, { id: '999' }] }, 207)
  expect(partial.results.map((r: { from: { id: string } }) => r.from.id)).toEqual(['1'])
  expect(partial.errors.map((e: { context: Record<string, string[]> }) => e.context)).toEqual([{ ids: ['999'] }, { fromObjectId: ['5'] }])
  expect(partial.errors[1].subCategory).toBe('crm.associations.NO_ASSOCIATIONS_FOUND')
})

test('batch/archive removes the pairs (204); batch/labels/archive removes one type only', async () => {
  await c.ok('POST', '/crm/v4/associations/tickets/companies/batch/labels/archive', { inputs: [{ from: { id: '1' }, to: { id: '1' }, types: [spec(26)] }] }, 204)
  const left = await c.ok('GET', `${V4}/tickets/1/associations/companies`)
  expect(left.results[0].associationTypes).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 339, label: null }])
  await c.ok('POST', '/crm/v4/associations/tickets/companies/batch/archive', { inputs: [{ from: { id: '1' }, to: [{ id: '1' }] }] }, 204)
  expect((await c.ok('GET', `${V4}/tickets/1/associations/companies`)).results).toEqual([])
})

test('batch/associate/default is 200 with both directions per input', async () => {
  const result = await c.ok('POST', '/crm/v4/associations/contacts/companies/batch/associate/default', { inputs: [{ from: { id: '9' }, to: { id: '4' } }] })
  expect(result.results).toHaveLength(2)
  expect(result.results[0].associationSpec.associationTypeId).toBe(279)
})
