/**
 * The server's transport for outbound reads (one hop of an `Outbound` read,
 * emulator/core/outbound/read.ts): Node's own http and https clients, so the
 * address the check passed is the address connected to.
 *
 * The host name is resolved once (every address, as `dns.lookup` with
 * `all: true` answers it); each address is checked; the request's `lookup`
 * then hands Node exactly those addresses, so a second DNS answer (a name
 * that changes between check and connect) is never asked for. An IP literal
 * is checked as it is (Node connects to it without a lookup). Redirects are
 * never followed here: the caller gets the 3xx.
 *
 * Ringside's own server is never a target: an address of this machine on
 * one of `ownPorts` is refused, so a vendor cannot send (or redirect) the CRM
 * to its own admin API (reset, import).
 */
import { lookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { networkInterfaces } from 'node:os'
import { Readable } from 'node:stream'
import { isLoopbackIp, parseIp } from '../core/outbound/address.ts'
import { OutboundError, type OutboundFetch } from '../core/outbound/read.ts'

/** Statuses whose answer has no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** Whether `address` is this machine: loopback, unspecified (0.0.0.0, ::), or one of its interfaces' addresses. */
function isThisMachine(address: string): boolean {
  const ip = parseIp(address)
  if (!ip) return false
  const unspecified = ip.every((byte, i) => byte === 0 || ((i === 10 || i === 11) && byte === 0xff))
  if (unspecified || isLoopbackIp(ip)) return true
  const key = ip.join('.')
  return Object.values(networkInterfaces()).some((list) => list?.some((nic) => parseIp(nic.address)?.join('.') === key))
}

export interface TransportOptions {
  /** Accept a self-signed certificate (the CLI's --ignore-https-errors). */
  ignoreHttpsErrors?: boolean
  /** Ringside's own ports: this machine on one of them is refused. */
  ownPorts?: readonly number[]
}

/** Node's http(s) client as an OutboundFetch. */
export function nodeTransport(options: TransportOptions = {}): OutboundFetch {
  return async (request, checkAddress = () => null) => {
    const url = new URL(request.url)
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
    const literal = isIP(host)
    const addresses = literal ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true })
    if (addresses.length === 0) throw new OutboundError(`${url.host} does not resolve to any address.`, 'ENOTFOUND')
    for (const { address } of addresses) {
      if (options.ownPorts?.includes(port) && isThisMachine(address)) {
        throw new OutboundError(`${url.host} is Ringside's own server (port ${port}); the CRM sends no request to itself.`, 'ERR_OUTBOUND_ADDRESS')
      }
      const problem = checkAddress(address)
      if (problem) throw new OutboundError(problem, 'ERR_OUTBOUND_ADDRESS')
    }
    const pinned: LookupFunction = (_name, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    }
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    request.signal.throwIfAborted()
    const https = url.protocol === 'https:'
    const requestOptions: RequestOptions & { rejectUnauthorized?: boolean } = {
      host,
      ...(url.port !== '' && { port: Number(url.port) }),
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      agent: false,
      signal: request.signal,
      ...(!literal && { lookup: pinned }),
      ...(https && { rejectUnauthorized: options.ignoreHttpsErrors !== true }),
    }
    return new Promise<Response>((resolve, reject) => {
      const sent = (https ? httpsRequest : httpRequest)(requestOptions, (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 0
        if (status < 200 || status > 599) {
          answer.destroy()
          reject(new OutboundError(`${url.host} answered HTTP status ${status}, which is not a final HTTP answer.`))
          return
        }
        const headers = new Headers()
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
          try {
            headers.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!)
          } catch {
            // A header the Fetch standard cannot hold is dropped.
          }
        }
        if (NULL_BODY.has(status)) answer.destroy()
        const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>)
        resolve(new Response(stream, { status, statusText: answer.statusMessage ?? '', headers }))
      })
      sent.once('error', reject)
      sent.end(body)
    })
  }
}
