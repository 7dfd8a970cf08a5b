/**
 * The widget's state as the harness shows it: ONE derivation from the calling
 * store, which every badge reads (the header badge, the dock's pill, the
 * loading cover over the frame, the calling window's badge, a record page's
 * reason not to dial). No badge reads the host's status on its own, so two of
 * them never disagree.
 *
 * The phases follow the widget's start: the calling settings are read, the
 * iframe's page loads (its `load` event starts the SYNC loop), the handshake
 * runs until SYNC_ACK, then the widget is ready (or SYNC_ACK_FAILED).
 */
import type { HostStatus, SyncAckFailedCause } from '../../../shared/protocol/index.ts'

export type WidgetPhase = 'settings' | 'none' | 'loading' | 'handshake' | 'ready' | 'failed'

export interface WidgetState {
  phase: WidgetPhase
  cause: SyncAckFailedCause | null
  /** INITIALIZED received (ready only). */
  initialized: boolean
  /** As the widget said; null before it said (always null before ready). */
  loggedIn: boolean | null
  available: boolean | null
}

/** What widgetState reads; a calling window's report has no settings or mount to tell (it runs a widget). */
export interface WidgetStateInput {
  settingsLoad?: 'loading' | 'loaded' | 'failed'
  mounted?: boolean
  status: HostStatus | string
  failureCause?: SyncAckFailedCause | null
  initialized?: boolean
  loggedIn: boolean | null
  available: boolean | null
}

export function widgetState(s: WidgetStateInput): WidgetState {
  const phase = phaseOf(s)
  const ready = phase === 'ready'
  return {
    phase,
    cause: phase === 'failed' ? (s.failureCause ?? null) : null,
    initialized: ready && s.initialized !== false,
    loggedIn: ready ? s.loggedIn : null,
    available: ready ? s.available : null,
  }
}

function phaseOf(s: WidgetStateInput): WidgetPhase {
  if (s.mounted === false) return s.settingsLoad === 'loading' ? 'settings' : 'none'
  switch (s.status) {
    case 'ready':
      return 'ready'
    case 'failed':
      return 'failed'
    case 'syncing':
      return 'handshake'
    default:
      // 'idle' with an iframe in place: its page has not fired `load` yet.
      return 'loading'
  }
}

export type Tone = 'ok' | 'wait' | 'bad'

export interface WidgetStateText {
  /** The header badge's first item ("Widget ready"). */
  badge: string
  /** The dock's status pill ("Handshake ready"). */
  pill: string
  tone: Tone
  /** The sentence over the widget's frame while it cannot be used yet; null once the widget draws itself (or failed: its page stays visible). */
  cover: string | null
}

export function describeWidget(state: WidgetState): WidgetStateText {
  switch (state.phase) {
    case 'settings':
      return { badge: 'Widget loading', pill: 'Reading the calling settings…', tone: 'wait', cover: 'Reading the calling settings…' }
    case 'none':
      return { badge: 'No widget', pill: 'No widget URL', tone: 'bad', cover: null }
    case 'loading':
      return { badge: 'Widget loading', pill: 'Loading the widget…', tone: 'wait', cover: "Loading the widget's page…" }
    case 'handshake':
      return { badge: 'Widget syncing', pill: 'Handshake syncing', tone: 'wait', cover: 'Waiting for the widget to answer the handshake (SYNC_ACK)…' }
    case 'ready':
      return { badge: 'Widget ready', pill: 'Handshake ready', tone: 'ok', cover: null }
    case 'failed': {
      const cause = state.cause ?? 'unknown'
      return { badge: `Widget failed (${cause})`, pill: `Handshake failed: SYNC_ACK_FAILED (${cause})`, tone: 'bad', cover: null }
    }
  }
}

/** Why the user cannot dial in this state, or null when they can (a record page's Call, startCall). */
export function dialBlockerOf(state: WidgetState): string | null {
  switch (state.phase) {
    case 'none':
      return 'No calling widget is loaded.'
    case 'failed':
      return `The calling widget did not complete the handshake (SYNC_ACK_FAILED: ${state.cause ?? 'unknown cause'}).`
    case 'settings':
    case 'loading':
    case 'handshake':
      return 'The calling widget is still connecting.'
    case 'ready':
      if (!state.initialized) return 'The calling widget has not sent INITIALIZED yet.'
      return state.loggedIn === true ? null : 'Log in to the calling widget before calling.'
  }
}
