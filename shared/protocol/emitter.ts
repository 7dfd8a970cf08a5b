/** A minimal event emitter: listeners that throw are logged, never propagated. */
type AnyListener = (...args: never[]) => void

const NONE: readonly AnyListener[] = Object.freeze([])

export class Emitter<Events extends { [K in keyof Events]: AnyListener }> {
  /**
   * Each event's listeners, in subscription order, each at most once. An array is never
   * changed once stored: (un)subscribing stores a new one, so emit() walks the array it
   * started with (listeners that (un)subscribe while an event is dispatched change the
   * next one) and needs no copy per event.
   */
  readonly #listeners = new Map<keyof Events, readonly AnyListener[]>()
  readonly #onError: (event: string, error: unknown) => void

  constructor(onError: (event: string, error: unknown) => void) {
    this.#onError = onError
  }

  /** Subscribes; returns the unsubscribe function. */
  on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
    const current = this.#listeners.get(event) ?? []
    if (!current.includes(listener)) this.#listeners.set(event, [...current, listener])
    return () => {
      const now = this.#listeners.get(event)
      if (now?.includes(listener)) this.#listeners.set(event, now.filter((l) => l !== listener))
    }
  }

  /** The listeners of `event` now, in order (an array that is never changed; empty when none). */
  listeners<E extends keyof Events>(event: E): readonly Events[E][] {
    return (this.#listeners.get(event) ?? NONE) as readonly Events[E][]
  }

  has(event: keyof Events): boolean {
    const list = this.#listeners.get(event)
    return list !== undefined && list.length > 0
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const list = this.#listeners.get(event)
    if (list === undefined) return
    for (let i = 0; i < list.length; i++) {
      try {
        ;(list[i] as (...a: unknown[]) => void)(...args)
      } catch (error) {
        this.#onError(String(event), error)
      }
    }
  }

  clear(): void {
    this.#listeners.clear()
  }
}
