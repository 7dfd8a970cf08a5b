/**
 * The traffic log's rule in the calling store: the host's judgement sees a huge message whole, the log
 * keeps it truncated (with its size), links and the export follow the kept copy, and the whole log
 * keeps within its byte total as well as its count.
 */
import { TRAFFIC_BOUNDS } from '../../../shared/traffic/bound.ts'
import { parseTrafficFile, TRAFFIC_LIMITS } from '../../../shared/traffic/traffic-file.ts'
import type { ApiExchange } from '../../lib/api-client.ts'
import { createCallingStore } from './calling-store.ts'
import { CallingCause } from './ports.ts'
import { trafficFileOf } from './traffic-export.ts'
import { MAX_TRAFFIC } from './traffic-keeper.ts'
import { trafficEntry } from './testing/traffic-entry.ts'

const MB = 1024 * 1024

const entry = trafficEntry

test('a huge message is judged as received and kept truncated; its reply link and the export follow the kept copy', () => {
  const store = createCallingStore()
  const note = 'n'.repeat(4 * MB)
  const started = { type: 'OUTGOING_CALL_STARTED', messageId: 'w1', data: { externalCallId: 'c1', createEngagement: true, toNumber: '+16175550101', note } }
  store.getState().addTraffic(entry(1, 'out', { type: 'SYNC', messageId: 's' }))
  store.getState().addTraffic(entry(2, 'in', { type: 'SYNC_ACK', messageId: 's' }))
  store.getState().addTraffic(entry(3, 'in', started))
  store.getState().addTraffic(entry(4, 'out', { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'h2', data: { engagementId: 55 } }))
  store.getState().addLink({ request: started, requestType: started.type, requestMessageId: 'w1', replyMessageId: 'h2' })
  const state = store.getState()

  // Judged whole: the call it starts is tracked (the ghost-call rule watches it).
  expect(state.conformance.calls.c1).toMatchObject({ createEngagement: true, state: 'open' })
  const kept = state.traffic[2]!
  expect(kept.truncated).toEqual({ chars: JSON.stringify(started).length, keptChars: TRAFFIC_BOUNDS.entryChars })
  expect(kept.message).toMatchObject({ type: 'OUTGOING_CALL_STARTED', messageId: 'w1', data: { externalCallId: 'c1', createEngagement: true } })
  expect(JSON.stringify(kept.message).length).toBeLessThanOrEqual(TRAFFIC_BOUNDS.entryChars + 16)
  // The link holds the kept copy, never the 4 MB message.
  expect(state.links[0]!.request).toBe(kept.message)

  const file = trafficFileOf(state)
  expect(file.messages[2]).toMatchObject({ seq: 3, truncated: kept.truncated, linkedTo: [4] })
  const parsed = parseTrafficFile(JSON.stringify(file))
  expect(parsed.ok && parsed.file.messages[2]!.truncated).toEqual(kept.truncated)
})

test('the log keeps within its byte total: the oldest messages go first, and are counted', () => {
  const store = createCallingStore({}, { batchTraffic: true })
  const big = 'b'.repeat(100 * 1024)
  const n = 400
  for (let i = 1; i <= n; i += 1) store.getState().addTraffic(entry(i, 'in', { type: 'CALL_DATA', messageId: `w${i}`, data: big }))
  store.getState().flushTraffic()
  const { traffic, trafficDropped } = store.getState()
  expect(traffic.length * TRAFFIC_BOUNDS.entryChars).toBeLessThanOrEqual(TRAFFIC_BOUNDS.totalChars)
  expect(traffic.length).toBeGreaterThan(TRAFFIC_BOUNDS.totalChars / TRAFFIC_BOUNDS.entryChars - 2)
  expect(trafficDropped).toBe(n - traffic.length)
  expect(traffic.at(-1)!.seq).toBe(n)
  expect(traffic.every((e) => e.truncated !== undefined)).toBe(true)
  store.getState().clearInspector()
  expect(store.getState().trafficDropped).toBe(0)
})

test('the count rule stays beside it: small messages are dropped past MAX_TRAFFIC, and counted', () => {
  const store = createCallingStore({}, { batchTraffic: true })
  for (let i = 1; i <= MAX_TRAFFIC + 10; i += 1) store.getState().addTraffic(entry(i, 'in', { type: 'CALL_DATA', messageId: `w${i}` }))
  store.getState().flushTraffic()
  expect(store.getState().traffic).toHaveLength(MAX_TRAFFIC)
  expect(store.getState().trafficDropped).toBe(10)
})

test('API request bodies count towards the total too', () => {
  const store = createCallingStore({}, { batchTraffic: true })
  const started = { type: 'OUTGOING_CALL_STARTED', messageId: 'w1', data: { externalCallId: 'c1' } }
  store.getState().addTraffic(entry(1, 'in', started))
  // A string body: measured by its length, kept as its first 16,000 characters (16 MB holds about 500 of them).
  const body = 'r'.repeat(TRAFFIC_LIMITS.maxBodyChars * 2)
  const n = 700
  for (let id = 1; id <= n; id += 1) {
    const exchange: ApiExchange = { id, time: 2_000 + id, method: 'PATCH', path: '/crm/v3/objects/calls/1', status: 200, durationMs: 1, tag: new CallingCause(started), requestBody: body, responseBody: body }
    store.getState().addRequest(exchange)
  }
  store.getState().flushTraffic()
  const { requests } = store.getState()
  expect(requests.length).toBeLessThan(n)
  expect(requests.length * 2 * TRAFFIC_LIMITS.maxBodyChars).toBeLessThanOrEqual(TRAFFIC_BOUNDS.totalChars + 4 * TRAFFIC_LIMITS.maxBodyChars)
  expect(requests.at(-1)!.id).toBe(n)
  // The message was older than every request kept: it went first.
  expect(store.getState().traffic).toHaveLength(0)
  expect(store.getState().trafficDropped).toBe(1)
})

test("a widget's values in a message's texts and findings are kept within the file's budgets: the export imports back", () => {
  const store = createCallingStore()
  const big = 'v'.repeat(MB)
  const deviations = Array.from({ length: 150 }, (_, i) => ({ severity: 'warning' as const, path: `data.f${i}`, message: `f${i} is ${big}` }))
  store.getState().addTraffic(entry(1, 'out', { type: 'SYNC', messageId: 's' }))
  store.getState().addTraffic(entry(2, 'in', { type: 'SYNC_ACK', messageId: 's' }))
  store.getState().addTraffic({ ...entry(3, 'in', { type: 'CALL_DATA', messageId: 'w3' }), deviations })
  const state = store.getState()
  expect(state.conformance.findings.length).toBeGreaterThan(100)
  expect(Math.max(...state.conformance.findings.map((f) => f.message.length))).toBeLessThanOrEqual(TRAFFIC_LIMITS.maxTextChars)
  expect(state.traffic[2]!.deviations).toHaveLength(100)
  const parsed = parseTrafficFile(JSON.stringify(trafficFileOf(state)))
  expect(parsed.ok ? '' : parsed.error).toBe('')
})

test('a huge message that is not a calling-SDK message (a vendor library’s) is kept within the same bounds, marked, with no finding', () => {
  const store = createCallingStore()
  const vendor = { event: 'telemetry', blob: 'v'.repeat(4 * MB) }
  store.getState().addTraffic({ ...entry(1, 'in', vendor), valid: false, reason: 'not a calling-SDK message (no type, no messageId)', notSdk: true })
  const [kept] = store.getState().traffic
  expect(kept).toMatchObject({ notSdk: true, truncated: { chars: JSON.stringify(vendor).length, keptChars: TRAFFIC_BOUNDS.entryChars } })
  expect(JSON.stringify(kept!.message).length).toBeLessThanOrEqual(TRAFFIC_BOUNDS.entryChars)
  expect(store.getState().conformance.findings).toEqual([])
  expect(trafficFileOf(store.getState()).messages[0]).toMatchObject({ notSdk: true })
})
