/**
 * Whether the user is pressing something on the page: a pointer (mouse button, finger, pen) or a key
 * that is down. A window that opens (and takes the focus) while a press is down swallows that press:
 * its pointerup and click, or a Space key's keyup that would activate a button, no longer reach the
 * page, so the tab, link or button the user pressed does nothing. The record page's own opening of
 * the calling window (no user gesture of its own) waits here until no press is down.
 *
 * Listens in the capture phase of the page's window, so no handler of the page can hide a press
 * from it. Plain TS over any EventTarget: unit-tested with Node's EventTarget and events.
 */

/**
 * Longest wait for a press to end. A press whose end the page never hears (a touch the browser
 * took over without a pointercancel, an up-event outside any document) would otherwise hold the
 * opening for ever.
 */
export const PRESS_WAIT_MAX_MS = 10_000

export interface PressWatchOptions {
  setTimer?(fn: () => void, ms: number): unknown
  clearTimer?(handle: unknown): void
}

/** The events that start and end a press, on the page's window. */
const DOWN = ['pointerdown', 'keydown'] as const
const UP = ['pointerup', 'pointercancel', 'keyup'] as const

export class PressWatch {
  readonly #target: EventTarget
  readonly #options: PressWatchOptions
  /** Pointers down, by pointerId; keys down, by code. */
  readonly #pointers = new Set<number>()
  readonly #keys = new Set<string>()
  #waiting: Array<() => void> = []
  #capTimer: unknown = null
  #releaseTimer: unknown = null
  readonly #onDown = (event: Event) => this.#down(event)
  readonly #onUp = (event: Event) => this.#up(event)
  /** The page lost the focus: the up-events of its presses go elsewhere, so none is down for it. */
  readonly #onBlur = () => this.#clear()

  constructor(target: EventTarget, options: PressWatchOptions = {}) {
    this.#target = target
    this.#options = options
  }

  start(): void {
    for (const type of DOWN) this.#target.addEventListener(type, this.#onDown, { capture: true })
    for (const type of UP) this.#target.addEventListener(type, this.#onUp, { capture: true })
    this.#target.addEventListener('blur', this.#onBlur)
  }

  stop(): void {
    for (const type of DOWN) this.#target.removeEventListener(type, this.#onDown, { capture: true })
    for (const type of UP) this.#target.removeEventListener(type, this.#onUp, { capture: true })
    this.#target.removeEventListener('blur', this.#onBlur)
    this.#stopTimers()
    this.#waiting = []
  }

  get pressed(): boolean {
    return this.#pointers.size > 0 || this.#keys.size > 0
  }

  /**
   * Runs `fn` at once when no press is down, else once the last one ends: in a later task, after
   * the browser has dispatched that press's own click. At most PRESS_WAIT_MAX_MS after this call.
   */
  afterPresses(fn: () => void): void {
    if (!this.pressed) {
      fn()
      return
    }
    this.#waiting.push(fn)
    if (this.#capTimer === null) this.#capTimer = this.#setTimer(() => ((this.#capTimer = null), this.#clear()), PRESS_WAIT_MAX_MS)
  }

  #down(event: Event): void {
    if (event.type === 'keydown') {
      const key = keyOf(event)
      if (key !== null) this.#keys.add(key)
    } else {
      this.#pointers.add(pointerOf(event))
    }
    this.#cancelRelease()
  }

  #up(event: Event): void {
    if (event.type === 'keyup') {
      const key = keyOf(event)
      if (key !== null) this.#keys.delete(key)
    } else {
      this.#pointers.delete(pointerOf(event))
    }
    if (!this.pressed) this.#scheduleRelease()
  }

  #clear(): void {
    this.#pointers.clear()
    this.#keys.clear()
    this.#scheduleRelease()
  }

  #scheduleRelease(): void {
    if (this.#waiting.length === 0 || this.#releaseTimer !== null) return
    // A task of its own: the click (or a Space key's activation) that ends the press is dispatched
    // in the same task as its pointerup or keyup, and must reach the page before a window opens.
    this.#releaseTimer = this.#setTimer(() => {
      this.#releaseTimer = null
      if (this.pressed) return // a new press began in between: wait for it too
      const waiting = this.#waiting
      this.#waiting = []
      this.#stopTimers()
      for (const fn of waiting) fn()
    }, 0)
  }

  #cancelRelease(): void {
    if (this.#releaseTimer === null) return
    this.#clearTimer(this.#releaseTimer)
    this.#releaseTimer = null
  }

  #stopTimers(): void {
    this.#cancelRelease()
    if (this.#capTimer !== null) this.#clearTimer(this.#capTimer)
    this.#capTimer = null
  }

  #setTimer(fn: () => void, ms: number): unknown {
    return (this.#options.setTimer ?? ((f, m) => setTimeout(f, m)))(fn, ms)
  }

  #clearTimer(handle: unknown): void {
    ;(this.#options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(handle)
  }
}

/** A key by its place on the keyboard (a key's `key` may change between its keydown and keyup). */
function keyOf(event: Event): string | null {
  const { code, key, repeat } = event as KeyboardEvent
  if (repeat) return null // held down: already counted
  const id = typeof code === 'string' && code !== '' ? code : key
  return typeof id === 'string' ? id : null
}

function pointerOf(event: Event): number {
  const id = (event as PointerEvent).pointerId
  return typeof id === 'number' ? id : 1
}
