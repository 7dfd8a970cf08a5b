/**
 * Server mode: one Node process serves the emulated CRM to every client on
 * the machine, from one database kept on disk.
 *
 * - The harness origin (`--port`, default DEFAULT_PORTS.start in shared/ports.mjs) serves the pages and the CRM
 *   API: `createCrmService().handle(request)` behind @hono/node-server, so
 *   every route, status and body is the same as in-process; plus the change
 *   stream (Server-Sent Events) and GET /_ringside/v1/server.
 * - The widget origin (`--port` + 1) serves the same pages and no API, so the
 *   harness and the reference widget talk across origins as in a real CRM,
 *   and a widget frontend that calls the CRM directly fails as it would in
 *   production (the real API is another origin and does not answer CORS).
 *
 * Pages come from Vite in middleware mode (the sources, no build needed), or
 * from the production build in dist/ with `pages: 'dist'` (the e2e tests).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { existsSync, rmdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { getRequestListener, type HttpBindings } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import type { ViteDevServer } from 'vite'
import { CHANGE_CLIENT_HEADER, isApiPath, SERVER_PATHS } from '../../shared/crm/api-paths.ts'
import { ApiError, notFound } from '../core/index.ts'
import { declaredTooLarge } from '../core/index.ts'
import { defaultWidgetUrl, WIDGET_NAME } from '../../shared/crm/reference-widget.ts'
import { ACCOUNT } from '../core/index.ts'
import { REDIRECT_URLS_PATH, redirectUrlProblem } from '../../shared/crm/redirect-urls.ts'
import { createCrmService, type CrmService, type CrmServiceOptions } from '../core/index.ts'
import { isLoopback } from '../../shared/url/ip-address.ts'
import { nodeTransport } from './outbound-transport.ts'
import { START_PORT_ROLES } from './bad-ports.ts'
import { Outbound, type OutboundRules } from '../core/index.ts'
import { CrmRegistry, sandboxCookies, SANDBOX_HEADER, SANDBOX_RELEASE_PATH, storeRequest, type CrmRef } from './crms.ts'
import { hostName, isServablePath, RequestGuard } from './guard.ts'
import { policeDocuments } from './pages/documents.ts'
import { ownOrigins } from './pages/page-policy.ts'
import { builtSdkFiles, serveCdnSdk, serveSdk } from './pages/sdk-cdn.ts'
import { SdkDevBuilds } from './pages/sdk-dev-build.ts'
import { crossSiteRead, widgetScripts } from './pages/widget-scripts.ts'
import { ChangeStreams } from './change-feed.ts'
import { bindPorts, IDLE_SOCKET_MS, ListenError, StartupError, type Listeners } from './listeners.ts'
import { writeOwnerFile } from './storage/data-owner.ts'
import { movedWidgetWarning } from './moved-widget.ts'
import { DEFAULT_DATA } from './start-options.ts'
import { dataPaths, StorageError } from './storage/data-folder.ts'
import { DiskStorage } from './storage/disk-storage.ts'
import { writeFileAtomic } from './storage/atomic-write.ts'
import type { LoadReport } from './storage/load-data.ts'
import { importFile, ImportFileError } from './storage/import-file.ts'
import { REPO_ROOT } from './package-info.ts'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'

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

export interface RingsideServer {
  readonly url: string
  readonly widgetOrigin: string
  readonly widgetUrl: string
  readonly port: number
  readonly service: CrmService
  readonly storage: DiskStorage | null
  readonly loaded: LoadReport | null
  /** Warnings to show at startup (a dropped torn line, a non-loopback host). */
  readonly warnings: string[]
  /** Other things worth saying at startup (where --fresh put the previous data). */
  readonly notes: string[]
  readonly corsOrigins: readonly string[]
  /** Write the main database as an export file (--export-on-exit). */
  exportTo(file: string): void
  close(): Promise<void>
}

export { isLoopback }
export { IDLE_SOCKET_MS, ListenError, StartupError }

/** Response headers a browser on a CORS origin may read. */
const EXPOSED_HEADERS = ['x-hubspot-correlation-id'] as const

/** Answer with the real API's error body (and close the connection when the request body was not read). */
function sendError(res: ServerResponse, error: ApiError, close = false, headers: Record<string, string> = {}): void {
  const correlationId = crypto.randomUUID()
  const body = JSON.stringify(error.toBody(correlationId))
  res.writeHead(error.status, {
    ...headers,
    'x-hubspot-correlation-id': correlationId,
    'content-type': 'application/json;charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
    ...(close && { connection: 'close' }),
  })
  res.end(body)
}

/**
 * An answer written before the request's body has arrived whole (a streamed import refused at its first rows, say)
 * says `Connection: close`: Node stops reading the rest and closes the socket, so a keep-alive client must send its
 * next request on a new connection, not on this one (RFC 9112 §9.6).
 */
function closeWhenBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse
  res.writeHead = ((...args: unknown[]) => {
    if (!req.complete && !res.headersSent) res.setHeader('connection', 'close')
    return writeHead(...args)
  }) as ServerResponse['writeHead']
}

/** Answer an upgrade (WebSocket) request nobody serves, and close its socket. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return
  const body = `${message}\n`
  socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  // A client that never reads the answer must not keep the socket either.
  setTimeout(() => socket.destroy(), 1000).unref()
}

/** Point the calling settings of the app at `url` (PATCH, or POST when the app has none). */
async function registerWidget(service: CrmService, url: string, name: string): Promise<void> {
  const endpoint = `http://ringside.local/crm/v3/extensions/calling/${ACCOUNT.appId}/settings?hapikey=${ACCOUNT.developerApiKey}`
  const send = (method: string, body: unknown) => service.handle(new Request(endpoint, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  let response = await send('PATCH', { name, url })
  if (response.status === 404) response = await send('POST', { name, url })
  if (!response.ok) throw new StartupError(`--widget ${url}: the API refused it (${response.status}): ${await response.text()}`)
}

/** Register an OAuth redirect URL of the app (already registered: nothing changes). */
async function registerRedirectUrl(service: CrmService, url: string): Promise<void> {
  const response = await service.handle(
    new Request(`http://ringside.local${REDIRECT_URLS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) }),
  )
  if (!response.ok) throw new StartupError(`--redirect-url ${url}: the API refused it (${response.status}): ${await response.text()}`)
}

export async function startRingside(options: RingsideServerOptions = {}): Promise<RingsideServer> {
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
  // The ports first: a start that cannot listen refuses before it creates, seeds or locks the data location.
  const listeners = await bindPorts(port, host, options.headersTimeoutMs)
  const dataDir = options.data === null ? null : dataPaths(options.data ?? resolve(REPO_ROOT, DEFAULT_DATA)).dir
  const newDir = dataDir !== null && !existsSync(dataDir)
  try {
    return await serve(options, { host, port, publicHost, origin, widgetOrigin, widgetUrl, pages, distRoot }, listeners)
  } catch (error) {
    await listeners.close()
    // A start refused later (a bad --import, --widget) leaves no folder it created: only an empty one is removed.
    if (newDir) removeIfEmpty(dataDir)
    throw error
  }
}

/** Removes `dir` if it is empty (a folder holding anything is left as it is). */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // not empty, or gone already
  }
}

/** Where startRingside serves: worked out from the options before the ports are bound. */
interface Place {
  host: string
  port: number
  publicHost: string
  origin: string
  widgetOrigin: string
  widgetUrl: string
  pages: 'vite' | 'dist' | 'none'
  distRoot: string
}

/** Open the data and serve it on the bound ports; an error here leaves the ports to startRingside to close. */
async function serve(options: RingsideServerOptions, place: Place, listeners: Listeners): Promise<RingsideServer> {
  const { host, port, publicHost, origin, widgetOrigin, widgetUrl, pages, distRoot } = place
  const harnessServer = listeners.harness
  const widgetServer = listeners.widget
  const warnings: string[] = []
  const notes: string[] = []
  if (!isLoopback(host)) {
    warnings.push(`Listening on ${host}: the emulated CRM has no real authentication (its tokens are public), so anyone who can reach this machine can read and change its data.`)
  }

  const serviceOptions: CrmServiceOptions = {
    // The CRM's requests to calling apps' servers (recordings, channel connection): Node's http(s), each address
    // checked; one Outbound for the main CRM and every sandbox, so the cap on concurrent reads is the server's.
    outbound: new Outbound(nodeTransport({ ownPorts: START_PORT_ROLES.map((_role, i) => port + i) }), options.outboundRules),
    seedOptions: { widgetUrl, ...(options.widgetName && { widgetName: options.widgetName }), ...(options.redirectUrls && { redirectUrls: options.redirectUrls }) },
    ...(options.now && { now: options.now }),
  }

  // The main CRM: seeded only when there is nothing to load (or --fresh).
  const storage = options.data === null ? null : new DiskStorage(options.data ?? resolve(REPO_ROOT, DEFAULT_DATA), { compactEvery: options.compactEvery })
  let loaded: LoadReport | null = null
  let service: CrmService
  if (storage) {
    storage.lock()
    try {
      if (options.fresh) {
        const kept = storage.setAside()
        if (kept.length > 0) notes.push(`--fresh: the previous data was kept as ${kept.join(' and ')}.`)
      }
      const fromDisk = storage.hasData()
      service = createCrmService({ ...serviceOptions, seed: !fromDisk })
      if (fromDisk) loaded = storage.load(service.db)
      warnings.push(...(loaded?.warnings ?? []))
    } catch (error) {
      storage.releaseLockSync()
      throw error
    }
  } else {
    service = createCrmService(serviceOptions)
  }
  if (options.importFile) {
    try {
      await importFile(service.db, options.importFile)
    } catch (error) {
      storage?.releaseLockSync()
      throw error instanceof ImportFileError ? new StorageError(`--import ${options.importFile}: ${error.message}`) : error
    }
  }
  if (storage) {
    // From here every commit is journaled. A first run, an import or an older build's files start with a new snapshot.
    try {
      service.db.onCommit(await storage.start(service.db, { compact: loaded === null || options.importFile !== undefined }))
    } catch (error) {
      storage.releaseLockSync()
      throw error
    }
  }
  if (!options.widgetUrl && (loaded !== null || options.importFile)) {
    const moved = await movedWidgetWarning(service, widgetUrl)
    if (moved) warnings.push(moved)
  }
  if (options.widgetUrl) {
    // Saved or imported data has its own registration; --widget changes it, through the API like any client.
    try {
      await registerWidget(service, options.widgetUrl, options.widgetName ?? WIDGET_NAME)
    } catch (error) {
      storage?.releaseLockSync()
      throw error
    }
    notes.push(`--widget: registered ${options.widgetUrl} as the calling widget of app ${ACCOUNT.appId}, named ${JSON.stringify(options.widgetName ?? WIDGET_NAME)}.`)
  }
  if (options.redirectUrls && options.redirectUrls.length > 0) {
    // Saved or imported data has its own list; --redirect-url adds to it, through the API like any client.
    try {
      for (const url of options.redirectUrls) await registerRedirectUrl(service, url)
    } catch (error) {
      storage?.releaseLockSync()
      throw error
    }
    notes.push(`--redirect-url: registered ${options.redirectUrls.join(', ')} as redirect URL${options.redirectUrls.length > 1 ? 's' : ''} of app ${ACCOUNT.appId}.`)
  }

  const registry = new CrmRegistry(service, { sandboxes: options.sandboxes ?? false, ...(options.maxSandboxes !== undefined && { maxSandboxes: options.maxSandboxes }), serviceOptions })
  const corsOrigins = [...new Set(options.corsOrigins ?? [])]
  const frameAncestors = [...new Set(options.frameAncestors ?? [])]
  const guard = new RequestGuard({ host, allowedHosts: options.allowedHosts ?? [], port, corsOrigins })
  // The data files are never served as pages (Vite serves files under the repository).
  const protectedPaths = storage ? (storage.paths.location === storage.paths.dir ? [storage.paths.dir] : [storage.paths.snapshot, storage.paths.journal, storage.paths.oldJournal, storage.paths.lock, storage.paths.owner]) : []

  // --- the harness origin: API, change stream, server info (and pages in dist mode)
  const changeStreams = new ChangeStreams(options.maxChangeStreams !== undefined ? { maxStreams: options.maxChangeStreams } : {})
  /** The store of each API request, routed once as it arrives (see crms.ts); a request that cannot be routed never gets this far. */
  const routed = new WeakMap<IncomingMessage, CrmRef>()
  const crmFor = (incoming: IncomingMessage): CrmRef => {
    const ref = routed.get(incoming)
    if (!ref) throw new Error('An API request reached the CRM without being routed to its store.')
    return ref
  }
  const crmOf = (c: Context) => crmFor((c.env as HttpBindings).incoming)
  const app = new Hono()
  if (corsOrigins.length > 0) {
    app.use(
      '*',
      cors({
        origin: (requestOrigin) => (corsOrigins.includes(requestOrigin) ? requestOrigin : null),
        allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowHeaders: ['authorization', 'content-type', SANDBOX_HEADER, CHANGE_CLIENT_HEADER],
        exposeHeaders: [...EXPOSED_HEADERS],
        maxAge: 600,
      }),
    )
  }
  app.get(SERVER_PATHS.info, (c) => {
    const { sandbox, service: crm } = crmOf(c)
    return c.json({
      mode: 'server',
      origin,
      widgetOrigin,
      data: storage ? storage.paths.location : null,
      sandbox,
      cors: corsOrigins,
      changes: SERVER_PATHS.changes,
      changePosition: changeStreams.position(crm.db),
    })
  })
  app.get(SERVER_PATHS.widgetScripts, async (c) => {
    // The harness's own request (or curl): no other site's page makes this server read a page for it.
    const site = c.req.header('sec-fetch-site')
    const answer = site === undefined || site === 'same-origin' || site === 'none' ? await widgetScripts(c.req.query('url')) : crossSiteRead(site)
    if (answer instanceof ApiError) {
      const correlationId = crypto.randomUUID()
      return c.json(answer.toBody(correlationId), answer.status as 400 | 403, { 'x-hubspot-correlation-id': correlationId })
    }
    return c.json(answer)
  })
  app.all('*', async (c, next) => {
    if (!isApiPath(c.req.path)) return next()
    return crmOf(c).service.handle(c.req.raw)
  })

  // --- pages
  let vite: ViteDevServer | null = null
  // The SDK under /sdk/: from the sources when they are served (a fresh clone has no build), else the build, and the
  // sources for a file it lacks.
  const devBuilds = new SdkDevBuilds(REPO_ROOT)
  const sdkFiles = pages === 'vite' ? devBuilds : builtSdkFiles(distRoot, devBuilds)
  const staticPages = new Hono()
  if (pages === 'dist') staticPages.use(
    '*',
    serveStatic({
      root: distRoot,
      onFound: (path, c) => {
        if (path.endsWith('.html')) c.header('cache-control', 'no-store')
      },
    }),
  )
  staticPages.all('*', (c) => c.text('Not found', 404))
  const staticListener = getRequestListener(staticPages.fetch)
  app.all('*', (c) => c.text('Not found', 404))
  const apiListener = getRequestListener(app.fetch)
  /**
   * API requests the app above only passes on to the CRM (no CORS to answer,
   * not the server info) go to the CRM directly: the same answer, without
   * the app's routing and context per request.
   */
  const crmListener = getRequestListener((request, env) => crmFor((env as HttpBindings).incoming).service.handle(request))
  const passedOn = (path: string) => corsOrigins.length === 0 && path !== SERVER_PATHS.info && path !== SERVER_PATHS.widgetScripts

  if (pages === 'vite') {
    const { createServer: createViteServer } = await import('vite')
    vite = await createViteServer({
      root: REPO_ROOT,
      logLevel: 'warn',
      appType: 'mpa',
      // No CORS: Vite's default lets any localhost page read every file it serves; the guard's page rule decides who may load what.
      server: { middlewareMode: true, ws: { server: harnessServer }, cors: false },
    })
    // The sources change under the server: the SDK builds made from them are made again after a change.
    vite.watcher.on('all', () => devBuilds.invalidate())
    // One Vite instance serves both origins; the widget origin's pages open their HMR socket on their own port.
    widgetServer.on('upgrade', (req, socket, head) => {
      if (isViteSocket(req)) harnessServer.emit('upgrade', req, socket, head)
    })
  }
  /** Vite's HMR client opens its WebSocket with one of these subprotocols; Vite's own listener takes those. */
  function isViteSocket(req: IncomingMessage): boolean {
    if (!vite || refusal(req)) return false
    const protocol = req.headers['sec-websocket-protocol'] ?? ''
    return protocol === 'vite-hmr' || protocol === 'vite-ping'
  }
  // Every other upgrade request is answered and closed, never left open (it would hold the process at shutdown).
  for (const server of [harnessServer, widgetServer]) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
      if (isViteSocket(req)) return
      const refused = refusal(req)
      if (refused) refuseUpgrade(socket, 403, refused.message)
      else refuseUpgrade(socket, 404, 'This server does not take WebSocket or other upgrade requests here.')
    })
  }

  const servePage = (req: IncomingMessage, res: ServerResponse) => {
    // The name the page was asked for (the guard allowed it); a name no browser would send falls back to the listen address.
    const asked = req.headers.host ? hostName(req.headers.host) : ''
    const frameHost = /^[a-z0-9.:-]+$/.test(asked) ? asked : publicHost
    policeDocuments(res, pathOf(req), [...ownOrigins('http:', frameHost, port), ...frameAncestors])
    if (!isServablePath(pathOf(req), pages === 'dist' ? distRoot : REPO_ROOT, protectedPaths)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found')
      return
    }
    if (serveSdk(pathOf(req), res, sdkFiles) || serveCdnSdk(pathOf(req), res, sdkFiles)) return
    const cookie = registry.pageCookie(sandboxCookies(req.headers.cookie))
    if (cookie && 'refused' in cookie) {
      res.writeHead(cookie.refused.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'set-cookie': cookie.refused.clear }).end(cookie.refused.message)
      return
    }
    if (cookie) res.setHeader('set-cookie', cookie.set)
    if (vite) {
      vite.middlewares(req, res, () => {
        res.statusCode = 404
        res.end('Not found')
      })
    } else if (pages === 'dist') {
      void staticListener(req, res)
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    }
  }

  const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?', 1)[0] as string
  /** The first layer, on both origins (upgrades too): a foreign Host, and a page request from another origin, are refused. */
  const refusal = (req: IncomingMessage) => guard.checkHost(req.headers) ?? guard.checkPageRequest(pathOf(req), req.headers)
  const refusedHost = (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req)
    if (refused) sendError(res, refused, true)
    return refused !== null
  }
  const harnessRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (refusedHost(req, res)) return
    const path = pathOf(req)
    if (!isApiPath(path)) return servePage(req, res)
    const crossSite = guard.checkCrossSite(req.method ?? 'GET', path, req.headers)
    if (crossSite) return sendError(res, crossSite, true)
    // A declared body over the limit is refused before a byte of it is read (a streamed one is counted by the API as it reads).
    const tooLarge = declaredTooLarge(path, Number(req.headers['content-length'] ?? 0))
    if (tooLarge) return sendError(res, tooLarge, true)
    const named = storeRequest(req, path)
    if (path === SANDBOX_RELEASE_PATH && req.method === 'DELETE') {
      const refused = registry.release(named)
      return refused ? sendError(res, refused, true) : void res.writeHead(204).end()
    }
    const store = registry.route(named)
    if (store instanceof ApiError) return sendError(res, store, true, corsAnswer(req))
    routed.set(req, store)
    res.once('close', registry.hold(store))
    if (path === SERVER_PATHS.changes && req.method === 'GET') return serveChangeStream(req, res)
    closeWhenBodyUnread(req, res)
    void (passedOn(path) ? crmListener : apiListener)(req, res)
  }
  const widgetRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (refusedHost(req, res)) return
    if (isApiPath(pathOf(req))) {
      const correlationId = crypto.randomUUID()
      res.writeHead(404, { 'content-type': 'application/json', 'x-hubspot-correlation-id': correlationId })
      res.end(JSON.stringify(notFound(`This is the widget origin; the CRM API is served at ${origin}.`).toBody(correlationId)))
      return
    }
    servePage(req, res)
  }

  /** The CORS headers the API's middleware gives an allowed origin, for answers written straight to Node's response. */
  const corsAnswer = (req: IncomingMessage): Record<string, string> => {
    const requestOrigin = req.headers.origin
    return requestOrigin && corsOrigins.includes(requestOrigin) ? { 'access-control-allow-origin': requestOrigin, 'access-control-expose-headers': EXPOSED_HEADERS.join(','), vary: 'Origin' } : {}
  }

  /**
   * The change stream, written straight to Node's response: a commit's frame is
   * one socket write per stream (see change-feed.ts).
   */
  const serveChangeStream = (req: IncomingMessage, res: ServerResponse) => {
    const { service: crm } = crmFor(req)
    const headers: Record<string, string> = { 'cache-control': 'no-store', ...corsAnswer(req) }
    const refused = changeStreams.refusal()
    if (refused) return sendError(res, refused, false, headers)
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8' })
    const end = changeStreams.open(crm.db, {
      write: (chunk) => void res.write(chunk),
      get queuedBytes() {
        return res.writableLength
      },
      end: () => void res.end(),
      destroy: () => void res.destroy(),
    })
    res.once('close', end)
  }

  const closeAll = async () => {
    changeStreams.closeAll()
    await listeners.close()
    await vite?.close()
    await storage?.close()
  }
  listeners.ready({ harness: harnessRequest, widget: widgetRequest })
  // Where this server answers, for a second start on the same data and for the CLI's data commands (data-owner.ts).
  if (storage) writeOwnerFile(storage.paths, `${origin}/`)

  let closing: Promise<void> | null = null
  return {
    url: `${origin}/`,
    widgetOrigin,
    widgetUrl,
    port,
    service,
    storage,
    loaded,
    warnings,
    notes,
    corsOrigins,
    exportTo(file) {
      writeFileAtomic(resolve(file), `${JSON.stringify(service.db.snapshot(), null, 2)}\n`)
    },
    close() {
      closing ??= closeAll()
      return closing
    },
  }
}
