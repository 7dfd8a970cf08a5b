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
 *
 * Boot runs in named steps, each in boot/: the options (options.ts), the
 * ports (listeners.ts), the data (storage.ts) and the app's registration
 * (registration.ts), the API app (app.ts), the pages (pages.ts), each
 * origin's requests (requests.ts), and the running server with its shutdown
 * (shutdown.ts).
 */
import { existsSync, rmdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { isLoopback } from '../../shared/url/ip-address.ts'
import { CrmRegistry } from './crms.ts'
import { RequestGuard } from './guard.ts'
import { ChangeStreams } from './change-feed.ts'
import { bindPorts, IDLE_SOCKET_MS, ListenError, StartupError, type Listeners } from './listeners.ts'
import { writeOwnerFile } from './storage/data-owner.ts'
import { DEFAULT_DATA } from './start-options.ts'
import { dataPaths } from './storage/data-folder.ts'
import { REPO_ROOT } from './package-info.ts'
import { placeOf, type Place, type RingsideServerOptions } from './boot/options.ts'
import { crmServiceOptions, openData } from './boot/storage.ts'
import { registerApp } from './boot/registration.ts'
import { apiApp, routedStores } from './boot/app.ts'
import { startPages } from './boot/pages.ts'
import { refusalOf, requestHandlers } from './boot/requests.ts'
import { runningServer, type RingsideServer } from './boot/shutdown.ts'

export type { RingsideServer, RingsideServerOptions }
export { isLoopback }
export { IDLE_SOCKET_MS, ListenError, StartupError }

export async function startRingside(options: RingsideServerOptions = {}): Promise<RingsideServer> {
  const place = placeOf(options)
  const { host, port } = place
  // The ports first: a start that cannot listen refuses before it creates, seeds or locks the data location.
  const listeners = await bindPorts(port, host, options.headersTimeoutMs)
  const dataDir = options.data === null ? null : dataPaths(options.data ?? resolve(REPO_ROOT, DEFAULT_DATA)).dir
  const newDir = dataDir !== null && !existsSync(dataDir)
  try {
    return await serve(options, place, listeners)
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

/** Open the data and serve it on the bound ports; an error here leaves the ports to startRingside to close. */
async function serve(options: RingsideServerOptions, place: Place, listeners: Listeners): Promise<RingsideServer> {
  const { host, port, origin, widgetOrigin } = place
  const warnings: string[] = []
  const notes: string[] = []
  if (!isLoopback(host)) {
    warnings.push(`Listening on ${host}: the emulated CRM has no real authentication (its tokens are public), so anyone who can reach this machine can read and change its data.`)
  }
  const serviceOptions = crmServiceOptions(options, place)
  const data = await openData(options, serviceOptions, warnings, notes)
  await registerApp(options, place.widgetUrl, data, warnings, notes)
  const { service, storage, loaded } = data

  const registry = new CrmRegistry(service, { sandboxes: options.sandboxes ?? false, ...(options.maxSandboxes !== undefined && { maxSandboxes: options.maxSandboxes }), serviceOptions })
  const corsOrigins = [...new Set(options.corsOrigins ?? [])]
  const frameAncestors = [...new Set(options.frameAncestors ?? [])]
  const guard = new RequestGuard({ host, allowedHosts: options.allowedHosts ?? [], port, corsOrigins })
  // The data files are never served as pages (Vite serves files under the repository).
  const protectedPaths = storage ? (storage.paths.location === storage.paths.dir ? [storage.paths.dir] : [storage.paths.snapshot, storage.paths.journal, storage.paths.oldJournal, storage.paths.lock, storage.paths.owner]) : []

  const changeStreams = new ChangeStreams(options.maxChangeStreams !== undefined ? { maxStreams: options.maxChangeStreams } : {})
  const { routed, crmFor } = routedStores()
  const api = apiApp({ origin, widgetOrigin, corsOrigins, storage, changeStreams, crmFor })
  const refusal = refusalOf(guard)
  const { servePage, vite } = await startPages({ place, listeners, frameAncestors, protectedPaths, registry, refusal })
  listeners.ready(requestHandlers({ origin, guard, refusal, registry, routed, crmFor, corsOrigins, changeStreams, api, servePage }))
  // Where this server answers, for a second start on the same data and for the CLI's data commands (data-owner.ts).
  if (storage) writeOwnerFile(storage.paths, `${origin}/`)
  return runningServer({ place, service, storage, loaded, warnings, notes, corsOrigins, changeStreams, listeners, vite })
}
