/**
 * The calling integration's state (a Zustand store, vanilla so the controller
 * and the runtime, which are plain TS, can write to it; components read it
 * with {@link useCalling}).
 *
 * Every write goes through an action defined here. The store is created by a
 * factory so each unit test gets a fresh one; the app uses
 * {@link callingStore}.
 */
import { createStore, useStore, type StoreApi } from 'zustand'
import type { HostStatus, IframeLocation, SyncAckFailedCause } from '../../../shared/protocol/index.ts'
import type { HostFaults } from './fault-outbox.ts'
import { applyConformance, initialConformance, type ConformanceEvent, type ConformanceState } from './conformance.ts'
import type { TrafficEntry } from './traffic-recorder.ts'
import type { TrafficRequest } from '../../../shared/traffic/traffic-file.ts'
import { MAX_TRAFFIC, TrafficKeeper } from './traffic-keeper.ts'
import { keptText } from '../../../shared/traffic/bound.ts'
import type { ApiExchange } from '../../lib/api-client.ts'
import { CallingCause } from './ports.ts'
import type { ApiCallingSettings, EffectiveSettings } from './settings.ts'
import { dialBlockerOf, widgetState } from './widget-state.ts'
import type { LateHandshake } from './late-handshake.ts'
import type { Alert, CallInfo, EngagementFaults, FaultMode, IncomingCaller, InspectorEntry, ReplyLink, Visibility } from './calling-types.ts'

/** Toasts kept on screen at once, and the longest alert text shown. */
export const MAX_ALERTS = 5
export const MAX_ALERT_CHARS = 300

export interface CallingState {
  // --- settings --------------------------------------------------------------
  settingsLoad: 'loading' | 'loaded' | 'failed'
  apiSettings: ApiCallingSettings | null
  /** Problems with the API settings, the override or ?widget= (each ignored). */
  settingsErrors: string[]
  effective: EffectiveSettings | null
  /** A `?widget=` URL off this machine, waiting for the person at the harness to load it or keep the registered widget. */
  pendingWidget: { url: string; origin: string } | null
  /** The placement (the settings' or the user's choice); this page's frame is frameOf(iframeLocation, inCallingWindow). */
  iframeLocation: IframeLocation
  /** This page is the calling window (set once at startup). */
  inCallingWindow: boolean
  syncTimeoutMs: number
  /** SYNC retry interval: 100 ms as the real host, 10 ms in fast mode (`?syncFast=1`). */
  syncIntervalMs: number
  /** The iframe's current src (differs from the settings after SET_WIDGET_URL). */
  currentSrc: string | null
  mounted: boolean
  // --- connection -----------------------------------------------------------
  status: HostStatus
  failureCause: SyncAckFailedCause | null
  widgetVersion: string | null
  /** The widget's page stays silent after its load: the scripts it loads from other sites (core/late-handshake.ts), or null. */
  lateHandshake: LateHandshake | null
  initialized: boolean
  loggedIn: boolean | null
  available: boolean | null
  // --- layout ---------------------------------------------------------------
  size: { width: number; height: number }
  visibility: Visibility
  // --- calls ----------------------------------------------------------------
  incoming: IncomingCaller | null
  call: CallInfo | null
  /** Messages from windows other than the widget's iframe, dropped by the host (not in the traffic log). */
  foreignDropped: { count: number; lastOrigin: string; lastReason: string } | null
  alerts: Alert[]
  /** Alerts pushed out by newer ones (only the last MAX_ALERTS are kept). */
  alertsDropped: number
  // --- inspector ------------------------------------------------------------
  traffic: InspectorEntry[]
  /** Messages dropped from the log, oldest first, to keep within MAX_TRAFFIC and TRAFFIC_BOUNDS.totalChars (since the last Clear). */
  trafficDropped: number
  /** The seq given to the last kept entry (never reused, not even after Clear). */
  trafficSeq: number
  links: ReplyLink[]
  /** The API requests the calling controller made, each with the message that caused it (at most MAX_TRAFFIC). */
  requests: TrafficRequest[]
  conformance: ConformanceState
  // --- faults ---------------------------------------------------------------
  engagementFaults: EngagementFaults
  hostFaults: HostFaults

  // --- actions --------------------------------------------------------------
  patch(partial: Partial<CallingState>): void
  /**
   * Adds a traffic entry. With batching on (the app's store) entries are kept aside
   * and applied in one state update per animation frame (flushTraffic), so a flood
   * of messages costs one render per frame, not one per message. Links (addLink) are
   * batched with them.
   */
  addTraffic(entry: TrafficEntry, composed?: 'valid' | 'invalid'): InspectorEntry
  /** Applies the traffic entries and links kept aside (no-op when none). */
  flushTraffic(): void
  addLink(link: ReplyLink): void
  /**
   * Records an API request and its answer (lib/api-client.ts onApiExchange) if the calling
   * controller made it (tagged with a CallingCause): linked to its message by `causeSeq`, placed
   * after the newest message (`afterSeq`), bodies bounded. Batched with the traffic.
   */
  addRequest(exchange: ApiExchange): void
  conformanceEvent(event: ConformanceEvent): void
  clearInspector(): void
  alert(message: string, source: Alert['source']): void
  dismissAlert(id: number): void
  dismissAllAlerts(): void
  updateCall(externalCallId: string, change: Partial<CallInfo>): void
  setEngagementFault(kind: keyof EngagementFaults, mode: FaultMode): void
  /** Consumes a one-shot fault: true when this operation must fail. */
  takeEngagementFault(kind: keyof EngagementFaults): boolean
}

export type CallingStore = StoreApi<CallingState>

export interface CallingStoreOptions {
  /** Batch traffic updates per animation frame (see addTraffic). Off: one update per entry. */
  batchTraffic?: boolean
}

/** Runs `flush` on the next animation frame, or after 50 ms when frames do not come (a hidden tab). */
function scheduleFrame(flush: () => void): void {
  let done = false
  const once = (): void => {
    if (done) return
    done = true
    flush()
  }
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once)
  setTimeout(once, 50)
}

export function createCallingStore(initial: Partial<CallingState> = {}, options: CallingStoreOptions = {}): CallingStore {
  let alertSeq = 0
  let pending: InspectorEntry[] = []
  let pendingLinks: ReplyLink[] = []
  let pendingRequests: TrafficRequest[] = []
  let scheduled = false
  const keeper = new TrafficKeeper()
  return createStore<CallingState>()((set, get) => {
    /** One state update for every entry and link kept aside: traffic, trafficSeq, conformance and links, in order. */
    const flushTraffic = (): void => {
      scheduled = false
      if (pending.length === 0 && pendingLinks.length === 0 && pendingRequests.length === 0) return
      const batch = pending
      const newLinks = pendingLinks
      const newRequests = pendingRequests
      pending = []
      pendingLinks = []
      pendingRequests = []
      set((state) => {
        const next: Partial<CallingState> = {}
        let added: InspectorEntry[] = []
        if (batch.length > 0) {
          // The host's judgement sees each message as received; the log keeps it bounded.
          let conformance = state.conformance
          for (const entry of batch) conformance = applyConformance(conformance, { kind: 'traffic', entry })
          added = batch.map((entry) => keeper.entry(entry))
          Object.assign(next, { trafficSeq: batch[batch.length - 1]!.seq, conformance })
        }
        if (newLinks.length > 0) {
          const links = state.links.concat(newLinks.map((link) => keeper.link(link)))
          next.links = links.length > MAX_TRAFFIC ? links.slice(-MAX_TRAFFIC) : links
        }
        if (added.length > 0 || newRequests.length > 0) {
          const kept = keeper.trim(state, { traffic: added, requests: newRequests })
          Object.assign(next, { traffic: kept.traffic, requests: kept.requests })
          if (kept.dropped > 0) next.trafficDropped = state.trafficDropped + kept.dropped
        }
        return next
      })
    }
    /** Applies the kept-aside entries and links now (batching off) or on the next frame. */
    const scheduleFlush = (): void => {
      if (options.batchTraffic !== true) flushTraffic()
      else if (!scheduled) {
        scheduled = true
        scheduleFrame(flushTraffic)
      }
    }
    return {
    settingsLoad: 'loading',
    apiSettings: null,
    settingsErrors: [],
    effective: null,
    pendingWidget: null,
    iframeLocation: 'widget',
    inCallingWindow: false,
    syncTimeoutMs: 30000,
    syncIntervalMs: 100,
    currentSrc: null,
    mounted: false,
    status: 'idle',
    failureCause: null,
    widgetVersion: null,
    lateHandshake: null,
    initialized: false,
    loggedIn: null,
    available: null,
    size: { width: 400, height: 600 },
    visibility: { isMinimized: false, isHidden: false },
    incoming: null,
    call: null,
    foreignDropped: null,
    alerts: [],
    alertsDropped: 0,
    traffic: [],
    trafficDropped: 0,
    trafficSeq: 0,
    links: [],
    requests: [],
    conformance: initialConformance(),
    engagementFaults: { create: 'off', update: 'off' },
    hostFaults: {},
    ...initial,

    patch: (partial) => set(partial),

    addTraffic: (entry, composed) => {
      const last = pending.length > 0 ? pending[pending.length - 1]!.seq : get().trafficSeq
      const kept: InspectorEntry = { ...entry, hostSeq: entry.seq, seq: last + 1 }
      if (composed) kept.composed = composed
      keeper.noteSeq(entry.message, kept.seq)
      pending.push(kept)
      scheduleFlush()
      return kept
    },

    flushTraffic,

    addLink: (link) => {
      pendingLinks.push(link)
      scheduleFlush()
    },

    addRequest: (exchange) => {
      if (!(exchange.tag instanceof CallingCause)) return
      const cause = exchange.tag.message
      const causeSeq = keeper.seqOf(cause)
      const afterSeq = pending.length > 0 ? pending[pending.length - 1]!.seq : get().trafficSeq
      const request: TrafficRequest = {
        id: exchange.id,
        time: exchange.time,
        method: exchange.method,
        path: exchange.path,
        status: exchange.status,
        durationMs: Math.round(exchange.durationMs * 10) / 10,
        afterSeq,
      }
      if (causeSeq !== undefined) request.causeSeq = causeSeq
      if (exchange.error !== undefined) request.error = exchange.error
      pendingRequests.push(keeper.request(request, exchange))
      scheduleFlush()
    },

    conformanceEvent: (event) => {
      flushTraffic() // conformance sees traffic and events in the order they happened
      set((state) => {
        const conformance = applyConformance(state.conformance, event)
        return conformance === state.conformance ? state : { conformance }
      })
    },

    clearInspector: () => {
      const dropped = pending.at(-1)?.seq
      pending = []
      pendingLinks = []
      pendingRequests = []
      keeper.clear()
      set((state) => ({
        ...(dropped !== undefined ? { trafficSeq: dropped } : {}),
        traffic: [],
        trafficDropped: 0,
        links: [],
        requests: [],
        foreignDropped: null,
        conformance: { ...state.conformance, findings: [] },
      }))
    },

    alert: (message, source) => {
      alertSeq += 1
      // A widget controls this text: keep it readable, whatever it sends.
      // keptText copies the cut: a bare slice would keep the widget's whole string alive.
      const text = message.length > MAX_ALERT_CHARS ? `${keptText(message, MAX_ALERT_CHARS + 1)} (${message.length} characters)` : message
      const alert: Alert = { id: alertSeq, message: text, source }
      set((state) => {
        const alerts = [...state.alerts, alert]
        const dropped = Math.max(0, alerts.length - MAX_ALERTS)
        return { alerts: alerts.slice(dropped), alertsDropped: state.alertsDropped + dropped }
      })
    },

    dismissAlert: (id) => set((state) => ({ alerts: state.alerts.filter((a) => a.id !== id) })),

    dismissAllAlerts: () => set({ alerts: [], alertsDropped: 0 }),

    updateCall: (externalCallId, change) =>
      set((state) => (state.call?.externalCallId === externalCallId ? { call: { ...state.call, ...change } } : state)),

    setEngagementFault: (kind, mode) => set((state) => ({ engagementFaults: { ...state.engagementFaults, [kind]: mode } })),

    takeEngagementFault: (kind) => {
      const mode = get().engagementFaults[kind]
      if (mode === 'off') return false
      if (mode === 'next') set((state) => ({ engagementFaults: { ...state.engagementFaults, [kind]: 'off' } }))
      return true
    },
    }
  })
}

/** Why the user cannot dial in this state, or null when they can (useCanDial, startCall): read from the one widget state. */
export function dialBlocker(s: Pick<CallingState, 'settingsLoad' | 'mounted' | 'status' | 'failureCause' | 'initialized' | 'loggedIn' | 'available'>): string | null {
  return dialBlockerOf(widgetState(s))
}

/**
 * Whether the widget is still starting, so that dialBlocker's reason passes by itself: the calling
 * settings are loading, the widget's page is loading or in its handshake, or it has not sent INITIALIZED
 * yet. False when it can dial, and for what waits on the user: no widget to load, a failed handshake,
 * a logged-out widget.
 */
export function widgetStarting(s: Pick<CallingState, 'settingsLoad' | 'mounted' | 'status' | 'initialized'>): boolean {
  if (!s.mounted) return s.settingsLoad === 'loading'
  if (s.status === 'failed') return false
  return s.status !== 'ready' || !s.initialized
}

/** The app's store. */
export const callingStore = createCallingStore({}, { batchTraffic: true })

/** Reads one slice of the app's calling state (re-renders when it changes). */
export function useCalling<T>(selector: (state: CallingState) => T): T {
  return useStore(callingStore, selector)
}
