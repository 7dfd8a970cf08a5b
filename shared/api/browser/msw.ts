/**
 * Serves the emulated CRM in the browser: MSW's service worker hands every
 * API request of this page's origin (and of its same-origin frames) to
 * `service.handle`. Paths served: /oauth/v1/*, /crm/v3/*, /crm/v4/*,
 * /integrators/timeline/v3/* and /_ringside/*. Everything else, and requests
 * to other origins, go to the network untouched.
 */
import { http, type HttpResponseResolver } from 'msw'
import { setupWorker, type SetupWorker } from 'msw/browser'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../service.ts'
import { attachPersistence, type Persistence } from '../persistence.ts'
import { createBrowserSnapshotStore } from './indexeddb-store.ts'
import { defaultWidgetUrl } from '../seed.ts'

export const API_PATTERNS = ['*/oauth/v1/*', '*/crm/v3/*', '*/crm/v4/*', '*/integrators/timeline/v3/*', '*/_ringside/*'] as const

/** Start the worker; resolves once it intercepts requests. */
export async function startApiWorker(service: CrmService): Promise<SetupWorker> {
  const resolver: HttpResponseResolver = ({ request }) => {
    // Only this page's origin is emulated; returning nothing lets MSW pass the request on.
    if (new URL(request.url).origin !== location.origin) return undefined
    return service.handle(request)
  }
  const worker = setupWorker(...API_PATTERNS.map((pattern) => http.all(pattern, resolver)))
  await worker.start({
    onUnhandledRequest: 'bypass',
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  })
  return worker
}

/** A committed change, as pages are told of it (the same shape in server mode's change stream). */
export interface CrmChangeEvent {
  /** The database tables the change touched. */
  tables: string[]
}

export interface BrowserCrmService {
  service: CrmService
  worker: SetupWorker
  persistence: Persistence
  /** Every committed write to the database this page uses. */
  onChange(listener: (event: CrmChangeEvent) => void): () => void
}

export interface BrowserCrmServiceOptions extends CrmServiceOptions {
  /** Save delay after a change (default 100 ms). */
  debounceMs?: number
}

/**
 * The emulator as a page uses it: create the service, restore the data the
 * page saved last time (IndexedDB), keep saving it, and start the worker.
 * Call (and await) this before rendering anything that fetches.
 */
export async function createBrowserCrmService(options: BrowserCrmServiceOptions = {}): Promise<BrowserCrmService> {
  const { debounceMs, ...serviceOptions } = options
  // Every page of this origin (harness, consent page, fixtures) seeds the same
  // registration, whichever of them creates the database first.
  const seedOptions = { widgetUrl: defaultWidgetUrl(location), ...serviceOptions.seedOptions }
  const service = createCrmService({ ...serviceOptions, seedOptions })
  const persistence = await attachPersistence(service, await createBrowserSnapshotStore(), { debounceMs })
  const worker = await startApiWorker(service)
  // Best effort: a change made just before the page goes away is saved now.
  addEventListener('pagehide', () => void persistence.flush())
  const onChange = (listener: (event: CrmChangeEvent) => void) => service.db.onChange((commit) => listener({ tables: commit.tables }))
  return { service, worker, persistence, onChange }
}
