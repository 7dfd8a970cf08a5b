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
  onMessage: (event: MessageEvent) => void
  onForeign: (foreign: ForeignMessage) => void
  /** post() threw (DataCloneError for payloads that cannot be cloned: functions, …). */
  onPostError?: (message: WireMessage, error: unknown) => void
}

export type PostResult = 'posted' | 'no-window' | 'no-origin' | 'failed'

export class WindowTransport {
  readonly #options: WindowTransportOptions
  #listening = false
  /**
   * The source and origin filter. One function, calling onMessage itself: a host that
   * answers a message at once posts its answer this many calls deep, and Chromium's
   * postMessage costs more the deeper the caller's stack is (while DevTools or
   * Playwright are attached it records the stack, ~0.5 µs a frame).
   */
  readonly #listener = (event: MessageEvent): void => {
    const peer = this.#options.peer()
    if (!peer || event.source !== peer) {
      this.#options.onForeign({ event, reason: 'unexpected source window', fromPeer: false })
      return
    }
    const origin = this.#options.origin()
    if (origin !== null && event.origin !== origin) {
      this.#options.onForeign({ event, reason: `unexpected origin ${event.origin} (expected ${origin})`, fromPeer: true })
      return
    }
    this.#options.onMessage(event)
  }

  constructor(options: WindowTransportOptions) {
    this.#options = options
  }

  start(): void {
    if (this.#listening) return
    this.#listening = true
    window.addEventListener('message', this.#listener)
  }

  stop(): void {
    if (!this.#listening) return
    this.#listening = false
    window.removeEventListener('message', this.#listener)
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
