/**
 * Requests the CRM makes to a calling app's own servers (the vendor): the
 * recording endpoint (`urlToRetrieveAuthedRecording`), the recording file it
 * points at, and the channel-connection webhook: the CRM's side of them.
 *
 * - The byte budgets of those reads. Every read goes through
 *   ServiceDeps.outbound (emulator/core/outbound/read.ts: the deadline, the
 *   redirects checked hop by hop, the cap on concurrent reads); its
 *   transport is a dependency: the server passes Node's http(s) client,
 *   browser-only mode the worker's fetch (so the vendor must allow CORS from
 *   the page's origin), tests a fake vendor. Without one the service makes
 *   no outbound request and says so.
 * - `vendorJson`, a vendor's JSON answer read.
 * - The v3 request signature HubSpot puts on requests to an app
 *   (https://developers.hubspot.com/docs/apps/legacy-apps/authentication/validating-requests):
 *   `X-HubSpot-Signature-v3` = base64(HMAC-SHA256(client secret,
 *   method + URI + body + timestamp)) and `X-HubSpot-Request-Timestamp`
 *   (epoch ms); the app refuses a timestamp older than five minutes.
 */
import { jsonDepth, MAX_JSON_DEPTH } from '../http/http.ts'
import { OutboundError, type BudgetedAnswer } from '../outbound/read.ts'

/** Budgets of the CRM's reads from calling apps (emulator choices; the real CRM does not publish its own). */
export const OUTBOUND_LIMITS = {
  /** A JSON answer (the recording endpoint's, the numbers webhook's). */
  maxJsonBytes: 256 * 1024,
  /**
   * Bytes read from the vendor for one answer of audio: a range of the
   * recording, or the whole file; from a vendor that ignores Range, the bytes
   * before the range count too (they are read and dropped, never kept).
   */
  maxAudioBytes: 64 * 1024 * 1024,
  /**
   * The most the player gets for an open-ended range (`bytes=N-`): a server
   * may send less than such a range asks for, and the player asks on from
   * where it stopped, so seeking far ahead makes a new Range request rather
   * than waiting for the file to arrive in order.
   */
  playerChunkBytes: 512 * 1024,
} as const
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
