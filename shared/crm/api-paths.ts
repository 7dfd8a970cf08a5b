/**
 * Which paths of the origin that serves the emulated CRM belong to the API
 * rather than to a page: every top-level name the real API host
 * (api.hubapi.com) uses, for the CRM and for HubSpot's other products, and
 * the emulator's own /_ringside/. A request under one of them that no route
 * serves gets the API's JSON 404, as the real API answers it, never a page
 * server's empty one. The server (emulator/node/) and browser-only mode
 * (browser/msw.ts) both route by `isApiPath`.
 */
export const API_PATH_PREFIXES = [
  '/account-info/',
  '/app-webhooks/',
  '/appinstalls/',
  '/automation/',
  '/business-units/',
  '/cms/',
  '/commerce/',
  '/communication-preferences/',
  '/conversations/',
  '/crm/',
  '/crm-object-schemas/',
  '/data-studio/',
  '/deal-splits/',
  '/events/',
  '/feature-flags/',
  '/files/',
  '/forecast-settings/',
  '/forecast-submissions/',
  '/integrations/',
  '/integrators/',
  '/marketing/',
  '/media-bridge/',
  '/notetaker/',
  '/oauth/',
  '/payments-subscriptions/',
  '/scheduler/',
  '/settings/',
  '/tax-rates/',
  '/url-mappings/',
  '/visitor-identification/',
  '/webhooks/',
  '/webhooks-journal/',
  '/_ringside/',
] as const

/**
 * Pages under an API name: the OAuth consent page is `/oauth/authorize` on
 * the CRM's app host (app.hubspot.com), not on the API host, and this origin
 * serves both.
 */
export const PAGES_UNDER_API_PATHS = ['/oauth/authorize'] as const

/** Whether a request path belongs to the API (rather than to a page). */
export function isApiPath(pathname: string): boolean {
  if (PAGES_UNDER_API_PATHS.some((page) => pathname === page || pathname.startsWith(`${page}/`))) return false
  return API_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix))
}

/** Paths served by the server alone (no browser-only equivalent). */
export const SERVER_PATHS = {
  /** GET → `{ mode: 'server', … }`: a page asks this to learn whether a server is behind it. */
  info: '/_ringside/v1/server',
  /** GET → text/event-stream: a `ready` event, then one event per committed change (format: change-stream.ts). */
  changes: '/_ringside/v1/changes',
  /** GET ?url=<a widget page on this machine> → `{ url, scripts: [{ url, sdk }] }`: the scripts it loads from other sites (server/widget-scripts.ts). */
  widgetScripts: '/_ringside/v1/widget-scripts',
} as const

/**
 * A page may name itself in this header on its API requests; the change
 * stream then adds `"client": <that name>` to the events of the writes those
 * requests made, so the page can skip changes it already knows of.
 */
export const CHANGE_CLIENT_HEADER = 'x-ringside-client'

/** The name a request gives in CHANGE_CLIENT_HEADER, cut to its first 100 characters (undefined when it names none). */
export function requestClient(headers: Headers): string | undefined {
  return headers.get(CHANGE_CLIENT_HEADER)?.slice(0, 100)
}

/**
 * The Server-Timing entry the Ringside server puts on every page it serves
 * (emulator/node/pages/documents.ts), read by the page through its navigation timing
 * (`PerformanceNavigationTiming.serverTiming`): a page that carries it never
 * falls back to browser-only mode (emulator/browser/connect.ts). Static
 * hosts serve the build without it.
 */
export const SERVER_PAGE_TIMING = 'ringside-server'
