/**
 * What a resource module is given and what it returns: `ServiceDeps` in,
 * `Route[]` out, each route's handler taking a `RouteContext`. Every route
 * module imports these types from here; `router.ts` runs the routes and
 * `service.ts` builds the deps and assembles the modules, so no route module
 * imports either of them (and no import cycle runs through the service).
 */
import type { AuthRequirement, Principal } from './auth.ts'
import type { Database } from '../data/db.ts'
import type { BodyKind, ParsedBody } from './http.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Outbound } from '../outbound/read.ts'

/** What every resource module gets. */
export interface ServiceDeps {
  db: Database
  objects: ObjectStore
  now: () => number
  /** Re-create the fresh account (used by the admin reset route). */
  reseed: () => void
  /** Every request the CRM makes to a calling app's servers (recordings, channel connection) goes through it. */
  outbound: Outbound
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouteContext {
  request: Request
  url: URL
  /** The matched path (after aliasing). */
  path: string
  params: Record<string, string>
  query: URLSearchParams
  principal: Principal
  db: Database
  /** Milliseconds since the epoch, from the API's clock. */
  now: number
  /** The parsed body (parsed once, before the handler runs). */
  body: ParsedBody
  /** The JSON body, or 400 if there is none. */
  jsonBody(): unknown
  /** The client the request names (CHANGE_CLIENT_HEADER): a handler outside the request's transaction passes it to its own. */
  client: string | undefined
}

export interface Route {
  method: Method
  /** e.g. `/crm/v3/objects/:objectType/:objectId` */
  path: string
  auth: AuthRequirement
  /** Body content types taken; default `['json']`. */
  accepts?: readonly BodyKind[]
  /** Deepest JSON nesting taken; default MAX_JSON_DEPTH. */
  maxJsonDepth?: number
  /**
   * Read the body this route's own way instead (as it streams, within the
   * route's own budget): run before the request's transaction, its result
   * is `ctx.body.value` (kind 'read'). The import uses it.
   */
  readBody?: (request: Request) => Promise<unknown>
  handler: (ctx: RouteContext) => Response | Promise<Response>
  /**
   * Run the handler outside the request's transaction: for a handler that
   * waits on a vendor's server, which must not hold up every other request.
   * It reads and writes inside its own `ctx.db.transaction(…)` calls.
   */
  outsideTransaction?: boolean
}
