/**
 * The pages boot step of server mode: where pages come from (Vite in
 * middleware mode, the production build in dist/, or none), the SDK under
 * /sdk/, the refusal of every upgrade request but Vite's HMR socket, and the
 * page server both origins share, which gives each document its policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { ViteDevServer } from 'vite'
import { sandboxCookies, type CrmRegistry } from '../crms.ts'
import { hostName, isServablePath } from '../guard.ts'
import { policeDocuments } from '../pages/documents.ts'
import { ownOrigins } from '../pages/page-policy.ts'
import { builtSdkFiles, serveCdnSdk, serveSdk } from '../pages/sdk-cdn.ts'
import { SdkDevBuilds } from '../pages/sdk-dev-build.ts'
import type { Listeners } from '../listeners.ts'
import { REPO_ROOT } from '../package-info.ts'
import { pathOf, type Refusal } from './requests.ts'
import type { Place } from './options.ts'

export interface PagesContext {
  place: Place
  listeners: Listeners
  /** --frame-ancestor: origins besides Ringside's own that may frame its pages. */
  frameAncestors: readonly string[]
  /** The data files, never served as pages. */
  protectedPaths: string[]
  registry: CrmRegistry
  refusal: Refusal
}

export interface Pages {
  /** Serve a page request the guard let through (either origin). */
  servePage: (req: IncomingMessage, res: ServerResponse) => void
  vite: ViteDevServer | null
}

/** Start serving pages: Vite (created here) or the build, and the answer to every upgrade request. */
export async function startPages({ place, listeners, frameAncestors, protectedPaths, registry, refusal }: PagesContext): Promise<Pages> {
  const { pages, distRoot, publicHost, port } = place
  const harnessServer = listeners.harness
  const widgetServer = listeners.widget
  let vite: ViteDevServer | null = null
  // The SDK under /sdk/: from the sources when they are served (a fresh clone has no build), else the build, and the
  // sources for a file it lacks.
  const devBuilds = new SdkDevBuilds(REPO_ROOT)
  const sdkFiles = pages === 'vite' ? devBuilds : builtSdkFiles(distRoot, devBuilds)
  const staticListener = staticPagesListener(pages, distRoot)
  if (pages === 'vite') vite = await startVite(listeners, devBuilds, isViteSocket)
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
  return { servePage, vite }
}

/** The production build in dist/ (`pages: 'dist'`), else nothing: 404 for every path. */
function staticPagesListener(pages: Place['pages'], distRoot: string): ReturnType<typeof getRequestListener> {
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
  return staticListener
}

/** Vite in middleware mode on the harness origin; HMR sockets of the widget origin's pages are passed to it. */
async function startVite({ harness: harnessServer, widget: widgetServer }: Listeners, devBuilds: SdkDevBuilds, isViteSocket: (req: IncomingMessage) => boolean): Promise<ViteDevServer> {
  const { createServer: createViteServer } = await import('vite')
  const vite = await createViteServer({
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
  return vite
}

/** Answer an upgrade (WebSocket) request nobody serves, and close its socket. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return
  const body = `${message}\n`
  socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  // A client that never reads the answer must not keep the socket either.
  setTimeout(() => socket.destroy(), 1000).unref()
}
