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
 *   (its two ports on an own host name, see isOwnHostName, or a `--cors` origin), by `Origin` and
 *   `Sec-Fetch-Site`, and must be a non-simple request (a JSON body or an
 *   `x-ringside-*` header), which no form or `no-cors` fetch can send. Clients
 *   that are not browsers (curl, backends, the CLI) send neither header and
 *   are served as before. The real API's routes need credentials no form can
 *   carry (a bearer token, a JSON body with the developer key), so they keep
 *   the real API's behaviour.
 * - Page requests (the page servers, both ports, every mode): a browser's
 *   request that is not a navigation must come from Ringside's own origin
 *   (`Sec-Fetch-Site: same-origin`, or `none`, which only the user's own
 *   address bar and bookmarks send); a navigation from anywhere else is served
 *   only at a product page (emulator/node/pages/page-policy.ts). So no other site can
 *   read a file Vite serves, make Vite's dev endpoints act (`/__open-in-editor`
 *   launches an editor on a GET), or open anything but a page with its policy.
 *   Exempt: the routes that exist to be loaded by other origins (the SDK's CDN
 *   routes, emulator/node/pages/sdk-cdn.ts) and the API paths (the cross-site rule above,
 *   and CORS only with --cors). Clients that send no Sec-Fetch headers (not
 *   browsers, or browsers older than Fetch Metadata) are served as before.
 *   https://w3c.github.io/webappsec-fetch-metadata/
 * - Paths: dotfiles (`.ringside/`, `.git/`, `.env`) and the data folder are
 *   never served, on either origin; `..` and undecodable paths are 404.
 *
 * The refusals are the emulator's own (the real API has no such routes), in
 * the real API's error body shape, with category FORBIDDEN.
 */
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import { resolve, sep } from 'node:path'
import type { IncomingHttpHeaders } from 'node:http'
import { ApiError, Category } from '../core/http/errors.ts'
import { isApiPath } from '../core/http/api-paths.ts'
import { isLoopback } from '../core/outbound/address.ts'
import { pageAt } from './pages/page-policy.ts'
import { isSdkPath } from './pages/sdk-cdn.ts'

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
  /** The addresses a page may name in its origin besides loopback: --host, or this machine's own when it listens on all of them. */
  readonly #ownAddresses: Set<string>

  constructor(options: GuardOptions) {
    this.#options = options
    this.#names = new Set(['localhost', bare(options.host)])
    const everywhere = isIP(bare(options.host)) !== 0 && /^(?:0\.0\.0\.0|::)$/.test(bare(options.host))
    this.#ownAddresses = new Set(everywhere ? Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => bare(entry.address))) : [])
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

  /**
   * Whether a host name in an Origin is Ringside's own: loopback addresses,
   * localhost and `*.localhost`, the --host address (this machine's addresses
   * when it is 0.0.0.0 or ::) and --allowed-host names. Unlike the Host check,
   * any other IP address is not: a page there is another machine's.
   */
  isOwnHostName(name: string): boolean {
    const host = bare(name)
    if (isLoopback(host) || this.#ownAddresses.has(host)) return true
    if (this.#names.has(host)) return true
    return this.#suffixes.some((suffix) => host.endsWith(suffix))
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
    return (port === this.#options.port || port === this.#options.port + 1) && this.isOwnHostName(url.hostname)
  }

  /**
   * The refusal of a browser's request to a page server that did not come
   * from Ringside's own origin (see the rule at the top), or null.
   */
  checkPageRequest(path: string, headers: IncomingHttpHeaders): ApiError | null {
    if (isApiPath(path) || isSdkPath(path)) return null
    const site = headers['sec-fetch-site']
    const mode = headers['sec-fetch-mode']
    // Browsers that send Fetch Metadata always send Sec-Fetch-Site; Node's fetch sends Sec-Fetch-Mode alone.
    if (site === undefined) return null
    if (site === 'same-origin' || site === 'none') return null
    const navigation = mode === 'navigate'
    if (navigation && pageAt(path)) return null
    const from = String(site)
    return new ApiError(
      403,
      Category.FORBIDDEN,
      navigation
        ? `Blocked navigation: ${path} is not one of Ringside's pages, and a page on another origin (Sec-Fetch-Site: ${from}) may only open those.`
        : `Blocked request: ${path} may only be loaded by Ringside's own pages, not from another origin (Sec-Fetch-Site: ${from}). Widgets load the calling SDK from /sdk/ and call the API.`,
      { context: { 'sec-fetch-site': [from], 'sec-fetch-mode': [String(mode ?? '(none)')] } },
    )
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
