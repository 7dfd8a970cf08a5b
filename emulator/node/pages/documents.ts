/**
 * The one place the server decides what its page origins answer as a
 * document, in every mode (Vite dev and --dist, `npm start` and
 * `ringside start`): HTML only at a product page's path (emulator/node/pages/page-policy.ts),
 * always with that page's policy headers; HTML anywhere else (a file under
 * the repository that Vite would serve, a stray file in dist/) is 404. SVG and
 * XML get a sandboxing policy, so that navigated to they run nothing. Every
 * response carries a Content-Type (none: plain text, as Chromium would
 * otherwise sniff it as HTML) and `X-Content-Type-Options: nosniff`.
 *
 * It wraps the response before Vite or the static handler writes it: the
 * media type is known at the first writeHead/write/end, and a page's HTML is
 * held until its end so that the hashes of its inline scripts (Vite dev's
 * React refresh preamble) go into its Content-Security-Policy.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { SERVER_PAGE_TIMING } from '../../core/http/api-paths.ts'
import { inlineScriptHashes, isDocumentType, isScriptableResource, pageAt, pageHeaders, RESOURCE_POLICY } from './page-policy.ts'

type Chunk = string | Uint8Array
type Callback = (error?: Error | null) => void

/** The content type named in writeHead's headers argument (an object, or a flat or nested array). */
function contentTypeIn(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const flat: unknown[] = headers.flat()
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === 'content-type') return String(flat[i + 1])
    return undefined
  }
  if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) if (name.toLowerCase() === 'content-type') return String(value)
  }
  return undefined
}

const NOT_A_PAGE = "Not found: this is not one of Ringside's pages.\n"
/** The type of a response that names none (Vite's error pages, files with an unknown extension). */
export const DEFAULT_TYPE = 'text/plain; charset=utf-8'

/**
 * Makes `res` follow the rule for a request of `pathname`. `frameAncestors`
 * are the origins that may frame a page here (Ringside's own, on the host the
 * request named, and --frame-ancestor ones).
 */
export function policeDocuments(res: ServerResponse, pathname: string, frameAncestors: readonly string[]): void {
  const page = pageAt(pathname)
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
  const write = res.write.bind(res) as (...args: unknown[]) => boolean
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
  let mode: 'undecided' | 'pass' | 'hold' | 'refuse' = 'undecided'
  let head: unknown[] | null = null
  const held: Buffer[] = []
  const flushHeaders = res.flushHeaders.bind(res)
  res.setHeader('x-content-type-options', 'nosniff')

  const decide = (headers?: unknown, status = res.statusCode) => {
    if (mode !== 'undecided') return
    let type = contentTypeIn(headers) ?? (res.getHeader('content-type') as string | undefined)
    // A 204 or 304 has no body to type (and a 304's type would not replace the cached one anyway).
    if (type === undefined && status !== 204 && status !== 304) res.setHeader('content-type', (type = DEFAULT_TYPE))
    if (isDocumentType(type)) {
      mode = page ? 'hold' : 'refuse'
      return
    }
    mode = 'pass'
    if (isScriptableResource(type)) res.setHeader('content-security-policy', RESOURCE_POLICY)
  }
  const hold = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return
    held.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array))
  }
  const callbackOf = (args: unknown[]) => args.find((arg): arg is Callback => typeof arg === 'function')

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null)
    decide(headers, status)
    if (mode === 'pass') return writeHead(status, ...rest)
    // Held: its headers are kept on the response now (a later implicit writeHead names none).
    const pairs: unknown[] = Array.isArray(headers) ? headers : Object.entries(headers ?? {}).flat()
    for (let i = 0; i + 1 < pairs.length; i += 2) res.setHeader(String(pairs[i]), pairs[i + 1] as string)
    head = [status, ...rest.filter((arg) => typeof arg === 'string')]
    return res
  }) as ServerResponse['writeHead']
  res.flushHeaders = () => {
    decide()
    if (mode === 'pass') flushHeaders()
  }
  res.write = ((chunk: Chunk, ...rest: unknown[]) => {
    decide()
    if (mode === 'pass') return write(chunk, ...rest)
    if (mode === 'hold') hold(chunk, rest[0])
    callbackOf(rest)?.()
    return true
  }) as ServerResponse['write']
  res.end = ((...args: unknown[]) => {
    decide()
    if (mode === 'pass') return end(...args)
    const callback = callbackOf(args)
    // From here Node's own methods write (end() calls writeHead() itself when no head was written).
    for (const name of ['writeHead', 'write', 'end', 'flushHeaders']) Reflect.deleteProperty(res, name)
    if (mode === 'refuse') {
      for (const name of res.getHeaderNames()) res.removeHeader(name)
      writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
      return end(NOT_A_PAGE, callback)
    }
    hold(args[0], args[1])
    const body = Buffer.concat(held)
    const headers = pageHeaders(page!, { frameAncestors, scriptHashes: inlineScriptHashes(body.toString('utf8')) })
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
    // The page learns that a Ringside server served it, so it never falls back to a database of its own.
    res.setHeader('server-timing', `${SERVER_PAGE_TIMING};desc="Ringside server"`)
    if (head) writeHead(...head)
    return end(body, callback)
  }) as ServerResponse['end']
}
