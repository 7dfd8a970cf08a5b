/**
 * The data the calling store holds, as plain types: traffic entries and reply links, the call, the caller,
 * alerts, faults. A module of its own, below the store, so the modules the store builds on (ports.ts,
 * traffic-keeper.ts) can name them without importing the store.
 */
import type { TrafficEntry } from './traffic-recorder.ts'

/** A traffic entry as the inspector keeps it: `seq` renumbered across widget re-mounts. */
export interface InspectorEntry extends TrafficEntry {
  /** The seq CallingHost gave it (restarts at 1 for every new host). */
  hostSeq: number
  /** Set by the composer: sent on purpose although it does not validate. */
  composed?: 'valid' | 'invalid'
}

/** Which reply answers which request: recorded by the controller, drawn by the inspector. */
export interface ReplyLink {
  /** The request as received (same object as its traffic entry's message), or what the log keeps of a huge one; null once the log no longer holds it (TrafficKeeper.link). */
  request: unknown
  requestType: string
  requestMessageId: string | number | null
  replyMessageId: string
}

export type FaultMode = 'off' | 'next' | 'always'

export interface EngagementFaults {
  create: FaultMode
  update: FaultMode
}

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
