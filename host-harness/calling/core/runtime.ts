/**
 * The calling integration's lifecycle: reads the settings (API + localStorage
 * override + ?widget=), mounts a CallingHost into the dock's container,
 * re-mounts it when the URL, placement or sync timeout change, and forwards
 * host events to the store. The host's behaviour per message lives in
 * controller/; this file only wires things together.
 */
import { CallingHost, type HostStatus, type IframeLocation } from '../../../shared/protocol/index.ts'
import { FaultInjector, type HostFaults } from './fault-outbox.ts'
import { TrafficRecorder } from './traffic-recorder.ts'
import { placementFromSettings, syncPlacement } from './placement.ts'
import { api, CALLING_SETTINGS_PATH, crmConnectionInfo, onApiChange, onApiExchange } from '../../lib/api-client.ts'
import { exposeTraffic } from './traffic-export.ts'
import { callingStore, type CallingStore } from './calling-store.ts'
import type { EngagementFaults, FaultMode } from './calling-types.ts'
import { LateHandshakeWatch } from './late-handshake.ts'
import { CallingController, HARNESS_ACCOUNT, type ApiPort, type LoggedCall, type StartCallInput, type StartCallResult } from './controller/controller.ts'
import {
  OVERRIDE_STORAGE_KEY,
  clampSize,
  defaultWidgetUrl,
  overrideWithUrl,
  parseApiSettings,
  parseOverride,
  parseQueryWidget,
  queryWidgetNeedsConsent,
  resolveSettings,
} from './settings.ts'

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

export interface CallingConfig {
  navigate(objectType: string, objectId: string): boolean
}

export interface CallHooks {
  keepVisible(): boolean
  onCallLogged(call: LoggedCall): void
}

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

function defaultNavigate(objectType: string, objectId: string): boolean {
  window.location.hash = `/${objectType}/${encodeURIComponent(objectId)}`
  return true
}

function openInNewTab(objectType: string, objectId: string): boolean {
  // A fragment-only URL opens this page (its path and query) on the record's route. With noopener,
  // window.open returns null even when the tab opened.
  window.open(`#/${objectType}/${encodeURIComponent(objectId)}`, '_blank', 'noopener')
  return true
}

let composedSeq = 0

export class CallingRuntime {
  readonly store: CallingStore
  readonly #api: ApiPort
  #config: CallingConfig = { navigate: defaultNavigate }
  #container: HTMLElement | null = null
  #host: CallingHost | null = null
  /** Wire faults (FaultsPanel), applied by wrapping the host's outbox; they survive a re-mount. */
  readonly #faults = new FaultInjector()
  #controller: CallingController | null = null
  #hostOffs: Array<() => void> = []
  #mountedUrl: string | null = null
  #queryUrl: string | null = null
  #queryErrors: string[] = []
  #started = false
  #disposed = false
  #offs: Array<() => void> = []
  #apiErrors: string[] = []
  /** The user picked a placement: the settings' default no longer applies. */
  #locationChosen = false
  #composed = new Map<string, 'valid' | 'invalid'>()
  /** The override text the settings were last resolved with (to notice a change made in this tab). */
  #appliedOverride: string | null = null

  /** What the widget's page loads from other sites, when it stays silent after its load (the dock names a CDN SDK that did not load). */
  readonly #late: LateHandshakeWatch

  constructor(store: CallingStore, apiPort: ApiPort) {
    this.store = store
    this.#api = apiPort
    this.#late = new LateHandshakeWatch(apiPort, (late) => this.store.getState().patch({ lateHandshake: late }), { serverBehind: () => crmConnectionInfo()?.mode === 'server' })
  }

  configure(config: CallingConfig): void {
    this.#config = config
  }

  #callHooks: CallHooks = { keepVisible: () => false, onCallLogged: () => {} }

  /** The task queue plugs in here: it keeps the widget visible and hears about every logged call. */
  setCallHooks(hooks: CallHooks): void {
    this.#callHooks = hooks
  }

  /** Reads the settings and starts listening for their changes (idempotent). */
  start(): void {
    if (this.#started) return
    this.#started = true
    const query = parseQueryWidget(window.location.search)
    this.#queryErrors = query.errors
    // Another site may have opened this address: a widget off this machine waits for a yes in the dock.
    if (query.url !== null && queryWidgetNeedsConsent(query.url)) {
      this.store.getState().patch({ pendingWidget: { url: query.url, origin: new URL(query.url).origin } })
    } else {
      this.#queryUrl = query.url
    }
    this.store.getState().patch({ syncTimeoutMs: syncTimeoutFromQuery(window.location.search), syncIntervalMs: syncIntervalFromQuery(window.location.search) })
    // A `storage` event reaches the OTHER tabs only. A change made in this tab (e.g.
    // localStorage.setItem in its devtools) is noticed when the tab or the dock regains
    // focus (recheckOverride); the dock's Setup field applies at once.
    const onStorage = (event: StorageEvent) => {
      if (event.key === OVERRIDE_STORAGE_KEY || event.key === null) this.#apply()
    }
    const onFocus = () => this.recheckOverride()
    const onVisible = () => {
      if (document.visibilityState === 'visible') this.recheckOverride()
    }
    window.addEventListener('storage', onStorage)
    window.addEventListener('focus', onFocus)
    document.addEventListener('visibilitychange', onVisible)
    this.#offs.push(
      () => window.removeEventListener('storage', onStorage),
      () => window.removeEventListener('focus', onFocus),
      () => document.removeEventListener('visibilitychange', onVisible),
      onApiChange((change) => {
        if (change.path.startsWith(CALLING_SETTINGS_PATH) || change.tables?.includes('calling_settings')) void this.loadSettings()
      }),
      // The inspector listens to the API client; the controller's requests carry their cause.
      onApiExchange((exchange) => this.store.getState().addRequest(exchange)),
      exposeTraffic(() => {
        this.store.getState().flushTraffic()
        return this.store.getState()
      }),
    )
    void this.loadSettings()
  }

  /** Unmounts the widget and stops listening (tests; the app keeps one runtime for the page's life). */
  dispose(): void {
    for (const off of this.#offs.splice(0)) off()
    this.#container = null
    this.#teardown()
    this.#disposed = true
  }

  /** GET the calling settings of app 1001 and apply them. */
  async loadSettings(): Promise<void> {
    if (this.#disposed) return
    let apiErrors: string[]
    try {
      const body = await this.#api.get(CALLING_SETTINGS_PATH, { developerKey: true })
      const parsed = parseApiSettings(body)
      apiErrors = parsed.errors
      const first = this.store.getState().settingsLoad !== 'loaded'
      this.store.getState().patch({ apiSettings: parsed.settings, settingsLoad: 'loaded' })
      if (first && parsed.settings && !this.#locationChosen) {
        this.store.getState().patch({ iframeLocation: placementFromSettings(parsed.settings) })
      }
    } catch (error) {
      apiErrors = [`Could not read the calling settings of app 1001: ${error instanceof Error ? error.message : String(error)}`]
      this.store.getState().patch({ apiSettings: null, settingsLoad: 'failed' })
    }
    this.#apply(apiErrors)
  }

  /**
   * Re-reads the localStorage override and applies it if it changed since the last
   * time (the dock and the window call this when they gain focus).
   */
  recheckOverride(): void {
    if (!this.#started || this.#disposed) return
    if (readOverride() !== this.#appliedOverride) this.#apply()
  }

  /** Re-resolves the effective settings and re-mounts when the URL changed. */
  #apply(apiErrors?: string[]): void {
    if (this.#disposed) return
    if (apiErrors) this.#apiErrors = apiErrors
    const raw = readOverride()
    this.#appliedOverride = raw
    const override = parseOverride(raw)
    const state = this.store.getState()
    const effective =
      state.settingsLoad === 'loading'
        ? null
        : resolveSettings({
            api: state.apiSettings,
            override: override.override,
            queryUrl: this.#queryUrl,
            defaultUrl: state.settingsLoad === 'failed' ? defaultWidgetUrl(window.location) : null,
          })
    const settingsErrors = [...this.#apiErrors, ...override.errors, ...this.#queryErrors]
    const size = effective ? clampSize(effective.width, effective.height) : state.size
    this.store.getState().patch({ effective, settingsErrors, size })
    if ((effective?.url ?? null) !== this.#mountedUrl) this.#remount()
    else this.#host?.resize(size.width, size.height)
  }

  /** The dock hands over (or takes back, with null) the element the iframe lives in. */
  attach(container: HTMLElement | null): void {
    if (container === this.#container) return
    this.#container = container
    this.start()
    this.#remount()
  }

  #teardown(): void {
    this.#late.dispose()
    for (const off of this.#hostOffs.splice(0)) off()
    this.#controller?.dispose()
    this.#controller = null
    if (this.#host) {
      const host = this.#host
      this.#host = null
      host.destroy()
      this.#faults.dispose()
      this.store.getState().conformanceEvent({ kind: 'widget-reset', reason: 'the widget was unloaded' })
    }
    this.#mountedUrl = null
    this.store.getState().patch({
      mounted: false,
      status: 'idle',
      initialized: false,
      loggedIn: null,
      available: null,
      widgetVersion: null,
      currentSrc: null,
      incoming: null,
      call: null,
    })
  }

  #remount(): void {
    this.#teardown()
    const state = this.store.getState()
    const effective = state.effective
    if (!this.#container || !effective) return
    const store = () => this.store.getState()
    const placed = syncPlacement(state.iframeLocation, state.inCallingWindow)
    // Where the widget runs in two frames (the calling window and the remote), each entry names its frame.
    const frame = placed.usesCallingWindow ? placed.iframeLocation : undefined
    // The inspector's traffic log, plugged into the host's observer seam.
    const recorder = new TrafficRecorder((entry) => {
      if (entry.direction === 'in') this.#late.heard()
      const id = typeof entry.message === 'object' && entry.message !== null ? (entry.message as { messageId?: unknown }).messageId : undefined
      const composed = entry.direction === 'out' && typeof id === 'string' ? this.#composed.get(id) : undefined
      store().addTraffic(frame === undefined ? entry : { ...entry, frame }, composed)
    })
    const host = new CallingHost({
      container: this.#container,
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
      wrapOutbox: this.#faults.wrap,
      observer: recorder,
    })
    this.#faults.set(state.hostFaults)
    this.#host = host
    this.#mountedUrl = effective.url
    this.#hostOffs.push(
      host.on('status', (status, previous) => this.#onStatus(status, previous)),
      host.on('ready', (info) => store().patch({ widgetVersion: info.version ?? null, failureCause: null })),
      host.on('syncAckFailed', ({ cause }) => store().patch({ failureCause: cause })),
      host.on('rejected', ({ fromOtherWindow, origin, reason }) => {
        if (!fromOtherWindow) return // invalid widget messages are already in the traffic log
        const count = (store().foreignDropped?.count ?? 0) + 1
        store().patch({ foreignDropped: { count, lastOrigin: origin, lastReason: reason } })
      }),
    )
    this.#controller = new CallingController({
      host,
      api: this.#api,
      store: this.store,
      navigate: (type, id) => this.#config.navigate(type, id),
      openInNewTab,
      keepVisible: () => this.#callHooks.keepVisible(),
      onCallLogged: (call) => this.#callHooks.onCallLogged(call),
    })
    store().patch({ mounted: true, currentSrc: effective.url, failureCause: null })
    host.mount()
  }

  #onStatus(status: HostStatus, previous: HostStatus): void {
    const store = this.store.getState()
    if (status === 'idle' && previous !== 'idle') {
      store.conformanceEvent({ kind: 'widget-reset', reason: "the widget's page was unloaded (reload or new URL)" })
    } else if (status === 'syncing' && (previous === 'ready' || previous === 'failed')) {
      store.conformanceEvent({ kind: 'widget-reset', reason: 'the widget reloaded' })
    }
    const patch: Parameters<typeof store.patch>[0] = { status }
    if (status === 'syncing' || status === 'idle') {
      // A new widget document: nothing it said before counts any more (an
      // unfinished call stays listed as open by the conformance checks).
      Object.assign(patch, { initialized: false, loggedIn: null, available: null, widgetVersion: null, incoming: null, call: null })
    }
    if (status === 'syncing') patch.failureCause = null
    if (this.#host) patch.currentSrc = this.#host.src
    store.patch(patch)
    if (this.#host) this.#late.status(status, this.#host.src)
  }

  // --- actions for the components -------------------------------------------

  get controller(): CallingController | null {
    return this.#controller
  }

  startCall(input: StartCallInput): StartCallResult {
    if (!this.#controller) return { ok: false, reason: 'No calling widget is loaded.' }
    return this.#controller.startCall(input)
  }

  canDial(): { ok: boolean; reason?: string } {
    const reason = this.#controller ? this.#controller.cannotDialReason() : 'No calling widget is loaded.'
    return reason === null ? { ok: true } : { ok: false, reason }
  }

  reloadWidget(): void {
    this.#host?.reload()
  }

  setIframeLocation(location: IframeLocation): void {
    this.#locationChosen = true
    if (this.store.getState().iframeLocation === location) return
    this.store.getState().patch({ iframeLocation: location })
    this.#remount()
  }

  setSyncTimeout(ms: number): void {
    const clamped = Math.min(SYNC_TIMEOUT_BOUNDS.max, Math.max(SYNC_TIMEOUT_BOUNDS.min, Math.round(ms)))
    this.store.getState().patch({ syncTimeoutMs: clamped })
    this.#remount()
  }

  /** Writes (or clears, with null) the localStorage URL override; ?widget= stops applying. */
  setOverrideUrl(url: string | null): { ok: true } | { ok: false; error: string } {
    const next = overrideWithUrl(readOverride(), url)
    if (next.error) return { ok: false, error: next.error }
    if (next.value === null) window.localStorage.removeItem(OVERRIDE_STORAGE_KEY)
    else window.localStorage.setItem(OVERRIDE_STORAGE_KEY, next.value)
    if (this.#queryUrl !== null || this.#queryErrors.length > 0 || this.store.getState().pendingWidget) {
      // The harness UI is the newer choice: drop ?widget= from the address so it sticks.
      dropQueryWidget()
      this.#queryUrl = null
      this.#queryErrors = []
      this.store.getState().patch({ pendingWidget: null })
    }
    this.#apply()
    return { ok: true }
  }

  /** The person at the harness chose to load the `?widget=` URL that waited: it applies for this page load. */
  loadPendingWidget(): void {
    const pending = this.store.getState().pendingWidget
    if (!pending) return
    this.store.getState().patch({ pendingWidget: null })
    this.#queryUrl = pending.url
    this.#apply()
  }

  /** The person at the harness declined the `?widget=` URL: it leaves the address, the widget in place keeps running. */
  keepRegisteredWidget(): void {
    if (!this.store.getState().pendingWidget) return
    this.store.getState().patch({ pendingWidget: null })
    dropQueryWidget()
  }

  setHostFaults(faults: HostFaults): void {
    const merged = { ...this.store.getState().hostFaults, ...faults }
    this.#faults.set(merged)
    this.store.getState().patch({ hostFaults: merged })
  }

  setEngagementFault(kind: keyof EngagementFaults, mode: FaultMode): void {
    this.store.getState().setEngagementFault(kind, mode)
  }

  show(): void {
    this.#controller?.show()
    if (!this.#controller) this.store.getState().patch({ visibility: { isHidden: false, isMinimized: false } })
  }
  hide(): void {
    this.#controller?.hide()
  }
  minimize(): void {
    this.#controller?.minimize()
  }

  /**
   * Sends a composed host → widget message as is (valid or not, on purpose);
   * its inspector entry is marked as composed.
   */
  sendComposed(message: Record<string, unknown>, valid: boolean): { ok: true; messageId: string } | { ok: false; reason: string } {
    if (!this.#host) return { ok: false, reason: 'No calling widget is loaded.' }
    if (typeof message.type !== 'string') return { ok: false, reason: 'The message needs a string type.' }
    composedSeq += 1
    const given = message.messageId
    const messageId = typeof given === 'string' && given !== '' ? given : `composer_${composedSeq}_${Math.random().toString(36).slice(2, 8)}`
    this.#composed.set(messageId, valid ? 'valid' : 'invalid')
    this.#host.sendRaw({ ...message, type: message.type, messageId })
    return { ok: true, messageId }
  }
}

/** Removes `?widget=` from the address bar (a reload then keeps the choice made in the harness). */
function dropQueryWidget(): void {
  const address = new URL(window.location.href)
  address.searchParams.delete('widget')
  window.history.replaceState(window.history.state, '', address.href)
}

function readOverride(): string | null {
  try {
    return window.localStorage.getItem(OVERRIDE_STORAGE_KEY)
  } catch {
    return null
  }
}

/** The app's runtime. */
export const callingRuntime = new CallingRuntime(callingStore, api)
