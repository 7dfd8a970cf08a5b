/**
 * Browser-only mode: the emulated CRM with no server behind the page.
 *
 * All pages of an origin share one database, held by one SharedWorker
 * (crm-worker.ts). MSW's service worker hands every API request of a page
 * (and of its same-origin frames) to that page's handler, which forwards it
 * to the SharedWorker and answers with the worker's response. Paths served:
 * the API's, as `isApiPath` (../api-paths.ts) tells them, so an API path no
 * route serves gets the API's JSON 404 here as in server mode. Everything
 * else, and requests to other origins, go to the network untouched.
 *
 * Every write is saved in IndexedDB before it is answered (see
 * ../persistence.ts), so a 2xx survives an immediate reload or navigation.
 * `onChange` reports writes committed by any page of the origin.
 *
 * Without SharedWorker (older mobile browsers) the database lives in the page
 * and only one page of the origin may hold it at a time (a Web Lock); a
 * second page gets a clear error instead of a diverging copy.
 */
import { http, type HttpResponseResolver } from 'msw'
import { setupWorker, type SetupWorker } from 'msw/browser'
import type { SeedOptions } from '../core/data/seed.ts'
import { isApiPath } from '../core/http/api-paths.ts'
import { ApiError, Category } from '../core/http/errors.ts'
import { json } from '../core/http/http.ts'
import { fromWireResponse, toWireRequest, transferables, type FromHost, type ToHost } from './wire.ts'

/** How long a page waits for a database held by another copy of the host (another build's tab). */
const WAIT_FOR_DATABASE_MS = 10_000

/**
 * How long a page waits for the SharedWorker to answer one request. The worker
 * answers every request it receives, so only a worker that died (or a browser
 * that stopped it) leaves a request unanswered; the page then gets a 503
 * rather than a fetch that never settles.
 */
const WORKER_ANSWER_TIMEOUT_MS = 30_000

/** The API's error body for a request the database could not answer. */
function unavailable(message: string): Response {
  const correlationId = crypto.randomUUID()
  return json(new ApiError(503, Category.INTERNAL_ERROR, message).toBody(correlationId), 503, { 'x-hubspot-correlation-id': correlationId })
}

/** A committed change, as pages are told of it (the same shape in server mode's change stream). */
export interface CrmChangeEvent {
  /** The database tables the change touched. */
  tables: string[]
}

/** What a page's MSW handler talks to: the SharedWorker, or the host in this page. */
interface Connection {
  where: 'shared-worker' | 'page'
  restored: boolean
  problem: string | undefined
  handle(request: Request): Promise<Response>
  onChange(listener: (event: CrmChangeEvent) => void): () => void
}

/** Start MSW's worker, answering this origin's API requests with `handle`; resolves once it intercepts requests. */
export async function startApiWorker(handle: (request: Request) => Promise<Response>): Promise<SetupWorker> {
  const resolver: HttpResponseResolver = ({ request }) => {
    // Only this page's origin's API paths are emulated; returning nothing lets MSW pass the request on.
    const url = new URL(request.url)
    if (url.origin !== location.origin || !isApiPath(url.pathname)) return undefined
    return handle(request)
  }
  const worker = setupWorker(http.all('*', resolver))
  await worker.start({
    onUnhandledRequest: 'bypass',
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  })
  return worker
}

function connectSharedWorker(seedOptions: SeedOptions | undefined): Promise<Connection> {
  const shared = new SharedWorker(new URL('./crm-worker.ts', import.meta.url), { type: 'module', name: 'ringside-crm' })
  const port = shared.port
  const send = (message: ToHost, transfer: Transferable[] = []) => port.postMessage(message, transfer)
  const pending = new Map<number, (response: Response) => void>()
  const listeners = new Set<(event: CrmChangeEvent) => void>()
  let nextId = 1

  return new Promise<Connection>((resolve, reject) => {
    let waiting: ReturnType<typeof setTimeout> | undefined
    shared.addEventListener('error', () => {
      reject(new Error('The emulated CRM worker could not be started (see the console for why).'))
      // Once running, a worker error leaves nobody to answer what is in flight.
      for (const answer of pending.values()) answer(unavailable('The emulated CRM worker stopped (see the console for why); reload the page.'))
      pending.clear()
    })
    port.onmessage = (event: MessageEvent<FromHost>) => {
      const message = event.data
      switch (message.type) {
        case 'response':
          pending.get(message.id)?.(fromWireResponse(message.response))
          pending.delete(message.id)
          return
        case 'change':
          for (const listener of listeners) {
            // One failing listener does not keep the change from the others.
            try {
              listener({ tables: message.tables })
            } catch (error) {
              console.error('[ringside] a CRM change listener failed:', error)
            }
          }
          return
        case 'waiting':
          console.warn(`[ringside] ${message.message}`)
          waiting ??= setTimeout(() => reject(new Error(`${message.message} Close the other Ringside tabs of this site and reload.`)), WAIT_FOR_DATABASE_MS)
          return
        case 'failed':
          clearTimeout(waiting)
          reject(new Error(`The emulated CRM could not start: ${message.message}`))
          return
        case 'ready':
          clearTimeout(waiting)
          resolve({
            where: 'shared-worker',
            restored: message.restored,
            problem: message.problem,
            async handle(request) {
              const id = nextId++
              const wire = await toWireRequest(request)
              const answered = new Promise<Response>((done) => {
                const timer = setTimeout(() => {
                  pending.delete(id)
                  done(unavailable(`The emulated CRM worker did not answer within ${WORKER_ANSWER_TIMEOUT_MS / 1000} s; reload the page.`))
                }, WORKER_ANSWER_TIMEOUT_MS)
                pending.set(id, (response) => {
                  clearTimeout(timer)
                  done(response)
                })
              })
              send({ type: 'request', id, request: wire }, transferables(wire))
              return answered
            },
            onChange(listener) {
              listeners.add(listener)
              return () => listeners.delete(listener)
            },
          })
          return
      }
    }
    port.start()
    send({ type: 'hello', ...(seedOptions !== undefined && { seedOptions }) })
    // A page leaving for good stops getting change messages (one kept in the back/forward cache still wants them).
    addEventListener('pagehide', (event) => {
      if (!event.persisted) send({ type: 'bye' })
    })
  })
}

async function hostInPage(seedOptions: SeedOptions | undefined): Promise<Connection> {
  // Loaded only here: where SharedWorker exists the service's code stays in the worker's bundle.
  const { holdDatabaseLock, openCrmHost } = await import('./host.ts')
  if (!(await holdDatabaseLock(false))) {
    throw new Error(
      'This browser has no SharedWorker, so only one page of this site can hold the browser-only CRM at a time, and another page holds it. ' +
        'Close the other Ringside tabs and reload, or run `npm start` and use the server.',
    )
  }
  const host = await openCrmHost(seedOptions)
  return {
    where: 'page',
    restored: host.restored,
    problem: host.problem,
    handle: (request) => host.handle(request),
    onChange: (listener) => host.onChange((tables) => listener({ tables })),
  }
}

export interface BrowserCrmService {
  mode: 'browser-only'
  /** Where the database lives: the origin's SharedWorker, or this page (browsers without SharedWorker). */
  host: 'shared-worker' | 'page'
  /** MSW's worker, which hands this page's API requests to the database. */
  worker: SetupWorker
  /** Whether saved data was restored when the database opened. */
  restored: boolean
  /**
   * Set when the data saved in this browser could not be loaded: the data is
   * kept, and the API answers 503 with this message except to export, import
   * and reset. Show it to the user.
   */
  problem: string | undefined
  /** Every write committed by any page of this origin (after it is saved). */
  onChange(listener: (event: CrmChangeEvent) => void): () => void
  persistence: {
    readonly restored: boolean
    /** Every write is saved before it is answered; these resolve once this page's requests in flight are answered. */
    flush(): Promise<void>
    idle(): Promise<void>
  }
}

export interface BrowserCrmServiceOptions {
  /** Seed options for a fresh database (used only by the page that creates it). */
  seedOptions?: SeedOptions
}

/**
 * The emulator as a page uses it in browser-only mode: connect to the
 * origin's database (opening it if this is the first page) and start MSW.
 * Call (and await) this before rendering anything that fetches.
 */
export async function createBrowserCrmService(options: BrowserCrmServiceOptions = {}): Promise<BrowserCrmService> {
  const connection = typeof SharedWorker === 'function' ? await connectSharedWorker(options.seedOptions) : await hostInPage(options.seedOptions)
  if (connection.problem !== undefined) console.error(`[ringside] ${connection.problem}`)
  const inFlight = new Set<Promise<Response>>()
  const worker = await startApiWorker((request) => {
    const answer = connection.handle(request)
    inFlight.add(answer)
    const settled = () => void inFlight.delete(answer)
    answer.then(settled, settled)
    return answer
  })
  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight])
  }
  return {
    mode: 'browser-only',
    host: connection.where,
    worker,
    restored: connection.restored,
    problem: connection.problem,
    onChange: connection.onChange,
    persistence: { restored: connection.restored, flush: idle, idle },
  }
}
