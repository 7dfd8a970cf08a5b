/**
 * The host's side of the handshake's timing: on every iframe load a SYNC (new messageId each
 * time) goes to the iframe every `intervalMs` (the real host: 100 ms) until a SYNC_ACK answers
 * one of the outstanding ids; no answer within `timeoutMs` of the first SYNC after a load fails
 * the handshake. A module of its own, imported by the host only, so a widget's bundle does not
 * carry it (handshake.ts is shared by both sides).
 */
export interface SyncLoopOptions {
  intervalMs: number
  timeoutMs: number
  /** Builds and posts one SYNC with this messageId. */
  sendSync: (messageId: string) => void
  nextId: () => string
  onTimeout: () => void
}

/**
 * The host's SYNC timers and the ids a SYNC_ACK may answer. One interval runs from start();
 * the timeout's own timer is armed only within the last interval before the deadline (at
 * start when the timeout is not longer than the interval), so a handshake answered in time,
 * the usual case, creates and clears one timer instead of two. The timeout still falls
 * `timeoutMs` after start(), after the SYNC of an interval tick due at the same moment; the
 * time left is the less of what the ticks so far and the clock say, so late ticks (a
 * throttled background tab) do not put it off.
 */
export class SyncLoop {
  readonly #options: SyncLoopOptions
  readonly #outstanding = new Set<string>()
  #interval: ReturnType<typeof setInterval> | undefined
  #timeout: ReturnType<typeof setTimeout> | undefined
  /** Interval ticks since start(). */
  #ticks = 0
  /** Date.now() at start(). */
  #startedAt = 0

  constructor(options: SyncLoopOptions) {
    this.#options = options
  }

  get running(): boolean {
    return this.#interval !== undefined
  }

  /** Sends the first SYNC now, then one every intervalMs, until stop() or the timeout. */
  start(): void {
    this.stop()
    const { intervalMs, timeoutMs } = this.#options
    this.#ticks = 0
    this.#startedAt = Date.now()
    this.#interval = setInterval(this.#tick, intervalMs)
    if (timeoutMs <= intervalMs) this.#armTimeout(timeoutMs)
    this.#send()
  }

  /** Stops the timers and forgets every outstanding SYNC id. */
  stop(): void {
    if (this.#interval !== undefined) clearInterval(this.#interval)
    if (this.#timeout !== undefined) clearTimeout(this.#timeout)
    this.#interval = undefined
    this.#timeout = undefined
    this.#outstanding.clear()
  }

  /** True when `messageId` is the id of a SYNC sent since the last start(). */
  answers(messageId: unknown): boolean {
    return this.running && typeof messageId === 'string' && this.#outstanding.has(messageId)
  }

  /** An interval tick: the timeout's bookkeeping first (so a throwing sendSync cannot skip it), then the SYNC. */
  readonly #tick = (): void => {
    let due = false
    if (this.#timeout === undefined) {
      const { intervalMs, timeoutMs } = this.#options
      this.#ticks += 1
      const remaining = Math.min(timeoutMs - this.#ticks * intervalMs, this.#startedAt + timeoutMs - Date.now())
      if (remaining <= 0) due = true
      else if (remaining < intervalMs) this.#armTimeout(remaining)
    }
    try {
      this.#send()
    } finally {
      // Unless the SYNC itself ended the loop (an outbox that answers at once).
      if (due && this.running) this.#timedOut()
    }
  }

  #armTimeout(ms: number): void {
    this.#timeout = setTimeout(() => this.#timedOut(), ms)
  }

  #timedOut(): void {
    this.stop()
    this.#options.onTimeout()
  }

  #send(): void {
    const id = this.#options.nextId()
    this.#outstanding.add(id)
    this.#options.sendSync(id)
  }
}
