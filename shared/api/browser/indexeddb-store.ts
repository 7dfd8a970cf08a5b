/**
 * A SnapshotStore in the browser: IndexedDB (database "ringside-crm", object
 * store "snapshots", key "current"); where IndexedDB is missing or cannot be
 * opened (some private modes), localStorage under "ringside-crm-snapshot".
 */
import type { Snapshot } from '../db.ts'
import type { SnapshotStore } from '../persistence.ts'

const DB_NAME = 'ringside-crm'
const STORE = 'snapshots'
const KEY = 'current'
export const LOCAL_STORAGE_KEY = 'ringside-crm-snapshot'

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1)
    open.onupgradeneeded = () => open.result.createObjectStore(STORE)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error ?? new Error('Cannot open IndexedDB'))
    open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'))
  })
}

function indexedDbStore(db: IDBDatabase): SnapshotStore {
  const run = async <T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const tx = db.transaction(STORE, mode)
    const result = await request(op(tx.objectStore(STORE)))
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
    })
    return result
  }
  return {
    load: () => run('readonly', (s) => s.get(KEY) as IDBRequest<unknown>),
    save: async (snapshot) => {
      await run('readwrite', (s) => s.put(snapshot, KEY))
    },
    clear: async () => {
      await run('readwrite', (s) => s.delete(KEY))
    },
  }
}

function localStorageStore(): SnapshotStore {
  return {
    async load() {
      const text = localStorage.getItem(LOCAL_STORAGE_KEY)
      return text === null ? undefined : (JSON.parse(text) as unknown)
    },
    async save(snapshot: Snapshot) {
      localStorage.setItem(LOCAL_STORAGE_KEY, JSON.stringify(snapshot))
    },
    async clear() {
      localStorage.removeItem(LOCAL_STORAGE_KEY)
    },
  }
}

/** IndexedDB if it opens, else localStorage. */
export async function createBrowserSnapshotStore(): Promise<SnapshotStore> {
  if (typeof indexedDB !== 'undefined') {
    try {
      return indexedDbStore(await openDatabase())
    } catch (error) {
      console.warn(`[ringside] IndexedDB unavailable (${error instanceof Error ? error.message : String(error)}); saving CRM data to localStorage.`)
    }
  }
  return localStorageStore()
}
