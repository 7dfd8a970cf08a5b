/**
 * The host's traffic log: one numbered entry per message in or out, for an inspector.
 * Nothing is built while no one listens; an outgoing message is validated (for its
 * entry only) once, even when a fault posts the same object twice.
 */
import { validateMessage, type ValidationResult } from './catalogue.ts'
import type { OutgoingNote, TrafficEntry } from './host-types.ts'
import type { WireMessage } from './transport.ts'

type Extra = Partial<Pick<TrafficEntry, 'reason' | 'deviations' | 'deprecation' | 'beforeHandshake' | 'fault'>>

export class TrafficLog {
  readonly #listening: () => boolean
  readonly #emit: (entry: TrafficEntry) => void
  #seq = 0
  #lastChecked: WireMessage | null = null
  #lastCheck: ValidationResult | null = null

  constructor(listening: () => boolean, emit: (entry: TrafficEntry) => void) {
    this.#listening = listening
    this.#emit = emit
  }

  get listening(): boolean {
    return this.#listening()
  }

  /** Emits an entry with the next seq; `extra` fields that are undefined (or empty deviations) are left out. */
  add(direction: TrafficEntry['direction'], type: string | null, message: unknown, valid: boolean, extra: Extra = {}): void {
    if (!this.#listening()) return
    this.#seq += 1
    const entry: TrafficEntry = { seq: this.#seq, time: Date.now(), direction, type, message, valid }
    if (extra.reason !== undefined) entry.reason = extra.reason
    if (extra.deviations !== undefined && extra.deviations.length > 0) entry.deviations = extra.deviations
    if (extra.deprecation !== undefined) entry.deprecation = extra.deprecation
    if (extra.beforeHandshake === true) entry.beforeHandshake = true
    if (extra.fault !== undefined) entry.fault = extra.fault
    this.#emit(entry)
  }

  /** An outgoing message; `problem` explains why it was not posted. */
  out(message: WireMessage, note: OutgoingNote, problem?: string): void {
    if (!this.#listening()) return
    if (this.#lastChecked !== message || this.#lastCheck === null) {
      this.#lastCheck = validateMessage(message, 'from-host')
      this.#lastChecked = message
    }
    const check = this.#lastCheck
    this.add('out', message.type, message, check.ok, {
      reason: check.ok ? problem : check.reason,
      deprecation: check.ok ? check.deprecation : undefined,
      beforeHandshake: note.beforeHandshake,
      fault: note.fault,
    })
  }
}

/** The `type` of a rejected message, for its traffic entry (never throws). */
export function typeOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  try {
    const type: unknown = (data as { type?: unknown }).type
    return typeof type === 'string' ? type.slice(0, 120) : undefined
  } catch {
    return undefined
  }
}
