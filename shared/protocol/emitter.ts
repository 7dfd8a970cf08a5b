/** A minimal event emitter: listeners that throw are logged, never propagated. */
type AnyListener = (...args: never[]) => void

export class Emitter<Events extends { [K in keyof Events]: AnyListener }> {
  readonly #listeners = new Map<keyof Events, Set<AnyListener>>()
  readonly #onError: (event: string, error: unknown) => void

  constructor(onError: (event: string, error: unknown) => void) {
    this.#onError = onError
  }

  /** Subscribes; returns the unsubscribe function. */
  on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
    let set = this.#listeners.get(event)
    if (!set) {
      set = new Set()
      this.#listeners.set(event, set)
    }
    set.add(listener)
    return () => {
      this.#listeners.get(event)?.delete(listener)
    }
  }

  has(event: keyof Events): boolean {
    const set = this.#listeners.get(event)
    return set !== undefined && set.size > 0
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const set = this.#listeners.get(event)
    if (set === undefined || set.size === 0) return
    // a copy: listeners that (un)subscribe while this event is dispatched change the next one
    for (const listener of [...set]) {
      try {
        ;(listener as (...a: unknown[]) => void)(...args)
      } catch (error) {
        this.#onError(String(event), error)
      }
    }
  }

  clear(): void {
    this.#listeners.clear()
  }
}
