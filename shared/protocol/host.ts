/**
 * Host side of the calling SDK: an emulated CRM host that embeds a calling widget in
 * an iframe and speaks the npm package's wire protocol to it. The work is split:
 * transport.ts (source/origin filter, posting), handshake.ts (SYNC loop), this class
 * (the pre-handshake queue, judging and dispatching messages), frame.ts (the iframe),
 * traffic.ts (the traffic log) and
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
import { SDK_VERSION, deprecationOf, getEntry, validateMessage, type HostSendableType, type MessageOf, type SyncFields } from './catalogue.ts'
import { Emitter } from './emitter.ts'
import { WidgetFrame, checkPositive } from './frame.ts'
import { SyncLoop, syncMessage, type SyncAckFailedCause } from './handshake.ts'
import type { CallingHostOptions, HostEvents, HostOutbox, HostStatus, OutgoingNote, SyncAckInfo } from './host-types.ts'
import { judgeWidgetMessage, type Deviation } from './judgement.ts'
import { createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { parseHttpUrl } from './origin.ts'
import { defineSendMethods, type DataArg, type HostSendMethods } from './send-methods.ts'
import { TrafficLog, typeOf } from './traffic.ts'
import { WindowTransport, type ForeignMessage, type WireMessage } from './transport.ts'

export type * from './host-types.ts'

const PREFIX = '[ringside calling host]'
/** Upper bound of the pre-handshake queue; the oldest entries go first. */
export const MAX_QUEUE = 500

/** The send methods (dialNumber(), createEngagementSucceeded(), …) are generated from the catalogue. */
export interface CallingHost extends HostSendMethods {}

let sendMethodsDefined = false

/**
 * The host's send methods (dialNumber(), endCall(), …), generated from the catalogue
 * onto CallingHost.prototype when the first host is constructed rather than when this
 * module loads: a module with no top-level side effects is dropped from the bundle of
 * a widget that imports only the widget side of the SDK.
 */
function defineHostSendMethods(): void {
  if (sendMethodsDefined) return
  sendMethodsDefined = true
  defineSendMethods<CallingHost>(CallingHost.prototype, 'hostMethod', (host, type, data) => host.send(type as HostSendableType, data as never))
}

export class CallingHost {
  readonly #container: HTMLElement
  readonly #options: CallingHostOptions
  readonly #log: Logger
  readonly #nextId: () => string
  readonly #events: Emitter<HostEvents>
  readonly #transport: WindowTransport
  readonly #handshakeLoop: SyncLoop
  readonly #outbox: HostOutbox
  readonly #traffic: TrafficLog
  readonly #frame: WidgetFrame
  #sync: SyncFields
  #status: HostStatus = 'idle'
  #handshake: SyncAckInfo | null = null
  #queue: Array<{ message: WireMessage; note: OutgoingNote }> = []
  #destroyed = false

  constructor(options: CallingHostOptions) {
    defineHostSendMethods()
    if (!options || typeof options !== 'object') throw new Error('CallingHost: options are required')
    const { container } = options
    if (!container || typeof container.appendChild !== 'function') throw new Error('CallingHost: options.container must be an HTMLElement')
    if (!options.sync || typeof options.sync !== 'object') throw new Error('CallingHost: options.sync is required')
    this.#frame = new WidgetFrame(options, () => this.#startHandshake(), () => this.#fail('iframe-error'))
    this.#options = options
    this.#container = container
    this.#sync = { ...options.sync }
    this.#nextId = createMessageIdFactory(options.messageIdPrefix ?? 'host', '_')
    this.#log = createLogger(PREFIX, () => options.debugMode === true)
    this.#events = new Emitter<HostEvents>((event, error) => this.#log.error(`a '${event}' listener threw:`, error))
    this.#traffic = new TrafficLog(() => this.#events.has('traffic'), (entry) => this.#events.emit('traffic', entry))
    this.#transport = new WindowTransport({
      peer: () => this.#frame.iframe?.contentWindow,
      origin: () => this.#frame.origin,
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
    const inner: HostOutbox = { post: (m, note) => this.#post(m, note), drop: (m, note) => this.#traffic.out(m, note) }
    this.#outbox = options.wrapOutbox ? options.wrapOutbox(inner) : inner
  }

  get status(): HostStatus { return this.#status }
  get iframe(): HTMLIFrameElement | null { return this.#frame.iframe }
  /** Origin of the current src: the only origin accepted and posted to. */
  get widgetOrigin(): string { return this.#frame.origin }
  get src(): string { return this.#frame.src }
  /** SYNC_ACK data of the current handshake (null unless ready). */
  get handshake(): SyncAckInfo | null { return this.#handshake }
  get syncFields(): SyncFields { return { ...this.#sync } }

  /** Creates the iframe (once) and waits for its load event to handshake. */
  mount(): HTMLIFrameElement {
    if (this.#destroyed) throw new Error('CallingHost: mount() after destroy()')
    if (this.#frame.iframe) return this.#frame.iframe
    this.#transport.start()
    const iframe = this.#frame.mount(this.#container)
    // Validate one SYNC_ACK-shaped message while the widget loads, so V8's lazy
    // compilation of the validator is not paid between SYNC_ACK and `ready`.
    const ack = syncMessage('SYNC_ACK', 'warm-up', window.location.origin, this.#sync)
    Object.assign(ack, { debugMode: false, version: SDK_VERSION, iFrameUrl: this.#frame.origin })
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
    if (!this.#frame.iframe?.contentWindow) {
      this.#log.warn(`cannot post ${message.type}: the iframe has no window`)
      this.#traffic.out(message, { beforeHandshake: note.beforeHandshake }, 'no iframe window')
      return
    }
    this.#traffic.out(message, note)
    this.#log.traffic('To widget', message)
    this.#transport.post(message)
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
    this.#log.warn(`SYNC_ACK_FAILED (${cause}): the widget at ${this.#frame.origin} did not complete the handshake`)
    this.#setStatus('failed')
    this.#events.emit('syncAckFailed', { cause })
  }

  #onSyncAck(message: MessageOf<'SYNC_ACK'>, event: MessageEvent): void {
    if (this.#status !== 'syncing' || !this.#handshakeLoop.answers(message.messageId)) {
      this.#reject('unexpected SYNC_ACK (no outstanding SYNC with this messageId)', event, true, 'SYNC_ACK')
      return
    }
    this.#handshakeLoop.stop()
    this.#traffic.add('in', 'SYNC_ACK', message, true, { beforeHandshake: true })
    this.#log.traffic('From widget', message)
    if (message.iFrameUrl !== undefined && parseHttpUrl(message.iFrameUrl)?.origin !== this.#frame.origin) {
      this.#log.warn(`SYNC_ACK iFrameUrl does not match the src origin ${this.#frame.origin}; keeping the src origin`)
    }
    const info: SyncAckInfo = { message }
    if (message.version !== undefined) info.version = message.version
    if (message.debugMode !== undefined) info.debugMode = message.debugMode
    if (message.iFrameUrl !== undefined) info.iFrameUrl = message.iFrameUrl
    this.#handshake = info
    this.#log.debug(`handshake complete: SYNC_ACK from ${this.#frame.origin}`)
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
    if (inTraffic) this.#traffic.add('in', type ?? null, data, false, { reason, deviations, beforeHandshake: this.#status !== 'ready' })
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
    // The inspector shows the message as it came over the wire, with the deviations.
    const { deprecation, deviations } = judgement
    this.#traffic.add('in', message.type, event.data, true, { deprecation, deviations, beforeHandshake: this.#status !== 'ready' })
    this.#log.traffic('From widget', message)
    const emit = this.#events.emit.bind(this.#events) as (event: string, ...args: unknown[]) => void
    emit(message.type, 'data' in message ? message.data : undefined, message)
    this.#events.emit('message', message, judgement.entry)
    if (this.#destroyed) return // a listener may have destroyed the host
    // Built-in reactions (each can be switched off).
    if (message.type === 'RESIZE_WIDGET' && this.#options.autoResize !== false) {
      this.resize(message.data.width, message.data.height)
    } else if (message.type === 'SET_WIDGET_URL' && this.#options.autoSetWidgetUrl !== false) {
      const parsed = parseHttpUrl(typeof message.iFrameUrl === 'string' ? message.iFrameUrl : message.data?.iFrameUrl, this.#frame.src)
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
    this.#frame.setSrc(url)
    this.#navigate()
  }

  #navigate(): void {
    if (this.#destroyed) throw new Error('CallingHost: destroyed')
    this.#handshakeLoop.stop()
    this.#handshake = null
    if (this.#frame.iframe) {
      this.#setStatus('idle')
      this.#frame.navigate()
    }
  }

  /** Fields used by the next SYNC (e.g. engagementId). */
  setSyncFields(partial: Partial<SyncFields>): void {
    this.#sync = { ...this.#sync, ...partial }
  }

  resize(width: number | string, height: number | string): void {
    this.#frame.resize(width, height)
  }

  /** Removes the iframe, listeners and timers; status becomes 'idle'. */
  destroy(): void {
    if (this.#destroyed) return
    this.#handshakeLoop.stop()
    this.#queue = []
    this.#transport.stop()
    this.#frame.remove()
    this.#setStatus('idle')
    this.#destroyed = true
    this.#events.clear()
  }
}

