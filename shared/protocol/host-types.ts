/** The public types of CallingHost: options, events, and the outbox and observer seams. */
import type {
  AcceptedMessageOf,
  AcceptedPayload,
  CatalogueEntry,
  FromWidgetType,
  SyncAckMessage,
  SyncFields,
} from './catalogue.ts'
import type { AcceptedWidgetMessage, Deviation } from './judgement.ts'
import type { WireMessage } from './transport.ts'

export type HostStatus = 'idle' | 'syncing' | 'ready' | 'failed'
/** Why a handshake failed: no SYNC_ACK before the timeout, or the iframe fired `error`. */
export type SyncAckFailedCause = 'timeout' | 'iframe-error'

/** What the widget told us in its SYNC_ACK. */
export interface SyncAckInfo {
  version?: string
  debugMode?: boolean
  iFrameUrl?: string
  message: SyncAckMessage
}

/** How an outgoing message was treated on its way out (set by an outbox wrapper). */
export type OutgoingFault = 'dropped' | 'duplicate' | 'delayed'

/** What the host made of one message from the widget's window (see HostObserver). */
export interface InboundNote {
  /** Its string `type` (at most 120 characters), null when it has none. */
  type: string | null
  /**
   * The host acted on it (judgeWidgetMessage); false when it was ignored (the real CRM
   * would ignore it), came from the wrong origin, or was a SYNC_ACK answering no SYNC.
   */
  accepted: boolean
  /** Why it was not accepted. */
  reason?: string
  /** Every deviation from the SDK's types, with its severity (also on accepted messages). */
  deviations?: Deviation[]
  deprecation?: string
  /** It arrived while the host was not ready. */
  beforeHandshake: boolean
  /**
   * Not a calling-SDK message (no `type` or no `messageId`, as the SDK tests it): a vendor
   * library's own traffic from the widget's window, dropped as the SDK drops it; never a finding.
   */
  notSdk?: true
}

/**
 * The seam for a traffic recorder such as the harness's inspector: told of every message
 * from the widget's window and every message for it, in wire order. Messages from other
 * windows are not traffic (see the `rejected` event). The host builds nothing for it when
 * no observer is given.
 */
export interface HostObserver {
  /** A message from the widget's window, as received (by reference), and the host's verdict. */
  inbound(data: unknown, note: InboundNote): void
  /**
   * A message for the widget: posted, or not (`problem` says why, e.g. no iframe window;
   * note.fault is 'dropped' when an outbox wrapper dropped it).
   */
  outbound(message: WireMessage, note: OutgoingNote, problem?: string): void
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
  /** Posted by a window other than the widget's iframe (so not traffic: not shown to the observer). */
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
 * repeat messages; it reports a message it drops with `drop` so the observer sees it.
 */
export interface HostOutbox {
  /**
   * Shows the message to the observer and posts it to the widget. A non-SYNC message that
   * arrives here while the handshake is not complete (a delayed one) is queued again.
   */
  post(message: WireMessage, note: OutgoingNote): void
  /** Shows the observer a message that is never posted. */
  drop(message: WireMessage, note: OutgoingNote): void
}

export interface CallingHostOptions {
  container: HTMLElement
  /** Absolute http(s) URL of the widget, or a path (`/…`) resolved against the page; anything else throws (docs/urls.md). */
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
   * SET_WIDGET_URL swaps the iframe src (an absolute http(s) URL, or a path on the widget's origin; docs/urls.md), otherwise answers
   * SET_WIDGET_URL_FAILED (default true). Set false to handle it via on('SET_WIDGET_URL').
   */
  autoSetWidgetUrl?: boolean
  /** Wraps the outbox (fault injection, see HostOutbox); called once, at construction. */
  wrapOutbox?: (inner: HostOutbox) => HostOutbox
  /** Told of every message in and out (a traffic recorder, see HostObserver). */
  observer?: HostObserver
}

/** Listeners get the message as the host acts on it (the leniency rules of judgement.ts applied). */
type WireListener<T extends FromWidgetType> = (data: AcceptedPayload<T>, message: AcceptedMessageOf<T>) => void

/** Events of CallingHost.on(): every widget → host wire type plus lifecycle events. */
export type HostEvents = { [K in FromWidgetType]: WireListener<K> } & {
  status: (status: HostStatus, previous: HostStatus) => void
  ready: (info: SyncAckInfo) => void
  syncAckFailed: (event: { cause: SyncAckFailedCause }) => void
  rejected: (event: RejectedEvent) => void
  /** A message of the widget's that the host ignored, as the real CRM would (also in `rejected`). */
  ignored: (event: IgnoredEvent) => void
  message: (message: AcceptedWidgetMessage, entry: CatalogueEntry) => void
}
export type HostEventName = keyof HostEvents
