/**
 * Requests the CRM makes to a calling app's own servers (the vendor): the
 * recording endpoint (`urlToRetrieveAuthedRecording`), the recording file it
 * points at, and the channel-connection webhook. Three things live here:
 *
 * - `OutboundFetch`, the one way the service reaches the network. It is a
 *   dependency (ServiceDeps.outboundFetch): the server passes Node's fetch,
 *   browser-only mode the worker's fetch (so the vendor must allow CORS from
 *   the page's origin), tests a fake vendor. Without one the service makes no
 *   outbound request and says so.
 * - `fetchWithBudget`: every outbound request has a time limit and a size
 *   limit, so a slow or huge vendor answer can neither stall nor bloat the
 *   service.
 * - The v3 request signature HubSpot puts on requests to an app
 *   (https://developers.hubspot.com/docs/apps/legacy-apps/authentication/validating-requests):
 *   `X-HubSpot-Signature-v3` = base64(HMAC-SHA256(client secret,
 *   method + URI + body + timestamp)) and `X-HubSpot-Request-Timestamp`
 *   (epoch ms); the app refuses a timestamp older than five minutes.
 */
import { jsonDepth, MAX_JSON_DEPTH, readAllWithin } from '../http.ts'

/** How the service reaches a vendor's server. */
export type OutboundFetch = (request: Request) => Promise<Response>

/** Limits of one outbound request (emulator choices; the real CRM does not publish its own). */
export const OUTBOUND_LIMITS = {
  /** Until the vendor's answer has fully arrived. */
  timeoutMs: 10_000,
  /** A JSON answer (the recording endpoint's, the numbers webhook's). */
  maxJsonBytes: 256 * 1024,
  /** One answer of audio passed to the player (a range of the recording, or the whole file). */
  maxAudioBytes: 64 * 1024 * 1024,
  /**
   * The most the player gets for an open-ended range (`bytes=N-`): a server
   * may send less than such a range asks for, and the player asks on from
   * where it stopped, so seeking far ahead makes a new Range request rather
   * than waiting for the file to arrive in order.
   */
  playerChunkBytes: 512 * 1024,
} as const

/** Why an outbound request failed, in words for the developer (shown in the harness and in API answers). */
export class OutboundError extends Error {
  override name = 'OutboundError'
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** Whether a host name is this machine (http is accepted there, as for local development). */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.')
}

/**
 * Why `value` cannot be a vendor endpoint the CRM calls, or null if it can:
 * an absolute https URL, or http on this machine (a vendor server under
 * development); at most 2,048 characters.
 */
export function vendorUrlProblem(value: string): string | null {
  if (value.length > 2048) return 'The URL may be at most 2048 characters.'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `'${value}' is not an absolute URL.`
  }
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null
  if (url.protocol === 'http:') return `'${value}' must use https (http is accepted only on this machine: localhost, 127.0.0.1, [::1]).`
  return `The URL must be https, got '${url.protocol}'.`
}

/** The v3 signature of a request: base64(HMAC-SHA256(secret, method + uri + body + timestamp)). */
export async function signatureV3(secret: string, method: string, uri: string, body: string, timestamp: number): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${method}${uri}${body}${timestamp}`))
  let binary = ''
  for (const byte of new Uint8Array(mac)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The headers HubSpot signs a request to an app with (v3), for `method uri body` sent at `now`. */
export async function signedHeaders(secret: string, method: string, uri: string, body: string, now: number): Promise<Record<string, string>> {
  return {
    'x-hubspot-signature-v3': await signatureV3(secret, method, uri, body, now),
    'x-hubspot-request-timestamp': String(now),
  }
}

export interface BudgetedAnswer {
  status: number
  headers: Headers
  body: Uint8Array<ArrayBuffer>
}

/**
 * Send `request` with `fetch` and read the whole answer, within the time
 * limit and `maxBytes`; anything else (no fetch, a network error, a timeout,
 * an answer too large) is an OutboundError naming what happened.
 */
export async function fetchWithBudget(fetch: OutboundFetch | undefined, request: Request, maxBytes: number): Promise<BudgetedAnswer> {
  if (!fetch) throw new OutboundError('This emulator makes no outbound requests (it was started without an outbound fetch), so it cannot reach the vendor.')
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), OUTBOUND_LIMITS.timeoutMs)
  const what = `${request.method} ${request.url}`
  try {
    let response: Response
    try {
      response = await fetch(new Request(request, { signal: controller.signal }))
    } catch (error) {
      throw new OutboundError(controller.signal.aborted ? `${what} did not answer within ${OUTBOUND_LIMITS.timeoutMs} ms.` : `${what} failed: ${error instanceof Error ? error.message : String(error)}.`)
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {})
      throw new OutboundError(`${what} answered ${declared} bytes; the limit is ${maxBytes}.`)
    }
    let body: Uint8Array<ArrayBuffer> | 'too-large'
    try {
      body = await readAllWithin(response.body, maxBytes)
    } catch (error) {
      throw new OutboundError(controller.signal.aborted ? `${what} did not finish within ${OUTBOUND_LIMITS.timeoutMs} ms.` : `${what} broke off: ${error instanceof Error ? error.message : String(error)}.`)
    }
    if (body === 'too-large') throw new OutboundError(`${what} answered more than ${maxBytes} bytes, the limit.`)
    return { status: response.status, headers: response.headers, body }
  } finally {
    clearTimeout(timer)
  }
}

/** A JSON answer of the vendor, parsed; an OutboundError if it is not 2xx JSON. */
export function vendorJson(answer: BudgetedAnswer, what: string): unknown {
  const text = new TextDecoder().decode(answer.body)
  if (answer.status < 200 || answer.status > 299) throw new OutboundError(`${what} answered HTTP ${answer.status}${text ? `: ${text.slice(0, 200)}` : ''}.`)
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new OutboundError(`${what} answered JSON nested more than ${MAX_JSON_DEPTH} levels deep.`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new OutboundError(`${what} did not answer JSON: ${text.slice(0, 200) || '(empty body)'}.`)
  }
}
