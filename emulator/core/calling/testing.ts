/**
 * A pretend calling-app server for the tests and the route fuzz: the
 * service's outbound fetch points at it instead of the network. It serves
 * - GET  {origin}/recordings/{externalId}?…  → `{authenticatedUrl}` (the recording endpoint);
 * - GET  {origin}/files/{externalId}.wav?token=… → the recording, honouring Range with 206
 *   (or ignoring it with 200 when `ranges` is false);
 * - POST {origin}/channel-numbers → the numbers of `numbers`.
 * It keeps every request it got, with its body, to check signatures and ranges.
 */
import type { OutboundFetch } from '../outbound/read.ts'

export const VENDOR_ORIGIN = 'https://vendor.example'
export const VENDOR_RECORDING_ENDPOINT = `${VENDOR_ORIGIN}/recordings/%s`
export const VENDOR_NUMBERS_URL = `${VENDOR_ORIGIN}/channel-numbers`

export interface SeenRequest {
  method: string
  url: string
  headers: Headers
  body: string
}

export interface FakeVendor {
  fetch: OutboundFetch
  requests: SeenRequest[]
  /** The bytes of every recording. */
  audio: Uint8Array<ArrayBuffer>
}

export function fakeVendor(options: { ranges?: boolean; numbers?: unknown; size?: number } = {}): FakeVendor {
  const audio = new Uint8Array(options.size ?? 4096)
  for (let i = 0; i < audio.length; i++) audio[i] = i % 251
  const requests: SeenRequest[] = []
  const fetch: OutboundFetch = async (request) => {
    const body = await request.text()
    requests.push({ method: request.method, url: request.url, headers: request.headers, body })
    const url = new URL(request.url)
    if (url.origin !== VENDOR_ORIGIN) throw new TypeError(`fetch failed: no server at ${url.origin}`)
    const recording = /^\/recordings\/([^/]+)$/.exec(url.pathname)
    if (request.method === 'GET' && recording) {
      return Response.json({ authenticatedUrl: `${VENDOR_ORIGIN}/files/${recording[1]}.wav?token=vendor-secret` })
    }
    if (request.method === 'GET' && url.pathname.startsWith('/files/')) {
      if (url.searchParams.get('token') !== 'vendor-secret') return new Response('forbidden', { status: 403 })
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get('range') ?? '')
      if (!range || options.ranges === false) return new Response(audio, { headers: { 'content-type': 'audio/wav' } })
      const start = Number(range[1])
      const end = Math.min(range[2] ? Number(range[2]) : audio.length - 1, audio.length - 1)
      if (start >= audio.length) return new Response(null, { status: 416, headers: { 'content-range': `bytes */${audio.length}` } })
      return new Response(audio.slice(start, end + 1), {
        status: 206,
        headers: { 'content-type': 'audio/wav', 'content-range': `bytes ${start}-${end}/${audio.length}` },
      })
    }
    if (request.method === 'POST' && url.pathname === '/channel-numbers') {
      return Response.json(options.numbers ?? [{ e164PhoneNumber: '+18001231234', friendlyName: 'Support line' }])
    }
    return new Response('not found', { status: 404 })
  }
  return { fetch, requests, audio }
}
