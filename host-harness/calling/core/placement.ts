/**
 * Where the calling widget runs, and how record pages navigate: the real
 * CRM's topology, as far as its public material shows it.
 *
 * Evidence (public):
 * - The SYNC message carries `iframeLocation` and `usesCallingWindow`, and the
 *   SDK hands both to the widget's `onReady` (HubSpot/calling-extensions-sdk,
 *   src/IFrameManager.ts, `onMessage` for SYNC).
 * - `iframeLocation` is `widget` (the drag-and-drop widget on record pages),
 *   `remote` (the frame under the navigation bar) or `window` (the frame in the
 *   detached calling window): the SDK's `onReady` documentation,
 *   https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/calling-sdk
 * - The detached calling window exists to hold the call: "To avoid triggering a
 *   full page refresh when navigating in HubSpot, which would cause calls to
 *   drop, you can leverage the detached calling window, which will hold the
 *   call connection" (Receive calls in HubSpot when using calling apps,
 *   https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/receive-incoming-calls).
 * - The calling window is a page of the CRM's own origin,
 *   `<hostUrl>/calling-integration-popup-ui/<portalId>`: the vendor's demos
 *   open that address themselves when `usesCallingWindow` is false
 *   (demos/demo-minimal-js/index.js; SDK PR #259 "Host window in
 *   calling-integration-popup-ui to fix cross origin error").
 * - With `usesCallingWindow` true the CRM loads the widget in the remote and in
 *   the window, each frame with its own SYNC (frameOf); the demos send SDK messages to the CRM only from the window
 *   (`iframeLocation === 'window'`) and keep the remote in step over their own
 *   BroadcastChannel (demos/demo-react-ts/src/hooks/useCti.ts `isFromWindow`,
 *   `isFromRemote`; SDK PRs #241, #244).
 * - Calling settings: `usesCallingWindow`, `usesRemote`, `supportsInboundCalling`
 *   are booleans of the settings API
 *   (https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/settings/create-calling-extension).
 *
 * Not public, and chosen here: how the CRM's record pages reach the calling
 * window. Ringside's pages talk to it over a BroadcastChannel of the harness's
 * own origin (window-link.ts), so a reloaded or newly opened record page finds
 * the window that holds the call.
 */
import type { IframeLocation } from '../../../shared/protocol/index.ts'
import { hrefs } from '../../lib/hash-routes.ts'

export type Placement = IframeLocation

export const PLACEMENTS: readonly Placement[] = ['widget', 'remote', 'window']

/** The placements as the harness offers them (the dock's Setup and the calling window's card). */
export const PLACEMENT_CHOICES: ReadonlyArray<{ value: Placement; label: string }> = [
  { value: 'widget', label: 'Docked widget (widget)' },
  { value: 'remote', label: 'Nav-bar remote (remote)' },
  { value: 'window', label: 'Calling window (window)' },
]

/** The window name the record pages open the calling window under (one per browser). */
export const CALLING_WINDOW_NAME = 'ringside-calling-window'


/** Size the calling window opens with when the settings give none (the SDK demos' sizeInfo is 400 × 650). */
export const CALLING_WINDOW_FEATURES = 'popup=yes,width=440,height=760'

function isPlacement(value: string | null): value is Placement {
  return value !== null && (PLACEMENTS as readonly string[]).includes(value)
}

/** `?placement=widget|remote|window` (this page load); an unknown value is reported and ignored. */
export function placementFromQuery(search: string): { placement: Placement | null; error?: string } {
  const raw = new URLSearchParams(search).get('placement')
  if (raw === null || raw === '') return { placement: null }
  if (isPlacement(raw)) return { placement: raw }
  return { placement: null, error: `?placement=${raw} is not one of ${PLACEMENTS.join(', ')}; it is ignored.` }
}

export interface PlacementSettings {
  usesCallingWindow: boolean
  usesRemote: boolean
  supportsInboundCalling: boolean
}

/**
 * The placement the settings ask for: the calling window when the app uses
 * it; the remote when the app supports inbound calls and uses the remote (the
 * SDK's docs tie `remote` to inbound calling); else the docked widget.
 */
export function placementFromSettings(settings: PlacementSettings): Placement {
  if (settings.usesCallingWindow) return 'window'
  if (settings.supportsInboundCalling && settings.usesRemote) return 'remote'
  return 'widget'
}

/**
 * The frame a page loads the widget in, for a placement: the placement itself, except in the `window` placement,
 * where the calling window's page loads it in the window and every other page (a record page) in the remote.
 * With `usesCallingWindow` the real CRM loads the widget in the remote as well as in the window; the SDK's demos
 * speak to the CRM from the window only and keep the remote in step over their own BroadcastChannel
 * (demos/demo-react-ts/src/hooks/useCti.ts: `isFromWindow`, `isFromRemote`).
 */
export function frameOf(placement: Placement, inCallingWindow: boolean): Placement {
  if (placement !== 'window') return placement
  return inCallingWindow ? 'window' : 'remote'
}

/**
 * The SYNC fields of a page's frame: `iframeLocation` is where this frame is (frameOf); `usesCallingWindow` says
 * whether a calling window holds the call, which in Ringside is exactly the `window` placement: then both frames,
 * the window and the remote beside it, are told true.
 */
export function syncPlacement(placement: Placement, inCallingWindow: boolean): { iframeLocation: Placement; usesCallingWindow: boolean } {
  return { iframeLocation: frameOf(placement, inCallingWindow), usesCallingWindow: placement === 'window' }
}

/** How record navigation works: in-page (hash change) or a full page load. */
export type NavigationMode = 'in-page' | 'full'

/** localStorage key of the harness's navigation setting. */
export const NAVIGATION_STORAGE_KEY = 'ringside:navigation'

/** `?navigation=full|in-page` wins over the stored setting; anything else is in-page. */
export function navigationMode(search: string, stored: string | null): NavigationMode {
  const query = new URLSearchParams(search).get('navigation')
  const value = query ?? stored
  return value === 'full' ? 'full' : 'in-page'
}

/**
 * The calling window's address: this page's query (widget, placement, …) and the calling-window route, as a
 * query-and-fragment reference (`?…#/calling-integration-popup-ui/<portalId>`, lib/routes.ts): it resolves against the opening page, so it keeps that
 * page's origin and path whatever they are.
 */
export function callingWindowUrl(location: Pick<Location, 'search'>): string {
  const query = new URLSearchParams(location.search)
  query.set('placement', 'window')
  return `?${query.toString()}${hrefs.callingWindow()}`
}
