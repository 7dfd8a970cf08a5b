import type { Snapshot } from './db.ts'
import { attachPersistence, type SnapshotStore } from './persistence.ts'
import { createCrmService } from './service.ts'
import { client, tablesOf } from './objects/testing.ts'
import { T0 } from './timeline/testing.ts'

function memoryStore(initial?: unknown): SnapshotStore & { saved: unknown; saves: number } {
  const store = {
    saved: initial,
    saves: 0,
    async load() {
      return store.saved
    },
    async save(snapshot: Snapshot) {
      store.saves++
      store.saved = JSON.parse(JSON.stringify(snapshot))
    },
    async clear() {
      store.saved = undefined
    },
  }
  return store
}

const service = () => createCrmService({ now: () => T0 })

test('a committed change is saved, and a new service restores it', async () => {
  const first = service()
  const store = memoryStore()
  const persistence = await attachPersistence(first, store, { debounceMs: 0 })
  expect(persistence.restored).toBe(false)
  await client(first).ok('POST', '/crm/v3/objects/tickets', { properties: { subject: 'Saved', hs_pipeline_stage: '1' } }, 201)
  await persistence.idle()
  expect(store.saves).toBe(1)

  const second = service()
  const again = await attachPersistence(second, store)
  expect(again.restored).toBe(true)
  expect(tablesOf(second)).toBe(tablesOf(first))
})

test('a burst of changes is saved once after the debounce', async () => {
  const api = service()
  const store = memoryStore()
  const persistence = await attachPersistence(api, store, { debounceMs: 50 })
  for (let i = 0; i < 5; i++) await client(api).ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: `v${i}` } })
  await persistence.idle()
  expect(store.saves).toBe(1)
})

test('failed requests and reads save nothing', async () => {
  const api = service()
  const store = memoryStore()
  const persistence = await attachPersistence(api, store, { debounceMs: 0 })
  await client(api).req('POST', '/crm/v3/objects/tickets', { properties: { subject: 'no stage' } })
  await client(api).ok('GET', '/crm/v3/objects/tickets')
  await persistence.idle()
  expect(store.saves).toBe(0)
})

test('a corrupt saved snapshot is discarded with a warning and the fresh seed is kept', async () => {
  const api = service()
  const fresh = tablesOf(api)
  const store = memoryStore({ format: 'ringside-crm-db', version: 1, exportedAt: '', tables: { crm_contacts: 'garbage' } })
  const warn = vi.fn()
  const persistence = await attachPersistence(api, store, { warn })
  expect(persistence.restored).toBe(false)
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('Discarded the saved CRM data'))
  expect(tablesOf(api)).toBe(fresh)
  expect(store.saved).toBeUndefined()
})

test('a store that fails to load or save only warns', async () => {
  const api = service()
  const warn = vi.fn()
  const broken: SnapshotStore = {
    load: () => Promise.reject(new Error('disk on fire')),
    save: () => Promise.reject(new Error('quota exceeded')),
    clear: () => Promise.reject(new Error('still on fire')),
  }
  const persistence = await attachPersistence(api, broken, { warn, debounceMs: 0 })
  await client(api).ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: 'x' } })
  await persistence.idle()
  expect(warn.mock.calls.map((call) => call[0])).toEqual([
    expect.stringContaining('disk on fire'),
    expect.stringContaining('quota exceeded'),
  ])
})

test('after detach nothing more is saved', async () => {
  const api = service()
  const store = memoryStore()
  const persistence = await attachPersistence(api, store, { debounceMs: 0 })
  persistence.detach()
  await client(api).ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: 'x' } })
  await persistence.idle()
  expect(store.saves).toBe(0)
})
