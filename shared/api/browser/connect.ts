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
 *
 * Pages that use the API (the harness, the consent page, fixture pages) call
 * `connectCrm()` once and await it before their first request.
 */
import type { SeedOptions } from '../seed.ts'
import type { CrmChangeEvent } from './msw.ts'
import { ChangeCursor, followChangeStream, type StreamEvent } from './server-changes.ts'
import { CHANGE_CLIENT_HEADER, SERVER_PATHS } from '../api-paths.ts'
import { parsePosition, type ChangePosition } from '../change-stream.ts'

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
  /** How long to wait for the server to answer the probe (default 3000 ms). */
  probeTimeoutMs?: number
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
  let response: Response
  let body: unknown
  try {
    response = await fetch(SERVER_PATHS.info, { headers: { accept: 'application/json' }, cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) })
    if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined
    body = await response.json()
  } catch {
    return undefined
  }
  if (!response.ok) {
    const error = body as { message?: unknown; correlationId?: unknown; category?: unknown } | null
    if (response.status !== 404 && typeof error?.correlationId === 'string' && typeof error.category === 'string') {
      throw new Error(`The Ringside server behind this page refused it (HTTP ${response.status}): ${String(error.message)}`)
    }
    return undefined
  }
  const info = body as Partial<ServerInfo> | null
  if (info?.mode !== 'server') return undefined
  const { changePosition, ...rest } = info as ServerInfo
  const position = parsePosition(changePosition)
  return { ...rest, ...(position && { changePosition: position }) }
}

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
  const server = await probeServer(options.probeTimeoutMs)
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
