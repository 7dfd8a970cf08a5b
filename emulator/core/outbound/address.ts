/**
 * The one rule for where the CRM may send a request to a calling app's
 * server (its recording endpoint, the recording file, the channel-connection
 * webhook, and every redirect they answer): https anywhere, as the real CRM
 * requires; plain http only to this machine (a vendor server under
 * development).
 *
 * "This machine" is judged on parsed IP addresses, never on a name's text:
 * 127.0.0.0/8, ::1 and their IPv4-mapped form ::ffff:127.0.0.0/104. A URL's
 * host is checked here when it is an IP literal; a name (only `localhost`
 * and `*.localhost` pass the text check, RFC 6761 §6.3) is resolved by the
 * transport, which checks every address the name resolves to with
 * `addressProblem` and connects to the address it checked.
 */

/** The longest vendor URL the CRM takes. */
export const MAX_VENDOR_URL = 2048

/** The 16 bytes of an IPv4 (as ::ffff:a.b.c.d) or IPv6 address, or null when `text` is not one. */
export function parseIp(text: string): Uint8Array | null {
  const host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  const v4 = parseIpv4(host)
  if (v4) return Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4)
  return parseIpv6(host)
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)) return null
  return parts.map(Number)
}

function parseIpv6(text: string): Uint8Array | null {
  if (!/^[0-9a-f:.]{2,45}$/i.test(text)) return null
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groups = (half: string): number[] | null => {
    if (half === '') return []
    const out: number[] = []
    const pieces = half.split(':')
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece)
        if (!v4) return null
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16))
      else return null
    }
    return out
  }
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !tail) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  const bytes = new Uint8Array(16)
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8
    bytes[2 * i + 1] = group & 0xff
  })
  return bytes
}

/** Whether the address (16 bytes from parseIp) is this machine's loopback: 127.0.0.0/8, ::ffff:127.0.0.0/104 or ::1. */
export function isLoopbackIp(bytes: Uint8Array): boolean {
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0)
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes[12] === 127
  return zeros(0, 15) && bytes[15] === 1
}

/** Whether a host name is a name of this machine that only resolves to loopback by convention (RFC 6761 §6.3). */
const isLocalhostName = (host: string) => /^(?:[a-z0-9-]+\.)*localhost\.?$/i.test(host)

/** Whether `host` (a URL's hostname, or a server's listening host) is this machine's loopback, judged on its parsed address (or the name localhost). */
export function isLoopback(host: string): boolean {
  const ip = parseIp(host)
  return ip ? isLoopbackIp(ip) : isLocalhostName(host)
}

/**
 * Why the CRM may not send a request to `url`, judged on its text, or null:
 * an absolute http(s) URL of at most 2,048 characters, plain http only to a
 * loopback address or localhost. The transport then checks the addresses a
 * name resolves to (addressProblem).
 */
export function vendorUrlProblem(value: string): string | null {
  if (value.length > MAX_VENDOR_URL) return `The URL may be at most ${MAX_VENDOR_URL} characters.`
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

/** Why the CRM may not connect to `address` (an IP the transport resolved) for `url`, or null: http must reach a loopback address. */
export function addressProblem(url: URL, address: string): string | null {
  if (url.protocol === 'https:') return null
  const ip = parseIp(address)
  if (ip && isLoopbackIp(ip)) return null
  return `${url.host} resolves to ${address}, which is not this machine: http is accepted only on this machine (use https).`
}
