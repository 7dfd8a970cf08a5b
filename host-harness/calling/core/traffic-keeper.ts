/**
 * What the inspector's traffic log keeps, and how much: the log's one rule for counts and bytes
 * (MAX_TRAFFIC entries; each message and body within TRAFFIC_BOUNDS.entryChars, all of them within
 * TRAFFIC_BOUNDS.totalChars, shared/traffic/bound.ts). The calling store applies it to every entry,
 * link and request it keeps; the host has judged and acted on each message as received before.
 */
import { boundValue, overBudget, TRAFFIC_BOUNDS } from '../../../shared/traffic/bound.ts'
import { boundBodySized, boundMessage, TRAFFIC_LIMITS, type TrafficRequest } from '../../../shared/traffic/traffic-file.ts'
import type { InspectorEntry, ReplyLink } from './calling-types.ts'

/** How many traffic entries, links and requests the inspector keeps (oldest dropped first). */
export const MAX_TRAFFIC = 3000

export class TrafficKeeper {
  /** The characters each kept entry and request holds (for the log's total). */
  readonly #chars = new WeakMap<object, number>()
  /** A message as received → its seq (a request's cause is the message object as received). */
  #seqOf = new WeakMap<object, number>()
  /** A message as received → what the log keeps of it, when that is a truncated copy. */
  #keptOf = new WeakMap<object, unknown>()
  /** The characters the kept entries and requests hold in all. */
  #total = 0

  /** Notes the seq of a message as received (before it is bounded). */
  noteSeq(message: unknown, seq: number): void {
    if (typeof message === 'object' && message !== null) this.#seqOf.set(message, seq)
  }

  /** The seq of a message as received, if the log holds it. */
  seqOf(message: unknown): number | undefined {
    return typeof message === 'object' && message !== null ? this.#seqOf.get(message) : undefined
  }

  /** An entry as the log keeps it: its message bounded, its size noted. */
  entry(entry: InspectorEntry): InspectorEntry {
    const { kept, chars } = boundMessage(entry)
    if (kept !== entry && typeof entry.message === 'object' && entry.message !== null) this.#keptOf.set(entry.message, kept.message)
    this.#chars.set(kept, chars)
    return kept
  }

  /**
   * A reply link names its request by the object the log keeps (the truncated copy of a huge message), so
   * no link holds a huge message; a huge one the log does not hold (cleared) is matched by type and id.
   */
  link(link: ReplyLink): ReplyLink {
    const request = link.request
    if (typeof request !== 'object' || request === null) return link
    const kept = this.#keptOf.get(request)
    if (kept !== undefined) return { ...link, request: kept }
    if (this.#seqOf.has(request)) return link
    // Not in the log (cleared before its reply): kept only when the log would keep it whole.
    return boundValue(request, TRAFFIC_LIMITS.maxMessageChars).truncation === undefined ? link : { ...link, request: null }
  }

  /** A request with its bodies bounded, its size noted. */
  request(request: TrafficRequest, bodies: { requestBody?: unknown; responseBody?: unknown }): TrafficRequest {
    let chars = 0
    for (const side of ['requestBody', 'responseBody'] as const) {
      if (bodies[side] === undefined) continue
      const body = boundBodySized(bodies[side])
      request[side] = body.value
      chars += body.chars
    }
    this.#chars.set(request, chars)
    return request
  }

  /**
   * The log after `added` entries and requests join `kept`: the oldest dropped to keep within MAX_TRAFFIC
   * and TRAFFIC_BOUNDS.totalChars; `dropped` counts the messages dropped.
   */
  trim(
    kept: { traffic: InspectorEntry[]; requests: TrafficRequest[] },
    added: { traffic: InspectorEntry[]; requests: TrafficRequest[] },
  ): { traffic: InspectorEntry[]; requests: TrafficRequest[]; dropped: number } {
    const sizeOf = (entry: object): number => this.#chars.get(entry) ?? 0
    for (const entry of added.traffic) this.#total += sizeOf(entry)
    for (const request of added.requests) this.#total += sizeOf(request)
    let traffic = added.traffic.length > 0 ? kept.traffic.concat(added.traffic) : kept.traffic
    let requests = added.requests.length > 0 ? kept.requests.concat(added.requests) : kept.requests
    // The count first (a cheap slice), then the bytes of what is left.
    const extra = { traffic: Math.max(0, traffic.length - MAX_TRAFFIC), requests: Math.max(0, requests.length - MAX_TRAFFIC) }
    for (let i = 0; i < extra.traffic; i += 1) this.#total -= sizeOf(traffic[i]!)
    for (let i = 0; i < extra.requests; i += 1) this.#total -= sizeOf(requests[i]!)
    if (extra.traffic > 0) traffic = traffic.slice(extra.traffic)
    if (extra.requests > 0) requests = requests.slice(extra.requests)
    const over = overBudget(traffic, requests, sizeOf, this.#total, TRAFFIC_BOUNDS.totalChars)
    this.#total = over.total
    if (over.first > 0) traffic = traffic.slice(over.first)
    if (over.second > 0) requests = requests.slice(over.second)
    return { traffic, requests, dropped: extra.traffic + over.first }
  }

  /** Clear: the log is empty; forget every message as received. */
  clear(): void {
    this.#seqOf = new WeakMap()
    this.#keptOf = new WeakMap()
    this.#total = 0
  }
}
