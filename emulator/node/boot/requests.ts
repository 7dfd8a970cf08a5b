/**
 * The request boot step of server mode: what each origin does with a
 * request. Both refuse a foreign Host and a page request from another origin
 * first (the guard); the harness origin then answers the CRM API (each
 * request routed to its store, see crms.ts), the change stream and the
 * pages; the widget origin serves the same pages and no API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isApiPath, SERVER_PATHS } from '../../../shared/crm/api-paths.ts'
import { ApiError, declaredTooLarge, notFound } from '../../core/index.ts'
import { SANDBOX_RELEASE_PATH, storeRequest, type CrmRef, type CrmRegistry } from '../crms.ts'
import type { RequestGuard } from '../guard.ts'
import type { ChangeStreams } from '../change-feed.ts'
import { EXPOSED_HEADERS, type ApiApp } from './app.ts'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** The path of a request, without its query. */
export const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?', 1)[0] as string

export type Refusal = (req: IncomingMessage) => ApiError | null

/** The first layer, on both origins (upgrades too): a foreign Host, and a page request from another origin, are refused. */
export function refusalOf(guard: RequestGuard): Refusal {
  return (req) => guard.checkHost(req.headers) ?? guard.checkPageRequest(pathOf(req), req.headers)
}

export interface RequestContext {
  /** The harness origin, named in the widget origin's answer to an API path. */
  origin: string
  guard: RequestGuard
  refusal: Refusal
  registry: CrmRegistry
  routed: WeakMap<IncomingMessage, CrmRef>
  crmFor: (incoming: IncomingMessage) => CrmRef
  corsOrigins: readonly string[]
  changeStreams: ChangeStreams
  api: ApiApp
  servePage: Handler
}

/** The listener of each origin. */
export function requestHandlers({ origin, guard, refusal, registry, routed, crmFor, corsOrigins, changeStreams, api, servePage }: RequestContext): { harness: Handler; widget: Handler } {
  const { apiListener, crmListener, passedOn } = api
  const corsAnswer = corsAnswerOf(corsOrigins)
  const serveChangeStream = changeStreamServer(changeStreams, crmFor, corsAnswer)
  const refusedHost = (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req)
    if (refused) sendError(res, refused, true)
    return refused !== null
  }
  const harnessRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (refusedHost(req, res)) return
    const path = pathOf(req)
    if (!isApiPath(path)) return servePage(req, res)
    const crossSite = guard.checkCrossSite(req.method ?? 'GET', path, req.headers)
    if (crossSite) return sendError(res, crossSite, true)
    // A declared body over the limit is refused before a byte of it is read (a streamed one is counted by the API as it reads).
    const tooLarge = declaredTooLarge(path, Number(req.headers['content-length'] ?? 0))
    if (tooLarge) return sendError(res, tooLarge, true)
    const named = storeRequest(req, path)
    if (path === SANDBOX_RELEASE_PATH && req.method === 'DELETE') {
      const refused = registry.release(named)
      return refused ? sendError(res, refused, true) : void res.writeHead(204).end()
    }
    const store = registry.route(named)
    if (store instanceof ApiError) return sendError(res, store, true, corsAnswer(req))
    routed.set(req, store)
    res.once('close', registry.hold(store))
    if (path === SERVER_PATHS.changes && req.method === 'GET') return serveChangeStream(req, res)
    closeWhenBodyUnread(req, res)
    void (passedOn(path) ? crmListener : apiListener)(req, res)
  }
  const widgetRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (refusedHost(req, res)) return
    if (isApiPath(pathOf(req))) {
      const correlationId = crypto.randomUUID()
      res.writeHead(404, { 'content-type': 'application/json', 'x-hubspot-correlation-id': correlationId })
      res.end(JSON.stringify(notFound(`This is the widget origin; the CRM API is served at ${origin}.`).toBody(correlationId)))
      return
    }
    servePage(req, res)
  }
  return { harness: harnessRequest, widget: widgetRequest }
}

/** The CORS headers the API's middleware gives an allowed origin, for answers written straight to Node's response. */
function corsAnswerOf(corsOrigins: readonly string[]): (req: IncomingMessage) => Record<string, string> {
  return (req): Record<string, string> => {
    const requestOrigin = req.headers.origin
    return requestOrigin && corsOrigins.includes(requestOrigin) ? { 'access-control-allow-origin': requestOrigin, 'access-control-expose-headers': EXPOSED_HEADERS.join(','), vary: 'Origin' } : {}
  }
}

/**
 * The change stream, written straight to Node's response: a commit's frame is
 * one socket write per stream (see change-feed.ts).
 */
function changeStreamServer(changeStreams: ChangeStreams, crmFor: (incoming: IncomingMessage) => CrmRef, corsAnswer: (req: IncomingMessage) => Record<string, string>): Handler {
  return (req, res) => {
    const { service: crm } = crmFor(req)
    const headers: Record<string, string> = { 'cache-control': 'no-store', ...corsAnswer(req) }
    const refused = changeStreams.refusal()
    if (refused) return sendError(res, refused, false, headers)
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8' })
    const end = changeStreams.open(crm.db, {
      write: (chunk) => void res.write(chunk),
      get queuedBytes() {
        return res.writableLength
      },
      end: () => void res.end(),
      destroy: () => void res.destroy(),
    })
    res.once('close', end)
  }
}

/** Answer with the real API's error body (and close the connection when the request body was not read). */
function sendError(res: ServerResponse, error: ApiError, close = false, headers: Record<string, string> = {}): void {
  const correlationId = crypto.randomUUID()
  const body = JSON.stringify(error.toBody(correlationId))
  res.writeHead(error.status, {
    ...headers,
    'x-hubspot-correlation-id': correlationId,
    'content-type': 'application/json;charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
    ...(close && { connection: 'close' }),
  })
  res.end(body)
}

/**
 * An answer written before the request's body has arrived whole (a streamed import refused at its first rows, say)
 * says `Connection: close`: Node stops reading the rest and closes the socket, so a keep-alive client must send its
 * next request on a new connection, not on this one (RFC 9112 §9.6).
 */
function closeWhenBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete && !res.headersSent) res.setHeader('connection', 'close')
    return writeHead(...args)
  }) as ServerResponse['writeHead']
}
