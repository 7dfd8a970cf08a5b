/**
 * The one place a page decides where its CRM API is:
 *
 * - **server mode** (`npm start`): the page's own origin answers
 *   GET /_ringside/v1/server with `{ mode: 'server' }`. The page then uses
 *   plain fetch (no service worker) and learns of every committed change,
 *   whoever made it (another tab, a backend, curl), from the server's change
 *   stream (Server-Sent Events), reconnecting after a server restart.
 * - **browser-only mode** (a static build): nothing answers, so the page
 *   starts the emulated CRM itself (MSW, see msw.ts) and takes its changes.
 *   Only a page a static host served may: a page the Ringside server served
 *   (servedByRingsideServer) waits for that server, within a deadline.
 *
 * Pages that use the API (the harness, the consent page, fixture pages) call
 * `connectCrm()` once and await it before their first request.
 */
import type { SeedOptions } from '../core/data/seed.ts'
import type { CrmChangeEvent } from './msw.ts'
import { ChangeCursor, followChangeStream, type StreamEvent } from './server-changes.ts'
import { CHANGE_CLIENT_HEADER, SERVER_PAGE_TIMING, SERVER_PATHS } from '../core/http/api-paths.ts'
import { parsePosition, type ChangePosition } from '../core/data/change-stream.ts'

export type CrmMode = 'server' | 'browser-only'

/** What GET /_ringside/v1/server answers. */
export interface ServerInfo {
  mode: 'server'
  origin: string
  widgetOrigin: string
  /** The data folder on the server's machine; null when it keeps data in memory. */
  data: string | null
  /** The sandbox this browser uses (`--sandboxes`), or null for the main CRM. */
  sandbox: string | null
  cors: string[]
  /** Where the change stream stood when the server answered (see ../change-stream.ts). */
  changePosition?: ChangePosition
}

/**
 * Whether the page hears of changes made elsewhere. Server mode only: the
 * server may refuse the change stream (e.g. its cap on open streams); the page
 * keeps retrying, and shows the server's message until a stream is accepted.
 */
export type LiveUpdates = { live: true } | { live: false; status: number; message: string }

export interface CrmConnection {
  mode: CrmMode
  /** Calls `listener` whenever live updates stop or resume (never in browser-only mode: they never stop there). */
  onLiveUpdates(listener: (state: LiveUpdates) => void): () => void
  /** Server mode only: what the server says about itself. */
  server?: ServerInfo
  /**
   * Every committed change to the database this page uses, whoever made it,
   * except writes the page made with `requestHeaders` (it knows of those).
   */
  onChange(listener: (event: CrmChangeEvent) => void): () => void
  /** Headers for the page's own API requests (server mode: names the page, see CHANGE_CLIENT_HEADER). */
  requestHeaders: Readonly<Record<string, string>>
  /** Resolves once every write this page saw acknowledged is saved (before leaving the page). */
  settled(): Promise<void>
}

export interface ConnectOptions {
  /** Browser-only mode: the seed of a fresh database (e.g. the widget URL). */
  seedOptions?: SeedOptions
  /** How long to wait for the server to answer the probe, or each try of a server-served page (default 3000 ms). */
  probeTimeoutMs?: number
  /** A page a Ringside server served: how long it waits for that server before it says so (default 60 s). */
  serverDeadlineMs?: number
  /** A page a Ringside server served: told a sentence (which server, since when, what to do) while it waits. */
  onWait?: (sentence: string) => void
}

type Answer = { kind: 'server'; info: ServerInfo } | { kind: 'not-server'; detail: string } | { kind: 'silent'; detail: string }

/** One GET /_ringside/v1/server within `timeoutMs`: a server's info, some other answer, or none (no answer in time, or the network failed). */
async function ask(timeoutMs: number): Promise<Answer> {
  let response: Response
  let body: unknown
  try {
    response = await fetch(SERVER_PATHS.info, { headers: { accept: 'application/json' }, cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    return { kind: 'silent', detail: error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}` : 'the connection failed' }
  }
  const notServer = { kind: 'not-server', detail: `HTTP ${response.status}, ${response.headers.get('content-type') ?? 'no content type'}` } as const
  if (!(response.headers.get('content-type') ?? '').includes('json')) return notServer
  try {
    body = await response.json()
  } catch {
    return notServer
  }
  if (!response.ok) {
    const error = body as { message?: unknown; correlationId?: unknown; category?: unknown } | null
    if (response.status !== 404 && typeof error?.correlationId === 'string' && typeof error.category === 'string') {
      throw new Error(`The Ringside server behind this page refused it (HTTP ${response.status}): ${String(error.message)}`)
    }
    return notServer
  }
  const info = body as Partial<ServerInfo> | null
  if (info?.mode !== 'server') return notServer
  const { changePosition, ...rest } = info as ServerInfo
  const position = parsePosition(changePosition)
  return { kind: 'server', info: { ...rest, ...(position && { changePosition: position }) } }
}

/**
 * Ask this origin whether a Ringside server is behind it: its info, or
 * undefined when nothing answers as one (a static host: browser-only mode).
 * A server that refuses the page (a sandbox it cannot serve, a foreign Host)
 * answers with the API's error body: that rejects, so the page shows the
 * server's sentence rather than falling back to a database of its own. A 404
 * is no refusal: browser-only mode's own API answers this path so.
 */
export async function probeServer(timeoutMs = 3000): Promise<ServerInfo | undefined> {
  const answer = await ask(timeoutMs)
  return answer.kind === 'server' ? answer.info : undefined
}

/**
 * Whether a Ringside server served this page: its page responses carry the
 * Server-Timing entry SERVER_PAGE_TIMING, which the page reads from its
 * navigation entry (PerformanceNavigationTiming.serverTiming; browsers expose
 * it in secure contexts, which http://127.0.0.1 and http://localhost are).
 */
export function servedByRingsideServer(): boolean {
  try {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
    return navigation?.serverTiming?.some((entry) => entry.name === SERVER_PAGE_TIMING) ?? false
  } catch {
    return false
  }
}

/** The server that served this page gave no usable answer before the wait's deadline; the page did not switch store. */
export class ServerUnreachableError extends Error {
  override name = 'ServerUnreachableError'
}

const clock = (time: number) => new Date(time).toLocaleTimeString()

/**
 * A page a Ringside server served keeps to that server: it asks again until
 * the server answers or `deadlineMs` passes, telling `onWait` a sentence on
 * each miss, and never falls back to browser-only mode (its writes would go
 * to another store).
 */
async function waitForServer(options: ConnectOptions): Promise<ServerInfo> {
  const origin = globalThis.location?.origin ?? 'this origin'
  const since = Date.now()
  const deadline = since + (options.serverDeadlineMs ?? DEFAULT_SERVER_DEADLINE_MS)
  const attemptMs = options.probeTimeoutMs ?? 3000
  for (;;) {
    const answer = await ask(Math.max(1, Math.min(attemptMs, deadline - Date.now())))
    if (answer.kind === 'server') return answer.info
    if (answer.kind === 'not-server') {
      throw new ServerUnreachableError(
        `The Ringside server at ${origin} served this page, but ${SERVER_PATHS.info} did not answer as a Ringside server (${answer.detail}). The page does not switch to a database of its own: check what now listens on this port, then reload.`,
      )
    }
    const waited = Math.round((Date.now() - since) / 1000)
    if (Date.now() >= deadline) {
      throw new ServerUnreachableError(
        `The Ringside server at ${origin} has not answered since ${clock(since)} (${waited} s; last try: ${answer.detail}). The page does not switch to a database of its own: check the terminal running npm start (or ringside start), then reload.`,
      )
    }
    options.onWait?.(
      `Waiting for the Ringside server at ${origin}: no answer since ${clock(since)} (${waited} s; last try: ${answer.detail}). Is npm start (or ringside start) still running? This page keeps to that server's data and gives up at ${clock(deadline)}.`,
    )
    await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_PAUSE_MS, Math.max(0, deadline - Date.now()))))
  }
}

/** How long a page a Ringside server served waits for it to answer, by default. */
export const DEFAULT_SERVER_DEADLINE_MS = 60_000
const RETRY_PAUSE_MS = 500

/**
 * Server mode's change stream, shared by every page of the origin through a
 * SharedWorker: a browser opens at most six HTTP/1.1 connections to one
 * origin, so an EventSource per tab would stall a seventh harness tab's
 * requests. Where SharedWorker is missing (or fails), the page follows the
 * stream itself.
 */
function subscribeToServerChanges(emit: (event: StreamEvent) => void): void {
  if (typeof SharedWorker === 'undefined') {
    followChangeStream(emit)
    return
  }
  let fellBack = false
  const fallBack = () => {
    if (fellBack) return
    fellBack = true
    followChangeStream(emit)
  }
  try {
    const worker = new SharedWorker(new URL('./server-changes-worker.ts', import.meta.url), { type: 'module', name: 'ringside-server-changes' })
    worker.addEventListener('error', fallBack)
    worker.port.addEventListener('message', (message: MessageEvent<StreamEvent>) => {
      if (!fellBack) emit(message.data)
    })
    worker.port.start()
  } catch {
    fallBack()
  }
}

/**
 * Turn stream events into the page's changes. The cursor starts where the
 * stream stood when the page asked GET /_ringside/v1/server, before it loaded
 * any data; whenever a `ready` (first connection, reconnect, restart) or a
 * gap in `seq` shows commits the page has not heard of, every table counts as
 * changed, so every view refetches.
 */
function catchingUp(start: ChangePosition | undefined, clientId: string, tell: (tables: string[]) => void, live: (state: LiveUpdates) => void): (event: StreamEvent) => void {
  const cursor = new ChangeCursor(start)
  let everyTable: string[] = []
  let refusal = ''
  return (event) => {
    if (event.type === 'ready') {
      everyTable = event.ready.tables
      if (refusal) live({ live: true })
      refusal = ''
      if (cursor.ready(event.ready)) tell(everyTable)
    } else if (event.type === 'change') {
      const seen = cursor.change(event.change.seq)
      if (seen === 'gap') tell(everyTable.length > 0 ? everyTable : event.change.tables)
      // This page's own writes are skipped: it knows of them.
      else if (seen === 'new' && event.change.client !== clientId) tell(event.change.tables)
    } else if (event.type === 'refused' && event.message !== refusal) {
      refusal = event.message
      live({ live: false, status: event.status, message: event.message })
      console.warn(`[ringside] the server refused this page's change stream (HTTP ${event.status}): ${event.message} Changes made elsewhere show after a reload; the page keeps retrying.`)
    }
  }
}

async function connect(options: ConnectOptions): Promise<CrmConnection> {
  // A page the server served never falls back: only a page from a static host may start its own database.
  const server = servedByRingsideServer() ? await waitForServer(options) : await probeServer(options.probeTimeoutMs)
  if (server) {
    const listeners = new Set<(event: CrmChangeEvent) => void>()
    const liveListeners = new Set<(state: LiveUpdates) => void>()
    let following = false
    const clientId = crypto.randomUUID()
    const tell = (tables: string[]) => {
      for (const each of listeners) each({ tables })
    }
    const live = (state: LiveUpdates) => {
      for (const each of liveListeners) each(state)
    }
    return {
      mode: 'server',
      server,
      requestHeaders: { [CHANGE_CLIENT_HEADER]: clientId },
      onChange(listener) {
        listeners.add(listener)
        // The stream is opened for the first listener: a page that only asks which mode it is in holds no connection.
        if (!following) {
          following = true
          subscribeToServerChanges(catchingUp(server.changePosition, clientId, tell, live))
        }
        return () => listeners.delete(listener)
      },
      onLiveUpdates(listener) {
        liveListeners.add(listener)
        return () => liveListeners.delete(listener)
      },
      // The server answers a write only once it is on disk.
      settled: () => Promise.resolve(),
    }
  }
  const { createBrowserCrmService } = await import('./msw.ts')
  const crm = await createBrowserCrmService(options.seedOptions ? { seedOptions: options.seedOptions } : {})
  // Where the browser service saves after answering, it exposes `persistence.flush()`; settle waits for it.
  const background = (crm as unknown as { persistence?: { flush?: () => Promise<void> } }).persistence
  return {
    mode: 'browser-only',
    requestHeaders: {},
    onChange: (listener) => crm.onChange(listener),
    onLiveUpdates: () => () => {},
    settled: () => background?.flush?.() ?? Promise.resolve(),
  }
}

let connection: Promise<CrmConnection> | undefined

/** Connect this page to its CRM (once per page; later calls get the same connection). */
export function connectCrm(options: ConnectOptions = {}): Promise<CrmConnection> {
  connection ??= connect(options).catch((error: unknown) => {
    connection = undefined
    throw error
  })
  return connection
}
