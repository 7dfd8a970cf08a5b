/**
 * The v3 associations API: types, batch create, read and archive. Types are
 * named by their v3 name or numeric id; a label made through the v4 label API
 * is a type here too.
 */
import { createTestService, expectError, type TestService } from '../timeline/testing.ts'
import { client, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const V3 = '/crm/v3/associations/contacts/companies'

test('types lists every type from one object type to another by id and v3 name, labels included', async () => {
  const before = await c.ok('GET', `${V3}/types`)
  expect(before.results).toEqual(
    expect.arrayContaining([
      { id: '279', name: 'contact_to_company_unlabeled' },
      { id: '1', name: 'contact_to_company' },
    ]),
  )
  const label = (await c.ok('POST', '/crm/v4/associations/contacts/companies/labels', { name: 'billing_contact', label: 'Billing contact' })).results[0]
  expect((await c.ok('GET', `${V3}/types`)).results).toContainEqual({ id: String(label.typeId), name: 'billing_contact' })
  expect((await c.ok('GET', '/crm/v3/associations/0-1/0-2/types')).results).toHaveLength(before.results.length + 1)
  await expectError(await c.req('GET', '/crm/v3/associations/contacts/widgets/types'), 400, 'VALIDATION_ERROR')
})

test('batch create associates each pair (201) and the association shows in v4; a bad input is reported alone (207)', async () => {
  const created = await c.ok(
    'POST',
    `${V3}/batch/create`,
    {
      inputs: [
        { from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company_unlabeled' },
        { from: { id: '3' }, to: { id: '2' }, type: '279' },
      ],
    },
    201,
  )
  expect(created).toMatchObject({ status: 'COMPLETE', results: [{ from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company_unlabeled' }, { from: { id: '3' }, to: { id: '2' }, type: '279' }] })
  const v4 = await c.ok('GET', '/crm/v4/objects/contacts/2/associations/companies')
  expect(v4.results.map((r: { toObjectId: number }) => r.toObjectId)).toContain(3)

  const companiesOf4 = async () => (await c.ok('GET', '/crm/v4/objects/contacts/4/associations/companies')).results.map((r: { toObjectId: number }) => r.toObjectId)
  const before = await companiesOf4()
  expect(before).not.toContain(1)
  const partial = await c.ok(
    'POST',
    `${V3}/batch/create`,
    {
      inputs: [
        { from: { id: '4' }, to: { id: '1' }, type: 'contact_to_company_unlabeled' },
        { from: { id: '4' }, to: { id: '999999' }, type: 'contact_to_company_unlabeled' },
        { from: { id: '4' }, to: { id: '2' }, type: 'ticket_to_contact' },
      ],
    },
    207,
  )
  expect(partial.numErrors).toBe(2)
  expect(partial.errors.map((e: { context: { inputIndex: string[] } }) => e.context.inputIndex[0])).toEqual(['1', '2'])
  expect(partial.results).toHaveLength(1)
  expect(await companiesOf4()).toEqual([...new Set([...before, 1])].sort((a, b) => a - b))
})

test('batch read lists each record’s associated ids with their v3 type names; missing records and records without any are errors', async () => {
  await c.ok('POST', `${V3}/batch/create`, { inputs: [{ from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company' }] }, 201)
  const read = await c.ok('POST', `${V3}/batch/read`, { inputs: [{ id: '2' }] })
  expect(read.results).toEqual([{ from: { id: '2' }, to: expect.arrayContaining([{ id: '3', type: 'contact_to_company' }, { id: '3', type: 'contact_to_company_unlabeled' }]) }])
  const mixed = await c.ok('POST', '/crm/v3/associations/contacts/tickets/batch/read', { inputs: [{ id: '999999' }, { id: '5' }] }, 207)
  expect(mixed.errors[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { ids: ['999999'] } })
  expect(mixed.errors[1]).toMatchObject({ subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND', context: { fromObjectId: ['5'] } })
})

test('batch archive removes the named type (204); an unknown type refuses the whole batch and removes nothing', async () => {
  await c.ok('POST', `${V3}/batch/create`, { inputs: [{ from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company_unlabeled' }] }, 201)
  const before = tablesOf(api)
  await expectError(
    await c.req('POST', `${V3}/batch/archive`, {
      inputs: [
        { from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company_unlabeled' },
        { from: { id: '2' }, to: { id: '3' }, type: 'no_such_type' },
      ],
    }),
    400,
    'VALIDATION_ERROR',
  )
  expect(tablesOf(api)).toBe(before)
  await c.ok('POST', `${V3}/batch/archive`, { inputs: [{ from: { id: '2' }, to: { id: '3' }, type: 'contact_to_company_unlabeled' }] }, 204)
  const after = await c.ok('GET', '/crm/v4/objects/contacts/2/associations/companies')
  expect(after.results.map((r: { toObjectId: number }) => r.toObjectId)).not.toContain(3)
})

test('bad bodies are 400 and change nothing', async () => {
  const before = tablesOf(api)
  for (const bad of [{}, { inputs: 'x' }, { inputs: [{ from: { id: 'abc' }, to: { id: '1' }, type: 'contact_to_company' }] }, { inputs: [{ from: { id: '1' }, to: { id: '1' } }] }]) {
    await expectError(await c.req('POST', `${V3}/batch/create`, bad), 400, 'VALIDATION_ERROR')
  }
  await expectError(await c.req('POST', `${V3}/batch/read`, { inputs: Array.from({ length: 1001 }, (_, i) => ({ id: String(i + 1) })) }), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})
