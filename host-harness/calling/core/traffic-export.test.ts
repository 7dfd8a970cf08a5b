/**
 * The inspector's traffic as a traffic file: API requests recorded by the store with their cause,
 * the export, and the page's getter for test kits.
 */
import { parseTrafficFile, TRAFFIC_LIMITS } from '../../../shared/traffic/traffic-file.ts'
import { buildLadder } from '../../../shared/traffic/ladder.ts'
import type { ApiExchange } from '../../lib/api-client.ts'
import { createCallingStore } from './calling-store.ts'
import { CallingCause } from './ports.ts'
import { exposeTraffic, TRAFFIC_GETTER, trafficFileOf } from './traffic-export.ts'
import { trafficEntry } from './testing/traffic-entry.ts'

const entry = trafficEntry
const exchange = (id: number, tag: unknown, extra: Partial<ApiExchange> = {}): ApiExchange => ({ id, time: 2_000 + id, method: 'POST', path: '/crm/v3/objects/calls', status: 201, durationMs: 3.14159, tag, ...extra })

function recorded() {
  const store = createCallingStore()
  const started = { type: 'OUTGOING_CALL_STARTED', messageId: 'w1', data: { externalCallId: 'c1', createEngagement: true } }
  store.getState().addTraffic(entry(1, 'out', { type: 'SYNC', messageId: 's' }))
  store.getState().addTraffic(entry(1, 'in', started))
  store.getState().addRequest(exchange(7, new CallingCause(started), { requestBody: { properties: {} }, responseBody: { id: '55', big: 'x'.repeat(TRAFFIC_LIMITS.maxBodyChars) } }))
  store.getState().addRequest(exchange(8, undefined, { method: 'GET', path: '/crm/v3/objects/contacts' }))
  const reply = store.getState().addTraffic(entry(2, 'out', { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'h2', data: { engagementId: 55 } }))
  store.getState().addLink({ request: started, requestType: started.type, requestMessageId: 'w1', replyMessageId: 'h2' })
  return { store, reply }
}

test('the store keeps the controller\'s requests (tagged) with the seq of their message, after the newest message, bodies bounded', () => {
  const { store } = recorded()
  const [request, ...others] = store.getState().requests
  expect(others).toEqual([])
  expect(request).toMatchObject({ id: 7, method: 'POST', status: 201, causeSeq: 2, afterSeq: 2, durationMs: 3.1, requestBody: { properties: {} } })
  expect(request!.responseBody).toMatchObject({ 'ringside:truncated': true })
  store.getState().clearInspector()
  expect(store.getState().requests).toEqual([])
})

test('the export is a traffic file that parses back and draws the request linked to its message', () => {
  const { store, reply } = recorded()
  const file = trafficFileOf(store.getState(), new Date(Date.UTC(2026, 0, 1)))
  expect(file).toMatchObject({ format: 'ringside-traffic', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', source: 'harness' })
  expect(file.messages.map((m) => [m.seq, m.type, m.linkedTo])).toEqual([
    [1, 'SYNC', undefined],
    [2, 'OUTGOING_CALL_STARTED', [reply.seq]],
    [3, 'CREATE_ENGAGEMENT_SUCCEEDED', [2]],
  ])
  const parsed = parseTrafficFile(JSON.stringify(file))
  if (!parsed.ok) throw new Error(parsed.error)
  const model = buildLadder(parsed.file)
  const started = model.rows.find((r) => r.arrow.label === 'OUTGOING_CALL_STARTED')!.arrow
  expect(started.requests).toEqual([7])
  expect(model.rows.map((r) => r.arrow.label)).toEqual(['SYNC', 'OUTGOING_CALL_STARTED', 'POST /crm/v3/objects/calls → 201', '201 (3 ms)', 'CREATE_ENGAGEMENT_SUCCEEDED'])
})

test('window.__ringsideTraffic() returns the same file as JSON text, until removed', () => {
  const { store } = recorded()
  const remove = exposeTraffic(() => store.getState())
  const getter = (window as unknown as Record<string, () => string>)[TRAFFIC_GETTER]!
  const parsed = parseTrafficFile(getter())
  expect(parsed.ok && parsed.file.requests.length).toBe(1)
  remove()
  expect(TRAFFIC_GETTER in window).toBe(false)
})
