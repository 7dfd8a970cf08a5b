/**
 * Wire fault injection for the harness, as a wrapper around CallingHost's outbox
 * (CallingHostOptions.wrapOutbox). The SDK only offers the seam; the faults are a
 * harness tool:
 * - withholdSync: no SYNC is posted (the host's sync timeout still runs);
 * - drop: these outgoing types are never posted (traffic shows fault 'dropped');
 * - duplicate: these types are posted twice (the same object);
 * - delayMs: every outgoing non-SYNC message waits this long (traffic: 'delayed').
 * Faults can change at any time; they apply to the next message.
 */
import type { HostOutbox, OutgoingNote } from '../../../shared/protocol/index.ts'

type WireMessage = Parameters<HostOutbox['post']>[0]

export interface HostFaults {
  /** Stop sending SYNC (the sync timeout still runs). */
  withholdSync?: boolean
  /** Delay every outgoing non-SYNC message by this many ms. */
  delayMs?: number
  /** Outgoing types to drop (never posted; traffic shows fault 'dropped'). */
  drop?: string[]
  /** Outgoing types to post twice (same object). */
  duplicate?: string[]
}

export class FaultInjector {
  #faults: HostFaults = {}
  readonly #timers = new Set<ReturnType<typeof setTimeout>>()

  get faults(): HostFaults {
    return { ...this.#faults }
  }

  /** Merges fault settings into the current ones (throws on a bad delay). */
  set(faults: HostFaults): void {
    if (faults.delayMs !== undefined && !(Number.isFinite(faults.delayMs) && faults.delayMs >= 0)) {
      throw new Error(`delayMs must be a non-negative number, got ${String(faults.delayMs)}`)
    }
    this.#faults = {
      ...this.#faults,
      ...faults,
      ...(faults.drop ? { drop: [...faults.drop] } : {}),
      ...(faults.duplicate ? { duplicate: [...faults.duplicate] } : {}),
    }
  }

  /** For CallingHostOptions.wrapOutbox. */
  readonly wrap = (inner: HostOutbox): HostOutbox => ({
    post: (message, note) => this.#post(inner, message, note),
    drop: (message, note) => inner.drop(message, note),
  })

  /** Cancels delayed messages (call when the host is destroyed). */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer)
    this.#timers.clear()
  }

  #post(inner: HostOutbox, message: WireMessage, note: OutgoingNote): void {
    const faults = this.#faults
    if (message.type === 'SYNC') {
      if (faults.withholdSync !== true) inner.post(message, note)
      return
    }
    if (faults.drop?.includes(message.type)) {
      inner.drop(message, { ...note, fault: 'dropped' })
      return
    }
    const duplicate = faults.duplicate?.includes(message.type) === true
    const delay = faults.delayMs ?? 0
    const send = (fault: OutgoingNote['fault']): void => {
      inner.post(message, fault === undefined ? note : { ...note, fault })
      if (duplicate) inner.post(message, { ...note, fault: 'duplicate' })
    }
    if (delay <= 0) {
      send(note.fault)
      return
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      send('delayed')
    }, delay)
    this.#timers.add(timer)
  }
}
