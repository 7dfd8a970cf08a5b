/**
 * Widget side of the calling SDK: a drop-in for `@hubspot/calling-extensions-sdk`'s
 * CallingExtensions (same constructor, method names, handler names and wire shapes).
 *
 * Differences that keep the wire compatible but fix known problems:
 * - messageIds are `w<random>_<n>`: unique, never digit-leading;
 * - sends before the handshake are queued and flushed in order after SYNC_ACK
 *   (the npm package drops them with "iFrame not initialized");
 * - SYNC is accepted only from window.parent whose origin equals SYNC.hostUrl (and is
 *   listed in `hostOrigins` when given); afterwards only window.parent at that origin;
 * - every received message is validated before any handler sees it; invalid and
 *   unknown ones never reach a handler (unknown ones still get UNKNOWN_MESSAGE_TYPE);
 * - an ERROR is never answered with an ERROR.
 */
import { SDK_VERSION, deprecationOf, errorType, validateMessage, type CatalogueEntry, type HostToWidgetMessage, type MessageOf, type ReadyPayload } from './catalogue.ts'
import { allowedHosts, answerSync, isSync, warmUpSync } from './handshake.ts'
import { createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { httpOrigin } from './origin.ts'
import { PendingQueue } from './pending-queue.ts'
import { defineSendMethods, envelope, type WidgetSendMethods } from './send-methods.ts'
import { WindowTransport, type ForeignMessage, type WireMessage } from './transport.ts'
import type { CallingExtensionsOptions, OutgoingMessage } from './widget-types.ts'

export type * from './widget-types.ts'

const PREFIX = `[calling-extensions-sdk@${SDK_VERSION} ringside]`

type AnyHandler = (data: unknown, message: unknown) => void

/** The send methods (initialized(), outgoingCall(), callEnded(), …) are generated from the catalogue. */
export interface CallingExtensions extends WidgetSendMethods {}

export class CallingExtensions {
  readonly options: CallingExtensionsOptions
  readonly #handlers: Readonly<Record<string, unknown>>
  readonly #debugMode: boolean
  readonly #allowedHosts: ReadonlySet<string> | null
  readonly #log: Logger
  readonly #nextId = createMessageIdFactory('w')
  readonly #transport: WindowTransport
  #hostOrigin: string | null = null
  #ready = false
  #destroyed = false
  readonly #queue = new PendingQueue<WireMessage>((dropped) => this.#log.warn('pre-handshake queue full, dropped', dropped.type))

  constructor(options: CallingExtensionsOptions) {
    if (!options || typeof options !== 'object' || !options.eventHandlers || typeof options.eventHandlers !== 'object') {
      throw new Error('Invalid options or missing eventHandlers.')
    }
    this.options = options
    this.#handlers = options.eventHandlers
    this.#debugMode = options.debugMode === true
    this.#log = createLogger(PREFIX, () => this.#debugMode)
    this.#allowedHosts = allowedHosts(options.hostOrigins)
    // A document's parent window never changes while it lives (moving an iframe reloads
    // it), so it is read once: the getter costs a few µs on every message otherwise.
    const parent = window.parent
    this.#transport = new WindowTransport({
      peer: () => parent,
      // null until the handshake: the first SYNC is checked against its own hostUrl
      origin: () => this.#hostOrigin,
      onMessage: (event) => this.#onMessage(event),
      onForeign: (foreign) => this.#onForeign(foreign),
      onPostError: (message, error) => this.#log.error(`postMessage of ${message.type} failed:`, error),
    })
    // Listening starts now: a SYNC is answered as soon as this object exists. The SYNC
    // checks and the validator run once now on a throw-away SYNC (nothing is posted; V8
    // compiles a function on its first call), so nothing lazy sits between the host's
    // first SYNC and our SYNC_ACK.
    this.#transport.start()
    warmUpSync()
  }

  /** True once the first valid SYNC has been acknowledged. */
  get isReady(): boolean {
    return this.#ready
  }

  /** Origin of the host page (null before the handshake). */
  get hostOrigin(): string | null {
    return this.#hostOrigin
  }

  get debugMode(): boolean {
    return this.#debugMode
  }

  /**
   * Sends any envelope unchanged (extra top-level keys kept). Without a messageId it
   * sends a copy with one added (the caller's object is never modified).
   */
  sendMessage(message: OutgoingMessage): void {
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') {
      throw new TypeError('sendMessage expects an object with a string `type`')
    }
    const messageId = message.messageId
    const hasId = (typeof messageId === 'string' && messageId !== '') || typeof messageId === 'number'
    this.#send(hasId ? (message as WireMessage) : Object.assign({}, message, { messageId: this.#nextId() }))
  }

  /** Console only, like the npm package (console.log in debug mode, console.debug otherwise). */
  logDebugMessage({ message, type = 'Generic Message' }: { message: string; type?: string }): void {
    this.#log.debug(type, message)
  }

  /** Removes the message listener and drops queued messages; later sends are ignored. */
  destroy(): void {
    if (this.#destroyed) return
    this.#destroyed = true
    this.#queue.clear()
    this.#transport.stop()
  }

  // --- sending ---------------------------------------------------------------

  static {
    // The generated send methods post `{type, messageId}` or `{type, data, messageId}`, as the npm package.
    defineSendMethods<CallingExtensions>(CallingExtensions.prototype, 'method', (type) =>
      function (this: CallingExtensions, data?: unknown) {
        this.#send(envelope(type, data, this.#nextId()))
      },
    )
  }

  #send(message: WireMessage): void {
    if (this.#destroyed) {
      this.#log.warn('send after destroy() ignored:', message.type)
      return
    }
    const note = deprecationOf(message.type, message.data)
    if (note !== undefined) warnOnce(note, PREFIX, note)
    if (this.#debugMode) {
      const check = validateMessage(message, 'from-widget')
      if (!check.ok) this.#log.warn(`sending ${message.type} that a host would reject: ${check.reason}`)
    }
    if (!this.#ready) {
      this.#queue.push(message)
      this.#log.traffic('Queued until the handshake', message)
      return
    }
    this.#post(message)
  }

  #post(message: WireMessage): void {
    if (this.#hostOrigin === null) return
    this.#log.traffic('To host', message)
    this.#transport.post(message)
  }

  /** From another window, or from window.parent at another origin after the handshake: dropped and logged. */
  #onForeign({ event }: ForeignMessage): void {
    if (!this.#ready && isSync(event.data)) this.#log.warn('dropped a SYNC that did not come from window.parent')
    else this.#log.debug('dropped a message from an unexpected window or origin:', event.origin)
  }

  // --- receiving -------------------------------------------------------------

  /**
   * After the handshake: the window/origin check, then validation, then dispatch.
   * Nothing here throws: validateMessage never does, handlers are guarded by #call,
   * and a message that passed validation is a structured clone of plain data.
   */
  #onMessage(event: MessageEvent): void {
    if (!this.#ready) {
      this.#beforeHandshake(event)
      return
    }
    const raw: unknown = event.data
    const result = validateMessage(raw, 'from-host')
    if (!result.ok) {
      this.#log.debug('dropped', result.type ?? 'message', `(${result.reason})`)
      if (result.reason === 'unknown type' && result.type !== 'ERROR') this.#replyUnknown(raw)
      return
    }
    // A deprecated host message is the widget's concern only when it listens for it: the host
    // sends ENGAGEMENT_CREATED after every create, as the real CRM still does.
    const handler = result.entry.handler
    if (result.deprecation !== undefined && handler !== undefined && typeof this.#handlers[handler] === 'function') {
      warnOnce(result.deprecation, PREFIX, result.deprecation)
    }
    const message = result.message as HostToWidgetMessage
    this.#log.traffic('From host', message)
    if (message.type === 'SYNC') {
      this.#log.debug('ignored a later SYNC (already synced)')
    } else if (message.type === 'SET_WIDGET_URL') {
      this.#onSetWidgetUrl(message)
    } else {
      this.#dispatch(message.type, 'data' in message ? message.data : undefined, message, result.entry)
    }
  }

  /** Before the handshake only a SYNC counts; everything else is dropped. */
  #beforeHandshake(event: MessageEvent): void {
    if (!isSync(event.data)) {
      this.#log.debug('dropped a message received before the handshake from', event.origin)
      return
    }
    this.#onSync(event, event.data)
  }

  #onSync(event: MessageEvent, raw: { type: 'SYNC' }): void {
    const verdict = answerSync(raw, event.origin, this.#allowedHosts, this.#debugMode)
    if (!verdict.ok) {
      this.#log.warn(verdict.reason)
      return
    }
    this.#ready = true
    this.#hostOrigin = verdict.origin
    this.#log.traffic('From host', verdict.sync)
    this.#post(verdict.ack)
    this.#log.debug(`handshake complete: SYNC from ${verdict.origin} acknowledged`)
    const queued = this.#queue.take()
    if (queued.length > 0) this.#log.debug(`flushing ${queued.length} message(s) queued before the handshake`)
    for (const message of queued) this.#post(message)
    this.#dispatchReady(verdict.ready)
  }

  /** The host retargets us (top-level iFrameUrl, or data.iFrameUrl). */
  #onSetWidgetUrl(message: MessageOf<'SET_WIDGET_URL'>): void {
    const url = typeof message.iFrameUrl === 'string' ? message.iFrameUrl : message.data?.iFrameUrl
    const origin = httpOrigin(url)
    if (origin === null || (this.#allowedHosts !== null && !this.#allowedHosts.has(origin))) {
      this.#log.warn('ignored SET_WIDGET_URL: not an allowed http(s) URL')
      return
    }
    this.#hostOrigin = origin
    this.#dispatchReady({ iFrameUrl: url })
  }

  #dispatchReady(data: ReadyPayload): void {
    const message = { type: 'READY', data, messageId: this.#nextId() } as const
    this.#dispatch('READY', data, message, undefined)
  }

  #dispatch(type: string, data: unknown, message: unknown, entry: CatalogueEntry | undefined): void {
    if (type.endsWith('_FAILED')) this.#call('FAILED', data, message)
    const name = entry?.handler ?? (type === 'READY' ? 'onReady' : undefined)
    if (name !== undefined && typeof this.#handlers[name] === 'function') {
      this.#call(name, data, message)
    } else if (typeof this.#handlers.defaultEventHandler === 'function') {
      this.#call('defaultEventHandler', data, message)
    } else {
      this.#log.error(`No event handler is available to handle message of type: ${type}`)
    }
  }

  #call(name: string, data: unknown, message: unknown): void {
    const handler = this.#handlers[name]
    if (typeof handler !== 'function') return
    try {
      ;(handler as AnyHandler)(data, message)
    } catch (error) {
      this.#log.error(`eventHandlers.${name} threw:`, error)
    }
  }

  /** Answers an unknown type as the npm package does (never called for ERROR). */
  #replyUnknown(original: unknown): void {
    this.#send({
      type: 'ERROR',
      data: { type: errorType.UNKNOWN_MESSAGE_TYPE, data: { originalMessage: original } },
      messageId: this.#nextId(),
    })
  }
}

export default CallingExtensions
