/**
 * The first boot step of server mode: the options `startRingside` takes, and
 * where it serves, worked out from them and checked before a port is bound
 * or the data location is touched.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { defaultWidgetUrl } from '../../../shared/crm/reference-widget.ts'
import { redirectUrlProblem } from '../../../shared/crm/redirect-urls.ts'
import type { OutboundRules } from '../../core/index.ts'
import { StartupError } from '../listeners.ts'
import { REPO_ROOT } from '../package-info.ts'
import { DEFAULT_PORTS } from '../../../shared/ports.mjs'

export interface RingsideServerOptions {
  port?: number
  host?: string
  /** Data folder or snapshot file; null keeps the data in memory only (tests). */
  data?: string | null
  /** Start from the seed, replacing what the data location holds. */
  fresh?: boolean
  /** The registered calling widget of the seed (default: the widget origin's /widget/). */
  widgetUrl?: string
  /** The registered widget's name in the dock (default: the seed's, for the reference widget). */
  widgetName?: string
  /** A snapshot file (an export) to load at startup, replacing the data. */
  importFile?: string
  /** OAuth redirect URLs the app registers at startup (--redirect-url), besides the ones the data holds. */
  redirectUrls?: readonly string[]
  /** Origins allowed to call the API from a browser (CORS); empty = none, as the real API. */
  corsOrigins?: readonly string[]
  /** Origins besides Ringside's own that may frame its pages (--frame-ancestor); never the OAuth consent page. */
  frameAncestors?: readonly string[]
  /** Host names served besides localhost, IP addresses and --host (--allowed-host; `.name` allows subdomains). */
  allowedHosts?: readonly string[]
  /** Where pages come from (default 'vite'); 'none' serves the API alone. */
  pages?: 'vite' | 'dist' | 'none'
  /** One fresh in-memory CRM per browser profile (see crms.ts). */
  sandboxes?: boolean
  /** Sandboxes held at once (--max-sandboxes; default DEFAULT_MAX_SANDBOXES). */
  maxSandboxes?: number
  /** Snapshot after this many journal entries. */
  compactEvery?: number
  /** The API's clock (tests). */
  now?: () => number
  /** Change streams open at once (default MAX_CHANGE_STREAMS); one more is refused with 429. */
  maxChangeStreams?: number
  /** A request's headers must arrive within this (default 10 s; tests shorten it). */
  headersTimeoutMs?: number
  /** The deadline, redirects and concurrency of requests to calling apps' servers (default OUTBOUND_RULES). */
  outboundRules?: Partial<OutboundRules>
}

/** Where startRingside serves: worked out from the options before the ports are bound. */
export interface Place {
  host: string
  port: number
  publicHost: string
  origin: string
  widgetOrigin: string
  widgetUrl: string
  pages: 'vite' | 'dist' | 'none'
  distRoot: string
}

/** Where to serve, from the options; a start they cannot make (no build for --dist, a bad --redirect-url) is refused here. */
export function placeOf(options: RingsideServerOptions): Place {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? DEFAULT_PORTS.start
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : urlHost
  const origin = `http://${publicHost}:${port}`
  const widgetOrigin = `http://${publicHost}:${port + 1}`
  const widgetUrl = options.widgetUrl ?? defaultWidgetUrl({ protocol: 'http:', hostname: publicHost, port: String(port) })
  const pages = options.pages ?? 'vite'
  const distRoot = resolve(REPO_ROOT, 'dist')
  if (pages === 'dist' && !existsSync(resolve(distRoot, 'index.html'))) {
    throw new StartupError(`No production build in ${distRoot}: run \`npm run build\` first, or start without --dist.`)
  }
  for (const url of options.redirectUrls ?? []) {
    const problem = redirectUrlProblem(url)
    if (problem) throw new StartupError(`--redirect-url ${url}: ${problem}`)
  }
  return { host, port, publicHost, origin, widgetOrigin, widgetUrl, pages, distRoot }
}
