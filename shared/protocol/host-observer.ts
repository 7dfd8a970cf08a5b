/**
 * CallingHost's side of the observer seam (HostObserver, host-types.ts): builds the
 * notes, leaves out empty fields, and keeps a throwing observer from breaking the host.
 * With no observer nothing is built.
 */
import type { HostObserver, InboundNote, OutgoingNote } from './host-types.ts'
import type { Deviation } from './judgement.ts'
import type { WireMessage } from './transport.ts'

export interface InboundExtra {
  reason?: string
  deviations?: Deviation[]
  deprecation?: string
  notSdk?: true | undefined
}

export class ObserverCalls {
  readonly #observer: HostObserver | null
  readonly #onError: (error: unknown) => void

  constructor(observer: HostObserver | undefined, onError: (error: unknown) => void) {
    this.#observer = observer ?? null
    this.#onError = onError
  }

  /** An observer is plugged in (else there is nothing to build notes for). */
  get active(): boolean {
    return this.#observer !== null
  }

  outbound(message: WireMessage, note: OutgoingNote, problem?: string): void {
    if (this.#observer === null) return
    try {
      this.#observer.outbound(message, note, problem)
    } catch (error) {
      this.#onError(error)
    }
  }

  inbound(data: unknown, type: string | null, accepted: boolean, beforeHandshake: boolean, extra?: InboundExtra): void {
    if (this.#observer === null) return
    const note: InboundNote = { type, accepted, beforeHandshake }
    if (extra?.reason !== undefined) note.reason = extra.reason
    if (extra?.deviations !== undefined && extra.deviations.length > 0) note.deviations = extra.deviations
    if (extra?.deprecation !== undefined) note.deprecation = extra.deprecation
    if (extra?.notSdk === true) note.notSdk = true
    try {
      this.#observer.inbound(data, note)
    } catch (error) {
      this.#onError(error)
    }
  }
}
