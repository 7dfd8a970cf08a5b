/**
 * Full-page-load navigation: parts of the real CRM load a whole new page when
 * the user moves to another record, and that drops a call held in the page
 * (the widget's frame goes with it). HubSpot's docs give this as the reason
 * for the detached calling window: "To avoid triggering a full page refresh
 * when navigating in HubSpot, which would cause calls to drop, you can
 * leverage the detached calling window"
 * (https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/receive-incoming-calls).
 *
 * With the harness option on (`?navigation=full`, or the top bar's switch,
 * stored under NAVIGATION_STORAGE_KEY), every change of the record route
 * reloads the page.
 *
 * A call dropped this way: the real CRM's page is gone, so nothing is written
 * to the engagement (it stays as the API holds it, e.g. RINGING or
 * IN_PROGRESS). The public material says nothing more of what the CRM logs;
 * Ringside keeps a note of the dropped call in sessionStorage (this tab only)
 * and shows it after the load, so the drop is visible.
 */
import { isRecord } from '../../../shared/crm/guards.ts'
import { NAVIGATION_STORAGE_KEY, navigationMode, type NavigationMode } from '../core/placement.ts'

export const DROPPED_CALL_KEY = 'ringside:dropped-call'

export interface DroppedCall {
  externalCallId: string
  status: string
  engagementId?: number
  record?: { objectType: string; objectId: string; label?: string }
}

/** The navigation mode of this page load. */
export function currentNavigationMode(win: Pick<Window, 'location' | 'localStorage'> = window): NavigationMode {
  let stored: string | null
  try {
    stored = win.localStorage.getItem(NAVIGATION_STORAGE_KEY)
  } catch {
    stored = null
  }
  return navigationMode(win.location.search, stored)
}

/** Stores the navigation setting (the top bar's switch); takes effect at once. */
export function storeNavigationMode(mode: NavigationMode, win: Pick<Window, 'localStorage'> = window): void {
  try {
    if (mode === 'full') win.localStorage.setItem(NAVIGATION_STORAGE_KEY, 'full')
    else win.localStorage.removeItem(NAVIGATION_STORAGE_KEY)
  } catch {
    // storage refused (private mode): the query parameter still works
  }
}

/**
 * In full mode, a hash route change reloads the page (the new address is
 * already in place, so the reload opens the new record). Returns the
 * uninstaller.
 */
export function installFullNavigation(win: Window = window): () => void {
  const onHashChange = () => {
    if (currentNavigationMode(win) === 'full') win.location.reload()
  }
  win.addEventListener('hashchange', onHashChange)
  return () => win.removeEventListener('hashchange', onHashChange)
}

/**
 * Notes the call held in this page when the page goes away (pagehide), so the
 * next load of this tab can say it was dropped. `current` returns the open
 * call, or null.
 */
export function rememberDroppedCall(current: () => DroppedCall | null, win: Window = window): () => void {
  const onPageHide = () => {
    const call = current()
    try {
      if (call) win.sessionStorage.setItem(DROPPED_CALL_KEY, JSON.stringify(call))
    } catch {
      // storage refused: the drop goes unreported
    }
  }
  win.addEventListener('pagehide', onPageHide)
  return () => win.removeEventListener('pagehide', onPageHide)
}

/** The call the previous page of this tab dropped, once (it is cleared on read). */
export function takeDroppedCall(win: Pick<Window, 'sessionStorage'> = window): DroppedCall | null {
  let raw: string | null
  try {
    raw = win.sessionStorage.getItem(DROPPED_CALL_KEY)
    win.sessionStorage.removeItem(DROPPED_CALL_KEY)
  } catch {
    return null
  }
  if (raw === null || raw.length > 4096) return null
  return parseDroppedCall(raw)
}

function parseDroppedCall(raw: string): DroppedCall | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (!isRecord(value)) return null
  const v = value
  if (typeof v.externalCallId !== 'string' || typeof v.status !== 'string') return null
  const call: DroppedCall = { externalCallId: v.externalCallId, status: v.status }
  if (typeof v.engagementId === 'number' && Number.isSafeInteger(v.engagementId)) call.engagementId = v.engagementId
  const rec = v.record
  if (isRecord(rec)) {
    if (typeof rec.objectType === 'string' && typeof rec.objectId === 'string') {
      call.record = { objectType: rec.objectType, objectId: rec.objectId, ...(typeof rec.label === 'string' ? { label: rec.label } : {}) }
    }
  }
  return call
}

/** Calls in these phases are live: leaving the page drops them. */
const LIVE_STATUSES: ReadonlySet<string> = new Set(['CONNECTING', 'RINGING', 'IN_PROGRESS'])

/** Whether a call in this phase is still live (the page would drop it). */
export function isLiveCall(status: string | undefined): boolean {
  return status !== undefined && LIVE_STATUSES.has(status)
}

/** One sentence for the dock (short: alerts are cut at a few hundred characters). */
export function droppedCallText(call: DroppedCall): string {
  const where = call.record ? ` on ${call.record.label ?? `${call.record.objectType} ${call.record.objectId}`}` : ''
  const engagement = call.engagementId === undefined ? 'no engagement was created for it' : `engagement ${call.engagementId} stays as the API holds it`
  return `The call ${call.externalCallId}${where} (${call.status}) was dropped by a full page load: ${engagement}.`
}
