/**
 * The server's two listening sockets (the harness origin on --port, the widget
 * origin on the next port): bound before anything else happens at startup, so
 * a start that cannot listen refuses before it creates, seeds or locks a data
 * location; their timeouts; and closing them whole.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError, Category } from '../core/index.ts'
import { isRestrictedPort } from './bad-ports.ts'
import { freeBlockFrom } from './free-port.mjs'

/** The server cannot start as asked (a bad option, no build, a taken port); the message is one line for the terminal. */
export class StartupError extends Error {
  override name = 'StartupError'
}

/** Thrown when a port cannot be bound. */
export class ListenError extends StartupError {
  override name = 'ListenError'
}

/** Idle sockets are closed after this long without a byte either way (the change stream writes every 15 s). */
export const IDLE_SOCKET_MS = 60_000
/** A request's headers must arrive within this, and the whole request within REQUEST_MS. */
const HEADERS_MS = 10_000
const REQUEST_MS = 30_000
/** How often Node looks for requests past those timeouts (its default, 30 s, would let headers trickle for 40 s). */
const TIMEOUT_CHECK_MS = 1_000

/** The roles of the two ports, in the order of --port and --port + 1. */
const ROLES = ['harness and CRM API', 'widget origin'] as const

/** An API error body written straight to a socket's response (the real API's shape, a fresh correlation id). */
export function errorBody(status: number, message: string): string {
  return JSON.stringify(new ApiError(status, Category.VALIDATION_ERROR, message).toBody(crypto.randomUUID()))
}

/**
 * Timeouts for a server, and the set of its sockets (upgraded ones included,
 * which closeAllConnections does not know), so closing ends every one.
 */
function track(server: Server, headersMs = HEADERS_MS): Set<Duplex> {
  const sockets = new Set<Duplex>()
  server.timeout = IDLE_SOCKET_MS
  server.headersTimeout = headersMs
  server.requestTimeout = REQUEST_MS
  server.keepAliveTimeout = 5_000
  server.on('connection', (socket: Duplex) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // Requests Node's parser refuses (headers over its 16 KB limit, malformed lines) get the error body too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy()
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    const status = tooLarge ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const message = tooLarge ? 'The request line and headers are larger than 16 KB; send long lists in a request body (a search or batch read).' : `Malformed HTTP request (${error.code ?? 'unknown'}).`
    const body = errorBody(status, message)
    socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nconnection: close\r\ncontent-type: application/json;charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  })
  return sockets
}

function closeServer(server: Server, sockets: Set<Duplex>): Promise<void> {
  return new Promise((done) => {
    if (!server.listening) return done()
    server.close(() => done())
    server.closeAllConnections()
    for (const socket of sockets) socket.destroy()
  })
}

/** The sentence for a port that is taken: the next block of two free ports, found now, if there is one near. */
async function takenSentence(port: number, host: string, role: string, first: number): Promise<string> {
  const next = await freeBlockFrom(first + 1, ROLES.length, { host, allowed: (p) => !isRestrictedPort(p) })
  const instead = next === null ? 'pick another with --port' : `the next free pair is --port ${next} (${next} and ${next + 1})`
  return `Port ${port} on ${host} (${role}) is already in use: stop what runs there, or ${instead}.`
}

function listen(server: Server, port: number, host: string, role: string, first: number): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      if (error.code === 'EADDRINUSE') void takenSentence(port, host, role, first).then((sentence) => reject(new ListenError(sentence)))
      else if (error.code === 'EACCES') reject(new ListenError(`Port ${port} on ${host} (${role}) needs privileges: pick another with --port.`))
      else reject(new ListenError(`Cannot listen on ${host}:${port} (${role}): ${error.message}`))
    }
    const onListening = () => {
      server.off('error', onError)
      resolveListen()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

export interface Listeners {
  readonly harness: Server
  readonly widget: Server
  /** From now on each request goes to its origin's listener (until then it is answered 503, see bindPorts). */
  ready(listeners: { harness: (req: IncomingMessage, res: ServerResponse) => void; widget: (req: IncomingMessage, res: ServerResponse) => void }): void
  close(): Promise<void>
}

/**
 * Listen on `port` (the harness) and `port + 1` (the widget origin). Until
 * ready() a request is answered 503 with Retry-After (the data may take
 * seconds to load), never left waiting; a taken port is a ListenError naming
 * the next free pair, with neither port left bound.
 */
export async function bindPorts(port: number, host: string, headersMs?: number): Promise<Listeners> {
  const harness = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS })
  const widget = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS })
  const sockets = [track(harness, headersMs), track(widget, headersMs)] as const
  const starting = (_req: IncomingMessage, res: ServerResponse) => {
    const body = errorBody(503, 'Ringside is starting (loading its data); try again in a moment.')
    res.writeHead(503, { 'content-type': 'application/json;charset=utf-8', 'retry-after': '1', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body)
  }
  const close = async () => void (await Promise.all([closeServer(harness, sockets[0]), closeServer(widget, sockets[1])]))
  try {
    await listen(harness, port, host, ROLES[0], port)
    await listen(widget, port + 1, host, ROLES[1], port)
  } catch (error) {
    await close()
    throw error
  }
  harness.on('request', starting)
  widget.on('request', starting)
  return {
    harness,
    widget,
    ready(listeners) {
      harness.off('request', starting).on('request', listeners.harness)
      widget.off('request', starting).on('request', listeners.widget)
    },
    close,
  }
}
