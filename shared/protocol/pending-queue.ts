/**
 * The queue both sides keep for messages sent before the handshake: flushed in order
 * right after it (the npm package drops them instead). It holds at most MAX_QUEUE;
 * when full, the oldest message goes first and `onOverflow` is told (to warn).
 */

/** Upper bound of the pre-handshake queue. */
export const MAX_QUEUE = 500

export class PendingQueue<T> {
  readonly #onOverflow: (dropped: T) => void
  #items: T[] = []

  constructor(onOverflow: (dropped: T) => void) {
    this.#onOverflow = onOverflow
  }

  get length(): number {
    return this.#items.length
  }

  push(item: T): void {
    if (this.#items.length >= MAX_QUEUE) this.#onOverflow(this.#items.shift() as T)
    this.#items.push(item)
  }

  /** Empties the queue; returns what it held, oldest first. */
  take(): T[] {
    const items = this.#items
    this.#items = []
    return items
  }

  clear(): void {
    this.#items = []
  }
}
