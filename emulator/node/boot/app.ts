/**
 * The app boot step of server mode: the harness origin's Hono app (CORS for
 * --cors-origin, the server info, the widget-scripts read, and the CRM API),
 * and the store each API request was routed to as it arrived.
 */
import type { IncomingMessage } from 'node:http'
import { getRequestListener, type HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import { CHANGE_CLIENT_HEADER, isApiPath, SERVER_PATHS } from '../../../shared/crm/api-paths.ts'
import { ApiError } from '../../core/index.ts'
import { SANDBOX_HEADER, type CrmRef } from '../crms.ts'
import { crossSiteRead, widgetScripts } from '../pages/widget-scripts.ts'
import type { ChangeStreams } from '../change-feed.ts'
import type { DiskStorage } from '../storage/disk-storage.ts'

/** Response headers a browser on a CORS origin may read. */
export const EXPOSED_HEADERS = ['x-hubspot-correlation-id'] as const

/** The store of each API request, set once as it arrives, and read by the app and the change stream. */
export function routedStores(): { routed: WeakMap<IncomingMessage, CrmRef>; crmFor: (incoming: IncomingMessage) => CrmRef } {
  /** The store of each API request, routed once as it arrives (see crms.ts); a request that cannot be routed never gets this far. */
  const routed = new WeakMap<IncomingMessage, CrmRef>()
  const crmFor = (incoming: IncomingMessage): CrmRef => {
    const ref = routed.get(incoming)
    if (!ref) throw new Error('An API request reached the CRM without being routed to its store.')
    return ref
  }
  return { routed, crmFor }
}

export interface ApiApp {
  /** The app: CORS, server info, widget scripts, the API; 404 for the rest. */
  apiListener: ReturnType<typeof getRequestListener>
  /** The CRM alone, for the API requests `passedOn` says the app would only pass on. */
  crmListener: ReturnType<typeof getRequestListener>
  passedOn: (path: string) => boolean
}

export interface ApiAppContext {
  origin: string
  widgetOrigin: string
  corsOrigins: readonly string[]
  storage: DiskStorage | null
  changeStreams: ChangeStreams
  crmFor: (incoming: IncomingMessage) => CrmRef
}

/** The harness origin's answers to API paths (the pages are served beside it, see pages.ts). */
export function apiApp({ origin, widgetOrigin, corsOrigins, storage, changeStreams, crmFor }: ApiAppContext): ApiApp {
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
  app.all('*', (c) => c.text('Not found', 404))
  const apiListener = getRequestListener(app.fetch)
  /**
   * API requests the app above only passes on to the CRM (no CORS to answer,
   * not the server info) go to the CRM directly: the same answer, without
   * the app's routing and context per request.
   */
  const crmListener = getRequestListener((request, env) => crmFor((env as HttpBindings).incoming).service.handle(request))
  const passedOn = (path: string) => corsOrigins.length === 0 && path !== SERVER_PATHS.info && path !== SERVER_PATHS.widgetScripts
  return { apiListener, crmListener, passedOn }
}
