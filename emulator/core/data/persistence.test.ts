import { attachPersistence, rawExport, type RowStore, type StoredData, type StoredRow, type StoreWrite } from './persistence.ts'
import { createCrmService } from '../service.ts'
import { client, tablesOf, ticket } from '../objects/testing.ts'
import { T0 } from '../timeline/testing.ts'

/**
 * A RowStore over a Map, with the IndexedDB store's semantics: a snapshot
 * write drops every row; rows are upserted by table+id; values are copied.
 */
function memoryStore(initial: Partial<StoredData> = {}) {
  const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T))
  const rows = new Map<string, StoredRow>((initial.rows ?? []).map((row) => [`${row.table}\0${row.id}`, copy(row)]))
  const store = {
    snapshot: copy(initial.snapshot),
    rows,
    writes: [] as StoreWrite[],
    /** Set to make the next writes fail. */
    failWith: undefined as Error | undefined,
    async load(): Promise<StoredData> {
      // In key order, as IndexedDB's getAll returns them (not in the order written).
      const sorted = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      return { snapshot: copy(store.snapshot), rows: sorted.map(([, row]) => copy(row)) }
    },
    async write(change: StoreWrite) {
      if (store.failWith) throw store.failWith
      store.writes.push(copy(change))
      if ('snapshot' in change) {
        store.snapshot = copy(change.snapshot)
        rows.clear()
      } else {
        for (const row of change.rows) rows.set(`${row.table}\0${row.id}`, copy(row))
      }
    },
  } satisfies RowStore & Record<string, unknown>
  return store
}

const service = () => createCrmService({ now: () => T0 })

/** A second service over the same store: what a reload sees. */
async function reload(store: RowStore) {
  const next = service()
  const persistence = await attachPersistence(next, store)
  return { api: next, persistence }
}

test('a fresh start saves the seeded account once, as a snapshot; a reload restores it', async () => {
  const api = service()
  const store = memoryStore()
  const persistence = await attachPersistence(api, store)
  expect(persistence.restored).toBe(false)
  expect(store.writes).toHaveLength(1)
  expect(store.writes[0]).toHaveProperty('snapshot')

  const again = await reload(store)
  expect(again.persistence.restored).toBe(true)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
})

test('a write is stored before its response resolves, as the rows it changed (not a snapshot)', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  store.writes.length = 0

  const created = await client(api).ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Saved before the answer' }), 201)
  // No waiting: the response came after the store had the rows.
  expect(store.writes).toHaveLength(1)
  const write = store.writes[0] as { rows: StoredRow[] }
  expect(write).not.toHaveProperty('snapshot')
  expect(write.rows.find((row) => row.table === 'crm_tickets' && row.id === created.id)?.row).toMatchObject({ properties: { subject: 'Saved before the answer' } })
  // Only rows this request touched: the ticket, its sequence, nothing of the hundreds of seeded rows.
  expect(write.rows.length).toBeLessThan(5)

  const again = await reload(store)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
})

test('notes, merges, custom object schemas and their records survive a reload, from saved rows and from an export', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const c = client(api)
  await c.ok('POST', '/crm/v3/objects/notes', { properties: { hs_note_body: 'Kept' } }, 201)
  const merged = await c.ok('POST', '/crm/v3/objects/companies/merge', { primaryObjectId: '1', objectIdToMerge: '2' })
  const schema = await c.ok(
    'POST',
    '/crm-object-schemas/v3/schemas',
    { name: 'pet', labels: { singular: 'Pet', plural: 'Pets' }, requiredProperties: [], properties: [{ name: 'pet_name', label: 'Name', type: 'string', fieldType: 'text' }], associatedObjects: ['CONTACT'] },
    201,
  )
  const pet = await c.ok('POST', '/crm/v3/objects/p_pet', { properties: { pet_name: 'Rex' }, associations: [{ to: { id: '1' }, types: [{ associationCategory: 'USER_DEFINED', associationTypeId: Number(schema.associations[0].id) }] }] }, 201)

  const again = await reload(store)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
  const c2 = client(again.api)
  expect((await c2.ok('GET', '/crm/v3/objects/companies/2')).id).toBe(merged.id)
  expect((await c2.ok('GET', `/crm/v3/objects/p_pet/${pet.id}?properties=pet_name&associations=contacts`)).associations.contacts.results).toHaveLength(1)

  // An export holds the custom type's record tables; a fresh service imports it.
  const exported = await c.ok('GET', '/_ringside/v1/export')
  expect(Object.keys(exported.tables)).toEqual(expect.arrayContaining(['crm_notes', 'crm_merged_ids', 'crm_schemas', 'crm_schema_associations', 'crm_2-1']))
  const imported = service()
  await client(imported).ok('POST', '/_ringside/v1/import', exported)
  expect((await client(imported).ok('GET', `/crm/v3/objects/2-1/${pet.id}?properties=pet_name`)).properties.pet_name).toBe('Rex')
  // And a reset forgets the custom type.
  await client(imported).ok('POST', '/_ringside/v1/reset')
  expect((await client(imported).req('GET', '/crm/v3/objects/2-1')).status).toBe(400)
})

test('rows keep their order, deletions stick, and a row written twice is stored once', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const c = client(api)
  const a = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'zed@example.com' } }, 201)
  const b = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'amy@example.com' } }, 201)
  const gone = await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'kim@example.com' } }, 201)
  // crm_associations is keyed by "type:id" (not numeric): its order (b before a, against the keys' order) must survive.
  for (const contact of [b, a, gone]) await c.ok('PUT', `/crm/v4/objects/contacts/${contact.id}/associations/default/companies/1`)
  await c.ok('DELETE', `/crm/v4/objects/contacts/${gone.id}/associations/companies/1`, undefined, 204)
  await c.ok('PATCH', `/crm/v3/objects/contacts/${b.id}`, { properties: { email: 'aaron@example.com' } })
  await c.ok('PATCH', `/crm/v3/objects/contacts/${a.id}`, { properties: { jobtitle: 'Agent' } })
  await c.ok('DELETE', '/crm/v3/objects/tickets/1', undefined, 204)

  const keys = [...store.rows.keys()]
  expect(keys.filter((key) => key === `crm_contacts\0${a.id}`)).toHaveLength(1)
  // The emptied association row is stored as deleted (null), so the snapshot's copy, if any, cannot come back.
  expect(store.rows.get(`crm_associations\0contacts:${gone.id}`)).toMatchObject({ row: null })

  const again = await reload(store)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
  expect((await client(again.api).req('GET', '/crm/v3/objects/tickets/1')).status).toBe(404)
})

test("an older build's stored unique values (crm_unique_values) load and are dropped: uniqueness comes from the records", async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const kept = await client(api).ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'kept@example.com' } }, 201)
  // What an older build saved beside the records: one row in the snapshot, one saved later.
  ;(store.snapshot as { tables: Record<string, unknown[]> }).tables.crm_unique_values = [['contacts:email:stale@example.com', '99']]
  store.rows.set('crm_unique_values\0contacts:email:kept@example.com', { table: 'crm_unique_values', id: 'contacts:email:kept@example.com', row: kept.id, pos: 1e9 })

  const again = await reload(store)
  expect(again.persistence.restored).toBe(true)
  expect(Object.keys(again.api.db.snapshot().tables)).not.toContain('crm_unique_values')
  const c = client(again.api)
  expect((await c.req('POST', '/crm/v3/objects/contacts', { properties: { email: 'kept@example.com' } })).status).toBe(409)
  await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'stale@example.com' } }, 201)
  // An export of an older build imports too.
  const exported = await c.ok('GET', '/_ringside/v1/export')
  const fresh = service()
  await client(fresh).ok('POST', '/_ringside/v1/import', { ...exported, tables: { ...exported.tables, crm_unique_values: [['contacts:email:x@example.com', '1']] } })
  expect((await client(fresh).req('POST', '/crm/v3/objects/contacts', { properties: { email: 'stale@example.com' } })).status).toBe(409)
})

test('reset and import store a new snapshot and drop the saved rows', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const c = client(api)
  await c.ok('POST', '/crm/v3/objects/tickets', ticket(), 201)
  expect(store.rows.size).toBeGreaterThan(0)

  await c.ok('POST', '/_ringside/v1/reset')
  expect(store.rows.size).toBe(0)
  expect(store.writes.at(-1)).toHaveProperty('snapshot')
  expect(tablesOf((await reload(store)).api)).toBe(tablesOf(api))

  const exported = await c.ok('GET', '/_ringside/v1/export')
  await c.ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'After the export' }), 201)
  await c.ok('POST', '/_ringside/v1/import', exported)
  expect(store.rows.size).toBe(0)
  const again = await reload(store)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
  expect(tablesOf(again.api)).not.toContain('After the export')
})

test('failed requests and reads store nothing', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  store.writes.length = 0
  await client(api).req('POST', '/crm/v3/objects/tickets', { properties: { subject: 'no stage' } })
  await client(api).ok('GET', '/crm/v3/objects/tickets')
  expect(store.writes).toHaveLength(0)
})

test('a write the store cannot save fails and is undone: nothing is acknowledged that is not stored', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const before = tablesOf(api)
  store.failWith = new Error('QuotaExceededError: the disk is full')
  const response = await client(api).req('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Not saved' }))
  expect(response.status).toBe(500)
  expect((await response.json()).message).toContain('the disk is full')
  expect(tablesOf(api)).toBe(before)

  store.failWith = undefined
  await client(api).ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Saved' }), 201)
  expect(tablesOf((await reload(store)).api)).toBe(tablesOf(api))
})

test('overlapping writes are stored one at a time in commit order; when one fails, it and every write queued behind it are undone', async () => {
  const api = service()
  const store = memoryStore()
  await attachPersistence(api, store)
  const before = tablesOf(api)
  // Each write waits a turn of the event loop, so the next commits arrive while it is being stored.
  const write = store.write
  let storing = 0
  let overlapped = false
  store.write = async (change) => {
    overlapped ||= storing > 0
    storing++
    await new Promise((resolve) => setTimeout(resolve, 5))
    storing--
    return write(change)
  }
  store.failWith = new Error('QuotaExceededError: the disk is full')
  const failed = await Promise.all(['A', 'B', 'C'].map((subject) => client(api).req('POST', '/crm/v3/objects/tickets', ticket({ subject }))))
  expect(failed.map((response) => response.status)).toEqual([500, 500, 500])
  expect(tablesOf(api)).toBe(before)
  expect(overlapped).toBe(false)

  store.failWith = undefined
  const subjects = ['D', 'E', 'F', 'G']
  await Promise.all(subjects.map((subject) => client(api).ok('POST', '/crm/v3/objects/tickets', ticket({ subject }), 201)))
  const saved = store.writes.slice(-4).map((change) => ('rows' in change ? change.rows.find((row) => row.table === 'crm_tickets') : undefined))
  expect(saved.map((row) => (row?.row as { properties: { subject: string } }).properties.subject)).toEqual(subjects)
  expect(tablesOf((await reload(store)).api)).toBe(tablesOf(api))
})

test('corrupt saved data is kept, never overwritten: the API says what is wrong; export, import and reset still work', async () => {
  const good = service()
  const seeded = memoryStore()
  await attachPersistence(good, seeded)
  await client(good).ok('POST', '/crm/v3/objects/tickets', ticket({ subject: 'Precious' }), 201)
  // One saved row goes bad.
  const bad = { table: 'crm_tickets', id: '999', row: { garbage: true }, pos: 99 }
  const store = memoryStore({ snapshot: seeded.snapshot, rows: [...seeded.rows.values(), bad] })

  const api = service()
  const persistence = await attachPersistence(api, store)
  expect(persistence.restored).toBe(false)
  expect(persistence.problem).toMatch(/could not be loaded: Table "crm_tickets" row "999" is invalid.*kept unchanged/)
  expect(store.writes).toHaveLength(0)

  // Every other request: 503 with the reason, and nothing is written.
  for (const [method, path, body] of [
    ['GET', '/crm/v3/objects/tickets'],
    ['POST', '/crm/v3/objects/tickets', ticket()],
  ] as const) {
    const response = await persistence.handle(request(method, path, body))
    expect(response.status).toBe(503)
    const error = await response.json()
    expect(error).toMatchObject({ status: 'error', category: 'INTERNAL_ERROR', message: persistence.problem })
    expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/)
  }
  expect(store.writes).toHaveLength(0)

  // Export hands back the saved data as it is, the user's ticket included.
  const exported = await (await persistence.handle(request('GET', '/_ringside/v1/export'))).json()
  expect(JSON.stringify(exported.tables.crm_tickets)).toContain('Precious')
  expect(exported.tables.crm_tickets).toContainEqual(['999', { garbage: true }])

  // Import of the repaired export brings everything back and clears the problem.
  exported.tables.crm_tickets = exported.tables.crm_tickets.filter(([id]: [string]) => id !== '999')
  expect((await persistence.handle(request('POST', '/_ringside/v1/import', exported))).status).toBe(200)
  expect(persistence.problem).toBeUndefined()
  expect(tablesOf(api)).toBe(tablesOf(good))
  expect((await persistence.handle(request('POST', '/crm/v3/objects/tickets', ticket()))).status).toBe(201)
  expect(tablesOf((await reload(store)).api)).toBe(tablesOf(api))
})

test('a corrupt snapshot can be reset to a fresh account, which is then saved', async () => {
  const store = memoryStore({ snapshot: { format: 'ringside-crm-db', version: 1, exportedAt: '', tables: { crm_contacts: 'garbage' } } })
  const api = service()
  const persistence = await attachPersistence(api, store)
  expect(persistence.problem).toContain('table "crm_contacts" must be an array')
  expect((await rawExport(await store.load())).tables).toEqual({ crm_contacts: 'garbage' })
  expect((await persistence.handle(request('POST', '/_ringside/v1/reset'))).status).toBe(200)
  expect(persistence.problem).toBeUndefined()
  const again = await reload(store)
  expect(again.persistence.restored).toBe(true)
  expect(tablesOf(again.api)).toBe(tablesOf(api))
})

test('a store that cannot load: the reason is reported and nothing is written over it', async () => {
  const api = service()
  const writes: StoreWrite[] = []
  const broken: RowStore = {
    load: () => Promise.reject(new Error('IndexedDB is held by another build')),
    write: async (change) => void writes.push(change),
  }
  const persistence = await attachPersistence(api, broken)
  expect(persistence.problem).toContain('IndexedDB is held by another build')
  expect((await persistence.handle(request('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: 'x' } }))).status).toBe(503)
  expect(writes).toHaveLength(0)
})

test('after detach nothing more is stored', async () => {
  const api = service()
  const store = memoryStore()
  const persistence = await attachPersistence(api, store)
  persistence.detach()
  store.writes.length = 0
  await client(api).ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: 'x' } })
  expect(store.writes).toHaveLength(0)
})

function request(method: string, path: string, body?: unknown): Request {
  return new Request(`http://api.test${path}`, {
    method,
    headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
}
