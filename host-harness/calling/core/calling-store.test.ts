import type { TrafficEntry } from './traffic-recorder.ts'
import { createCallingStore } from './calling-store.ts'
import { MAX_TRAFFIC } from './traffic-keeper.ts'

/** n traffic entries: a handshake, then widget messages of which every third is invalid. */
function flood(n: number): TrafficEntry[] {
  const entries: TrafficEntry[] = [
    { seq: 1, time: 0, direction: 'out', type: 'SYNC', message: { type: 'SYNC', messageId: 'h_1' }, valid: true },
    { seq: 2, time: 0, direction: 'in', type: 'SYNC_ACK', message: { type: 'SYNC_ACK', messageId: 'h_1' }, valid: true },
  ]
  for (let i = 3; i <= n; i += 1) {
    const valid = i % 3 !== 0
    const message = valid ? { type: 'CALL_DATA', messageId: `w_${i}`, data: { i } } : { type: 'CALL_ENDED', messageId: `w_${i}`, data: 'junk' }
    entries.push({ seq: i, time: 0, direction: 'in', type: message.type, message, valid, ...(valid ? {} : { reason: 'invalid data' }) })
  }
  return entries
}

test('with batching, 10,000 traffic entries make one state update, with the same traffic and findings as one update each', () => {
  const batched = createCallingStore({}, { batchTraffic: true })
  const direct = createCallingStore()
  const updates = vi.fn()
  batched.subscribe(updates)
  const entries = flood(10_000)
  const kept = entries.map((entry) => batched.getState().addTraffic(entry))
  for (const entry of entries) direct.getState().addTraffic(entry)
  expect(updates).not.toHaveBeenCalled()
  expect(kept.at(-1)?.seq).toBe(10_000)
  batched.getState().flushTraffic()
  expect(updates).toHaveBeenCalledTimes(1)
  const a = batched.getState()
  const b = direct.getState()
  expect(a.traffic).toHaveLength(MAX_TRAFFIC)
  expect(a.traffic.at(-1)?.seq).toBe(10_000)
  expect(a.traffic).toEqual(b.traffic)
  expect(a.trafficSeq).toBe(b.trafficSeq)
  expect(a.conformance).toEqual(b.conformance)
})

test('with batching, entries are applied on the next frame on their own, and a conformance event applies the earlier traffic first', async () => {
  const store = createCallingStore({}, { batchTraffic: true })
  const [sync, ack] = flood(2)
  store.getState().addTraffic(sync!)
  expect(store.getState().traffic).toHaveLength(0)
  await vi.waitFor(() => expect(store.getState().traffic).toHaveLength(1))
  store.getState().addTraffic(ack!)
  store.getState().conformanceEvent({ kind: 'widget-reset', reason: 'reloaded' })
  expect(store.getState().traffic.map((e) => e.type)).toEqual(['SYNC', 'SYNC_ACK'])
  expect(store.getState().conformance.handshakeDone).toBe(false)
})

test('Clear drops entries not yet applied; seq numbers are never reused', () => {
  const store = createCallingStore({}, { batchTraffic: true })
  const [sync, ack] = flood(2)
  store.getState().addTraffic(sync!)
  store.getState().clearInspector()
  store.getState().flushTraffic()
  expect(store.getState().traffic).toEqual([])
  expect(store.getState().addTraffic(ack!).seq).toBe(2)
})

test('with batching, reply links wait for the frame too: a flood of replies makes one state update', () => {
  const store = createCallingStore({}, { batchTraffic: true })
  let updates = 0
  store.subscribe(() => (updates += 1))
  const entries = flood(200)
  for (const entry of entries) {
    store.getState().addTraffic(entry)
    store.getState().addLink({ request: { type: 'CALL_COMPLETED', messageId: `w_${entry.seq}` }, requestType: 'CALL_COMPLETED', requestMessageId: `w_${entry.seq}`, replyMessageId: `h_${entry.seq}` })
  }
  expect(store.getState().links).toEqual([])
  store.getState().flushTraffic()
  expect(updates).toBe(1)
  expect(store.getState().links).toHaveLength(200)
  expect(store.getState().traffic).toHaveLength(200)
})
