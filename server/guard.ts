/**
 * The server's first layer: what it refuses before a request reaches the API
 * or the pages, so that a web page open in the same browser cannot read,
 * change or stall the local Ringside.
 *
 * - Host check (DNS rebinding): only Ringside's own host names are served:
 *   `localhost` (and `*.localhost`), IP address literals (a rebinding attack
 *   needs a name it controls), the `--host` address, and names given with
 *   `--allowed-host` (a leading dot allows every subdomain), as Vite's
 *   `server.allowedHosts` does (https://vite.dev/config/server-options#server-allowedhosts).
 * - Cross-site requests (CSRF): a state-changing request to Ringside's own
 *   routes (`/_ringside/…`: reset, import, settings, the template preview, the
 *   consent decision) from a browser must come from Ringside's own origins
 *   (its two ports on an allowed host, or a `--cors` origin), by `Origin` and
 *   `Sec-Fetch-Site`, and must be a non-simple request (a JSON body or an
 *   `x-ringside-*` header), which no form or `no-cors` fetch can send. Clients
 *   that are not browsers (curl, backends, the CLI) send neither header and
 *   are served as before. The real API's routes need credentials no form can
 *   carry (a bearer token, a JSON body with the developer key), so they keep
 *   the real API's behaviour.
 * - Paths: dotfiles (`.ringside/`, `.git/`, `.env`) and the data folder are
 *   never served, on either origin; `..` and undecodable paths are 404.
 *
 * The refusals are the emulator's own (the real API has no such routes), in
 * the real API's error body shape, with category FORBIDDEN.
 */
import { isIP } from 'node:net'
import { resolve, sep } from 'node:path'
import type { IncomingHttpHeaders } from 'node:http'
import { ApiError, Category } from '../shared/api/errors.ts'

export interface GuardOptions {
  /** The address the server listens on (--host). */
  host: string
  /** Extra host names to serve (--allowed-host); `.example.test` allows its subdomains. */
  allowedHosts: readonly string[]
  /** The harness port; the widget origin is the next one. */
  port: number
  /** Origins allowed to call the API from a browser (--cors). */
  corsOrigins: readonly string[]
}

/** The host name of a Host header (`name:port`, `[v6]:port`), lower case, without brackets. */
export function hostName(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase()
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end < 0 ? host : host.slice(1, end)
  }
  const colon = host.indexOf(':')
  return colon < 0 ? host : host.slice(0, colon)
}

function bare(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
}

export class RequestGuard {
  readonly #options: GuardOptions
  readonly #names: Set<string>
  readonly #suffixes: string[]

  constructor(options: GuardOptions) {
    this.#options = options
    this.#names = new Set(['localhost', bare(options.host)])
    this.#suffixes = ['.localhost']
    for (const name of options.allowedHosts) {
      const host = bare(name.trim())
      if (host.startsWith('.')) {
        this.#suffixes.push(host)
        this.#names.add(host.slice(1))
      } else if (host) this.#names.add(host)
    }
  }

  /** Whether a host name (from Host or Origin) is one of Ringside's. */
  isAllowedHostName(name: string): boolean {
    const host = bare(name)
    if (isIP(host) !== 0) return true
    if (this.#names.has(host)) return true
    return this.#suffixes.some((suffix) => host.endsWith(suffix))
  }

  /** The refusal of a request's Host header, or null. A request without one (HTTP/1.0, not a browser) is served. */
  checkHost(headers: IncomingHttpHeaders): ApiError | null {
    const header = headers.host
    if (header === undefined || header === '') return null
    const name = hostName(header)
    if (this.isAllowedHostName(name)) return null
    return new ApiError(
      403,
      Category.FORBIDDEN,
      `Blocked request: this Ringside does not serve the host "${name}" (a page on another site may be reaching it through DNS rebinding). ` +
        `If you meant to reach it by that name, restart it with --allowed-host ${name}.`,
      { context: { host: [name] } },
    )
  }

  /** Whether `origin` is one of Ringside's own origins (or allowed by --cors). */
  isOwnOrigin(origin: string): boolean {
    if (this.#options.corsOrigins.includes(origin)) return true
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false
    }
    if (url.protocol !== 'http:') return false
    const port = Number(url.port || 80)
    return (port === this.#options.port || port === this.#options.port + 1) && this.isAllowedHostName(url.hostname)
  }

  /**
   * The refusal of a cross-site state-changing request to Ringside's own
   * routes, or null. `path` is the request's path; only `/_ringside/` is checked.
   */
  checkCrossSite(method: string, path: string, headers: IncomingHttpHeaders): ApiError | null {
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null
    if (!path.startsWith('/_ringside/')) return null
    const origin = headers.origin
    const site = headers['sec-fetch-site']
    const fromBrowser = origin !== undefined || site !== undefined
    if (!fromBrowser) return null
    const refuse = (why: string) =>
      new ApiError(403, Category.FORBIDDEN, `Blocked cross-site request: ${why} Nothing was changed.`, {
        context: { origin: [origin ?? '(none)'], 'sec-fetch-site': [String(site ?? '(none)')] },
      })
    if (origin !== undefined && !this.isOwnOrigin(origin)) {
      return refuse(`${method} ${path} may only come from Ringside's own pages, not from ${origin}.`)
    }
    if (origin === undefined && site === 'cross-site') {
      return refuse(`${method} ${path} may only come from Ringside's own pages.`)
    }
    if (!isNonSimple(headers)) {
      return refuse(`${method} ${path} from a page must send a JSON body (content-type: application/json) or an x-ringside-* header, which no form can.`)
    }
    return null
  }
}

/** Whether a request could not have been sent by a form or a `no-cors` fetch (it needed a CORS preflight). */
function isNonSimple(headers: IncomingHttpHeaders): boolean {
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json')) return true
  if (headers.authorization !== undefined) return true
  return Object.keys(headers).some((name) => name.startsWith('x-ringside-'))
}

/**
 * Whether a page path may be served: no segment starting with a dot (except
 * Vite's own `node_modules/.vite/` bundles), nothing that fails to decode or
 * climbs with `..`, and none of the `protectedPaths` (the data folder, or the
 * snapshot, journal and lock files) nor anything inside them, when the pages
 * are served from `root`.
 */
export function isServablePath(path: string, root: string, protectedPaths: readonly string[]): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return false
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return false
  const segments = decoded.split('/')
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string
    if (!segment.startsWith('.')) continue
    if (segment === '.vite' && segments[i - 1] === 'node_modules') continue
    return false
  }
  if (protectedPaths.length === 0) return true
  // Vite serves /@fs/<absolute path> as well as paths under its root.
  const candidates = [resolve(root, `.${decoded}`)]
  if (decoded.startsWith('/@fs/')) candidates.push(resolve(decoded.slice('/@fs'.length)))
  return !protectedPaths.some((kept) => {
    const path = resolve(kept)
    return candidates.some((file) => file === path || file.startsWith(path + sep))
  })
}
