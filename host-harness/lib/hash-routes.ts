/**
 * Hash routes of the harness (the pages are served statically, so the path
 * after `#` is the route):
 *
 *   #/contacts, #/companies, #/deals, #/tickets          record lists
 *   #/contacts/:id, #/companies/:id, …                   record pages
 *   #/tasks                                              task queue (open call tasks)
 *   #/calling-integration-popup-ui/:portalId             the detached calling window, on the real CRM's
 *                                                        path (/calling-integration-popup-ui/<portalId>);
 *                                                        #/calling-window, its earlier route, still opens it
 *   #/developer/:panel                                   API panels
 *   #/developer/oauth-callback?code=…&state=…            OAuth redirect target (also
 *                                                        /?oauth_callback=1&code=…, see below)
 */
import { useSyncExternalStore } from 'react'

import { isObjectType, recordTypeOf, type ObjectType } from './crm-types.ts'
import { OAUTH_CALLBACK_MARKER } from '../../shared/crm/redirect-urls.ts'
import { ACCOUNT } from '../../shared/crm/account.ts'

/**
 * The real CRM's calling window is `<hostUrl>/calling-integration-popup-ui/<portalId>` (the SDK's demos open that
 * address, demos/demo-minimal-js/index.js). Here it is a hash route of the harness page: the harness is one page
 * (also served as plain static files, under any base path), so a route of its own is a fragment. The portal is
 * the harness's one account; the route takes no other.
 */
export const CALLING_WINDOW_SEGMENT = 'calling-integration-popup-ui'

export const DEVELOPER_PANELS = [
  { id: 'account', label: 'Account & credentials' },
  { id: 'app', label: 'App' },
  { id: 'calling-settings', label: 'Calling settings' },
  { id: 'templates', label: 'Timeline event templates' },
  { id: 'oauth', label: 'OAuth' },
  { id: 'tickets', label: 'Tickets' },
  { id: 'database', label: 'Database' },
] as const
export type DeveloperPanelId = (typeof DEVELOPER_PANELS)[number]['id']

export type Route =
  | { page: 'list'; objectType: ObjectType }
  | { page: 'record'; objectType: ObjectType; id: string }
  | { page: 'tasks' }
  | { page: 'calling-window' }
  | { page: 'developer'; panel: DeveloperPanelId }
  | { page: 'oauth-callback'; params: URLSearchParams }
  | { page: 'not-found'; path: string }

function isPanel(value: string): value is DeveloperPanelId {
  return DEVELOPER_PANELS.some((p) => p.id === value)
}

/** Parse `location.hash` (with or without the leading `#`). */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '')
  const [pathPart = '', queryPart = ''] = raw.split('?', 2)
  const path = pathPart === '' || pathPart === '/' ? '/contacts' : pathPart
  const segments = path.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s)
    } catch {
      return s
    }
  })
  const [first = '', second, third] = segments
  if (isObjectType(first)) {
    if (second === undefined) return { page: 'list', objectType: first }
    if (third === undefined && /^\d+$/.test(second)) return { page: 'record', objectType: first, id: second }
  }
  if (first === 'tasks' && second === undefined) return { page: 'tasks' }
  if (first === CALLING_WINDOW_SEGMENT && second === String(ACCOUNT.hubId) && third === undefined) return { page: 'calling-window' }
  // The earlier route of the calling window: links and bookmarks made before keep working.
  if (first === 'calling-window' && second === undefined) return { page: 'calling-window' }
  if (first === 'developer' && third === undefined) {
    if (second === undefined) return { page: 'developer', panel: 'account' }
    if (second === 'oauth-callback') return { page: 'oauth-callback', params: new URLSearchParams(queryPart) }
    if (isPanel(second)) return { page: 'developer', panel: second }
  }
  return { page: 'not-found', path }
}

export const hrefs = {
  list: (objectType: ObjectType) => `#/${objectType}`,
  record: (objectType: ObjectType, id: string) => `#/${objectType}/${encodeURIComponent(id)}`,
  developer: (panel: DeveloperPanelId) => `#/developer/${panel}`,
  tasks: () => '#/tasks',
  callingWindow: () => `#/${CALLING_WINDOW_SEGMENT}/${ACCOUNT.hubId}`,
}

/** Go to a hash route (`#/…`). */
export function navigateTo(href: string): void {
  window.location.hash = href.replace(/^#/, '')
}

/**
 * The OAuth consent page redirects to `/?oauth_callback=1&code=…&state=…`:
 * the API refuses redirect URIs with a fragment, so the callback is marked in
 * the query rather than in the hash route.
 */
export { OAUTH_CALLBACK_MARKER }

/** The route for a whole location: the OAuth callback query wins over the hash. */
export function parseLocation(search: string, hash: string): Route {
  const query = new URLSearchParams(search)
  if (query.has(OAUTH_CALLBACK_MARKER)) return { page: 'oauth-callback', params: query }
  return parseHash(hash)
}

const locationListeners = new Set<() => void>()

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange)
  window.addEventListener('popstate', onChange)
  locationListeners.add(onChange)
  return () => {
    window.removeEventListener('hashchange', onChange)
    window.removeEventListener('popstate', onChange)
    locationListeners.delete(onChange)
  }
}

/** Replace the address without a reload (history.replaceState) and re-route. */
export function replaceLocation(url: string): void {
  window.history.replaceState(null, '', url)
  for (const listener of [...locationListeners]) listener()
}

const getHref = () => window.location.search + window.location.hash

/** The current route; re-renders on every hash or address change. */
export function useHashRoute(): Route {
  useSyncExternalStore(subscribe, getHref, getHref)
  return parseLocation(window.location.search, window.location.hash)
}

/**
 * Open a record page (used by the calling integration for
 * NAVIGATE_TO_RECORD). Returns false, without navigating, for an unknown
 * object type or an id that is not a record id.
 */
export function navigateToRecord(objectType: string, objectId: string): boolean {
  const href = recordHref(objectType, objectId)
  if (href === null) return false
  navigateTo(href)
  return true
}

/** The hash route of a record (`#/contacts/1`), or null for an unknown object type or an id that is not a record id. */
export function recordHref(objectType: string, objectId: string): string | null {
  const type = recordTypeOf(objectType)
  const id = String(objectId).trim()
  if (type === undefined || !/^\d+$/.test(id)) return null
  return hrefs.record(type, id)
}
