/**
 * propertiesWithHistory, whatever the row keeps: records written once and
 * several times, by several sources, cleared and set again, archived and
 * restored, read before and after an export and import, and from an export
 * in the row shape of earlier versions (every property with its history).
 */
import { beforeEach, expect, test } from 'vitest'
import { createTestService, T0, type TestService } from '../timeline/testing.ts'
import { client, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const NAMES = ['email', 'firstname', 'lastname', 'phone', 'company', 'jobtitle', 'createdate', 'hs_lastmodifieddate', 'hs_object_id']
const at = (ms: number) => new Date(ms).toISOString()
const entry = (value: string, ms: number, sourceType = 'API') => ({ value, timestamp: at(ms), sourceType })

async function read(id: string) {
  const body = await c.ok('GET', `/crm/v3/objects/contacts/${id}?propertiesWithHistory=${NAMES.join(',')}&properties=${NAMES.join(',')}`)
  return { properties: body.properties, propertiesWithHistory: body.propertiesWithHistory, createdAt: body.createdAt, updatedAt: body.updatedAt, archived: body.archived }
}

/** Three contacts: written once; written several times (a value set later, one changed twice, one cleared and set again); archived and restored. */
async function writeContacts() {
  const once = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'Once@Example.com', firstname: 'Ona', lastname: 'Once' } }, 201)
  const many = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'many@example.com', firstname: 'Mo' } }, 201)
  api.clock.now = T0 + 1000
  await c.ok('PATCH', `/crm/v3/objects/contacts/${many.id}`, { properties: { firstname: 'Moe', jobtitle: 'Buyer' } })
  api.clock.now = T0 + 2000
  await c.ok('PATCH', `/crm/v3/objects/contacts/${many.id}`, { properties: { firstname: 'Mona', jobtitle: '' } })
  api.clock.now = T0 + 3000
  await c.ok('PATCH', `/crm/v3/objects/contacts/${many.id}`, { properties: { jobtitle: 'Owner', lastname: 'Many' } })
  const binned = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'bin@example.com', phone: '+1 617 555 0199' } }, 201)
  api.clock.now = T0 + 4000
  await c.req('DELETE', `/crm/v3/objects/contacts/${binned.id}`)
  api.clock.now = T0 + 5000
  await c.ok('POST', `/crm/v3/objects/contacts/${binned.id}/restore`)
  return { once: once.id as string, many: many.id as string, binned: binned.id as string }
}

test('history of records written once and several times', async () => {
  const { once, many, binned } = await writeContacts()
  expect((await read(once)).propertiesWithHistory).toEqual({
    email: [entry('once@example.com', T0)],
    firstname: [entry('Ona', T0)],
    lastname: [entry('Once', T0)],
    createdate: [entry(at(T0), T0)],
    hs_lastmodifieddate: [entry(at(T0), T0)],
    hs_object_id: [entry(once, T0)],
  })
  const m = await read(many)
  expect(m.properties).toMatchObject({ firstname: 'Mona', jobtitle: 'Owner', lastname: 'Many' })
  expect(m.propertiesWithHistory).toEqual({
    email: [entry('many@example.com', T0)],
    firstname: [entry('Mona', T0 + 2000), entry('Moe', T0 + 1000), entry('Mo', T0)],
    jobtitle: [entry('Owner', T0 + 3000), entry('', T0 + 2000), entry('Buyer', T0 + 1000)],
    lastname: [entry('Many', T0 + 3000)],
    createdate: [entry(at(T0), T0)],
    hs_lastmodifieddate: [entry(at(T0 + 3000), T0 + 3000), entry(at(T0 + 2000), T0 + 2000), entry(at(T0 + 1000), T0 + 1000), entry(at(T0), T0)],
    hs_object_id: [entry(many, T0)],
  })
  expect(m.createdAt).toBe(at(T0))
  expect(m.updatedAt).toBe(at(T0 + 3000))
  const b = await read(binned)
  expect(b.propertiesWithHistory.phone).toEqual([entry('+1 617 555 0199', T0 + 1000 * 3)])
  expect(b.updatedAt).toBe(at(T0 + 5000))
  expect(b.archived).toBe(false)
})

test('the seed’s records keep their own source in the history', async () => {
  const seeded = await c.ok('GET', '/crm/v3/objects/contacts/1?propertiesWithHistory=firstname,hs_object_id')
  expect(seeded.propertiesWithHistory.firstname).toEqual([{ value: seeded.properties.firstname, timestamp: seeded.createdAt, sourceType: 'CRM_UI' }])
  expect(seeded.propertiesWithHistory.hs_object_id[0].sourceType).toBe('CRM_UI')
})

test('answers are the same after an export and import, and from an export whose rows carry every history', async () => {
  const ids = await writeContacts()
  const before = await Promise.all(Object.values(ids).map(read))
  const exported = await c.ok('GET', '/_ringside/v1/export')

  await c.ok('POST', '/_ringside/v1/import', exported)
  expect(await Promise.all(Object.values(ids).map(read))).toEqual(before)

  // Earlier versions stored a history for every property of every record, its first entry repeating the value.
  const full = structuredClone(exported)
  for (const [, row] of full.tables.crm_contacts as Array<[string, { properties: Record<string, string>; history: Record<string, unknown[]>; createdAt: string }]>) {
    for (const [name, value] of Object.entries(row.properties)) {
      row.history[name] ??= [{ value, timestamp: row.createdAt, sourceType: 'API' }]
    }
  }
  await c.ok('POST', '/_ringside/v1/import', full)
  expect(await Promise.all(Object.values(ids).map(read))).toEqual(before)
})
