/**
 * The widget's CallingHost as the runtime builds it: the frame's sandbox and `allow`, the SYNC timing read
 * from the page's address, the host's options, and what a status change of the host means for the store.
 */
import type { CallingHostOptions, HostStatus } from '../../../shared/protocol/index.ts'
import type { CallingState, CallingStore } from './calling-store.ts'
import type { EffectiveSettings } from './settings.ts'
import { HARNESS_ACCOUNT } from './ports.ts'
import type { syncPlacement } from './placement.ts'

/**
 * The iframe sandbox: only what a cross-origin calling widget needs.
 * - allow-scripts: the widget is a JavaScript app (the SDK itself is script).
 * - allow-same-origin: keeps the widget's REAL origin. Without it the frame
 *   gets an opaque origin ("null"), its postMessage origin no longer matches
 *   the URL we loaded, and the handshake's origin check (correctly) refuses
 *   it. Safe here because the widget is cross-origin to the harness: it still
 *   cannot reach the harness's DOM or storage.
 * - allow-forms: login and settings forms inside the widget can submit.
 * - allow-popups: OAuth/login windows and "open recording" links.
 * Not granted: top navigation, modals, pointer lock, downloads, presentation.
 */
export const WIDGET_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups'
/** Microphone for the softphone, autoplay for the ringtone (the CRM's own `allow`). */
export const WIDGET_ALLOW = 'microphone; autoplay'

export const SYNC_TIMEOUT_BOUNDS = { min: 200, max: 120_000, default: 30_000 } as const

/** SYNC retry interval: the real host's 100 ms, or 10 ms in fast mode (`?syncFast=1`, for tests). */
export const SYNC_INTERVAL_MS = { default: 100, fast: 10 } as const

/** `?syncFast=1` → the fast SYNC retry interval, otherwise the real host's. */
export function syncIntervalFromQuery(search: string): number {
  return new URLSearchParams(search).get('syncFast') === '1' ? SYNC_INTERVAL_MS.fast : SYNC_INTERVAL_MS.default
}

/** Reads `?syncTimeoutMs=` (clamped), or the default. */
export function syncTimeoutFromQuery(search: string): number {
  const raw = new URLSearchParams(search).get('syncTimeoutMs')
  const n = raw === null ? Number.NaN : Number(raw)
  if (!Number.isFinite(n)) return SYNC_TIMEOUT_BOUNDS.default
  return Math.min(SYNC_TIMEOUT_BOUNDS.max, Math.max(SYNC_TIMEOUT_BOUNDS.min, Math.round(n)))
}

/** The options of the widget's CallingHost: the settings' URL, the state's size and SYNC timing, where the frame runs. */
export function widgetHostOptions(
  container: HTMLElement,
  effective: EffectiveSettings,
  state: Pick<CallingState, 'size' | 'syncTimeoutMs' | 'syncIntervalMs'>,
  placed: ReturnType<typeof syncPlacement>,
  wiring: Pick<CallingHostOptions, 'wrapOutbox' | 'observer'>,
): CallingHostOptions {
  return {
    container,
    src: effective.url,
    width: state.size.width,
    height: state.size.height,
    sync: {
      portalId: HARNESS_ACCOUNT.portalId,
      userId: HARNESS_ACCOUNT.userId,
      ownerId: HARNESS_ACCOUNT.ownerId,
      ...placed,
    },
    syncTimeoutMs: state.syncTimeoutMs,
    syncIntervalMs: state.syncIntervalMs,
    allow: WIDGET_ALLOW,
    sandbox: WIDGET_SANDBOX,
    title: `Calling widget: ${effective.name}`,
    autoResize: false,
    autoSetWidgetUrl: false,
    messageIdPrefix: 'ringside',
    wrapOutbox: wiring.wrapOutbox,
    observer: wiring.observer,
  }
}

/**
 * A status change of the widget's host, in the store: a widget reset for the conformance checks, and the
 * status (a new widget document forgets what the one before said). `src` is the host's frame's src.
 */
export function applyHostStatus(store: CallingStore, status: HostStatus, previous: HostStatus, src: string | undefined): void {
  const state = store.getState()
  if (status === 'idle' && previous !== 'idle') {
    state.conformanceEvent({ kind: 'widget-reset', reason: "the widget's page was unloaded (reload or new URL)" })
  } else if (status === 'syncing' && (previous === 'ready' || previous === 'failed')) {
    state.conformanceEvent({ kind: 'widget-reset', reason: 'the widget reloaded' })
  }
  const patch: Parameters<typeof state.patch>[0] = { status }
  if (status === 'syncing' || status === 'idle') {
    // A new widget document: nothing it said before counts any more (an
    // unfinished call stays listed as open by the conformance checks).
    Object.assign(patch, { initialized: false, loggedIn: null, available: null, widgetVersion: null, incoming: null, call: null })
  }
  if (status === 'syncing') patch.failureCause = null
  if (src !== undefined) patch.currentSrc = src
  state.patch(patch)
}
