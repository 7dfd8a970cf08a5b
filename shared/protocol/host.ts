/**
 * Host side of the calling SDK: an emulated CRM host that embeds a calling widget in
 * an iframe and speaks the npm package's wire protocol to it. The work is split:
 * transport.ts (source/origin filter, posting), handshake.ts (SYNC loop),
 * pending-queue.ts (sends before the handshake), frame.ts (the iframe), send-methods.ts
 * (one send method per catalogue entry) and this class (judging and dispatching
 * messages). Traffic recording and fault injection are not here: the harness plugs
 * them in through the observer and outbox seams (host-types.ts).
 *
 * Origins: the only accepted (and the only target) origin is the origin of the current
 * `src`. A SYNC_ACK claiming another `iFrameUrl` origin is accepted (it came from the
 * right window at the right origin) but never retargets the host; a warning is logged.
 *
 * Messages: each widget message is judged twice (judgement.ts): the host acts on
 * what the real CRM accepts (listeners get the message after the leniency rules)
 * and reports every deviation from the SDK's types to the observer. A message the real
 * CRM would ignore is ignored, reported to the observer, `rejected` and `ignored`.
 */
import { getEntry, type CatalogueEntry, type HostSendableType, type MessageOf, type SyncFields } from './catalogue.ts'
import { WidgetFrame, checkHostOptions, checkPositive } from './frame.ts'
import { syncAckInfo, syncMessage, warmUpAck, type SyncAckFailedCause } from './handshake.ts'
import { SyncLoop } from './sync-loop.ts'
import { HostEventSource } from './host-events.ts'
import type { CallingHostOptions, HostOutbox, HostStatus, OutgoingNote, SyncAckInfo } from './host-types.ts'
import { ObserverCalls, type InboundExtra } from './host-observer.ts'
import { judgeWidgetMessage, type Deviation } from './judgement.ts'
import { FloodGate, createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { parseHttpUrl } from './origin.ts'
import { PendingQueue } from './pending-queue.ts'
import { defineSendMethods, hostEnvelope, type DataArg, type HostSendMethods } from './send-methods.ts'
import { WindowTransport, typeOf, type ForeignMessage, type WireMessage } from './transport.ts'

export type * from './host-types.ts'

const PREFIX = '[ringside calling host]'

/** The note of a message sent when ready: nothing to note (observers only read notes). */
const PLAIN: OutgoingNote = Object.freeze({})

/** A sender per catalogue type, made on first use (CallingHost.#senderFor). */
type Sender = (this: CallingHost, data?: unknown) => string
let senders: Map<string, Sender> | undefined

/** The send methods (dialNumber(), createEngagementSucceeded(), …) are generated from the catalogue. */
export interface CallingHost extends HostSendMethods {}

export class CallingHost extends HostEventSource {
  readonly #container: HTMLElement
  readonly #options: CallingHostOptions
  readonly #log: Logger
  readonly #nextId: () => string
  readonly #transport: WindowTransport
  readonly #handshakeLoop: SyncLoop
  readonly #outbox: HostOutbox
  /** An outbox wrapper sits between sending and posting (else a send when ready posts at once). */
  readonly #wrapped: boolean
  readonly #observer: ObserverCalls
  readonly #frame: WidgetFrame
  readonly #queue: PendingQueue<{ message: WireMessage; note: OutgoingNote }>
  readonly #rejectLog = new FloodGate((n) => this.#log.debug(`rejected ${n} more message(s) in the last second (not logged one by one: a flood)`))
  #sync: SyncFields
  #status: HostStatus = 'idle'
  #handshake: SyncAckInfo | null = null
  #destroyed = false

  constructor(options: CallingHostOptions) {
    super((event, error) => this.#log.error(`a '${event}' listener threw:`, error))
    // The send methods (dialNumber(), endCall(), …) are defined on the first construction, not at
    // module load, so that a widget-only bundle drops the host side.
    defineSendMethods<CallingHost>(CallingHost.prototype, 'hostMethod', CallingHost.#senderFor)
    const { container } = checkHostOptions(options)
    this.#frame = new WidgetFrame(options, () => this.#startHandshake(), () => this.#fail('iframe-error'))
    this.#options = options
    this.#container = container
    this.#sync = { ...options.sync }
    this.#nextId = createMessageIdFactory(options.messageIdPrefix ?? 'host', '_')
    this.#log = createLogger(PREFIX, () => options.debugMode === true)
    this.#observer = new ObserverCalls(options.observer, (error) => this.#log.error('the observer threw:', error))
    this.#queue = new PendingQueue((dropped) => this.#log.warn('pre-handshake queue full, dropped', dropped.message.type))
    this.#transport = new WindowTransport({
      peer: () => this.#frame.iframe?.contentWindow,
      origin: () => this.#frame.origin,
      onForeign: (foreign) => this.#onForeign(foreign),
    })
    this.#handshakeLoop = new SyncLoop({
      intervalMs: checkPositive(options.syncIntervalMs, 100, 'syncIntervalMs'),
      timeoutMs: checkPositive(options.syncTimeoutMs, 30000, 'syncTimeoutMs'),
      nextId: this.#nextId,
      sendSync: (id) => this.#outbox.post(syncMessage('SYNC', id, window.location.origin, this.#sync), {}),
      onTimeout: () => this.#fail('timeout'),
    })
    const inner: HostOutbox = { post: (m, note) => this.#post(m, note), drop: (m, note) => this.#observer.outbound(m, note) }
    this.#outbox = options.wrapOutbox ? options.wrapOutbox(inner) : inner
    this.#wrapped = this.#outbox !== inner
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
    this.#transport.start(this.#receive)
    const iframe = this.#frame.mount(this.#container)
    // Judge one SYNC_ACK-shaped message (thrown away) while the widget loads, so V8's lazy
    // compilation of the judgement and its validator is not paid between SYNC_ACK and `ready`.
    judgeWidgetMessage(warmUpAck(this.#sync, this.#frame.origin))
    return iframe
  }

  // --- events (subscribing: host-events.ts) ------------------------------------

  #setStatus(next: HostStatus): void {
    const previous = this.#status
    if (previous === next) return
    this.#status = next
    this.emit('status', next, previous)
  }

  // --- sending ---------------------------------------------------------------

  /** Sends a host → widget message; returns its messageId. Before the handshake it is queued and flushed in order after SYNC_ACK. */
  send<T extends HostSendableType>(type: T, ...args: DataArg<T>): string {
    return CallingHost.#senderFor(type).call(this, args[0])
  }

  /**
   * The function that sends a message of `type`: the generated send methods are these
   * functions, and send() calls them. When the host is ready and no outbox wrapper sits in
   * between, it posts from its own frame: a send made while a listener runs posts from as few
   * calls deep as we can make it (see #receive).
   */
  static #senderFor(type: string): Sender {
    const known = senders?.get(type)
    if (known !== undefined) return known
    const sender: Sender = function (this: CallingHost, data?: unknown): string {
      const messageId = this.#nextId()
      const message = hostEnvelope(type, data, messageId)
      if (this.#status !== 'ready' || this.#wrapped || this.#destroyed) {
        this.#submit(message)
        return messageId
      }
      const peer = this.#target(message, PLAIN)
      if (peer !== null) {
        try {
          peer.postMessage(message, this.#frame.origin)
        } catch (error) {
          this.#postFailed(message, error)
        }
      }
      return messageId
    }
    // Only the catalogue's types are kept: send() may be given any string.
    if (getEntry(type) !== undefined) (senders ??= new Map()).set(type, sender)
    return sender
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
    // No warning for a deprecated type the host sends: the real CRM still sends ENGAGEMENT_CREATED
    // after CREATE_ENGAGEMENT_SUCCEEDED, for widgets that listen only for it (shared/protocol/README.md).
    if (this.#status !== 'ready') this.#enqueue(message, { beforeHandshake: true })
    else this.#outbox.post(message, {})
  }

  #enqueue(message: WireMessage, note: OutgoingNote): void {
    this.#queue.push({ message, note })
    this.#log.traffic('Queued until SYNC_ACK', message)
  }

  /** The innermost outbox: shows the message to the observer, then posts it at the widget origin (never '*'). */
  #post(message: WireMessage, note: OutgoingNote): void {
    const peer = this.#target(message, note)
    if (peer === null) return
    try {
      peer.postMessage(message, this.#frame.origin)
    } catch (error) {
      this.#postFailed(message, error)
    }
  }

  /**
   * All of posting but the postMessage call, which the caller makes from its own frame (a
   * sender posts from one frame less deep than through #post): queues a message other than
   * SYNC while the handshake is not done, reports one that has no window to go to, and shows
   * the rest to the observer and the traffic log. Returns the window to post to, or null.
   */
  #target(message: WireMessage, note: OutgoingNote): Window | null {
    if (this.#destroyed) return null
    if (message.type !== 'SYNC' && this.#status !== 'ready') {
      this.#enqueue(message, note)
      return null
    }
    const peer = this.#frame.iframe?.contentWindow
    if (!peer) {
      this.#log.warn(`cannot post ${message.type}: the iframe has no window`)
      this.#observer.outbound(message, { beforeHandshake: note.beforeHandshake }, 'no iframe window')
      return null
    }
    this.#observer.outbound(message, note)
    this.#log.traffic('To widget', message)
    return peer
  }

  #postFailed(message: WireMessage, error: unknown): void {
    this.#log.error(`postMessage of ${message.type} failed:`, error)
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
    this.emit('syncAckFailed', { cause })
  }

  #onSyncAck(message: MessageOf<'SYNC_ACK'>, entry: CatalogueEntry, event: MessageEvent): void {
    if (this.#status !== 'syncing' || !this.#handshakeLoop.answers(message.messageId)) {
      this.#reject('unexpected SYNC_ACK (no outstanding SYNC with this messageId)', event, true, 'SYNC_ACK')
      return
    }
    this.#handshakeLoop.stop()
    this.#observeIn(message, 'SYNC_ACK', true)
    this.#log.traffic('From widget', message)
    // The SDK sends its page's origin: equal to ours, it needs no parsing.
    const claimed = message.iFrameUrl
    if (claimed !== undefined && claimed !== this.#frame.origin && parseHttpUrl(claimed)?.origin !== this.#frame.origin) {
      this.#log.warn(`SYNC_ACK iFrameUrl does not match the src origin ${this.#frame.origin}; keeping the src origin`)
    }
    const info = syncAckInfo(message)
    this.#handshake = info
    this.#log.debug(`handshake complete: SYNC_ACK from ${this.#frame.origin}`)
    // Ready first (queued messages now post), flushed before anyone hears about it so they keep their order.
    const queued = this.#queue.take()
    this.#status = 'ready'
    if (queued.length > 0) this.#log.debug(`flushing ${queued.length} message(s) queued before the handshake`)
    for (const pending of queued) this.#outbox.post(pending.message, pending.note)
    this.emit('status', 'ready', 'syncing')
    this.emit('SYNC_ACK', undefined, message)
    this.emit('message', message, entry)
    this.emit('ready', info)
  }

  // --- receiving -------------------------------------------------------------

  #observeIn(data: unknown, type: string | null, accepted: boolean, extra?: InboundExtra): void {
    this.#observer.inbound(data, type, accepted, this.#status !== 'ready', extra)
  }

  #onForeign({ event, reason, fromPeer }: ForeignMessage): void {
    this.#reject(reason, event, fromPeer, fromPeer ? typeOf(event.data) : undefined)
  }

  #reject(reason: string, event: MessageEvent, inTraffic: boolean, type?: string, deviations?: Deviation[], notSdk?: true): void {
    const data: unknown = event.data
    if (inTraffic) this.#observeIn(data, type ?? null, false, { reason, deviations, notSdk })
    this.#rejectLog.pass(() => this.#log.debug(`rejected a message from ${event.origin}: ${reason}`))
    this.emit('rejected', { reason, origin: event.origin, data, fromOtherWindow: !inTraffic })
  }

  /**
   * The window's `message` listener itself (registered through the transport, which filters
   * with admits() first: only the widget's window at its origin gets further). Nothing here
   * throws: judgeWidgetMessage never does, listeners are guarded. The wire type's listeners
   * are called from here, so a listener that answers at once posts from as few calls deep as
   * we can make it: Chromium's postMessage costs more the deeper the caller's stack is (while
   * DevTools or Playwright are attached it records the stack, ~0.5 µs a frame).
   */
  readonly #receive = (event: MessageEvent): void => {
    if (!this.#transport.admits(event)) return
    const data: unknown = event.data
    const judgement = judgeWidgetMessage(data)
    if (!judgement.act && judgement.notSdk) {
      // A vendor library's own message in the widget's page: the SDK drops it without a word.
      // It stays in the traffic (marked), and is nothing the widget is judged by.
      this.#reject(judgement.reason, event, true, judgement.type, undefined, true)
      return
    }
    if (!judgement.act) {
      this.#reject(judgement.reason, event, true, judgement.type, judgement.deviations)
      this.emit('ignored', { ...(judgement.type !== undefined ? { type: judgement.type } : {}), reason: judgement.reason, data, deviations: judgement.deviations })
      return
    }
    const message = judgement.message
    if (message.type === 'SYNC_ACK') {
      this.#onSyncAck(message, judgement.entry, event)
      return
    }
    if (judgement.deprecation !== undefined) warnOnce(judgement.deprecation, PREFIX, judgement.deprecation)
    // The observer gets the message as it came over the wire, with the deviations.
    if (this.#observer.active) this.#observeIn(data, message.type, true, { deprecation: judgement.deprecation, deviations: judgement.deviations })
    this.#log.traffic('From widget', message)
    const type = message.type
    const payload = 'data' in message ? message.data : undefined
    const listeners = this.wireListeners(type)
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(payload, message)
      } catch (error) {
        this.listenerThrew(type, error)
      }
    }
    if (this.listening('message')) this.emit('message', message, judgement.entry)
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
    this.#queue.clear()
    this.#rejectLog.close()
    this.#transport.stop()
    this.#frame.remove()
    this.#setStatus('idle')
    this.#destroyed = true
    this.clearListeners()
  }
}

