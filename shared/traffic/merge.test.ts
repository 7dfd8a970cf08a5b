import { mergeTrafficFiles } from './merge.ts'
import { parseTrafficFile, stringifyTrafficFile, TRAFFIC_FORMAT, TRAFFIC_VERSION, type TrafficFile } from './traffic-file.ts'

const file = (frame: 'remote' | 'window', times: number[], extra: Partial<TrafficFile> = {}): TrafficFile => ({
  format: TRAFFIC_FORMAT,
  version: TRAFFIC_VERSION,
  exportedAt: '2026-01-01T00:00:00.000Z',
  source: 'harness',
  widgetUrl: 'http://127.0.0.1:2/w/',
  messages: times.map((time, i) => ({ seq: i + 1, time, direction: i % 2 === 0 ? 'out' : 'in', type: i % 2 === 0 ? 'SYNC' : 'SYNC_ACK', message: {}, frame })),
  requests: [],
  ...extra,
})

test('two frames merge in time order; links, request causes and findings follow their messages', () => {
  const remote = file('remote', [10, 30], { messages: [], requests: [] })
  remote.messages = [
    { seq: 1, time: 10, direction: 'out', type: 'SYNC', message: {}, frame: 'remote', linkedTo: [2] },
    { seq: 2, time: 30, direction: 'in', type: 'SYNC_ACK', message: {}, frame: 'remote', linkedTo: [1] },
  ]
  remote.findings = [{ seq: 2, severity: 'warning', rule: 'type-deviation', message: 'remote' }]
  const window = file('window', [20, 40, 50], {
    requests: [{ id: 1, time: 45, method: 'POST', path: '/crm/v3/objects/calls', status: 201, durationMs: 3, causeSeq: 3, afterSeq: 3 }],
    findings: [{ seq: 3, severity: 'error', rule: 'invalid-payload', message: 'window' }, { seq: null, severity: 'warning', rule: 'ghost-call', message: 'reset' }],
  })
  const merged = mergeTrafficFiles([remote, window])
  expect(merged.messages.map((m) => `${m.seq} ${m.frame} ${m.time}`)).toEqual(['1 remote 10', '2 window 20', '3 remote 30', '4 window 40', '5 window 50'])
  expect(merged.messages[0]!.linkedTo).toEqual([3])
  expect(merged.messages[2]!.linkedTo).toEqual([1])
  expect(merged.requests).toEqual([{ id: 1, time: 45, method: 'POST', path: '/crm/v3/objects/calls', status: 201, durationMs: 3, causeSeq: 5, afterSeq: 5 }])
  expect(merged.findings).toEqual([
    { seq: 3, severity: 'warning', rule: 'type-deviation', message: 'remote' },
    { seq: 5, severity: 'error', rule: 'invalid-payload', message: 'window' },
    { seq: null, severity: 'warning', rule: 'ghost-call', message: 'reset' },
  ])
  // A valid traffic file: it parses back, with each message's frame.
  const parsed = parseTrafficFile(stringifyTrafficFile(merged))
  expect(parsed.ok && parsed.file.messages.map((m) => m.frame)).toEqual(['remote', 'window', 'remote', 'window', 'window'])
})

test('one file is itself; files that judged nothing stay unjudged', () => {
  const only = file('window', [1])
  expect(mergeTrafficFiles([only])).toBe(only)
  expect(mergeTrafficFiles([file('remote', [1]), file('window', [2])]).findings).toBeUndefined()
})
