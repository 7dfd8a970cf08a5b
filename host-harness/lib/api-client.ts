/**
 * The harness's only way to data: HTTP requests to the emulated CRM API on
 * this origin (the server in server mode, MSW in browser-only mode; see
 * emulator/browser/connect.ts). The harness acts as the CRM's own UI, so it
 * authenticates with the private-app token.
 *
 * Every successful write notifies `onApiChange` listeners, and so does every
 * change committed elsewhere (another tab, a backend, curl), coalesced, so
 * views that show data refetch after any change, wherever it came from.
 */
import type { CrmConnection, CrmMode, LiveUpdates, ServerInfo } from '../../emulator/browser/connect.ts'
import type { ErrorBody } from '../../emulator/core/http/errors.ts'
import { ACCOUNT } from '../../shared/crm/account.ts'
import type { TrafficRequest } from '../../shared/traffic/traffic-file.ts'

/** The private-app token the harness acts with, as the CRM's own UI. */
export const HARNESS_TOKEN = ACCOUNT.privateAppToken

/** A non-2xx response, with the API's error body when it sent one. */
export class ApiRequestError extends Error {
  readonly status: number
  readonly body: Partial<ErrorBody> | undefined
  constructor(status: number, body: Partial<ErrorBody> | undefined, fallback: string) {
    super(body?.message ?? fallback)
    this.name = 'ApiRequestError'
    this.status = status
    this.body = body
  }
}

/**
 * A change: a write this page made (its method and path), or changes
 * committed anywhere (`method: 'REMOTE'`, with the tables they touched).
 */
export type ApiChange = { method: string; path: string; tables?: string[] }
const listeners = new Set<(change: ApiChange) => void>()

/** Remote changes arriving within this window reach listeners as one. */
export const REMOTE_CHANGE_WINDOW_MS = 50

let connected: { mode: CrmMode; server?: ServerInfo } | undefined
/** Sent with every request: in server mode they name this page, so its own writes do not come back as remote changes. */
let connectionHeaders: Readonly<Record<string, string>> = {}

/** The mode the page's CRM runs in (server or browser-only), once connected. */
export function crmConnectionInfo(): { mode: CrmMode; server?: ServerInfo } | undefined {
  return connected
}

let live: LiveUpdates = { live: true }
const liveListeners = new Set<() => void>()

/** Whether this page hears of changes made elsewhere (server mode's change stream; see LiveUpdates). */
export function liveUpdates(): LiveUpdates {
  return live
}

/** Calls `listener` when liveUpdates() changes (the shape React's useSyncExternalStore takes). */
export function onLiveUpdates(listener: () => void): () => void {
  liveListeners.add(listener)
  return () => liveListeners.delete(listener)
}

/**
 * Pass the connection's committed changes to `onApiChange` listeners, a burst
 * of them as one change (so a backend's ten writes refetch a view once).
 */
export function followCrmConnection(connection: Pick<CrmConnection, 'mode' | 'server' | 'onChange' | 'onLiveUpdates' | 'requestHeaders'>, windowMs = REMOTE_CHANGE_WINDOW_MS): () => void {
  connected = { mode: connection.mode, ...(connection.server && { server: connection.server }) }
  connectionHeaders = connection.requestHeaders
  const offLive = connection.onLiveUpdates((state) => {
    live = state
    for (const listener of liveListeners) listener()
  })
  let pending: Set<string> | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const off = connection.onChange((event) => {
    if (pending) {
      for (const table of event.tables) pending.add(table)
      return
    }
    pending = new Set(event.tables)
    timer = setTimeout(() => {
      const change: ApiChange = { method: 'REMOTE', path: '', tables: [...(pending ?? [])] }
      pending = null
      for (const listener of listeners) listener(change)
    }, windowMs)
  })
  return () => {
    off()
    offLive()
    live = { live: true }
    connectionHeaders = {}
    if (timer !== undefined) clearTimeout(timer)
  }
}

/**
 * POSTs that only read (search, batch read, template preview). They are not
 * changes: a view that refetches on change, and searches to refetch, would
 * otherwise loop.
 */
const READ_ONLY_POST = [/\/search$/, /\/batch\/read$/, /^\/_ringside\/v1\/timeline\/preview$/]

/** Whether a successful request changed data. */
export function isDataChange(change: ApiChange): boolean {
  if (change.method === 'GET') return false
  return !(change.method === 'POST' && READ_ONLY_POST.some((pattern) => pattern.test(change.path)))
}

/** Subscribe to every successful write made through this client (not read-only POSTs), and to changes committed elsewhere. */
export function onApiChange(listener: (change: ApiChange) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export interface RequestOptions {
  /** Handed back as is to the exchange listeners (onApiExchange): what the request was made for. */
  tag?: unknown
  /** Extra query parameters. */
  query?: Record<string, string | number | boolean | undefined>
  /** Use a developer API key (`?hapikey=`) instead of the bearer token. */
  developerKey?: boolean
  /** Send no Authorization header (OAuth token endpoint). */
  anonymous?: boolean
  /** A form body instead of JSON. */
  form?: Record<string, string>
  /** A file as the body, as it is (the browser streams it from disk; the page never reads it), in this content type. */
  file?: { blob: Blob; type: string }
}

export const DEVELOPER_API_KEY = ACCOUNT.developerApiKey

/**
 * One request made through this client and its answer, as exchange listeners see it: a traffic
 * file's request (shared/traffic/traffic-file.ts documents the fields; the developer key's value
 * is hidden in `path`, a form body is not shown since it carries OAuth codes and secrets) with
 * RequestOptions.tag. The listeners only observe: they run after the answer is read, and one
 * that throws changes nothing for the caller.
 */
export interface ApiExchange extends Omit<TrafficRequest, 'causeSeq' | 'afterSeq'> {
  tag?: unknown
}

const exchangeListeners = new Set<(exchange: ApiExchange) => void>()
let exchangeSeq = 0

/** Hear every request made through this client, with its answer (the inspector's traffic). */
export function onApiExchange(listener: (exchange: ApiExchange) => void): () => void {
  exchangeListeners.add(listener)
  return () => exchangeListeners.delete(listener)
}

function tellExchange(exchange: ApiExchange): void {
  for (const listener of exchangeListeners) {
    try {
      listener(exchange)
    } catch (error) {
      console.error('[ringside harness] an API exchange listener failed', error)
    }
  }
}

/** The calling settings of the harness's calling app (developer API key). */
export const CALLING_SETTINGS_PATH = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings`

/** Call the API; resolves with the parsed JSON (or text, or undefined for 204). */
export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin)
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value))
  }
  if (options.developerKey) url.searchParams.set('hapikey', DEVELOPER_API_KEY)
  const headers: Record<string, string> = { ...connectionHeaders }
  if (!options.developerKey && !options.anonymous) headers.authorization = `Bearer ${HARNESS_TOKEN}`
  let payload: string | Blob | undefined
  if (options.file) {
    headers['content-type'] = options.file.type
    payload = options.file.blob
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    payload = new URLSearchParams(options.form).toString()
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const shownUrl = new URL(url)
  if (shownUrl.searchParams.has('hapikey')) shownUrl.searchParams.set('hapikey', '…')
  const exchange: ApiExchange = { id: ++exchangeSeq, time: Date.now(), method, path: `${shownUrl.pathname}${shownUrl.search}`, status: 0, durationMs: 0 }
  if (body !== undefined && !options.form) exchange.requestBody = body
  else if (options.file) exchange.requestBody = `(a file of ${options.file.blob.size} bytes)`
  if (options.tag !== undefined) exchange.tag = options.tag
  const started = performance.now()
  let response: Response
  let text: string
  try {
    response = await fetch(url, { method, headers, body: payload })
    text = await response.text()
  } catch (error) {
    if (exchangeListeners.size > 0) tellExchange({ ...exchange, durationMs: performance.now() - started, error: error instanceof Error ? error.message : String(error) })
    throw error
  }
  const type = response.headers.get('content-type') ?? ''
  let parsed: unknown = undefined
  if (text.length > 0) {
    if (type.includes('json')) {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
    } else {
      parsed = text
    }
  }
  if (exchangeListeners.size > 0) {
    exchange.status = response.status
    exchange.durationMs = performance.now() - started
    if (parsed !== undefined) exchange.responseBody = parsed
    tellExchange(exchange)
  }
  if (!response.ok) {
    const errorBody = typeof parsed === 'object' && parsed !== null ? (parsed as Partial<ErrorBody>) : undefined
    throw new ApiRequestError(response.status, errorBody, `${method} ${url.pathname} failed with HTTP ${response.status}`)
  }
  const change = { method, path: url.pathname }
  if (isDataChange(change)) for (const listener of listeners) listener(change)
  return parsed as T
}

export const api = {
  get: <T = unknown>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, body, options),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, body, options),
  patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, body, options),
  delete: <T = unknown>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, undefined, options),
}
