/**
 * The subscription half of CallingHost's API: `on(event, listener)` for a wire type
 * (e.g. 'CALL_ENDED') or a lifecycle event, and its named shorthands. Listeners that
 * throw are logged, never propagated (emitter.ts).
 */
import { Emitter } from './emitter.ts'
import type { HostEvents } from './host-types.ts'

export class HostEventSource {
  readonly #events: Emitter<HostEvents>
  readonly #onListenerError: (event: string, error: unknown) => void

  constructor(onListenerError: (event: string, error: unknown) => void) {
    this.#events = new Emitter<HostEvents>(onListenerError)
    this.#onListenerError = onListenerError
  }

  /** Subscribes to a wire type or a lifecycle event; returns unsubscribe. */
  on<E extends keyof HostEvents>(event: E, listener: HostEvents[E]): () => void { return this.#events.on(event, listener) }
  onStatus(listener: HostEvents['status']): () => void { return this.on('status', listener) }
  onReady(listener: HostEvents['ready']): () => void { return this.on('ready', listener) }
  onSyncAckFailed(listener: HostEvents['syncAckFailed']): () => void { return this.on('syncAckFailed', listener) }
  onRejected(listener: HostEvents['rejected']): () => void { return this.on('rejected', listener) }
  onIgnored(listener: HostEvents['ignored']): () => void { return this.on('ignored', listener) }
  onMessage(listener: HostEvents['message']): () => void { return this.on('message', listener) }

  /** For the host itself: tells the listeners of `event`. */
  protected emit<E extends keyof HostEvents>(event: E, ...args: Parameters<HostEvents[E]>): void {
    this.#events.emit(event, ...args)
  }

  /** For the host itself: whether `event` has listeners (an event nobody hears is not built). */
  protected listening(event: keyof HostEvents): boolean {
    return this.#events.has(event)
  }

  /**
   * For the host itself: a wire type's listeners now, for it to call each (guarded, telling
   * listenerThrew) where it stands rather than one call deeper; see CallingHost's receiving.
   */
  protected wireListeners(type: string): readonly ((data: unknown, message: unknown) => void)[] {
    return (this.#events as unknown as Emitter<Record<string, (data: unknown, message: unknown) => void>>).listeners(type)
  }

  /** For the host itself: a listener it called threw. */
  protected listenerThrew(event: string, error: unknown): void {
    this.#onListenerError(event, error)
  }

  protected clearListeners(): void {
    this.#events.clear()
  }
}
