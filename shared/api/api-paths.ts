/**
 * The path prefixes the emulated CRM serves, on whatever origin serves it:
 * the real API's (OAuth, CRM objects and associations, timeline under both
 * of its names) and the emulator's own /_ringside/ routes. Everything else on
 * that origin is a page. The server (server/) routes by this list.
 */
export const API_PATH_PREFIXES = ['/oauth/v1/', '/crm/v3/', '/crm/v4/', '/crm-object-schemas/v3/', '/integrators/timeline/v3/', '/_ringside/'] as const

/** Whether a request path belongs to the API (rather than to a page). */
export function isApiPath(pathname: string): boolean {
  return API_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix))
}

/** Paths served by the server alone (no browser-only equivalent). */
export const SERVER_PATHS = {
  /** GET → `{ mode: 'server', … }`: a page asks this to learn whether a server is behind it. */
  info: '/_ringside/v1/server',
  /** GET → text/event-stream; each event's data is `{"tables": [...]}` (a committed change). */
  changes: '/_ringside/v1/changes',
} as const

/**
 * A page may name itself in this header on its API requests; the change
 * stream then adds `"client": <that name>` to the events of the writes those
 * requests made, so the page can skip changes it already knows of.
 */
export const CHANGE_CLIENT_HEADER = 'x-ringside-client'
