/**
 * Host side of the calling SDK: an emulated CRM host that embeds a calling widget in
 * an iframe and speaks the npm package's wire protocol to it. The work is split:
 * transport.ts (source/origin filter, posting), handshake.ts (SYNC loop), this class
 * (iframe lifecycle, the pre-handshake queue, judging and dispatching messages) and
 * send-methods.ts (one send method per catalogue entry).
 *
 * Origins: the only accepted (and the only target) origin is the origin of the current
 * `src`. A SYNC_ACK claiming another `iFrameUrl` origin is accepted (it came from the
 * right window at the right origin) but never retargets the host; a warning is logged.
 *
 * Messages: each widget message is judged twice (judgement.ts): the host acts on
 * what the real CRM accepts (listeners get the message after the leniency rules)
 * and reports every deviation from the SDK's types on its traffic entry. A message
 * the real CRM would ignore is ignored, reported in traffic, `rejected` and `ignored`.
 */
import { SDK_VERSION, deprecationOf, getEntry, validateMessage, type HostSendableType, type MessageOf, type SyncFields, type ValidationResult } from './catalogue.ts'
import { Emitter } from './emitter.ts'
import { SyncLoop, syncMessage, type SyncAckFailedCause } from './handshake.ts'
import type { CallingHostOptions, HostEvents, HostOutbox, HostStatus, OutgoingNote, SyncAckInfo, TrafficEntry } from './host-types.ts'
import { judgeWidgetMessage, type Deviation } from './judgement.ts'
import { createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { parseHttpUrl } from './origin.ts'
import { defineSendMethods, type DataArg, type HostSendMethods } from './send-methods.ts'
import { WindowTransport, type ForeignMessage, type WireMessage } from './transport.ts'

export type * from './host-types.ts'

const PREFIX = '[ringside calling host]'
/** Upper bound of the pre-handshake queue; the oldest entries go first. */
export const MAX_QUEUE = 500

function checkSize(value: unknown, name: string): string {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return String(value)
  if (typeof value === 'string' && /^\d+(\.\d+)?(px|%|vw|vh|em|rem)?$/.test(value.trim())) return value.trim()
  throw new Error(`${name} must be a non-negative number or a CSS length, got ${JSON.stringify(value)}`)
}

function checkPositive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${String(value)}`)
  return value
}

function requireHttpUrl(url: unknown, what: string): URL {
  const parsed = parseHttpUrl(url, typeof document === 'undefined' ? undefined : document.baseURI)
  if (!parsed) throw new Error(`${what}: only http(s) URLs are accepted, got ${JSON.stringify(url)}`)
  return parsed
}

/** The send methods (dialNumber(), createEngagementSucceeded(), …) are generated from the catalogue. */
export interface CallingHost extends HostSendMethods {}

export class CallingHost {
  readonly #container: HTMLElement
  readonly #options: CallingHostOptions
  readonly #log: Logger
  readonly #nextId: () => string
  readonly #events: Emitter<HostEvents>
  readonly #transport: WindowTransport
  readonly #handshakeLoop: SyncLoop
  readonly #outbox: HostOutbox
  #src: string
  #widgetOrigin: string
  #width: string
  #height: string
  #sync: SyncFields
  #iframe: HTMLIFrameElement | null = null
  #status: HostStatus = 'idle'
  #handshake: SyncAckInfo | null = null
  #queue: Array<{ message: WireMessage; note: OutgoingNote }> = []
  #seq = 0
  #destroyed = false
  #lastChecked: WireMessage | null = null
  #lastCheck: ValidationResult | null = null
  readonly #onLoad = (): void => this.#startHandshake()
  readonly #onError = (): void => this.#fail('iframe-error')

  constructor(options: CallingHostOptions) {
    if (!options || typeof options !== 'object') throw new Error('CallingHost: options are required')
    const { container } = options
    if (!container || typeof container.appendChild !== 'function') throw new Error('CallingHost: options.container must be an HTMLElement')
    if (!options.sync || typeof options.sync !== 'object') throw new Error('CallingHost: options.sync is required')
    const url = requireHttpUrl(options.src, 'CallingHost src')
    this.#options = options
    this.#container = container
    this.#src = url.href
    this.#widgetOrigin = url.origin
    this.#width = checkSize(options.width ?? 400, 'width')
    this.#height = checkSize(options.height ?? 600, 'height')
    this.#sync = { ...options.sync }
    this.#nextId = createMessageIdFactory(options.messageIdPrefix ?? 'host', '_')
    this.#log = createLogger(PREFIX, () => options.debugMode === true)
    this.#events = new Emitter<HostEvents>((event, error) => this.#log.error(`a '${event}' listener threw:`, error))
    this.#transport = new WindowTransport({
      peer: () => this.#iframe?.contentWindow,
      origin: () => this.#widgetOrigin,
      onMessage: (event) => this.#receive(event),
      onForeign: (foreign) => this.#onForeign(foreign),
      onPostError: (message, error) => this.#log.error(`postMessage of ${message.type} failed:`, error),
    })
    this.#handshakeLoop = new SyncLoop({
      intervalMs: checkPositive(options.syncIntervalMs, 100, 'syncIntervalMs'),
      timeoutMs: checkPositive(options.syncTimeoutMs, 30000, 'syncTimeoutMs'),
      nextId: this.#nextId,
      sendSync: (id) => this.#outbox.post(syncMessage('SYNC', id, window.location.origin, this.#sync), {}),
      onTimeout: () => this.#fail('timeout'),
    })
    const inner: HostOutbox = { post: (m, note) => this.#post(m, note), drop: (m, note) => this.#record(m, note) }
    this.#outbox = options.wrapOutbox ? options.wrapOutbox(inner) : inner
  }

  get status(): HostStatus { return this.#status }
  get iframe(): HTMLIFrameElement | null { return this.#iframe }
  /** Origin of the current src: the only origin accepted and posted to. */
  get widgetOrigin(): string { return this.#widgetOrigin }
  get src(): string { return this.#src }
  /** SYNC_ACK data of the current handshake (null unless ready). */
  get handshake(): SyncAckInfo | null { return this.#handshake }
  get syncFields(): SyncFields { return { ...this.#sync } }

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
    this.#transport.start()
    iframe.src = this.#src
    this.#iframe = iframe
    this.#container.appendChild(iframe)
    // Validate one SYNC_ACK-shaped message while the widget loads, so V8's lazy
    // compilation of the validator is not paid between SYNC_ACK and `ready`.
    const ack = syncMessage('SYNC_ACK', 'warm-up', window.location.origin, this.#sync)
    Object.assign(ack, { debugMode: false, version: SDK_VERSION, iFrameUrl: this.#widgetOrigin })
    validateMessage(ack, 'from-widget')
    return iframe
  }

  // --- events ----------------------------------------------------------------

  /** Subscribes to a wire type (e.g. 'CALL_ENDED') or a lifecycle event; returns unsubscribe. */
  on<E extends keyof HostEvents>(event: E, listener: HostEvents[E]): () => void { return this.#events.on(event, listener) }
  onStatus(listener: HostEvents['status']): () => void { return this.on('status', listener) }
  onReady(listener: HostEvents['ready']): () => void { return this.on('ready', listener) }
  onSyncAckFailed(listener: HostEvents['syncAckFailed']): () => void { return this.on('syncAckFailed', listener) }
  onTraffic(listener: HostEvents['traffic']): () => void { return this.on('traffic', listener) }
  onRejected(listener: HostEvents['rejected']): () => void { return this.on('rejected', listener) }
  onIgnored(listener: HostEvents['ignored']): () => void { return this.on('ignored', listener) }
  onMessage(listener: HostEvents['message']): () => void { return this.on('message', listener) }

  #setStatus(next: HostStatus): void {
    const previous = this.#status
    if (previous === next) return
    this.#status = next
    this.#events.emit('status', next, previous)
  }

  /** Emits a traffic entry with the next seq (built only when someone listens). */
  #traffic(direction: TrafficEntry['direction'], type: string | null, message: unknown, valid: boolean, extra: Partial<TrafficEntry>): void {
    this.#seq += 1
    const entry: TrafficEntry = { seq: this.#seq, time: Date.now(), direction, type, message, valid }
    for (const key of Object.keys(extra) as Array<keyof TrafficEntry>) if (extra[key] !== undefined) (entry as unknown as Record<string, unknown>)[key] = extra[key]
    this.#events.emit('traffic', entry)
  }

  // --- sending ---------------------------------------------------------------

  /** Sends a host → widget message; returns its messageId. Before the handshake it is queued and flushed in order after SYNC_ACK. */
  send<T extends HostSendableType>(type: T, ...args: DataArg<T>): string {
    const messageId = this.#nextId()
    const data: unknown = args[0]
    const message: WireMessage = getEntry(type)?.hasData === false ? { type, messageId } : { type, data, messageId }
    // The npm widget (0.9.7) reads only a top-level iFrameUrl; ours reads either.
    if (type === 'SET_WIDGET_URL' && typeof data === 'object' && data !== null && 'iFrameUrl' in data) message.iFrameUrl = data.iFrameUrl
    this.#submit(message)
    return messageId
  }

  /** Posts any envelope (fault injection, legacy shapes); adds a messageId if absent. */
  sendRaw(message: { type: string; [key: string]: unknown }): string {
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') throw new TypeError('sendRaw expects an object with a string `type`')
    const existing = message.messageId
    const messageId = typeof existing === 'string' && existing !== '' ? existing : this.#nextId()
    this.#submit(Object.assign({}, message, { messageId }))
    return messageId
  }

  #submit(message: WireMessage): void {
    if (this.#destroyed) {
      this.#log.warn('send after destroy() ignored:', message.type)
      return
    }
    const note = deprecationOf(message.type, message.data)
    if (note !== undefined) warnOnce(note, PREFIX, note)
    if (this.#status !== 'ready') this.#enqueue(message, { beforeHandshake: true })
    else this.#outbox.post(message, {})
  }

  #enqueue(message: WireMessage, note: OutgoingNote): void {
    if (this.#queue.length >= MAX_QUEUE) this.#log.warn('pre-handshake queue full, dropped', this.#queue.shift()?.message.type)
    this.#queue.push({ message, note })
    this.#log.traffic('Queued until SYNC_ACK', message)
  }

  /** The innermost outbox: records the message in traffic, then posts it at the widget origin. */
  #post(message: WireMessage, note: OutgoingNote): void {
    if (this.#destroyed) return
    if (message.type !== 'SYNC' && this.#status !== 'ready') {
      this.#enqueue(message, note)
      return
    }
    if (!this.#iframe?.contentWindow) {
      this.#log.warn(`cannot post ${message.type}: the iframe has no window`)
      this.#record(message, { beforeHandshake: note.beforeHandshake }, 'no iframe window')
      return
    }
    this.#record(message, note)
    this.#log.traffic('To widget', message)
    this.#transport.post(message)
  }

  /** Reports an outgoing message to traffic listeners, validated once (a duplicate is the same object). */
  #record(message: WireMessage, note: OutgoingNote, problem?: string): void {
    if (!this.#events.has('traffic')) return
    if (this.#lastChecked !== message || this.#lastCheck === null) {
      this.#lastCheck = validateMessage(message, 'from-host')
      this.#lastChecked = message
    }
    const check = this.#lastCheck
    this.#traffic('out', message.type, message, check.ok, {
      reason: check.ok ? problem : check.reason,
      deprecation: check.ok ? check.deprecation : undefined,
      beforeHandshake: note.beforeHandshake ? true : undefined,
      fault: note.fault,
    })
  }

  // --- handshake -------------------------------------------------------------

  #startHandshake(): void {
    if (this.#destroyed) return
    this.#handshake = null
    this.#setStatus('syncing')
    this.#handshakeLoop.start()
  }

  #fail(cause: SyncAckFailedCause): void {
    if (this.#destroyed) return
    this.#handshakeLoop.stop()
    this.#handshake = null
    this.#log.warn(`SYNC_ACK_FAILED (${cause}): the widget at ${this.#widgetOrigin} did not complete the handshake`)
    this.#setStatus('failed')
    this.#events.emit('syncAckFailed', { cause })
  }

  #onSyncAck(message: MessageOf<'SYNC_ACK'>, event: MessageEvent): void {
    if (this.#status !== 'syncing' || !this.#handshakeLoop.answers(message.messageId)) {
      this.#reject('unexpected SYNC_ACK (no outstanding SYNC with this messageId)', event, true, 'SYNC_ACK')
      return
    }
    this.#handshakeLoop.stop()
    if (this.#events.has('traffic')) this.#traffic('in', 'SYNC_ACK', message, true, { beforeHandshake: true })
    this.#log.traffic('From widget', message)
    if (message.iFrameUrl !== undefined && parseHttpUrl(message.iFrameUrl)?.origin !== this.#widgetOrigin) {
      this.#log.warn(`SYNC_ACK iFrameUrl does not match the src origin ${this.#widgetOrigin}; keeping the src origin`)
    }
    const info: SyncAckInfo = { message }
    if (message.version !== undefined) info.version = message.version
    if (message.debugMode !== undefined) info.debugMode = message.debugMode
    if (message.iFrameUrl !== undefined) info.iFrameUrl = message.iFrameUrl
    this.#handshake = info
    this.#log.debug(`handshake complete: SYNC_ACK from ${this.#widgetOrigin}`)
    // Ready first (queued messages now post), flushed before anyone hears about it so they keep their order.
    const queued = this.#queue
    this.#queue = []
    this.#status = 'ready'
    if (queued.length > 0) this.#log.debug(`flushing ${queued.length} message(s) queued before the handshake`)
    for (const pending of queued) this.#outbox.post(pending.message, pending.note)
    this.#events.emit('status', 'ready', 'syncing')
    this.#events.emit('SYNC_ACK', undefined, message)
    this.#events.emit('message', message, getEntry('SYNC_ACK')!)
    this.#events.emit('ready', info)
  }

  // --- receiving -------------------------------------------------------------

  #onForeign({ event, reason, fromPeer }: ForeignMessage): void {
    this.#reject(reason, event, fromPeer, fromPeer ? typeOf(event.data) : undefined)
  }

  #reject(reason: string, event: MessageEvent, inTraffic: boolean, type?: string, deviations?: Deviation[]): void {
    const data: unknown = event.data
    if (inTraffic && this.#events.has('traffic')) {
      this.#traffic('in', type ?? null, data, false, {
        reason,
        deviations: deviations !== undefined && deviations.length > 0 ? deviations : undefined,
        beforeHandshake: this.#status !== 'ready' ? true : undefined,
      })
    }
    this.#log.debug(`rejected a message from ${event.origin}: ${reason}`)
    this.#events.emit('rejected', { reason, origin: event.origin, data, fromOtherWindow: !inTraffic })
  }

  /** From the widget's window at its origin. Nothing here throws: judgeWidgetMessage never does, listeners are guarded. */
  #receive(event: MessageEvent): void {
    const judgement = judgeWidgetMessage(event.data)
    if (!judgement.act) {
      this.#reject(judgement.reason, event, true, judgement.type, judgement.deviations)
      this.#events.emit('ignored', { ...(judgement.type !== undefined ? { type: judgement.type } : {}), reason: judgement.reason, data: event.data, deviations: judgement.deviations })
      return
    }
    const message = judgement.message
    if (message.type === 'SYNC_ACK') {
      this.#onSyncAck(message, event)
      return
    }
    if (judgement.deprecation !== undefined) warnOnce(judgement.deprecation, PREFIX, judgement.deprecation)
    if (this.#events.has('traffic')) {
      // The inspector shows the message as it came over the wire, with the deviations.
      this.#traffic('in', message.type, event.data, true, {
        deprecation: judgement.deprecation,
        deviations: judgement.deviations.length > 0 ? judgement.deviations : undefined,
        beforeHandshake: this.#status !== 'ready' ? true : undefined,
      })
    }
    this.#log.traffic('From widget', message)
    const emit = this.#events.emit.bind(this.#events) as (event: string, ...args: unknown[]) => void
    emit(message.type, 'data' in message ? message.data : undefined, message)
    this.#events.emit('message', message, judgement.entry)
    if (this.#destroyed) return // a listener may have destroyed the host
    // Built-in reactions (each can be switched off).
    if (message.type === 'RESIZE_WIDGET' && this.#options.autoResize !== false) {
      this.resize(message.data.width, message.data.height)
    } else if (message.type === 'SET_WIDGET_URL' && this.#options.autoSetWidgetUrl !== false) {
      const parsed = parseHttpUrl(typeof message.iFrameUrl === 'string' ? message.iFrameUrl : message.data?.iFrameUrl, this.#src)
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
    this.#handshakeLoop.stop()
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
    this.#width = checkSize(width, 'width')
    this.#height = checkSize(height, 'height')
    this.#iframe?.setAttribute('width', this.#width)
    this.#iframe?.setAttribute('height', this.#height)
  }

  /** Removes the iframe, listeners and timers; status becomes 'idle'. */
  destroy(): void {
    if (this.#destroyed) return
    this.#handshakeLoop.stop()
    this.#queue = []
    this.#transport.stop()
    if (this.#iframe) {
      this.#iframe.removeEventListener('load', this.#onLoad)
      this.#iframe.removeEventListener('error', this.#onError)
      this.#iframe.remove()
      this.#iframe = null
    }
    this.#setStatus('idle')
    this.#destroyed = true
    this.#events.clear()
  }
}

defineSendMethods<CallingHost>(CallingHost.prototype, 'hostMethod', (host, type, data) => host.send(type as HostSendableType, data as never))

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
