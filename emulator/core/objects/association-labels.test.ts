/**
 * The v4 association schema API: USER_DEFINED labels (create, list, use,
 * rename, delete; a label in use cannot be deleted), association limits
 * (definitions/configurations) and their enforcement, the high-usage report,
 * and the `/crm/associations/v4/…` paths of the official client. Labels and
 * limits are stored: a reload over the same saved rows keeps them.
 */
import { attachPersistence, type RowStore, type StoredData, type StoreWrite } from '../data/persistence.ts'
import { createCrmService } from '../service.ts'
import { createTestService, expectError, T0, type TestService } from '../timeline/testing.ts'
import { client, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const LABELS = '/crm/v4/associations/contacts/companies/labels'
const LIMITS = '/crm/v4/associations/definitions/configurations'

async function newLabel(name = 'decision_maker', label = 'Decision maker', inverseLabel?: string) {
  const created = await c.ok('POST', LABELS, { name, label, ...(inverseLabel && { inverseLabel }) })
  return created.results as Array<{ category: string; typeId: number; label: string }>
}

test('creating a label answers both directions as USER_DEFINED types; each direction lists its own', async () => {
  const [forward, inverse] = await newLabel('manager', 'Manager', 'Managed company')
  expect(forward).toEqual({ category: 'USER_DEFINED', typeId: expect.any(Number), label: 'Manager' })
  expect(inverse).toEqual({ category: 'USER_DEFINED', typeId: expect.any(Number), label: 'Managed company' })
  expect(forward!.typeId).not.toBe(inverse!.typeId)
  const listed = await c.ok('GET', LABELS)
  expect(listed.results).toContainEqual(forward)
  expect(listed.results).toContainEqual({ category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' })
  expect(listed.results).not.toContainEqual(inverse)
  expect((await c.ok('GET', '/crm/v4/associations/companies/contacts/labels')).results).toContainEqual(inverse)
  // Without inverseLabel the other direction carries the same label.
  const [, same] = await newLabel('referrer', 'Referred by')
  expect(same!.label).toBe('Referred by')
})

test('a label associates records with category USER_DEFINED, shows on both sides, and the wrong category is refused', async () => {
  const [forward, inverse] = await newLabel()
  const pair = await c.ok('PUT', '/crm/v4/objects/contacts/2/associations/companies/3', [{ associationCategory: 'USER_DEFINED', associationTypeId: forward!.typeId }], 201)
  expect(pair.labels).toEqual(['Decision maker'])
  const fromCompany = await c.ok('GET', '/crm/v4/objects/companies/3/associations/contacts')
  expect(fromCompany.results.find((r: { toObjectId: number }) => r.toObjectId === 2).associationTypes).toContainEqual(inverse)
  const before = tablesOf(api)
  await expectError(
    await c.req('PUT', '/crm/v4/objects/contacts/2/associations/companies/3', [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: forward!.typeId }]),
    400,
    'VALIDATION_ERROR',
  )
  expect(tablesOf(api)).toBe(before)
})

test('renaming a label changes both directions’ text; HubSpot’s types and unknown ids cannot be changed', async () => {
  const [forward, inverse] = await newLabel()
  await c.ok('PUT', LABELS, { associationTypeId: forward!.typeId, label: 'Champion', inverseLabel: 'Championed' }, 204)
  expect((await c.ok('GET', LABELS)).results).toContainEqual({ ...forward, label: 'Champion' })
  expect((await c.ok('GET', '/crm/v4/associations/companies/contacts/labels')).results).toContainEqual({ ...inverse, label: 'Championed' })
  await expectError(await c.req('PUT', LABELS, { associationTypeId: 1, label: 'Boss' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('PUT', LABELS, { associationTypeId: 987654, label: 'Boss' }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('DELETE', `${LABELS}/279`), 400, 'VALIDATION_ERROR')
})

test('bad label input gets the error body and writes nothing', async () => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', LABELS, { label: 'No name' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', LABELS, { label: '', name: 'empty' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', LABELS, { label: 'Bad', name: 'Has Spaces' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v4/associations/contacts/widgets/labels', { label: 'X', name: 'x' }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('DELETE', `${LABELS}/abc`), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
  await newLabel('twice', 'Twice')
  await expectError(await c.req('POST', LABELS, { label: 'Again', name: 'twice' }), 409, 'CONFLICT')
})

test('a label in use cannot be deleted (400 with the count); once unused it is deleted, both ways', async () => {
  const [forward, inverse] = await newLabel()
  await c.ok('PUT', '/crm/v4/objects/contacts/2/associations/companies/3', [{ associationCategory: 'USER_DEFINED', associationTypeId: forward!.typeId }], 201)
  const before = tablesOf(api)
  const error = await expectError(await c.req('DELETE', `${LABELS}/${forward!.typeId}`), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('in use by 1 association')
  expect(error.context).toMatchObject({ associationTypeId: [String(forward!.typeId)], usage: ['1'] })
  expect(tablesOf(api)).toBe(before)

  await c.ok(
    'POST',
    '/crm/v4/associations/contacts/companies/batch/labels/archive',
    { inputs: [{ from: { id: '2' }, to: { id: '3' }, types: [{ associationCategory: 'USER_DEFINED', associationTypeId: forward!.typeId }] }] },
    204,
  )
  await c.ok('DELETE', `${LABELS}/${forward!.typeId}`, undefined, 204)
  expect((await c.ok('GET', LABELS)).results).not.toContainEqual(forward)
  expect((await c.ok('GET', '/crm/v4/associations/companies/contacts/labels')).results).not.toContainEqual(inverse)
  await expectError(await c.req('DELETE', `${LABELS}/${forward!.typeId}`), 404, 'OBJECT_NOT_FOUND')
})

test('at most 50 labels per pair of object types', async () => {
  for (let i = 0; i < 50; i++) await newLabel(`label_${i}`, `Label ${i}`)
  const before = tablesOf(api)
  await expectError(await c.req('POST', LABELS, { label: 'One more', name: 'one_more' }), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('limits: create (201), read, update (200), purge (204); a second create is a per-input error (207)', async () => {
  const [label] = await newLabel()
  const created = await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 2 }] }, 201)
  expect(created).toMatchObject({ status: 'COMPLETE', results: [{ category: 'USER_DEFINED', typeId: label!.typeId, userEnforcedMaxToObjectIds: 2, label: 'Decision maker' }] })
  expect((await c.ok('GET', `${LIMITS}/contacts/companies`)).results).toEqual(created.results)
  expect((await c.ok('GET', `${LIMITS}/all`)).results).toEqual(created.results)
  expect((await c.ok('GET', `${LIMITS}/companies/contacts`)).results).toEqual([])

  const again = await c.ok(
    'POST',
    `${LIMITS}/contacts/companies/batch/create`,
    { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 3 }, { category: 'HUBSPOT_DEFINED', typeId: 279, maxToObjectIds: 5 }] },
    207,
  )
  expect(again.numErrors).toBe(1)
  expect(again.errors[0]).toMatchObject({ category: 'CONFLICT', context: { inputIndex: ['0'] } })
  expect(again.results).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 5 }])

  const updated = await c.ok('POST', `${LIMITS}/contacts/companies/batch/update`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 4 }] })
  expect(updated.results).toEqual([{ category: 'USER_DEFINED', typeId: label!.typeId, userEnforcedMaxToObjectIds: 4 }])
  const missing = await c.ok('POST', `${LIMITS}/contacts/companies/batch/update`, { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 1, maxToObjectIds: 1 }] }, 207)
  expect(missing.errors[0].category).toBe('OBJECT_NOT_FOUND')

  await c.ok('POST', `${LIMITS}/contacts/companies/batch/purge`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId }] }, 204)
  expect((await c.ok('GET', `${LIMITS}/contacts/companies`)).results).toEqual([{ category: 'HUBSPOT_DEFINED', typeId: 279, userEnforcedMaxToObjectIds: 5 }])
})

test('a label’s limit stays within the pair’s limit, and the pair’s limit above every label’s', async () => {
  const [label] = await newLabel()
  await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279, maxToObjectIds: 3 }] }, 201)
  const over = await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 4 }] }, 207)
  expect(over.errors[0].message).toContain('the valid range is 1-3')
  await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 3 }] }, 201)
  const under = await c.ok('POST', `${LIMITS}/contacts/companies/batch/update`, { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279, maxToObjectIds: 2 }] }, 207)
  expect(under.errors[0].category).toBe('VALIDATION_ERROR')
  await expectError(await c.req('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279, maxToObjectIds: 0 }] }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'WORK', typeId: 279, maxToObjectIds: 1 }] }), 400, 'VALIDATION_ERROR')
})

test('a limit is enforced when records are associated; nothing is written past it', async () => {
  const [label] = await newLabel()
  await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 1 }] }, 201)
  const use = (company: string) => c.req('PUT', `/crm/v4/objects/contacts/2/associations/companies/${company}`, [{ associationCategory: 'USER_DEFINED', associationTypeId: label!.typeId }])
  expect((await use('3')).status).toBe(201)
  // Again with the same company: still one.
  expect((await use('3')).status).toBe(201)
  const before = tablesOf(api)
  const over = await expectError(await use('4'), 400, 'VALIDATION_ERROR')
  expect(over.context).toMatchObject({ fromObjectId: ['2'], associationTypeId: [String(label!.typeId)], limit: ['1'] })
  expect(tablesOf(api)).toBe(before)
})

test('deleting a label removes its limits', async () => {
  const [label] = await newLabel()
  await c.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label!.typeId, maxToObjectIds: 1 }] }, 201)
  await c.ok('DELETE', `${LABELS}/${label!.typeId}`, undefined, 204)
  expect((await c.ok('GET', `${LIMITS}/all`)).results).toEqual([])
})

test('the client’s /crm/associations/v4/… paths are the same API', async () => {
  const created = await c.ok('POST', '/crm/associations/v4/contacts/companies/labels', { name: 'alias', label: 'Alias' })
  expect((await c.ok('GET', LABELS)).results).toContainEqual(created.results[0])
  expect((await c.ok('GET', '/crm/associations/v4/definitions/configurations/all')).results).toEqual([])
  await c.ok('DELETE', `/crm/associations/v4/contacts/companies/labels/${created.results[0].typeId}`, undefined, 204)
})

test('the high-usage report is queued for the account’s user; another user is 404', async () => {
  const report = await c.ok('POST', '/crm/v4/associations/usage/high-usage-report/1')
  expect(report).toEqual({ userId: 1, userEmail: 'demo.user@demo.local', enqueueTime: new Date(T0).toISOString() })
  await expectError(await c.req('POST', '/crm/v4/associations/usage/high-usage-report/2'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('POST', '/crm/v4/associations/usage/high-usage-report/x'), 400, 'VALIDATION_ERROR')
})

test('labels, associations through them, and limits survive a reload over the saved rows', async () => {
  let saved: StoredData = { snapshot: undefined, rows: [] }
  const store: RowStore = {
    async load() {
      return JSON.parse(JSON.stringify(saved)) as StoredData
    },
    async write(change: StoreWrite) {
      saved = 'snapshot' in change ? { snapshot: change.snapshot, rows: [] } : { ...saved, rows: [...saved.rows.filter((r) => !change.rows.some((n) => n.table === r.table && n.id === r.id)), ...change.rows] }
    },
  }
  const first = createCrmService({ now: () => T0 })
  await attachPersistence(first, store)
  const one = client(first)
  const [label] = (await one.ok('POST', LABELS, { name: 'kept', label: 'Kept' })).results
  await one.ok('PUT', '/crm/v4/objects/contacts/2/associations/companies/3', [{ associationCategory: 'USER_DEFINED', associationTypeId: label.typeId }], 201)
  await one.ok('POST', `${LIMITS}/contacts/companies/batch/create`, { inputs: [{ category: 'USER_DEFINED', typeId: label.typeId, maxToObjectIds: 1 }] }, 201)

  const second = createCrmService({ now: () => T0 })
  expect((await attachPersistence(second, store)).restored).toBe(true)
  const two = client(second)
  expect((await two.ok('GET', LABELS)).results).toContainEqual(label)
  expect((await two.ok('GET', '/crm/v4/objects/contacts/2/associations/companies')).results).toContainEqual({
    toObjectId: 3,
    associationTypes: expect.arrayContaining([label]),
  })
  expect((await two.ok('GET', `${LIMITS}/all`)).results).toHaveLength(1)
  // An export with the label imports cleanly (the integrity check knows USER_DEFINED types).
  const exported = await (await second.handle(new Request('http://api.test/_ringside/v1/export'))).text()
  const imported = await api.handle(new Request('http://api.test/_ringside/v1/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: exported }))
  expect(imported.status, await imported.clone().text()).toBe(200)
})
