import { createCrmService } from '../service.ts'
import { client, tablesOf, type Client } from '../objects/testing.ts'
import { createTestService, expectError, T0, type TestService } from '../timeline/testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const admin = (method: string, path: string, json?: unknown, status = 200) => c.ok(method, `/_ringside/v1/${path}`, json, status, 'none')

test('reset brings back the fresh account after changes', async () => {
  const fresh = tablesOf(api)
  await c.ok('POST', '/crm/v3/objects/tickets', { properties: { subject: 'x', hs_pipeline_stage: '1' } }, 201)
  await c.ok('DELETE', '/crm/v3/objects/contacts/1', undefined, 204)
  const result = await admin('POST', 'reset')
  expect(result).toEqual({ status: 'reset', counts: { contacts: 9, companies: 4, deals: 3, tickets: 2, calls: 1, tasks: 4, notes: 1 } })
  expect(tablesOf(api)).toBe(fresh)
})

test('export is the snapshot; importing it into another service reproduces the data', async () => {
  await c.ok('PATCH', '/crm/v3/objects/contacts/2', { properties: { jobtitle: 'Head of Ops' } })
  const snapshot = await admin('GET', 'export')
  expect(snapshot).toMatchObject({ format: 'ringside-crm-db', version: 1, exportedAt: new Date(T0).toISOString() })
  const other = createCrmService({ now: () => T0, seed: false })
  const result = await client(other).ok('POST', '/_ringside/v1/import', snapshot, 200, 'none')
  expect(result.counts.contacts).toBe(9)
  expect(tablesOf(other)).toBe(tablesOf(api))
  expect((await client(other).ok('GET', '/crm/v3/objects/contacts/2?properties=jobtitle')).properties).toEqual({ jobtitle: 'Head of Ops' })
})

test('an import carries on the id sequences, so new records get fresh ids', async () => {
  const snapshot = await admin('GET', 'export')
  const other = createCrmService({ now: () => T0, seed: false })
  await client(other).ok('POST', '/_ringside/v1/import', snapshot, 200, 'none')
  const created = await client(other).ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'new@example.com' } }, 201)
  expect(created.id).toBe('10')
})

test.each([
  ['a foreign JSON document', { hello: 'world' }, /"format" must be "ringside-crm-db"/],
  ['a newer version', { format: 'ringside-crm-db', version: 99, exportedAt: '', tables: {} }, /Unsupported export version 99/],
  ['an unknown table', { format: 'ringside-crm-db', version: 1, exportedAt: '', tables: { martians: [] } }, /unknown table "martians"/],
  [
    'a corrupt record',
    { format: 'ringside-crm-db', version: 1, exportedAt: '', tables: { crm_contacts: [['1', { id: '1', properties: 'nope' }]] } },
    /table "crm_contacts" row "1" is invalid at properties/,
  ],
])('importing %s is 400 VALIDATION_ERROR with the reason, and nothing changes', async (_name, snapshot, reason) => {
  const before = tablesOf(api)
  const error = await expectError(await c.req('POST', '/_ringside/v1/import', snapshot, 'none'), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(reason)
  expect(tablesOf(api)).toBe(before)
})

test('account lists the credentials of the emulator', async () => {
  expect(await admin('GET', 'account')).toMatchObject({
    hubId: 123456,
    appId: 1001,
    clientId: 'local-client',
    clientSecret: 'local-secret',
    developerApiKey: 'dev-key-local',
    privateAppToken: 'pat-local',
    scopes: expect.arrayContaining(['tickets', 'timeline', 'crm.objects.contacts.write']),
  })
})

describe('an import that fits every table but breaks the API’s rules is 400, and nothing changes', () => {
  const edit = async (change: (ticket: { createdAt: string; properties: Record<string, string> }) => void) => {
    const snapshot = await admin('GET', 'export')
    const tickets = snapshot.tables.crm_tickets as Array<[string, { createdAt: string; properties: Record<string, string> }]>
    change(tickets[0]![1])
    return snapshot
  }
  test.each([
    ['createdAt "x"', (t: { createdAt: string }) => void (t.createdAt = 'x'), /createdAt "x" is not an ISO 8601 timestamp/],
    ['a stage of no pipeline', (t: { properties: Record<string, string> }) => void (t.properties.hs_pipeline_stage = '99'), /99 is not a valid stage/],
    ['a priority that is no option', (t: { properties: Record<string, string> }) => void (t.properties.hs_ticket_priority = 'SOON'), /SOON was not one of the allowed options/],
    ['an unknown property', (t: { properties: Record<string, string> }) => void (t.properties.nope = '1'), /Property "nope" does not exist/],
  ])('%s', async (_name, change, reason) => {
    const snapshot = await edit(change as never)
    const before = tablesOf(api)
    const error = await expectError(await c.req('POST', '/_ringside/v1/import', snapshot, 'none'), 400, 'VALIDATION_ERROR')
    expect(error.message).toMatch(reason)
    expect(tablesOf(api)).toBe(before)
  })
})
