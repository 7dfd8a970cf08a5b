/**
 * The harness's traffic log, plugged into CallingHost through its observer seam
 * (CallingHostOptions.observer): one numbered entry per message in or out, for the
 * inspector and the conformance checks. The SDK only offers the seam; the log is a
 * harness tool.
 *
 * An outgoing message is validated here, for its entry only (the host never validates
 * what it sends), and once, even when a fault posts the same object twice.
 */
import type { TrafficMessage } from '../../../shared/traffic/traffic-file.ts'
import { validateMessage, type Deviation, type HostObserver, type InboundNote, type OutgoingFault, type OutgoingNote, type ValidationResult } from '../../../shared/protocol/index.ts'

type WireMessage = Parameters<HostObserver['outbound']>[0]

/**
 * One message in or out, in wire order (for the inspector): a traffic file's message
 * (shared/traffic/traffic-file.ts documents the fields) as the recorder makes it, always judged,
 * `message` by reference.
 */
export interface TrafficEntry extends Omit<TrafficMessage, 'valid' | 'deviations' | 'fault' | 'composed' | 'linkedTo'> {
  valid: boolean
  deviations?: Deviation[]
  fault?: OutgoingFault
}

export class TrafficRecorder implements HostObserver {
  readonly #emit: (entry: TrafficEntry) => void
  #seq = 0
  #lastChecked: WireMessage | null = null
  #lastCheck: ValidationResult | null = null

  /** `emit` gets every entry, in order. */
  constructor(emit: (entry: TrafficEntry) => void) {
    this.#emit = emit
  }

  inbound(data: unknown, note: InboundNote): void {
    const entry = this.#entry('in', note.type, data, note.accepted)
    if (note.reason !== undefined) entry.reason = note.reason
    if (note.deviations !== undefined && note.deviations.length > 0) entry.deviations = note.deviations
    if (note.deprecation !== undefined) entry.deprecation = note.deprecation
    if (note.beforeHandshake) entry.beforeHandshake = true
    if (note.notSdk === true) entry.notSdk = true
    this.#emit(entry)
  }

  outbound(message: WireMessage, note: OutgoingNote, problem?: string): void {
    if (this.#lastChecked !== message || this.#lastCheck === null) {
      this.#lastCheck = validateMessage(message, 'from-host')
      this.#lastChecked = message
    }
    const check = this.#lastCheck
    const entry = this.#entry('out', message.type, message, check.ok)
    const reason = check.ok ? problem : check.reason
    if (reason !== undefined) entry.reason = reason
    if (check.ok && check.deprecation !== undefined) entry.deprecation = check.deprecation
    if (note.beforeHandshake === true) entry.beforeHandshake = true
    if (note.fault !== undefined) entry.fault = note.fault
    this.#emit(entry)
  }

  #entry(direction: TrafficEntry['direction'], type: string | null, message: unknown, valid: boolean): TrafficEntry {
    this.#seq += 1
    return { seq: this.#seq, time: Date.now(), direction, type, message, valid }
  }
}
