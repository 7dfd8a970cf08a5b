/**
 * Host side of the calling SDK: an emulated CRM host that embeds a calling widget in
 * an iframe and speaks the npm package's wire protocol to it.
 *
 * Handshake (as the real host): on every iframe `load` the status becomes `syncing`
 * and a SYNC (new messageId each time) is posted to the iframe every `syncIntervalMs`
 * until a SYNC_ACK answering one of the outstanding SYNC ids arrives from the iframe's
 * window at the widget origin. No ack within `syncTimeoutMs` of the first SYNC after a
 * load, or an iframe `error`, gives status `failed` and a local `syncAckFailed` event
 * (SYNC_ACK_FAILED is never put on the wire).
 *
 * Origins: the only accepted (and the only target) origin is the origin of the current
 * `src`. A SYNC_ACK claiming another `iFrameUrl` origin is accepted (it came from the
 * right window at the right origin) but never retargets the host; a warning is logged.
 * Never posts with targetOrigin `*`.
 *
 * Messages: each widget message is judged twice (judgement.ts): the host acts on
 * what the real CRM accepts (listeners get the message after the leniency rules)
 * and reports every deviation from the SDK's types on its traffic entry. A message
 * the real CRM would ignore is ignored, reported in traffic, `rejected` and `ignored`.
 */
import {
  SDK_VERSION,
  deprecationOf,
  getEntry,
  validateMessage,
  type AcceptedMessageOf,
  type AcceptedPayload,
  type CatalogueEntry,
  type FromWidgetType,
  type HostSendableType,
  type MessageOf,
  type Payload,
  type SyncAckMessage,
  type SyncFields,
  type ValidationResult,
} from './catalogue.ts'
import { judgeWidgetMessage, type AcceptedWidgetMessage, type Deviation } from './judgement.ts'
import { createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { parseHttpUrl } from './origin.ts'

const PREFIX = '[ringside calling host]'
const MAX_QUEUE = 500

export type HostStatus = 'idle' | 'syncing' | 'ready' | 'failed'
export type SyncAckFailedCause = 'timeout' | 'iframe-error'

/** What the widget told us in its SYNC_ACK. */
export interface SyncAckInfo {
  version?: string
  debugMode?: boolean
  iFrameUrl?: string
  message: SyncAckMessage
}

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
  /** set when a fault hook changed this message */
  fault?: 'dropped' | 'duplicate' | 'delayed'
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

export interface HostFaults {
  /** Stop sending SYNC (the sync timeout still runs). */
  withholdSync?: boolean
  /** Delay every outgoing non-SYNC message by this many ms. */
  delayMs?: number
  /** Outgoing types to drop (never posted; traffic shows fault 'dropped'). */
  drop?: string[]
  /** Outgoing types to post twice (same object). */
  duplicate?: string[]
}

export interface CallingHostOptions {
  container: HTMLElement
  /** http(s) URL of the widget; relative URLs resolve against the page. */
  src: string
  width?: number | string
  height?: number | string
  sync: SyncFields
  syncTimeoutMs?: number
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

type DataArg<T extends HostSendableType> = undefined extends Payload<T> ? [data?: Payload<T>] : [data: Payload<T>]
type WireMessage = { type: string; messageId: string; [key: string]: unknown }
type AnyListener = (...args: unknown[]) => void
interface Pending {
  message: WireMessage
  beforeHandshake: boolean
}

function checkSize(value: unknown, name: string): string {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return String(value)
  if (typeof value === 'string' && /^\d+(\.\d+)?(px|%|vw|vh|em|rem)?$/.test(value.trim())) return value.trim()
  throw new Error(`${name} must be a non-negative number or a CSS length, got ${JSON.stringify(value)}`)
}

function checkPositive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, got ${String(value)}`)
  }
  return value
}

function requireHttpUrl(url: unknown, what: string): URL {
  const base = typeof document === 'undefined' ? undefined : document.baseURI
  const parsed = parseHttpUrl(url, base)
  if (!parsed) throw new Error(`${what}: only http(s) URLs are accepted, got ${JSON.stringify(url)}`)
  return parsed
}

export class CallingHost {
  readonly #container: HTMLElement
  readonly #options: CallingHostOptions
  readonly #log: Logger
  readonly #nextId: () => string
  readonly #syncTimeoutMs: number
  readonly #syncIntervalMs: number
  readonly #listeners = new Map<string, Set<AnyListener>>()
  #src: string
  #widgetOrigin: string
  #width: string
  #height: string
  #sync: SyncFields
  #iframe: HTMLIFrameElement | null = null
  #status: HostStatus = 'idle'
  #handshake: SyncAckInfo | null = null
  #faults: HostFaults = {}
  #outstandingSyncIds = new Set<string>()
  #queue: Pending[] = []
  #seq = 0
  #syncInterval: ReturnType<typeof setInterval> | undefined
  #syncTimeout: ReturnType<typeof setTimeout> | undefined
  #delayed = new Set<ReturnType<typeof setTimeout>>()
  #destroyed = false
  #lastChecked: WireMessage | null = null
  #lastCheck: ValidationResult | null = null

  readonly #onWindowMessage = (event: MessageEvent): void => this.#receive(event)
  readonly #onLoad = (): void => this.#startHandshake()
  readonly #onError = (): void => this.#fail('iframe-error')

  constructor(options: CallingHostOptions) {
    if (!options || typeof options !== 'object') throw new Error('CallingHost: options are required')
    const { container } = options
    if (!container || typeof container.appendChild !== 'function') {
      throw new Error('CallingHost: options.container must be an HTMLElement')
    }
    if (!options.sync || typeof options.sync !== 'object') throw new Error('CallingHost: options.sync is required')
    const url = requireHttpUrl(options.src, 'CallingHost src')
    this.#options = options
    this.#container = container
    this.#src = url.href
    this.#widgetOrigin = url.origin
    this.#width = checkSize(options.width ?? 400, 'width')
    this.#height = checkSize(options.height ?? 600, 'height')
    this.#sync = { ...options.sync }
    this.#syncTimeoutMs = checkPositive(options.syncTimeoutMs, 30000, 'syncTimeoutMs')
    this.#syncIntervalMs = checkPositive(options.syncIntervalMs, 100, 'syncIntervalMs')
    this.#nextId = createMessageIdFactory(options.messageIdPrefix ?? 'host', '_')
    this.#log = createLogger(PREFIX, () => options.debugMode === true)
  }

  get status(): HostStatus {
    return this.#status
  }
  get iframe(): HTMLIFrameElement | null {
    return this.#iframe
  }
  /** Origin of the current src: the only origin accepted and posted to. */
  get widgetOrigin(): string {
    return this.#widgetOrigin
  }
  get src(): string {
    return this.#src
  }
  /** SYNC_ACK data of the current handshake (null unless ready). */
  get handshake(): SyncAckInfo | null {
    return this.#handshake
  }
  get faults(): HostFaults {
    return { ...this.#faults }
  }
  get syncFields(): SyncFields {
    return { ...this.#sync }
  }

  /** Creates the iframe (once) and waits for its load event to handshake. */
  mount(): HTMLIFrameElement {
    if (this.#destroyed) throw new Error('CallingHost: mount() after destroy()')
    if (this.#iframe) return this.#iframe
    const iframe = document.createElement('iframe')
    iframe.id = 'hubspot-calling-extension-iframe'
    iframe.title = this.#options.title ?? 'Calling widget'
    iframe.setAttribute('allow', this.#options.allow ?? 'microphone; autoplay')
    if (this.#options.sandbox !== undefined) iframe.setAttribute('sandbox', this.#options.sandbox)
    iframe.setAttribute('width', this.#width)
    iframe.setAttribute('height', this.#height)
    iframe.addEventListener('load', this.#onLoad)
    iframe.addEventListener('error', this.#onError)
    window.addEventListener('message', this.#onWindowMessage)
    iframe.src = this.#src
    this.#iframe = iframe
    this.#container.appendChild(iframe)
    this.#warmUpValidation()
    return iframe
  }

  /**
   * Validates a SYNC_ACK like the one the widget will send, once, while its page loads.
   * The first validation on a page pays V8's lazy compilation of zod's code (~0.5 ms);
   * without this it would fall between the widget's SYNC_ACK and `ready`. The result is
   * thrown away: nothing is posted, emitted or logged.
   */
  #warmUpValidation(): void {
    const ack = this.#syncMessage('SYNC_ACK', 'warm-up')
    ack.debugMode = false
    ack.version = SDK_VERSION
    ack.iFrameUrl = this.#widgetOrigin
    validateMessage(ack, 'from-widget')
  }

  /** `{type, messageId, hostUrl}` plus the current SYNC fields (what SYNC carries and SYNC_ACK echoes). */
  #syncMessage(type: 'SYNC' | 'SYNC_ACK', messageId: string): WireMessage {
    const f = this.#sync
    const message: WireMessage = {
      type,
      messageId,
      hostUrl: window.location.origin,
      portalId: f.portalId,
      userId: f.userId,
      ownerId: f.ownerId,
      iframeLocation: f.iframeLocation,
      usesCallingWindow: f.usesCallingWindow,
    }
    if (f.engagementId !== undefined) message.engagementId = f.engagementId
    return message
  }

  // --- events ----------------------------------------------------------------

  /** Subscribes to a wire type (e.g. 'CALL_ENDED') or a lifecycle event; returns unsubscribe. */
  on<E extends HostEventName>(event: E, listener: HostEvents[E]): () => void {
    let set = this.#listeners.get(event)
    if (!set) {
      set = new Set()
      this.#listeners.set(event, set)
    }
    const fn = listener as unknown as AnyListener
    set.add(fn)
    return () => {
      this.#listeners.get(event)?.delete(fn)
    }
  }
  onStatus(listener: HostEvents['status']): () => void {
    return this.on('status', listener)
  }
  onReady(listener: HostEvents['ready']): () => void {
    return this.on('ready', listener)
  }
  onSyncAckFailed(listener: HostEvents['syncAckFailed']): () => void {
    return this.on('syncAckFailed', listener)
  }
  onTraffic(listener: HostEvents['traffic']): () => void {
    return this.on('traffic', listener)
  }
  onRejected(listener: HostEvents['rejected']): () => void {
    return this.on('rejected', listener)
  }
  onIgnored(listener: HostEvents['ignored']): () => void {
    return this.on('ignored', listener)
  }
  onMessage(listener: HostEvents['message']): () => void {
    return this.on('message', listener)
  }

  #hasListeners(event: HostEventName): boolean {
    const set = this.#listeners.get(event)
    return set !== undefined && set.size > 0
  }

  #emit(event: string, ...args: unknown[]): void {
    const set = this.#listeners.get(event)
    if (set === undefined || set.size === 0) return
    // a copy: listeners that (un)subscribe while this event is dispatched change the next one
    for (const listener of [...set]) {
      try {
        listener(...args)
      } catch (error) {
        this.#log.error(`a '${event}' listener threw:`, error)
      }
    }
  }

  #setStatus(next: HostStatus): void {
    const previous = this.#status
    if (previous === next) return
    this.#status = next
    this.#emit('status', next, previous)
  }

  /** A traffic entry with the next seq; build one only when #hasListeners('traffic'). */
  #trafficEntry(direction: TrafficEntry['direction'], type: string | null, message: unknown, valid: boolean): TrafficEntry {
    this.#seq += 1
    return { seq: this.#seq, time: Date.now(), direction, type, message, valid }
  }

  // --- sending ---------------------------------------------------------------

  /**
   * Sends a host → widget message; returns its messageId. Before the handshake it is
   * queued and flushed in order after SYNC_ACK.
   */
  send<T extends HostSendableType>(type: T, ...args: DataArg<T>): string {
    const messageId = this.#nextId()
    if (getEntry(type)?.hasData === false) {
      this.#enqueue({ type, messageId })
      return messageId
    }
    const data: unknown = args[0]
    const message: WireMessage = { type, data, messageId }
    if (type === 'SET_WIDGET_URL') {
      // The npm widget (0.9.7) reads only a top-level iFrameUrl; ours reads either.
      const url = typeof data === 'object' && data !== null ? (data as { iFrameUrl?: unknown }).iFrameUrl : undefined
      if (url !== undefined) message.iFrameUrl = url
    }
    this.#enqueue(message)
    return messageId
  }

  /** Posts any envelope (fault injection, legacy shapes); adds a messageId if absent. */
  sendRaw(message: { type: string; [key: string]: unknown }): string {
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') {
      throw new TypeError('sendRaw expects an object with a string `type`')
    }
    const existing = message.messageId
    const messageId = typeof existing === 'string' && existing !== '' ? existing : this.#nextId()
    this.#enqueue(Object.assign({}, message, { messageId }))
    return messageId
  }

  dialNumber(data: Payload<'DIAL_NUMBER'>): string {
    return this.send('DIAL_NUMBER', data)
  }
  /** @deprecated use createEngagementSucceeded (ENGAGEMENT_CREATED) */
  engagementCreated(data: Payload<'ENGAGEMENT_CREATED'>): string {
    return this.send('ENGAGEMENT_CREATED', data)
  }
  createEngagementSucceeded(data: Payload<'CREATE_ENGAGEMENT_SUCCEEDED'>): string {
    return this.send('CREATE_ENGAGEMENT_SUCCEEDED', data)
  }
  createEngagementFailed(data: Payload<'CREATE_ENGAGEMENT_FAILED'>): string {
    return this.send('CREATE_ENGAGEMENT_FAILED', data)
  }
  updateEngagementSucceeded(data: Payload<'UPDATE_ENGAGEMENT_SUCCEEDED'>): string {
    return this.send('UPDATE_ENGAGEMENT_SUCCEEDED', data)
  }
  updateEngagementFailed(data: Payload<'UPDATE_ENGAGEMENT_FAILED'>): string {
    return this.send('UPDATE_ENGAGEMENT_FAILED', data)
  }
  callerIdMatchSucceeded(data: Payload<'CALLER_ID_MATCH_SUCCEEDED'>): string {
    return this.send('CALLER_ID_MATCH_SUCCEEDED', data)
  }
  callerIdMatchFailed(data?: Payload<'CALLER_ID_MATCH_FAILED'>): string {
    return this.send('CALLER_ID_MATCH_FAILED', data)
  }
  navigateToRecordFailed(data?: Payload<'NAVIGATE_TO_RECORD_FAILED'>): string {
    return this.send('NAVIGATE_TO_RECORD_FAILED', data)
  }
  finalizeEngagementSucceeded(data?: Payload<'FINALIZE_ENGAGEMENT_SUCCEEDED'>): string {
    return this.send('FINALIZE_ENGAGEMENT_SUCCEEDED', data)
  }
  finalizeEngagementFailed(data?: Payload<'FINALIZE_ENGAGEMENT_FAILED'>): string {
    return this.send('FINALIZE_ENGAGEMENT_FAILED', data)
  }
  /** @deprecated use finalizeEngagementSucceeded */
  publishToChannelSucceeded(data?: Payload<'PUBLISH_TO_CHANNEL_SUCCEEDED'>): string {
    return this.send('PUBLISH_TO_CHANNEL_SUCCEEDED', data)
  }
  /** @deprecated use finalizeEngagementFailed */
  publishToChannelFailed(data?: Payload<'PUBLISH_TO_CHANNEL_FAILED'>): string {
    return this.send('PUBLISH_TO_CHANNEL_FAILED', data)
  }
  initiateCallIdSucceeded(data?: Payload<'INITIATE_CALL_ID_SUCCEEDED'>): string {
    return this.send('INITIATE_CALL_ID_SUCCEEDED', data)
  }
  initiateCallIdFailed(data?: Payload<'INITIATE_CALL_ID_FAILED'>): string {
    return this.send('INITIATE_CALL_ID_FAILED', data)
  }
  setWidgetUrlFailed(data?: Payload<'SET_WIDGET_URL_FAILED'>): string {
    return this.send('SET_WIDGET_URL_FAILED', data)
  }
  visibilityChanged(data: Payload<'VISIBILITY_CHANGED'>): string {
    return this.send('VISIBILITY_CHANGED', data)
  }
  endCall(): string {
    return this.send('END_CALL')
  }
  setCallState(data?: Payload<'SET_CALL_STATE'>): string {
    return this.send('SET_CALL_STATE', data)
  }
  failed(data?: Payload<'FAILED'>): string {
    return this.send('FAILED', data)
  }

  #enqueue(message: WireMessage): void {
    if (this.#destroyed) {
      this.#log.warn('send after destroy() ignored:', message.type)
      return
    }
    const note = deprecationOf(message.type, message.data)
    if (note !== undefined) warnOnce(note, PREFIX, note)
    if (this.#status !== 'ready') {
      if (this.#queue.length >= MAX_QUEUE) {
        const dropped = this.#queue.shift()
        this.#log.warn('pre-handshake queue full, dropped', dropped?.message.type)
      }
      this.#queue.push({ message, beforeHandshake: true })
      this.#log.traffic('Queued until SYNC_ACK', message)
      return
    }
    this.#deliver(message, false)
  }

  /** Applies the fault hooks, then posts. */
  #deliver(message: WireMessage, beforeHandshake: boolean): void {
    const faults = this.#faults
    if (faults.drop !== undefined && faults.drop.includes(message.type)) {
      this.#record(message, beforeHandshake, 'dropped')
      this.#log.debug('fault: dropped', message.type)
      return
    }
    const duplicate = faults.duplicate !== undefined && faults.duplicate.includes(message.type)
    const delay = faults.delayMs ?? 0
    if (delay > 0) {
      const timer = setTimeout(() => {
        this.#delayed.delete(timer)
        if (this.#status !== 'ready') {
          this.#queue.push({ message, beforeHandshake })
          return
        }
        this.#post(message, beforeHandshake, 'delayed')
        if (duplicate) this.#post(message, beforeHandshake, 'duplicate')
      }, delay)
      this.#delayed.add(timer)
      return
    }
    this.#post(message, beforeHandshake, undefined)
    if (duplicate) this.#post(message, beforeHandshake, 'duplicate')
  }

  /**
   * Validation of an outgoing message, for its traffic entry. One-entry cache: a
   * duplicated message is posted twice in a row and validated once.
   */
  #checkOutgoing(message: WireMessage): ValidationResult {
    if (this.#lastChecked === message && this.#lastCheck !== null) return this.#lastCheck
    const check = validateMessage(message, 'from-host')
    this.#lastChecked = message
    this.#lastCheck = check
    return check
  }

  /** Reports an outgoing message to traffic listeners (nothing is built without any). */
  #record(message: WireMessage, beforeHandshake: boolean, fault: TrafficEntry['fault'], noWindow = false): void {
    if (!this.#hasListeners('traffic')) return
    const check = this.#checkOutgoing(message)
    const entry = this.#trafficEntry('out', message.type, message, check.ok)
    if (!check.ok) entry.reason = check.reason
    else if (check.deprecation !== undefined) entry.deprecation = check.deprecation
    if (beforeHandshake) entry.beforeHandshake = true
    if (fault !== undefined) entry.fault = fault
    if (noWindow) entry.reason ??= 'no iframe window'
    this.#emit('traffic', entry)
  }

  #post(message: WireMessage, beforeHandshake: boolean, fault: TrafficEntry['fault']): void {
    const target = this.#iframe?.contentWindow
    if (!target) {
      this.#log.warn(`cannot post ${message.type}: the iframe has no window`)
      this.#record(message, beforeHandshake, undefined, true)
      return
    }
    this.#record(message, beforeHandshake, fault)
    this.#log.traffic('To widget', message)
    // postMessage throws DataCloneError for payloads that cannot be cloned (functions, …)
    try {
      target.postMessage(message, this.#widgetOrigin)
    } catch (error) {
      this.#log.error(`postMessage of ${message.type} failed:`, error)
    }
  }

  // --- handshake -------------------------------------------------------------

  #clearSyncTimers(): void {
    if (this.#syncInterval !== undefined) clearInterval(this.#syncInterval)
    if (this.#syncTimeout !== undefined) clearTimeout(this.#syncTimeout)
    this.#syncInterval = undefined
    this.#syncTimeout = undefined
  }

  #startHandshake(): void {
    if (this.#destroyed) return
    this.#clearSyncTimers()
    this.#outstandingSyncIds.clear()
    this.#handshake = null
    this.#setStatus('syncing')
    this.#sendSync()
    this.#syncInterval = setInterval(() => this.#sendSync(), this.#syncIntervalMs)
    this.#syncTimeout = setTimeout(() => this.#fail('timeout'), this.#syncTimeoutMs)
  }

  #sendSync(): void {
    if (this.#status !== 'syncing' || this.#faults.withholdSync === true) return
    const messageId = this.#nextId()
    const message = this.#syncMessage('SYNC', messageId)
    this.#outstandingSyncIds.add(messageId)
    this.#post(message, false, undefined)
  }

  #fail(cause: SyncAckFailedCause): void {
    if (this.#destroyed) return
    this.#clearSyncTimers()
    this.#outstandingSyncIds.clear()
    this.#handshake = null
    this.#log.warn(`SYNC_ACK_FAILED (${cause}): the widget at ${this.#widgetOrigin} did not complete the handshake`)
    this.#setStatus('failed')
    this.#emit('syncAckFailed', { cause })
  }

  #onSyncAck(message: MessageOf<'SYNC_ACK'>, entry: CatalogueEntry, event: MessageEvent): void {
    const id = message.messageId
    if (this.#status !== 'syncing' || typeof id !== 'string' || !this.#outstandingSyncIds.has(id)) {
      this.#reject('unexpected SYNC_ACK (no outstanding SYNC with this messageId)', event, true, 'SYNC_ACK')
      return
    }
    this.#clearSyncTimers()
    this.#outstandingSyncIds.clear()
    if (this.#hasListeners('traffic')) {
      const traffic = this.#trafficEntry('in', 'SYNC_ACK', message, true)
      traffic.beforeHandshake = true
      this.#emit('traffic', traffic)
    }
    this.#log.traffic('From widget', message)
    const claimed = parseHttpUrl(message.iFrameUrl)
    if (message.iFrameUrl !== undefined && claimed?.origin !== this.#widgetOrigin) {
      this.#log.warn(
        `SYNC_ACK iFrameUrl does not match the src origin ${this.#widgetOrigin}; keeping the src origin`,
      )
    }
    const info: SyncAckInfo = { message }
    if (message.version !== undefined) info.version = message.version
    if (message.debugMode !== undefined) info.debugMode = message.debugMode
    if (message.iFrameUrl !== undefined) info.iFrameUrl = message.iFrameUrl
    this.#handshake = info
    this.#log.debug(`handshake complete: SYNC_ACK from ${this.#widgetOrigin}`)
    // Flush before anyone hears about readiness so queued messages keep their order.
    const queued = this.#queue
    this.#queue = []
    if (queued.length > 0) this.#log.debug(`flushing ${queued.length} message(s) queued before the handshake`)
    for (const pending of queued) this.#deliver(pending.message, pending.beforeHandshake)
    this.#setStatus('ready')
    this.#emit('SYNC_ACK', undefined, message)
    this.#emit('message', message, entry)
    this.#emit('ready', info)
  }

  // --- receiving -------------------------------------------------------------

  #reject(reason: string, event: MessageEvent, inTraffic: boolean, type?: string, deviations?: Deviation[]): void {
    const data: unknown = event.data
    if (inTraffic && this.#hasListeners('traffic')) {
      const entry = this.#trafficEntry('in', type ?? null, data, false)
      entry.reason = reason
      if (deviations !== undefined && deviations.length > 0) entry.deviations = deviations
      if (this.#status !== 'ready') entry.beforeHandshake = true
      this.#emit('traffic', entry)
    }
    this.#log.debug(`rejected a message from ${event.origin}: ${reason}`)
    this.#emit('rejected', { reason, origin: event.origin, data, fromOtherWindow: !inTraffic })
  }

  /**
   * Nothing here throws: judgeWidgetMessage never does, listeners are guarded by #emit,
   * and messages it accepted are structured clones of plain data.
   */
  #receive(event: MessageEvent): void {
    const source = this.#iframe?.contentWindow
    if (!source || event.source !== source) {
      this.#reject('unexpected source window', event, false)
      return
    }
    if (event.origin !== this.#widgetOrigin) {
      this.#reject(`unexpected origin ${event.origin} (expected ${this.#widgetOrigin})`, event, true, typeOf(event.data))
      return
    }
    const judgement = judgeWidgetMessage(event.data)
    if (!judgement.act) {
      this.#reject(judgement.reason, event, true, judgement.type, judgement.deviations)
      const ignored: IgnoredEvent = { reason: judgement.reason, data: event.data, deviations: judgement.deviations }
      if (judgement.type !== undefined) ignored.type = judgement.type
      this.#emit('ignored', ignored)
      return
    }
    const message = judgement.message
    if (message.type === 'SYNC_ACK') {
      this.#onSyncAck(message, judgement.entry, event)
      return
    }
    if (judgement.deprecation !== undefined) warnOnce(judgement.deprecation, PREFIX, judgement.deprecation)
    if (this.#hasListeners('traffic')) {
      // The inspector shows the message as it came over the wire, with the deviations.
      const entry = this.#trafficEntry('in', message.type, event.data, true)
      if (judgement.deprecation !== undefined) entry.deprecation = judgement.deprecation
      if (judgement.deviations.length > 0) entry.deviations = judgement.deviations
      if (this.#status !== 'ready') entry.beforeHandshake = true
      this.#emit('traffic', entry)
    }
    this.#log.traffic('From widget', message)
    this.#emit(message.type, 'data' in message ? message.data : undefined, message)
    this.#emit('message', message, judgement.entry)
    this.#react(message)
  }

  /** Built-in host reactions (each can be switched off). */
  #react(message: AcceptedWidgetMessage): void {
    if (this.#destroyed) return // a listener may have destroyed the host
    if (message.type === 'RESIZE_WIDGET' && this.#options.autoResize !== false) {
      this.resize(message.data.width, message.data.height)
    } else if (message.type === 'SET_WIDGET_URL' && this.#options.autoSetWidgetUrl !== false) {
      const url = typeof message.iFrameUrl === 'string' ? message.iFrameUrl : message.data?.iFrameUrl
      const parsed = parseHttpUrl(url, this.#src)
      if (parsed) this.setSrc(parsed.href)
      else this.setWidgetUrlFailed({ error: { message: 'iFrameUrl must be an http(s) URL' } })
    }
  }

  // --- control ---------------------------------------------------------------

  /** Re-navigates the iframe to the current src; the next load handshakes again. */
  reload(): void {
    this.#navigate()
  }

  /** Points the iframe at a new http(s) URL (throws otherwise); the next load handshakes. */
  setSrc(url: string): void {
    const parsed = requireHttpUrl(url, 'setSrc')
    this.#src = parsed.href
    this.#widgetOrigin = parsed.origin
    this.#navigate()
  }

  #navigate(): void {
    if (this.#destroyed) throw new Error('CallingHost: destroyed')
    this.#clearSyncTimers()
    this.#outstandingSyncIds.clear()
    this.#handshake = null
    if (this.#iframe) {
      this.#setStatus('idle')
      this.#iframe.src = this.#src
    }
  }

  /** Fields used by the next SYNC (e.g. engagementId). */
  setSyncFields(partial: Partial<SyncFields>): void {
    this.#sync = { ...this.#sync, ...partial }
  }

  resize(width: number | string, height: number | string): void {
    const w = checkSize(width, 'width')
    const h = checkSize(height, 'height')
    this.#width = w
    this.#height = h
    this.#iframe?.setAttribute('width', w)
    this.#iframe?.setAttribute('height', h)
  }

  /** Merges fault hooks into the current ones. */
  setFaults(faults: HostFaults): void {
    if (faults.delayMs !== undefined && !(Number.isFinite(faults.delayMs) && faults.delayMs >= 0)) {
      throw new Error(`delayMs must be a non-negative number, got ${String(faults.delayMs)}`)
    }
    this.#faults = {
      ...this.#faults,
      ...faults,
      ...(faults.drop ? { drop: [...faults.drop] } : {}),
      ...(faults.duplicate ? { duplicate: [...faults.duplicate] } : {}),
    }
  }

  /** Removes the iframe, listeners and timers; status becomes 'idle'. */
  destroy(): void {
    if (this.#destroyed) return
    this.#clearSyncTimers()
    for (const timer of this.#delayed) clearTimeout(timer)
    this.#delayed.clear()
    this.#queue = []
    window.removeEventListener('message', this.#onWindowMessage)
    if (this.#iframe) {
      this.#iframe.removeEventListener('load', this.#onLoad)
      this.#iframe.removeEventListener('error', this.#onError)
      this.#iframe.remove()
      this.#iframe = null
    }
    this.#setStatus('idle')
    this.#destroyed = true
    this.#listeners.clear()
  }
}

/** The `type` of a rejected message, for its traffic entry (never throws). */
function typeOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  try {
    const type: unknown = (data as { type?: unknown }).type
    return typeof type === 'string' ? type.slice(0, 120) : undefined
  } catch {
    return undefined
  }
}
