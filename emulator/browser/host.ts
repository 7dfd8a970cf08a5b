/**
 * The CRM host: the one copy of the emulated CRM of an origin in browser-only
 * mode. It runs in the SharedWorker (crm-worker.ts) or, in a browser without
 * SharedWorker, in the page itself (see msw.ts). It holds the Web Lock
 * "ringside-crm-database" for as long as it lives, so that two copies never
 * write the saved data at once (e.g. a page of an older build still open, or
 * a worker that is still shutting down when a reloaded page starts a new one).
 */
import { createCrmService } from '../core/service.ts'
import { defaultWidgetUrl } from '../../shared/crm/reference-widget.ts'
import type { SeedOptions } from '../core/data/seed.ts'
import { attachPersistence, type RowStore } from '../core/data/persistence.ts'
import { createIndexedDbRowStore } from './indexeddb-store.ts'

export const DATABASE_LOCK = 'ringside-crm-database'

export interface CrmHost {
  /** Whether saved data was restored at start. */
  readonly restored: boolean
  /** Why the saved data could not be loaded (it is kept; see persistence.ts); undefined when all is well. */
  readonly problem: string | undefined
  /** Answer one API request; writes are saved before the answer. */
  handle(request: Request): Promise<Response>
  /** Every committed (and saved) write: the tables it touched. */
  onChange(listener: (tables: string[]) => void): () => void
}

/**
 * Hold the database lock for the rest of this context's life. Resolves true
 * once held. If another context holds it: with `wait`, calls `onWaiting` and
 * resolves when it is released; without, resolves false at once. Where Web
 * Locks are missing there is nothing to hold (true).
 */
export function holdDatabaseLock(wait: boolean, onWaiting: () => void = () => undefined): Promise<boolean> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (!locks) return Promise.resolve(true)
  return new Promise<boolean>((resolve, reject) => {
    const forever = () => new Promise<never>(() => undefined)
    locks
      .request(DATABASE_LOCK, { ifAvailable: true }, (lock) => {
        if (lock) {
          resolve(true)
          return forever()
        }
        if (!wait) {
          resolve(false)
          return undefined
        }
        onWaiting()
        locks
          .request(DATABASE_LOCK, () => {
            resolve(true)
            return forever()
          })
          .catch(reject)
        return undefined
      })
      .catch(reject)
  })
}

/** A store that cannot be used: every load and write fails with `error`. */
function unavailableStore(error: unknown): RowStore {
  const reason = new Error(`IndexedDB cannot be used here (${error instanceof Error ? error.message : String(error)}), so no change could be saved.`)
  return {
    load: () => Promise.reject(reason),
    write: () => Promise.reject(reason),
  }
}

/**
 * Create the service, load the saved data (see persistence.ts) and start
 * saving every commit. Call once the database lock is held.
 */
export async function openCrmHost(seedOptions: SeedOptions = {}): Promise<CrmHost> {
  // Every page of the origin (harness, consent page, fixtures) seeds the same
  // registration: the widget on the next port of this origin.
  const service = createCrmService({
    seedOptions: { widgetUrl: defaultWidgetUrl(globalThis.location), ...seedOptions },
    // The CRM's requests to calling apps' servers go out from this worker with the browser's fetch: a vendor
    // on another origin must allow CORS from this origin (and the preflight of the X-HubSpot-* signature
    // headers), else the recording or numbers check fails with the browser's reason. A page cannot resolve
    // names, so only the URL's text is checked here, and a redirect (opaque to a page) is refused.
    outboundFetch: (request) => fetch(request),
  })
  let store: RowStore
  try {
    store = await createIndexedDbRowStore()
  } catch (error) {
    store = unavailableStore(error)
  }
  const persistence = await attachPersistence(service, store)
  if (persistence.problem !== undefined) console.error(`[ringside] ${persistence.problem}`)
  return {
    restored: persistence.restored,
    get problem() {
      return persistence.problem
    },
    handle: (request) => persistence.handle(request),
    onChange: (listener) => service.db.onChange((commit) => listener(commit.tables)),
  }
}
