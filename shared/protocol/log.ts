/**
 * Console logging for both sides of the protocol.
 *
 * The npm package logs every message with `console.log` when `debugMode` is on and
 * `console.debug` otherwise; we keep that contract. Logs never serialize payloads:
 * callers pass short strings (type, messageId) and, in debug mode only, object
 * references that the console renders lazily.
 */

export interface Logger {
  /** Routine traffic: console.log in debug mode, console.debug otherwise. */
  debug(...args: unknown[]): void
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
