/**
 * Window transport, shared by both sides of the SDK: one `message` listener on our
 * window, a source and origin filter, and posting with an explicit targetOrigin.
 *
 * - A message is handed on only when it came from the peer window (the widget's
 *   iframe for the host, window.parent for the widget) and, once an origin is known,
 *   from exactly that origin. Everything else goes to `onForeign`: it is dropped and
 *   logged by the caller, never thrown.
 * - `post` always names the peer's origin as targetOrigin; with no origin known yet
 *   (or no peer window) nothing is posted. It never posts with `*`.
 */

/** A message as it goes over the wire. */
export type WireMessage = { type: string; messageId: string | number; [key: string]: unknown }

export interface ForeignMessage {
  event: MessageEvent
  reason: string
  /** true: it came from the peer window but from another origin. */
  fromPeer: boolean
}

export interface WindowTransportOptions {
  /** The window we talk to; null/undefined while there is none. */
  peer: () => Window | null | undefined
  /**
   * The only origin accepted from the peer and posted to. null: no origin is known
   * yet (before the widget's handshake): messages from the peer at any origin are
   * handed on for the handshake to check, and nothing can be posted.
   */
  origin: () => string | null
  /** What admits() lets through, when the transport's own listener is registered (start() without a listener). */
  onMessage?: (event: MessageEvent) => void
  onForeign: (foreign: ForeignMessage) => void
  /** post() threw (DataCloneError for payloads that cannot be cloned: functions, …). */
  onPostError?: (message: WireMessage, error: unknown) => void
}

export type PostResult = 'posted' | 'no-window' | 'no-origin' | 'failed'

export class WindowTransport {
  readonly #options: WindowTransportOptions
  #listening: ((event: MessageEvent) => void) | null = null
  /** The listener start() registers unless given one: admits(), then onMessage. */
  readonly #listener = (event: MessageEvent): void => {
    if (this.admits(event)) this.#options.onMessage?.(event)
  }

  constructor(options: WindowTransportOptions) {
    this.#options = options
  }

  /**
   * The source and origin filter: true for a message from the peer window at its origin
   * (any origin while none is known); anything else goes to onForeign and gets false.
   */
  admits(event: MessageEvent): boolean {
    const peer = this.#options.peer()
    if (!peer || event.source !== peer) {
      this.#options.onForeign({ event, reason: 'unexpected source window', fromPeer: false })
      return false
    }
    const origin = this.#options.origin()
    if (origin !== null && event.origin !== origin) {
      this.#options.onForeign({ event, reason: `unexpected origin ${event.origin} (expected ${origin})`, fromPeer: true })
      return false
    }
    return true
  }

  /**
   * Listens on our window's `message` event. `listener` replaces the transport's own (admits(),
   * then onMessage) and must call admits() first: a caller that answers a message at once
   * then posts one call less deep (Chromium's postMessage costs more the deeper the caller's
   * stack is while DevTools or Playwright are attached, as it records the stack).
   */
  start(listener: (event: MessageEvent) => void = this.#listener): void {
    if (this.#listening) return
    this.#listening = listener
    window.addEventListener('message', listener)
  }

  stop(): void {
    if (!this.#listening) return
    window.removeEventListener('message', this.#listening)
    this.#listening = null
  }

  post(message: WireMessage): PostResult {
    const peer = this.#options.peer()
    if (!peer) return 'no-window'
    const origin = this.#options.origin()
    if (origin === null) return 'no-origin'
    try {
      peer.postMessage(message, origin)
      return 'posted'
    } catch (error) {
      this.#options.onPostError?.(message, error)
      return 'failed'
    }
  }
}

/** The `type` of a message when it is a string (at most 120 characters), else undefined; never throws. */
export function typeOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  try {
    const type: unknown = (data as { type?: unknown }).type
    return typeof type === 'string' ? type.slice(0, 120) : undefined
  } catch {
    return undefined
  }
}
