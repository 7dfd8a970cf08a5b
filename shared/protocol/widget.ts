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
import {
  SDK_VERSION,
  deprecationOf,
  errorType,
  getEntry,
  validateMessage,
  type CatalogueEntry,
  type HandledType,
  type HandlerNameOf,
  type HostToWidgetMessage,
  type MessageOf,
  type Payload,
  type ReadyPayload,
} from './catalogue.ts'
import { answerSync, isSync } from './handshake.ts'
import { createLogger, warnOnce, type Logger } from './log.ts'
import { createMessageIdFactory } from './message-id.ts'
import { httpOrigin } from './origin.ts'
import { defineSendMethods, type WidgetSendMethods } from './send-methods.ts'
import { WindowTransport, type ForeignMessage, type WireMessage } from './transport.ts'

const PREFIX = `[calling-extensions-sdk@${SDK_VERSION} ringside]`
/** Upper bound of the pre-handshake queue; the oldest entries go first. */
const MAX_QUEUE = 500
const WARM_UP_SYNC = { type: 'SYNC', messageId: 'warm-up', hostUrl: 'https://warm-up.invalid', portalId: 0, userId: 0, ownerId: 0, iframeLocation: 'widget', usesCallingWindow: false }

type Handler<T extends HandledType> = (data: Payload<T>, message: MessageOf<T>) => void

/** eventHandlers, typed from the catalogue; every handler is called as (data, rawMessage). */
export type EventHandlers = {
  [K in HandledType as HandlerNameOf<K>]?: Handler<K>
} & {
  /** Literal `FAILED` key: called for every valid `*_FAILED` message before its own handler. */
  FAILED?: (data: unknown, message: HostToWidgetMessage) => void
  /** Valid known messages whose own handler is missing. */
  defaultEventHandler?: (data: unknown, message: HostToWidgetMessage) => void
}

export interface CallingExtensionsOptions {
  /**
   * true: every message sent and received is logged with console.log, and so are the
   * noteworthy events. false (default): no per-message logs; noteworthy events (the
   * handshake, the queue flush, dropped or invalid messages) go to console.debug.
   * Echoed in SYNC_ACK.
   */
  debugMode?: boolean
  eventHandlers: EventHandlers
  /** When given, SYNC (and SET_WIDGET_URL retargeting) is accepted only for these origins. */
  hostOrigins?: string[]
}

/** What sendMessage() accepts: any typed envelope, passed through unchanged. */
export interface OutgoingMessage {
  type: string
  data?: unknown
  messageId?: string | number
  [key: string]: unknown
}

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
  #queue: WireMessage[] = []

  constructor(options: CallingExtensionsOptions) {
    if (!options || typeof options !== 'object' || !options.eventHandlers || typeof options.eventHandlers !== 'object') {
      throw new Error('Invalid options or missing eventHandlers.')
    }
    this.options = options
    this.#handlers = options.eventHandlers
    this.#debugMode = options.debugMode === true
    this.#log = createLogger(PREFIX, () => this.#debugMode)
    if (options.hostOrigins !== undefined) {
      const origins = new Set<string>()
      for (const entry of options.hostOrigins) {
        const origin = httpOrigin(entry)
        if (!origin) throw new Error(`hostOrigins: ${JSON.stringify(entry)} is not an http(s) origin`)
        origins.add(origin)
      }
      this.#allowedHosts = origins
    } else {
      this.#allowedHosts = null
    }
    this.#transport = new WindowTransport({
      peer: () => window.parent,
      // null until the handshake: the first SYNC is checked against its own hostUrl
      origin: () => this.#hostOrigin,
      onMessage: (event) => this.#onMessage(event),
      onForeign: (foreign) => this.#onForeign(foreign),
      onPostError: (message, error) => this.#log.error(`postMessage of ${message.type} failed:`, error),
    })
    // Listening starts now: a SYNC is answered as soon as this object exists. The SYNC
    // validator is compiled now too (zod builds it on first use), so nothing lazy sits
    // between the host's first SYNC and our SYNC_ACK.
    this.#transport.start()
    validateMessage(WARM_UP_SYNC, 'from-host')
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
    this.#queue = []
    this.#transport.stop()
  }

  // --- sending ---------------------------------------------------------------

  static {
    // The generated send methods post `{type, messageId}` or `{type, data, messageId}`, as the npm package.
    defineSendMethods<CallingExtensions>(CallingExtensions.prototype, 'method', (sdk, type, data) =>
      sdk.#send(getEntry(type)?.hasData === false ? { type, messageId: sdk.#nextId() } : { type, data, messageId: sdk.#nextId() }),
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
      if (this.#queue.length >= MAX_QUEUE) {
        const dropped = this.#queue.shift()
        this.#log.warn('pre-handshake queue full, dropped', dropped?.type)
      }
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
    if (result.deprecation !== undefined) warnOnce(result.deprecation, PREFIX, result.deprecation)
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
    const queued = this.#queue
    this.#queue = []
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
