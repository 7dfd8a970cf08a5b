/** The public types of CallingHost: options, events, traffic entries and the outbox seam. */
import type {
  AcceptedMessageOf,
  AcceptedPayload,
  CatalogueEntry,
  FromWidgetType,
  SyncAckMessage,
  SyncFields,
} from './catalogue.ts'
import type { SyncAckFailedCause } from './handshake.ts'
import type { AcceptedWidgetMessage, Deviation } from './judgement.ts'
import type { WireMessage } from './transport.ts'

export type HostStatus = 'idle' | 'syncing' | 'ready' | 'failed'
export type { SyncAckFailedCause }

/** What the widget told us in its SYNC_ACK. */
export interface SyncAckInfo {
  version?: string
  debugMode?: boolean
  iFrameUrl?: string
  message: SyncAckMessage
}

/** How an outgoing message was treated on its way out (set by an outbox wrapper). */
export type OutgoingFault = 'dropped' | 'duplicate' | 'delayed'

/** One message in or out, in wire order (for an inspector). */
export interface TrafficEntry {
  /** Increasing per host. */
  seq: number
  /** Date.now() when it was posted or received. */
  time: number
  direction: 'in' | 'out'
  /** null when the message has no string `type`. */
  type: string | null
  /** The object as posted or received (by reference). */
  message: unknown
  /**
   * out: passes validateMessage(…, 'from-host'). in: the host acted on it (judgeWidgetMessage);
   * false when it was ignored (the real CRM would ignore it) or came from the wrong origin.
   */
  valid: boolean
  reason?: string
  /** in: every deviation from the SDK's types, with its severity (also on messages the host acted on). */
  deviations?: Deviation[]
  deprecation?: string
  /** out: requested before SYNC_ACK and flushed after it; in: arrived while not ready. */
  beforeHandshake?: boolean
  /** set when an outbox wrapper (fault injection) changed this message */
  fault?: OutgoingFault
}

/** A message from the widget that the host ignored because the real CRM would (judgeWidgetMessage). */
export interface IgnoredEvent {
  /** Its type, when it had a known one. */
  type?: string
  reason: string
  /** The message as received. */
  data: unknown
  deviations: Deviation[]
}

export interface RejectedEvent {
  reason: string
  origin: string
  data: unknown
  /** Posted by a window other than the widget's iframe (so not in the traffic log). */
  fromOtherWindow: boolean
}

export interface OutgoingNote {
  /** Requested before SYNC_ACK and flushed after it. */
  beforeHandshake?: boolean
  fault?: OutgoingFault
}

/**
 * The seam between CallingHost and the window: every outgoing message, SYNC included,
 * goes through `post`. A wrapper (the harness's fault injection) may drop, delay or
 * repeat messages; it reports a message it drops with `drop` so the traffic log shows it.
 */
export interface HostOutbox {
  /**
   * Records the message in traffic and posts it to the widget. A non-SYNC message that
   * arrives here while the handshake is not complete (a delayed one) is queued again.
   */
  post(message: WireMessage, note: OutgoingNote): void
  /** Records a message that is never posted. */
  drop(message: WireMessage, note: OutgoingNote): void
}

export interface CallingHostOptions {
  container: HTMLElement
  /** http(s) URL of the widget; relative URLs resolve against the page. */
  src: string
  width?: number | string
  height?: number | string
  sync: SyncFields
  syncTimeoutMs?: number
  /** SYNC retry interval (default 100 ms, as the real host). */
  syncIntervalMs?: number
  /** messageId prefix; must start with a letter. Ids look like `host_k3x9q2_1`. */
  messageIdPrefix?: string
  allow?: string
  sandbox?: string
  title?: string
  /**
   * true: every message sent and received is logged with console.log, and so are
   * the noteworthy events. false (default): no per-message logs at all; noteworthy
   * events (handshake, queue flush, rejected messages) go to console.debug.
   */
  debugMode?: boolean
  /** RESIZE_WIDGET resizes the iframe (default true). */
  autoResize?: boolean
  /**
   * SET_WIDGET_URL swaps the iframe src (http(s) only), otherwise answers
   * SET_WIDGET_URL_FAILED (default true). Set false to handle it via on('SET_WIDGET_URL').
   */
  autoSetWidgetUrl?: boolean
  /** Wraps the outbox (fault injection, see HostOutbox); called once, at construction. */
  wrapOutbox?: (inner: HostOutbox) => HostOutbox
}

/** Listeners get the message as the host acts on it (the leniency rules of judgement.ts applied). */
type WireListener<T extends FromWidgetType> = (data: AcceptedPayload<T>, message: AcceptedMessageOf<T>) => void

/** Events of CallingHost.on(): every widget → host wire type plus lifecycle events. */
export type HostEvents = { [K in FromWidgetType]: WireListener<K> } & {
  status: (status: HostStatus, previous: HostStatus) => void
  ready: (info: SyncAckInfo) => void
  syncAckFailed: (event: { cause: SyncAckFailedCause }) => void
  traffic: (entry: TrafficEntry) => void
  rejected: (event: RejectedEvent) => void
  /** A message of the widget's that the host ignored, as the real CRM would (also in `rejected`). */
  ignored: (event: IgnoredEvent) => void
  message: (message: AcceptedWidgetMessage, entry: CatalogueEntry) => void
}
export type HostEventName = keyof HostEvents
