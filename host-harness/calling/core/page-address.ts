/**
 * What the calling runtime reads and changes of this page: the record routes it navigates to (in this tab or
 * a new one), `?widget=` in the address, and the widget URL override in localStorage.
 */
import { OVERRIDE_STORAGE_KEY } from './settings.ts'

/** Opens a record in this tab (NAVIGATE_TO_RECORD), until `configureCalling` gives the app's router. */
export function defaultNavigate(objectType: string, objectId: string): boolean {
  window.location.hash = `/${objectType}/${encodeURIComponent(objectId)}`
  return true
}

/** Opens a record in a new tab (NAVIGATE_TO_RECORD with NEW_TAB). */
export function openInNewTab(objectType: string, objectId: string): boolean {
  // A fragment-only URL opens this page (its path and query) on the record's route. With noopener,
  // window.open returns null even when the tab opened.
  window.open(`#/${objectType}/${encodeURIComponent(objectId)}`, '_blank', 'noopener')
  return true
}

/** Removes `?widget=` from the address bar (a reload then keeps the choice made in the harness). */
export function dropQueryWidget(): void {
  const address = new URL(window.location.href)
  address.searchParams.delete('widget')
  window.history.replaceState(window.history.state, '', address.href)
}

/** The widget URL override as localStorage holds it (null when absent or storage is blocked). */
export function readOverride(): string | null {
  try {
    return window.localStorage.getItem(OVERRIDE_STORAGE_KEY)
  } catch {
    return null
  }
}

/**
 * Calls `changed` when another tab changes the override, and `recheck` when this tab or the dock regains
 * focus or the tab is shown again; returns what stops listening.
 */
export function watchOverride(changed: () => void, recheck: () => void): Array<() => void> {
  // A `storage` event reaches the OTHER tabs only. A change made in this tab (e.g.
  // localStorage.setItem in its devtools) is noticed when the tab or the dock regains
  // focus (recheckOverride); the dock's Setup field applies at once.
  const onStorage = (event: StorageEvent) => {
    if (event.key === OVERRIDE_STORAGE_KEY || event.key === null) changed()
  }
  const onFocus = () => recheck()
  const onVisible = () => {
    if (document.visibilityState === 'visible') recheck()
  }
  window.addEventListener('storage', onStorage)
  window.addEventListener('focus', onFocus)
  document.addEventListener('visibilitychange', onVisible)
  return [
    () => window.removeEventListener('storage', onStorage),
    () => window.removeEventListener('focus', onFocus),
    () => document.removeEventListener('visibilitychange', onVisible),
  ]
}
