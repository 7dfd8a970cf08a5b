/**
 * The router: `(request: Request) => Promise<Response>` over an ordered route
 * table. It is the one place where
 * - paths are matched (with `:param` segments); a path no route matches is
 *   tried again in its legacy form (versions.ts: the date-versioned paths
 *   such as `/crm/objects/2026-03/*` and the aliases such as
 *   `/integrators/timeline/v3/*`), so every route answers under every form;
 * - a known path with the wrong method becomes 405;
 * - credentials are checked against the route's requirement;
 * - bodies are parsed (JSON or form, see http.ts);
 * - every request runs in a transaction, so a failed request changes nothing;
 * - thrown errors become the error body with a fresh UUID correlationId.
 */
import { requestClient } from '../../../shared/crm/api-paths.ts'
import { authenticate } from './auth.ts'
import type { Database } from '../data/db.ts'
import type { RateLimiter } from './rate-limits.ts'
import { ApiError, Category, methodNotAllowed, notFound, validationError } from './errors.ts'
import { json, parseBody, safeDecodeURIComponent, type ParsedBody } from './http.ts'
import type { Route, RouteContext } from './route.ts'
import { DATE_VERSIONS, toRoutePath, unservedDateVersion } from './versions.ts'

interface CompiledRoute extends Route {
  segments: string[]
}

export interface RouterOptions {
  db: Database
  now: () => number
  newCorrelationId: () => string
  /** Counts requests of app credentials; its headers go on the answer, its 429 replaces it. */
  rateLimiter?: RateLimiter
}

function normalizePath(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i] as string
    const part = parts[i] as string
    if (seg.startsWith(':')) {
      // Bad percent-encoding matches no route (404), as an unknown path would.
      const value = safeDecodeURIComponent(part)
      if (value === undefined || value.length === 0) return undefined
      params[seg.slice(1)] = value
    } else if (seg !== part) {
      return undefined
    }
  }
  return params
}

/** The response with extra headers (copied if its headers are immutable, e.g. Response.redirect). */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value)
    return response
  } catch {
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(extra)) headers.set(name, value)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

/**
 * 404 for a path no route serves: the API's error body, as for every other
 * 404. The real API marks such an answer with `X-HubSpot-NotFound: true`.
 * A date-versioned path with a version that is not published says which are.
 */
function unknownPath(method: string, path: string): ApiError {
  const version = unservedDateVersion(path)
  const message = version
    ? `No API route matches ${method} ${path}: ${version.api} has no version ${version.version}; the date versions are ${DATE_VERSIONS.join(', ')}.`
    : `No API route matches ${method} ${path}.`
  return notFound(message, { headers: { 'x-hubspot-notfound': 'true' } })
}

export function createRouter(routes: readonly Route[], options: RouterOptions): (request: Request) => Promise<Response> {
  const compiled: CompiledRoute[] = routes.map((r) => ({ ...r, segments: r.path.split('/').slice(1) }))

  /** The route for `method` on `path`, or the methods other routes on that path take. */
  function matchPath(path: string, method: string) {
    const parts = path.split('/').slice(1)
    let found: { route: CompiledRoute; params: Record<string, string> } | undefined
    const allowed: string[] = []
    for (const route of compiled) {
      const params = match(route, parts)
      if (!params) continue
      if (route.method === method) {
        found = { route, params }
        break
      }
      allowed.push(route.method)
    }
    return { found, allowed }
  }

  /** `headers` collects what every answer to this request carries (rate-limit headers), success or failure. */
  async function dispatch(request: Request, headers: Record<string, string>): Promise<Response> {
    const url = new URL(request.url)
    const requested = normalizePath(url.pathname)
    const method = request.method.toUpperCase()

    // The path as sent; if no route has it, its legacy form (a date-versioned or alias path).
    let path = requested
    let matched = matchPath(path, method)
    const legacy = matched.found || matched.allowed.length > 0 ? undefined : toRoutePath(requested)
    if (legacy !== undefined) {
      path = legacy
      matched = matchPath(path, method)
    }
    const { found, allowed } = matched
    if (!found) {
      if (allowed.length > 0) throw methodNotAllowed(method, requested, [...new Set(allowed)])
      throw unknownPath(method, requested)
    }

    const { route, params } = found
    const now = options.now()
    const principal = authenticate(request, url, route.auth, options.db, now, params)
    if (route.auth.kind === 'bearer' && options.rateLimiter) {
      Object.assign(headers, options.rateLimiter.take(principal, route.path.endsWith('/search'), now))
    }
    const body: ParsedBody =
      method === 'GET' || method === 'DELETE'
        ? { kind: 'none' }
        : route.readBody
          ? { kind: 'read', value: await route.readBody(request) }
          : await parseBody(request, route.accepts ?? ['json'], route.maxJsonDepth)
    const client = requestClient(request.headers)
    const ctx: RouteContext = {
      request,
      url,
      path,
      params,
      query: url.searchParams,
      principal,
      db: options.db,
      now,
      body,
      jsonBody() {
        if (body.kind !== 'json') throw validationError('A JSON request body is required.')
        return body.value
      },
      client,
    }
    // Every request runs in a transaction: a failed write changes nothing, and
    // since transactions are queued, a read never sees another request's
    // half-done write.
    // The commit names the client, so that a change feed can tell a page which changes are its own.
    return route.outsideTransaction ? route.handler(ctx) : options.db.transaction(() => route.handler(ctx), { client })
  }

  return async function handle(request: Request): Promise<Response> {
    const correlationId = options.newCorrelationId()
    const headers: Record<string, string> = {}
    try {
      return withHeaders(await dispatch(request, headers), { ...headers, 'x-hubspot-correlation-id': correlationId })
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, Category.INTERNAL_ERROR, `Internal error: ${error instanceof Error ? error.message : String(error)}`)
      return json(apiError.toBody(correlationId), apiError.status, {
        ...headers,
        'x-hubspot-correlation-id': correlationId,
        ...apiError.options.headers,
      })
    }
  }
}
