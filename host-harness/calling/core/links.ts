/**
 * Request ↔ reply links for the inspector.
 *
 * The controller records each reply it sends with the request it answers
 * (the request's message object, as received, and the reply's messageId,
 * as returned by CallingHost). SYNC ↔ SYNC_ACK need no record: the widget
 * echoes the SYNC's messageId. Host messageIds are unique; widget ones may
 * not be (the npm SDK reuses ids within a millisecond), so requests are
 * matched by object identity first and by type + id only as a fallback.
 */
import type { ConformanceTraffic } from './conformance.ts'
import type { ReplyLink } from './calling-types.ts'
import { isRecord } from '../../../shared/crm/guards.ts'
import { linkBoth } from '../../../shared/traffic/traffic-file.ts'

export function messageIdOf(message: unknown): string | number | null {
  if (!isRecord(message)) return null
  const id = message.messageId
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

/**
 * The list kept under `key`, made on first use. Appending in place keeps an index build linear when a
 * widget floods the host with messages that share one id (a copy per append was quadratic).
 */
export function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key)
  if (list === undefined) map.set(key, (list = []))
  return list
}

type Entry = Pick<ConformanceTraffic, 'seq' | 'direction' | 'type' | 'message'>

/** seq → the seqs of its partners (replies of a request, or the request of a reply). */
export function buildLinkIndex(traffic: readonly Entry[], links: readonly ReplyLink[]): Map<number, number[]> {
  const index = new Map<number, number[]>()
  const connect = (a: number, b: number) => linkBoth(index, a, b)
  const outById = new Map<string, number[]>()
  const inByObject = new Map<unknown, number>()
  const inByKey = new Map<string, number[]>()
  const syncs = new Map<string, number[]>()
  for (const entry of traffic) {
    const id = messageIdOf(entry.message)
    if (entry.direction === 'out') {
      if (id !== null) listIn(outById, String(id)).push(entry.seq)
      if (entry.type === 'SYNC' && id !== null) listIn(syncs, String(id)).push(entry.seq)
    } else {
      if (isRecord(entry.message)) inByObject.set(entry.message, entry.seq)
      const key = `${entry.type}\u0000${String(id)}`
      listIn(inByKey, key).push(entry.seq)
      if (entry.type === 'SYNC_ACK' && id !== null) {
        for (const sync of syncs.get(String(id)) ?? []) connect(sync, entry.seq)
      }
    }
  }
  for (const link of links) {
    const replies = outById.get(link.replyMessageId) ?? []
    if (replies.length === 0) continue
    let requests: number[] = []
    const byObject = inByObject.get(link.request)
    if (byObject !== undefined) requests = [byObject]
    else {
      // Fallback: the latest same-type, same-id request before the first reply.
      const candidates = inByKey.get(`${link.requestType}\u0000${String(link.requestMessageId)}`) ?? []
      const before = candidates.filter((seq) => seq < replies[0]!)
      if (before.length > 0) requests = [before[before.length - 1]!]
    }
    for (const request of requests) for (const reply of replies) connect(request, reply)
  }
  return index
}
