/**
 * The RowStore of the browser: IndexedDB database "ringside-crm" (version 2)
 * with two object stores:
 *   - "snapshots": the base snapshot, under the key "current" (version 1
 *     kept its full snapshot here, so data saved by older builds loads);
 *   - "rows": one record per row saved since, key [table, id], value
 *     `{table, id, row, pos}` (row null: deleted).
 * Each write is one IndexedDB transaction, resolved on its `complete` event.
 *
 * Used from the SharedWorker that hosts the CRM (no localStorage there);
 * where IndexedDB cannot be opened the worker reports that and refuses
 * writes rather than losing them.
 */
import type { RowStore, StoredData, StoredRow, StoreWrite } from '../core/data/persistence.ts'

export const DB_NAME = 'ringside-crm'
const VERSION = 2
const SNAPSHOTS = 'snapshots'
const ROWS = 'rows'
const SNAPSHOT_KEY = 'current'

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'))
  })
}

function completion(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, VERSION)
    open.onupgradeneeded = () => {
      const db = open.result
      if (!db.objectStoreNames.contains(SNAPSHOTS)) db.createObjectStore(SNAPSHOTS)
      if (!db.objectStoreNames.contains(ROWS)) db.createObjectStore(ROWS, { keyPath: ['table', 'id'] })
    }
    open.onsuccess = () => {
      const db = open.result
      // A newer build upgrading the database: let it (this copy stops saving, its writes then fail loudly).
      db.onversionchange = () => db.close()
      resolve(db)
    }
    open.onerror = () => reject(open.error ?? new Error('Cannot open IndexedDB'))
    open.onblocked = () => reject(new Error('IndexedDB is held by a Ringside page of an older build; close the other Ringside tabs of this site and reload.'))
  })
}

/** Open the store; rejects (with the browser's reason) where IndexedDB is missing or cannot be opened. */
export async function createIndexedDbRowStore(): Promise<RowStore> {
  if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available in this browser.')
  const db = await openDatabase()
  return {
    async load(): Promise<StoredData> {
      const tx = db.transaction([SNAPSHOTS, ROWS], 'readonly')
      const snapshot = request(tx.objectStore(SNAPSHOTS).get(SNAPSHOT_KEY))
      const rows = request(tx.objectStore(ROWS).getAll() as IDBRequest<StoredRow[]>)
      await completion(tx)
      return { snapshot: await snapshot, rows: await rows }
    },
    async write(change: StoreWrite): Promise<void> {
      const tx = db.transaction([SNAPSHOTS, ROWS], 'readwrite')
      const done = completion(tx)
      try {
        if ('snapshot' in change) {
          tx.objectStore(ROWS).clear()
          tx.objectStore(SNAPSHOTS).put(change.snapshot, SNAPSHOT_KEY)
        } else {
          const rows = tx.objectStore(ROWS)
          for (const row of change.rows) rows.put(row)
        }
      } catch (error) {
        // A put that throws (e.g. a value IndexedDB cannot clone): store none of the change.
        tx.abort()
        await done.catch(() => undefined)
        throw error
      }
      await done
    },
  }
}
