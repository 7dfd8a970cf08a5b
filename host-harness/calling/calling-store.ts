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
import type { HostStatus, IframeLocation, SyncAckFailedCause, TrafficEntry } from '../../shared/protocol/index.ts'
import type { HostFaults } from './fault-outbox.ts'
import { applyConformance, initialConformance, type ConformanceEvent, type ConformanceState } from './conformance.ts'
import type { ReplyLink } from './links.ts'
import type { ApiCallingSettings, EffectiveSettings } from './settings.ts'

/** How many traffic entries the inspector keeps (oldest dropped first). */
export const MAX_TRAFFIC = 3000

/** A traffic entry as the inspector keeps it: `seq` renumbered across widget re-mounts. */
export interface InspectorEntry extends TrafficEntry {
  /** The seq CallingHost gave it (restarts at 1 for every new host). */
  hostSeq: number
  /** Set by the composer: sent on purpose although it does not validate. */
  composed?: 'valid' | 'invalid'
}

export type FaultMode = 'off' | 'next' | 'always'

export interface EngagementFaults {
  create: FaultMode
  update: FaultMode
}

/** Toasts kept on screen at once, and the longest alert text shown. */
export const MAX_ALERTS = 5
export const MAX_ALERT_CHARS = 300

export interface Alert {
  id: number
  message: string
  /** Who raised it: the widget (ERROR / sendError) or the harness itself. */
  source: 'widget' | 'harness'
}

export interface RecordRef {
  objectType: string
  objectId: string
  label?: string
}

/** An inbound call the widget announced, with the caller-ID match. */
export interface IncomingCaller {
  externalCallId: string
  fromNumber: string
  status: 'matching' | 'matched' | 'unmatched'
  match?: RecordRef
}

/** The call engagement as the API holds it (read back after every change the host makes). */
export interface EngagementView {
  id: string
  /** hs_call_status, hs_call_duration, hs_call_body, hs_call_title, hs_call_external_id (null: not set) */
  properties: Record<string, string | null>
  /** set when it could not be read back */
  error?: string
}

/** What the host knows about the current (or last) call. */
export interface CallInfo {
  externalCallId: string
  direction: 'outbound' | 'inbound'
  number: string
  /** The call's phase as the widget reported it (CONNECTING, IN_PROGRESS, COMPLETED, TRANSFERRED, …). */
  status: string
  engagementId?: number
  /** The engagement as the API holds it: what the dock and inspector show as the call log. */
  engagement?: EngagementView
  record?: RecordRef
}

export interface Visibility {
  isMinimized: boolean
  isHidden: boolean
}

export interface CallingState {
  // --- settings --------------------------------------------------------------
  settingsLoad: 'loading' | 'loaded' | 'failed'
  apiSettings: ApiCallingSettings | null
  /** Problems with the API settings, the override or ?widget= (each ignored). */
  settingsErrors: string[]
  effective: EffectiveSettings | null
  iframeLocation: IframeLocation
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
  /** The seq given to the last kept entry (never reused, not even after Clear). */
  trafficSeq: number
  links: ReplyLink[]
  conformance: ConformanceState
  // --- faults ---------------------------------------------------------------
  engagementFaults: EngagementFaults
  hostFaults: HostFaults

  // --- actions --------------------------------------------------------------
  patch(partial: Partial<CallingState>): void
  addTraffic(entry: TrafficEntry, composed?: 'valid' | 'invalid'): InspectorEntry
  addLink(link: ReplyLink): void
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

export function createCallingStore(initial: Partial<CallingState> = {}): CallingStore {
  let alertSeq = 0
  return createStore<CallingState>()((set, get) => ({
    settingsLoad: 'loading',
    apiSettings: null,
    settingsErrors: [],
    effective: null,
    iframeLocation: 'widget',
    syncTimeoutMs: 30000,
    syncIntervalMs: 100,
    currentSrc: null,
    mounted: false,
    status: 'idle',
    failureCause: null,
    widgetVersion: null,
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
    trafficSeq: 0,
    links: [],
    conformance: initialConformance(),
    engagementFaults: { create: 'off', update: 'off' },
    hostFaults: {},
    ...initial,

    patch: (partial) => set(partial),

    addTraffic: (entry, composed) => {
      const kept: InspectorEntry = { ...entry, hostSeq: entry.seq, seq: get().trafficSeq + 1 }
      if (composed) kept.composed = composed
      set((state) => {
        const traffic = state.traffic.length >= MAX_TRAFFIC ? [...state.traffic.slice(1 - MAX_TRAFFIC), kept] : [...state.traffic, kept]
        return { traffic, trafficSeq: kept.seq, conformance: applyConformance(state.conformance, { kind: 'traffic', entry: kept }) }
      })
      return kept
    },

    addLink: (link) => set((state) => ({ links: [...state.links.slice(-MAX_TRAFFIC), link] })),

    conformanceEvent: (event) =>
      set((state) => {
        const conformance = applyConformance(state.conformance, event)
        return conformance === state.conformance ? state : { conformance }
      }),

    clearInspector: () =>
      set((state) => ({ traffic: [], links: [], foreignDropped: null, conformance: { ...state.conformance, findings: [] } })),

    alert: (message, source) => {
      alertSeq += 1
      // A widget controls this text: keep it readable, whatever it sends.
      const text = message.length > MAX_ALERT_CHARS ? `${message.slice(0, MAX_ALERT_CHARS)}… (${message.length} characters)` : message
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
  }))
}

/** Why the user cannot dial in this state, or null when they can (useCanDial, startCall). */
export function dialBlocker(s: Pick<CallingState, 'mounted' | 'status' | 'failureCause' | 'initialized' | 'loggedIn'>): string | null {
  if (!s.mounted) return 'No calling widget is loaded.'
  if (s.status === 'failed') {
    return `The calling widget did not complete the handshake (SYNC_ACK_FAILED: ${s.failureCause ?? 'unknown cause'}).`
  }
  if (s.status !== 'ready') return 'The calling widget is still connecting.'
  if (!s.initialized) return 'The calling widget has not sent INITIALIZED yet.'
  if (s.loggedIn !== true) return 'Log in to the calling widget before calling.'
  return null
}

/** The app's store. */
export const callingStore = createCallingStore()

/** Reads one slice of the app's calling state (re-renders when it changes). */
export function useCalling<T>(selector: (state: CallingState) => T): T {
  return useStore(callingStore, selector)
}
