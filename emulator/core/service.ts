/**
 * The emulated CRM service: one in-memory database, every resource's routes,
 * and one `handle(request) → response` function. Vitest calls `handle`
 * directly; in the browser MSW forwards matching requests to it
 * (see emulator/browser/msw.ts).
 */
import { Database } from './data/db.ts'
import { createRouter } from './http/router.ts'
import type { Route, ServiceDeps } from './http/route.ts'
import { ObjectStore } from './objects/object-store.ts'
import { objectRoutes } from './objects/object-routes.ts'
import { mergeRoutes } from './objects/merge-routes.ts'
import { customObjectSchemaRoutes } from './objects/schema-api.ts'
import { ownerRoutes } from './objects/owners.ts'
import { callingSettingsRoutes } from './calling/calling-settings.ts'
import { callingExtensionRoutes } from './calling/index.ts'
import { Outbound, type OutboundFetch } from './outbound/read.ts'
import { adminRoutes } from './data/admin-routes.ts'
import { oauthRoutes } from './oauth/oauth-routes.ts'
import { timelineRoutes } from './timeline/timeline-routes.ts'
import { seed, type SeedOptions } from './data/seed.ts'
import { RateLimiter, rateLimitRoutes, type RateLimitInput } from './http/rate-limits.ts'

export interface CrmServiceOptions {
  /** The clock, in epoch ms (tests move it to expire tokens and codes). */
  now?: () => number
  /** Seed the fresh account (default true). */
  seed?: boolean
  /** Options for the seed, e.g. the URL of the default calling widget. */
  seedOptions?: SeedOptions
  /**
   * Rate limits for app credentials (see rate-limits.ts): on at the real
   * numbers by default; `false` turns them off; an object changes parts,
   * e.g. `{ burst: { max: 10, intervalMs: 10_000 } }`.
   */
  rateLimits?: RateLimitInput | false
  /** How the CRM reaches a calling app's servers (recordings, channel connection); none: it makes no outbound request. */
  outboundFetch?: OutboundFetch
  /** The outbound reads, shared with other services (the server's sandboxes); else one of this service's own, over outboundFetch. */
  outbound?: Outbound
}

export interface CrmService {
  readonly db: Database
  readonly objects: ObjectStore
  /** Every route the service serves (the fuzz test enumerates them). */
  readonly routes: readonly Route[]
  handle(request: Request): Promise<Response>
}

export function createCrmService(options: CrmServiceOptions = {}): CrmService {
  const db = new Database()
  const now = options.now ?? (() => Date.now())
  const objects = new ObjectStore(db)
  const reseed = () => {
    db.clear()
    seed(db, objects, now(), options.seedOptions)
  }
  const deps: ServiceDeps = { db, objects, now, reseed, outbound: options.outbound ?? new Outbound(options.outboundFetch) }
  const rateLimiter = new RateLimiter(options.rateLimits)
  const routes: Route[] = [
    ...oauthRoutes(deps),
    ...timelineRoutes(deps),
    ...mergeRoutes(deps),
    ...objectRoutes(deps),
    ...customObjectSchemaRoutes(deps),
    ...ownerRoutes(deps),
    ...callingSettingsRoutes(deps),
    ...callingExtensionRoutes(deps),
    ...adminRoutes(deps),
    ...rateLimitRoutes(rateLimiter),
  ]
  const handle = createRouter(routes, { db, now, newCorrelationId: () => crypto.randomUUID(), rateLimiter })
  if (options.seed !== false) reseed()
  return { db, objects, routes, handle }
}
