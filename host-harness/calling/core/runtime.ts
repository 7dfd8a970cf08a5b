/**
 * The calling integration's lifecycle: reads the settings (API + localStorage
 * override + ?widget=), mounts a CallingHost into the dock's container,
 * re-mounts it when the URL, placement or sync timeout change, and forwards
 * host events to the store. The host's behaviour per message lives in
 * controller/; this file only wires things together: the host's options and
 * status in widget-host.ts, the page's address and override in
 * page-address.ts, the composer's marks in composed-marks.ts.
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
import { CallingController, type ApiPort, type LoggedCall, type StartCallInput, type StartCallResult } from './controller/controller.ts'
import { applyHostStatus, SYNC_TIMEOUT_BOUNDS, syncIntervalFromQuery, syncTimeoutFromQuery, widgetHostOptions } from './widget-host.ts'
import { ComposedMarks } from './composed-marks.ts'
import { defaultNavigate, dropQueryWidget, openInNewTab, readOverride, watchOverride } from './page-address.ts'
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

export interface CallingConfig {
  navigate(objectType: string, objectId: string): boolean
}

export interface CallHooks {
  keepVisible(): boolean
  onCallLogged(call: LoggedCall): void
}

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
  /** The composer's messages, marked in their inspector entries. */
  readonly #composed = new ComposedMarks()
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
    this.#offs.push(
      ...watchOverride(
        () => this.#apply(),
        () => this.recheckOverride(),
      ),
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
      store().addTraffic(frame === undefined ? entry : { ...entry, frame }, this.#composed.markOf(entry))
    })
    const host = new CallingHost(widgetHostOptions(this.#container, effective, state, placed, { wrapOutbox: this.#faults.wrap, observer: recorder }))
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
    applyHostStatus(this.store, status, previous, this.#host?.src)
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
    const messageId = this.#composed.note(message.messageId, valid)
    this.#host.sendRaw({ ...message, type: message.type, messageId })
    return { ok: true, messageId }
  }
}

/** The app's runtime. */
export const callingRuntime = new CallingRuntime(callingStore, api)
