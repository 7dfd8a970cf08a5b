/**
 * Keeps the emulated CRM across page reloads: load the saved snapshot at
 * start, save a new one after committed changes. DOM-free: the storage is a
 * SnapshotStore (IndexedDB in the browser, see browser/indexeddb-store.ts;
 * a Map in tests).
 *
 * A saved snapshot that cannot be restored (corrupt, or from another
 * version) is discarded with a console warning and the fresh seed is kept;
 * storage failures are warnings too. Persistence never breaks the API.
 */
import type { Snapshot } from './db.ts'
import type { CrmService } from './service.ts'

export interface SnapshotStore {
  /** The saved snapshot, or undefined if none was saved. */
  load(): Promise<unknown>
  save(snapshot: Snapshot): Promise<void>
  clear(): Promise<void>
}

export interface PersistenceOptions {
  /** Wait this long after a change before saving, so bursts save once (default 100 ms). */
  debounceMs?: number
  /** Where warnings go (default console.warn). */
  warn?: (message: string) => void
}

export interface Persistence {
  /** Whether a saved snapshot was restored at start. */
  readonly restored: boolean
  /** Save now if a save is pending; resolves when the store has it. */
  flush(): Promise<void>
  /** Resolves once no save is pending or running. */
  idle(): Promise<void>
  /** Stop saving. */
  detach(): void
}

export async function attachPersistence(service: CrmService, store: SnapshotStore, options: PersistenceOptions = {}): Promise<Persistence> {
  const debounceMs = options.debounceMs ?? 100
  const warn = options.warn ?? ((message: string) => console.warn(message))

  let restored = false
  try {
    const saved = await store.load()
    if (saved !== undefined) {
      service.db.restore(saved)
      restored = true
    }
  } catch (error) {
    warn(`[ringside] Discarded the saved CRM data and kept a fresh account: ${error instanceof Error ? error.message : String(error)}`)
    try {
      await store.clear()
    } catch {
      // The next save overwrites it anyway.
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> = Promise.resolve()

  const save = (): Promise<void> => {
    timer = undefined
    // Snapshot now (synchronously) so the saved state is the committed one.
    const snapshot = service.db.snapshot()
    running = running.then(() =>
      store.save(snapshot).catch((error: unknown) => {
        warn(`[ringside] Could not save the CRM data: ${error instanceof Error ? error.message : String(error)}`)
      }),
    )
    return running
  }

  const unsubscribe = service.db.onChange(() => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => void save(), debounceMs)
  })

  const flush = (): Promise<void> => {
    if (timer === undefined) return running
    clearTimeout(timer)
    return save()
  }

  return {
    restored,
    flush,
    async idle() {
      while (timer !== undefined) await flush()
      await running
    },
    detach() {
      unsubscribe()
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    },
  }
}
