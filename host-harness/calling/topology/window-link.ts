/**
 * Record pages ↔ calling window, over the harness origin's BroadcastChannel
 * (window-protocol.ts). The calling window holds the widget and the call; a
 * record page only asks it to dial and shows what it reports (page-link.ts).
 * This is the calling window's side.
 *
 * Plain TS, no DOM beyond the ports it is given: unit-tested with a pair of
 * Node BroadcastChannels.
 */
import { WINDOW_LOCK, parseChannelMessage, type ChannelMessage, type ChannelPort, type DialInput, type LockPort, type WindowSummary } from './window-protocol.ts'

/** How long the calling window waits for its widget to be able to dial (handshake, INITIALIZED, log-in). */
export const DIAL_WAIT_MS = 60_000

type Listener = () => void

/** What the calling window's link needs of the calling integration running in it. */
export interface WindowHostPort {
  summary(): WindowSummary
  /** Called on every change of the integration's state. */
  subscribe(listener: Listener): () => void
  startCall(input: DialInput): { ok: true } | { ok: false; reason: string }
}

export interface WindowLinkOptions {
  channel: ChannelPort
  host: WindowHostPort
  /** This window page's id in its messages (default: a random one). */
  windowId?: string
  dialWaitMs?: number
  setTimer?(fn: () => void, ms: number): unknown
  clearTimer?(handle: unknown): void
  log?(message: string): void
  /** The origin's Web Locks: the window holds WINDOW_LOCK (shared) before it announces itself, until it stops. */
  locks?: LockPort
}

/** The calling window's side: reports its state, dials for the record pages. */
export class WindowLink {
  readonly #options: WindowLinkOptions
  readonly #id: string
  #last = ''
  #waiting: { requestId: string; input: DialInput; timer: unknown } | null = null
  #offHost: (() => void) | null = null
  readonly #onMessage = (event: MessageEvent) => this.#receive(event.data)

  constructor(options: WindowLinkOptions) {
    this.#options = options
    // Only tells a few window pages apart (no secret): Math.random works on any origin, secure or not.
    this.#id = options.windowId ?? `window-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  }

  /** Announces itself: at once without locks, else once it holds WINDOW_LOCK. */
  #live = false
  #stopped = false
  #releaseLock: (() => void) | null = null

  start(): void {
    this.#options.channel.addEventListener('message', this.#onMessage)
    this.#offHost = this.#options.host.subscribe(() => this.#onHostChange())
    const locks = this.#options.locks
    if (!locks) {
      this.#goLive()
      return
    }
    // A record page that learns from the lock that a window is open opens none; the lock goes with the
    // document, so a window that closes without its `gone` (a crash) frees it too.
    locks
      .request(WINDOW_LOCK, { mode: 'shared' }, () => {
        if (this.#stopped) return
        this.#goLive()
        return new Promise<void>((resolve) => (this.#releaseLock = resolve))
      })
      .catch((error: unknown) => {
        this.#options.log?.(`The calling window's lock failed (${String(error)}); it announces itself without it.`)
        if (!this.#stopped) this.#goLive()
      })
  }

  #goLive(): void {
    this.#live = true
    this.#announce(true)
  }

  /** The window is closing (pagehide): the pages forget it. */
  stop(): void {
    this.#stopped = true
    this.#live = false
    this.#releaseLock?.()
    this.#releaseLock = null
    this.#offHost?.()
    this.#offHost = null
    this.#cancelWaiting()
    this.#options.channel.removeEventListener('message', this.#onMessage)
    this.#options.channel.postMessage({ kind: 'gone', windowId: this.#id } satisfies ChannelMessage)
  }

  #announce(force: boolean): void {
    if (!this.#live) return
    const summary = this.#options.host.summary()
    const text = JSON.stringify(summary)
    if (!force && text === this.#last) return
    this.#last = text
    this.#options.channel.postMessage({ kind: 'present', windowId: this.#id, summary } satisfies ChannelMessage)
  }

  #onHostChange(): void {
    this.#announce(false)
    if (this.#waiting && this.#options.host.summary().cannotDial === null) this.#dialNow()
  }

  #receive(data: unknown): void {
    const message = parseChannelMessage(data)
    if (!message) {
      this.#options.log?.('Dropped a calling-window channel message that is not one of the harness\'s.')
      return
    }
    if (message.kind === 'who') this.#announce(true)
    else if (message.kind === 'dial' && message.windowId === this.#id) this.#dial(message.requestId, message.input)
  }

  #dial(requestId: string, input: DialInput): void {
    if (this.#waiting) this.#reply(this.#waiting.requestId, { ok: false, reason: 'A newer Call press replaced this one.' })
    this.#cancelWaiting()
    const setTimer = this.#options.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
    const timer = setTimer(() => {
      const waiting = this.#waiting
      if (!waiting) return
      this.#waiting = null
      this.#reply(waiting.requestId, { ok: false, reason: this.#options.host.summary().cannotDial ?? 'The calling widget could not dial.' })
    }, this.#options.dialWaitMs ?? DIAL_WAIT_MS)
    this.#waiting = { requestId, input, timer }
    if (this.#options.host.summary().cannotDial === null) this.#dialNow()
  }

  #dialNow(): void {
    const waiting = this.#waiting
    if (!waiting) return
    this.#cancelWaiting()
    const result = this.#options.host.startCall(waiting.input)
    this.#reply(waiting.requestId, result)
  }

  #cancelWaiting(): void {
    if (!this.#waiting) return
    const clearTimer = this.#options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>))
    clearTimer(this.#waiting.timer)
    this.#waiting = null
  }

  #reply(requestId: string, result: { ok: true } | { ok: false; reason: string }): void {
    const message: ChannelMessage = result.ok ? { kind: 'dial-result', requestId, ok: true } : { kind: 'dial-result', requestId, ok: false, reason: result.reason }
    this.#options.channel.postMessage(message)
  }
}
