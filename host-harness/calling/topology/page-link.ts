/**
 * The record page's side of the link to the calling window (window-protocol.ts), over the harness origin's
 * BroadcastChannel: asks `who` when it starts (a reloaded or newly opened record page finds the window that holds
 * the call), opens the window by itself when none answers, hands Call presses over, and shows what the window
 * reports. The calling window's side is window-link.ts.
 *
 * Plain TS, no DOM beyond the ports it is given: unit-tested with a pair of Node BroadcastChannels.
 */
import { OPENING_LOCK, WINDOW_LOCK, parseChannelMessage, type ChannelMessage, type ChannelPort, type DialInput, type LockPort, type WindowSummary } from './window-protocol.ts'

type Listener = () => void

class Listeners {
  readonly #set = new Set<Listener>()
  add(listener: Listener): () => void {
    this.#set.add(listener)
    return () => this.#set.delete(listener)
  }
  emit(): void {
    for (const listener of [...this.#set]) listener()
  }
}

export interface PageLinkState {
  /** The calling window's last report; null while none is known to be open. */
  window: WindowSummary | null
  /**
   * The page is still asking whether a calling window is open (up to WHO_WAIT_MS after load), before
   * it opens one by itself. Only for a page that opens the window by itself (`onNoWindow`).
   */
  looking: boolean
  /**
   * This page opened the calling window (or learnt that one is open) and waits for its page to announce itself,
   * ANNOUNCE_WAIT_MS at most: the window is opening, not missing.
   */
  opening: boolean
  /** A dial request the window has not answered yet. */
  pending: boolean
  /** The last dial request's outcome. */
  lastResult: { ok: boolean; reason?: string } | null
}

/** windowDialBlocker's reason while the page asks whether a calling window is open. */
export const LOOKING_FOR_WINDOW = 'Looking for an open calling window…'

/**
 * Why a record page may not dial through the calling window, or null when it may.
 *
 * - While the page still looks for an open window (before it opens one by itself): blocked. The
 *   page's own opening then never falls inside a Call press: a window that opens (and takes the
 *   focus) while the mouse button is down swallows the press, which never reaches the page.
 * - No window known to be open (after that): a Call press opens one.
 * - The window's widget still starting: a press waits in the window until the widget can dial.
 * - Else the window's own reason when it waits on the user (e.g. its widget is logged out), as
 *   the docked widget gives its own.
 *
 * So once enabled, the Call button stays enabled through the window's opening: a button that
 * turned disabled for a moment would swallow a press landing then.
 */
export function windowDialBlocker(state: PageLinkState): string | null {
  const win = state.window
  if (!win) return state.looking ? LOOKING_FOR_WINDOW : null
  if (win.widgetStarting) return null
  return win.cannotDial
}

/** How long a page that just loaded waits for a calling window to answer `who` before it opens one. */
export const WHO_WAIT_MS = 500

/**
 * How long a page that opened the calling window by itself keeps other pages from opening one (it holds
 * OPENING_LOCK) while the window's page loads and announces itself; as long, a page that learnt from
 * WINDOW_LOCK that a window is open waits for its report before it offers Call.
 */
export const ANNOUNCE_WAIT_MS = 10_000

export interface PageLinkOptions {
  channel: ChannelPort
  /** Opens (or finds) the calling window; false when the browser refused (pop-up blocked). */
  openWindow(): boolean
  /**
   * Called once when no calling window answered within WHO_WAIT_MS of start() (and, with `locks`, no
   * page holds WINDOW_LOCK): the page opens one (a browser without a user gesture may block it).
   * True when it opened (or found) one.
   */
  onNoWindow?(): boolean
  /**
   * The origin's Web Locks (navigator.locks; absent outside a secure context). With them, of pages that
   * load at once and hear no calling window in time, one opens a window by itself: the others wait for it.
   */
  locks?: LockPort
  /**
   * Runs `fn` once no press is down on the page (at once when none is; PressWatch.afterPresses):
   * the page's own opening of the calling window waits for it, as a window that opens during a
   * press swallows that press.
   */
  afterPresses?(fn: () => void): void
  setTimer?(fn: () => void, ms: number): unknown
  clearTimer?(handle: unknown): void
  newRequestId?(): string
  log?(message: string): void
}

const BLOCKED = 'The browser blocked the calling window: allow pop-ups for the harness, or press Open calling window.'

let requestSeq = 0
const defaultRequestId = () => `dial-${Date.now().toString(36)}-${(requestSeq += 1)}`

/** The record page's side. */
export class PageLink {
  readonly #options: PageLinkOptions
  readonly #listeners = new Listeners()
  #state: PageLinkState = { window: null, looking: false, opening: false, pending: false, lastResult: null }
  /** Which opening the ANNOUNCE_WAIT_MS timer ends (a newer opening restarts the wait). */
  #openingSeq = 0
  /** A dial waiting for the window to announce itself. */
  #queued: { requestId: string; input: DialInput } | null = null
  /**
   * The dial handed to a window, until it answers. A window that goes away without an
   * answer never dialed it (it answers at once when it dials): the dial is queued again
   * for the next window that announces itself, as the Call press still stands.
   */
  #handedOver: { requestId: string; input: DialInput; windowId: string } | null = null
  /**
   * The window page whose report `state.window` is. A dial names it, so exactly one window
   * dials even when two are open (two tabs that could not find each other's window each opened one).
   */
  #windowId: string | null = null
  #pendingId: string | null = null
  readonly #onMessage = (event: MessageEvent) => this.#receive(event.data)

  constructor(options: PageLinkOptions) {
    this.#options = options
  }

  start(): void {
    this.#options.channel.addEventListener('message', this.#onMessage)
    this.#options.channel.postMessage({ kind: 'who' } satisfies ChannelMessage)
    const onNoWindow = this.#options.onNoWindow
    if (onNoWindow) {
      this.#set({ looking: true })
      this.#setTimer(() => this.#whoWaitOver(onNoWindow), WHO_WAIT_MS)
    }
  }

  #stopped = false

  stop(): void {
    this.#stopped = true
    this.#options.channel.removeEventListener('message', this.#onMessage)
    this.#listeners.emit() // ends a wait for the window's report
  }

  /** No calling window is known and no dial waits for one: the page's own opening is still wanted. */
  #wantsWindow(): boolean {
    return this.#state.window === null && this.#queued === null && !this.#stopped
  }

  #endLooking(): void {
    if (this.#state.looking) this.#set({ looking: false })
  }

  #whoWaitOver(onNoWindow: () => boolean): void {
    const locks = this.#options.locks
    if (!locks || !this.#wantsWindow()) {
      void this.#openByItself(onNoWindow)
      return
    }
    locks
      .request(OPENING_LOCK, { mode: 'exclusive' }, () => this.#whileElected(locks, onNoWindow))
      .then(
        () => this.#endLooking(),
        (error: unknown) => {
          this.#options.log?.(`The calling window's lock failed (${String(error)}); this page opens the window without it.`)
          void this.#openByItself(onNoWindow)
        },
      )
  }

  /**
   * Holding OPENING_LOCK: opens the calling window unless one is known or holds WINDOW_LOCK, then
   * keeps the lock until a window announces itself (ANNOUNCE_WAIT_MS at most), so a page that hears
   * of no window in time (a busy machine) does not open a second one meanwhile.
   */
  async #whileElected(locks: LockPort, onNoWindow: () => boolean): Promise<void> {
    if (!this.#wantsWindow()) return
    const { held = [] } = await locks.query()
    // A window that holds its lock is open (another tab's, which this page cannot find by name): its
    // report is on its way. Else this page opens one, unless the browser refused.
    const windowOpen = held.some((lock) => lock.name === WINDOW_LOCK)
    if (windowOpen) this.#opening()
    else if (!(await this.#openByItself(onNoWindow))) return
    await this.#announced()
  }

  /**
   * Once no press is down on the page: opens the calling window when still wanted, then offers the
   * Call buttons (looking ends after the opening, in this same task). Whether it opened one.
   */
  #openByItself(onNoWindow: () => boolean): Promise<boolean> {
    const afterPresses = this.#options.afterPresses ?? ((fn) => fn())
    return new Promise((resolve) => {
      afterPresses(() => {
        const opened = this.#wantsWindow() && onNoWindow()
        this.#endLooking()
        resolve(opened)
      })
    })
  }

  /** Resolves once a calling window has announced itself (or the page stopped), ANNOUNCE_WAIT_MS at most. */
  #announced(): Promise<void> {
    return new Promise((resolve) => {
      const known = () => this.#state.window !== null || this.#stopped
      if (known()) return resolve()
      const done = () => {
        off()
        ;(this.#options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)))(timer)
        resolve()
      }
      const off = this.#listeners.add(() => {
        if (known()) done()
      })
      const timer = this.#setTimer(done, ANNOUNCE_WAIT_MS)
    })
  }

  #setTimer(fn: () => void, ms: number): unknown {
    return (this.#options.setTimer ?? ((f, m) => setTimeout(f, m)))(fn, ms)
  }

  /** Opens (or shows) the calling window; the reason when the browser refused. */
  open(): { ok: true } | { ok: false; reason: string } {
    if (this.#options.openWindow()) {
      this.#opening()
      return { ok: true }
    }
    const reason = BLOCKED
    this.#set({ lastResult: { ok: false, reason } })
    return { ok: false, reason }
  }

  /** A calling window is on its way: `opening` until it announces itself, ANNOUNCE_WAIT_MS at most. */
  #opening(): void {
    if (this.#state.window !== null || this.#stopped) return
    const seq = (this.#openingSeq += 1)
    this.#set({ opening: true })
    this.#setTimer(() => {
      if (seq === this.#openingSeq && this.#state.opening) this.#set({ opening: false })
    }, ANNOUNCE_WAIT_MS)
  }

  get state(): PageLinkState {
    return this.#state
  }

  subscribe(listener: Listener): () => void {
    return this.#listeners.add(listener)
  }

  /**
   * A Call press: asks the calling window to dial, opening it first when no
   * window answered yet (must run in the click, for the pop-up).
   */
  dial(input: DialInput): { ok: true } | { ok: false; reason: string } {
    const requestId = (this.#options.newRequestId ?? defaultRequestId)()
    this.#handedOver = null
    if (this.#windowId === null) {
      const opened = this.open()
      if (!opened.ok) return opened
      this.#queued = { requestId, input }
    } else {
      this.#queued = null
      this.#handOver({ requestId, input })
    }
    this.#pendingId = requestId
    this.#set({ pending: true, lastResult: null })
    return { ok: true }
  }

  #receive(data: unknown): void {
    const message = parseChannelMessage(data)
    if (!message) {
      this.#options.log?.('Dropped a calling-window channel message that is not one of the harness\'s.')
      return
    }
    switch (message.kind) {
      case 'present': {
        this.#windowId = message.windowId
        this.#set({ window: message.summary, looking: false, opening: false })
        const queued = this.#queued
        if (queued) {
          this.#queued = null
          this.#handOver(queued)
        }
        return
      }
      case 'dial-result':
        if (message.requestId !== this.#pendingId) return // another page's request
        this.#pendingId = null
        this.#handedOver = null
        this.#set({ pending: false, lastResult: message.ok ? { ok: true } : { ok: false, reason: `The calling window could not dial: ${message.reason ?? 'no reason given'}` } })
        return
      case 'gone':
        if (this.#handedOver?.windowId === message.windowId) {
          const { requestId, input } = this.#handedOver
          this.#queued = { requestId, input }
          this.#handedOver = null
        }
        if (message.windowId === this.#windowId) {
          this.#windowId = null
          this.#set({ window: null })
        }
        return
      case 'who':
      case 'dial':
        return // for the calling window
    }
  }

  #handOver(dial: { requestId: string; input: DialInput }): void {
    const windowId = this.#windowId
    if (windowId === null) return
    this.#handedOver = { ...dial, windowId }
    this.#options.channel.postMessage({ kind: 'dial', requestId: dial.requestId, windowId, input: dial.input } satisfies ChannelMessage)
  }

  #set(partial: Partial<PageLinkState>): void {
    this.#state = { ...this.#state, ...partial }
    this.#listeners.emit()
  }
}

