/**
 * A HostObserver for the SDK's tests: keeps what CallingHost reports, one plain
 * record per message, in wire order (no numbering, no validation of outgoing
 * messages: that is a traffic recorder's job, the harness's).
 */
import type { HostObserver, OutgoingFault } from '../host-types.ts'
import type { Deviation } from '../judgement.ts'

export interface Observed {
  direction: 'in' | 'out'
  type: string | null
  /** The object as received or posted (by reference). */
  message: unknown
  /** in only: the host accepted it. */
  valid?: boolean
  reason?: string
  deviations?: Deviation[]
  deprecation?: string
  beforeHandshake?: boolean
  /** in only: not a calling-SDK message (InboundNote.notSdk). */
  notSdk?: true
  fault?: OutgoingFault
  /** out only: why it was not posted. */
  problem?: string
}

/** An observer that fills `records` until `stop()`. */
export function observeHost(): { observer: HostObserver; records: Observed[]; stop: () => void } {
  const records: Observed[] = []
  let on = true
  const observer: HostObserver = {
    inbound(data, note) {
      if (!on) return
      const { accepted, beforeHandshake, ...rest } = note
      records.push({ direction: 'in', message: data, valid: accepted, ...rest, ...(beforeHandshake ? { beforeHandshake } : {}) })
    },
    outbound(message, note, problem) {
      if (!on) return
      records.push({ direction: 'out', type: message.type, message, ...note, ...(problem !== undefined ? { problem } : {}) })
    },
  }
  return { observer, records, stop: () => void (on = false) }
}
