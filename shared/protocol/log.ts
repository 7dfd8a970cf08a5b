/**
 * Console logging for both sides of the protocol.
 *
 * Two kinds of log:
 * - `traffic`: every message sent or received. Only in debug mode (console.log, as
 *   the npm package does); with debug mode off it returns at once, so the per-message
 *   path never touches the console (under DevTools / Playwright a console call costs
 *   ~0.1 ms because it is reported over the DevTools protocol).
 * - `debug`: noteworthy events only (the handshake, queue flushes, a dropped, rejected
 *   or invalid message): console.log in debug mode, console.debug otherwise.
 * Logs never serialize payloads: callers pass short strings (type, messageId) and,
 * in debug mode only, object references that the console renders lazily.
 */

export interface Logger {
  /** A noteworthy event: console.log in debug mode, console.debug otherwise. */
  debug(...args: unknown[]): void
  /** One message sent or received: console.log in debug mode, nothing otherwise. */
  traffic(label: string, message: { type: string; messageId?: unknown }): void
  /** Something the developer should notice (always console.warn). */
  warn(...args: unknown[]): void
  /** A bug in the caller's code, e.g. a throwing handler (always console.error). */
  error(...args: unknown[]): void
}

export function createLogger(prefix: string, isDebug: () => boolean): Logger {
  return {
    debug(...args) {
      if (isDebug()) console.log(prefix, ...args)
      else console.debug(prefix, ...args)
    },
    traffic(label, message) {
      if (isDebug()) console.log(prefix, label, message.type, message)
    },
    warn(...args) {
      console.warn(prefix, ...args)
    },
    error(...args) {
      console.error(prefix, ...args)
    },
  }
}

/** Keys already warned about on this page (module state = one per page). */
const warned = new Set<string>()

/** console.warn once per page per `key`; returns true when it warned. */
export function warnOnce(key: string, ...args: unknown[]): boolean {
  if (warned.has(key)) return false
  warned.add(key)
  console.warn(...args)
  return true
}

/** Forget earlier warnings (tests only). */
export function resetWarnOnce(): void {
  warned.clear()
}

/** How many lines a FloodGate lets through per second. */
export const FLOOD_LINES_PER_SECOND = 20

/**
 * Lets at most FLOOD_LINES_PER_SECOND calls of `log` through per second; the rest are
 * counted and summed up in one `summary(count)` line when that second is over. A flood
 * of rejected messages then costs a counter per message, not a console call (each costs
 * ~0.2 ms while DevTools or Playwright listen).
 */
export class FloodGate {
  readonly #summary: (suppressed: number) => void
  #windowStart = -Infinity
  #passed = 0
  #suppressed = 0
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(summary: (suppressed: number) => void) {
    this.#summary = summary
  }

  /** Runs `log` unless this second's lines are used up. */
  pass(log: () => void): void {
    const now = Date.now()
    if (now - this.#windowStart >= 1000) {
      this.#flush()
      this.#windowStart = now
      this.#passed = 0
    }
    if (this.#passed < FLOOD_LINES_PER_SECOND) {
      this.#passed += 1
      log()
      return
    }
    this.#suppressed += 1
    this.#timer ??= setTimeout(() => this.#flush(), Math.max(0, 1000 - (now - this.#windowStart)))
  }

  /** Writes the pending summary now and stops the timer. */
  close(): void {
    this.#flush()
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#suppressed === 0) return
    const suppressed = this.#suppressed
    this.#suppressed = 0
    this.#summary(suppressed)
  }
}
