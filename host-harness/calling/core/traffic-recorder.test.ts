/**
 * The harness's traffic log on a real CallingHost (through its observer seam): numbering,
 * outgoing validation (once per object), and the fields each entry carries.
 */
import { validateMessage } from '../../../shared/protocol/catalogue.ts'
import { sampleMessage, samplePayloads } from '../../../shared/protocol/testing/samples.ts'
import { destroyHostEnvs, fromWidget, readyHost } from '../../../shared/protocol/testing/host-env.ts'
import type { CallingHostOptions } from '../../../shared/protocol/index.ts'
import { FaultInjector } from './fault-outbox.ts'
import { TrafficRecorder, type TrafficEntry } from './traffic-recorder.ts'

// validateMessage, counted (the recorder validates each outgoing object once)
vi.mock('../../../shared/protocol/catalogue.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../shared/protocol/catalogue.ts')>()
  return { ...actual, validateMessage: vi.fn(actual.validateMessage) }
})

function recordedHost(options: Partial<CallingHostOptions> = {}) {
  const entries: TrafficEntry[] = []
  const env = readyHost({ observer: new TrafficRecorder((e) => entries.push(e)), ...options })
  entries.length = 0
  return { env, entries }
}

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {})
})

afterEach(() => {
  destroyHostEnvs()
  document.body.replaceChildren()
})

test('numbers entries in wire order, in and out, with the time', () => {
  const { env, entries } = recordedHost()
  env.host.endCall()
  fromWidget(env, sampleMessage('CALL_ENDED'))
  env.host.endCall()
  const first = entries[0]?.seq ?? 0
  expect(entries.map((t) => [t.seq, t.direction, t.type])).toEqual([
    [first, 'out', 'END_CALL'],
    [first + 1, 'in', 'CALL_ENDED'],
    [first + 2, 'out', 'END_CALL'],
  ])
  expect(entries.every((t) => typeof t.time === 'number')).toBe(true)
})

test('an accepted widget message is a valid entry with only the fields that apply', () => {
  const { env, entries } = recordedHost()
  const message = sampleMessage('CALL_ENDED')
  fromWidget(env, message)
  expect(entries).toEqual([{ seq: expect.any(Number), time: expect.any(Number), direction: 'in', type: 'CALL_ENDED', message, valid: true }])
})

test('an ignored widget message is invalid, with the reason and its error deviations', () => {
  const { env, entries } = recordedHost()
  fromWidget(env, { type: 'CALL_ENDED', messageId: 'w1', data: 'ended' })
  expect(entries).toEqual([
    expect.objectContaining({ direction: 'in', type: 'CALL_ENDED', valid: false, reason: expect.stringContaining('data'), deviations: [expect.objectContaining({ severity: 'error', path: 'data' })] }),
  ])
})

test('outgoing messages are validated for their entry: valid, invalid with the reason, deprecated with the note', () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const { env, entries } = recordedHost()
  env.host.dialNumber(samplePayloads.DIAL_NUMBER)
  env.host.sendRaw({ type: 'DIAL_NUMBER', data: { objectId: 0 } })
  env.host.engagementCreated({ engagementId: 1 })
  expect(entries.map((t) => [t.direction, t.type, t.valid])).toEqual([
    ['out', 'DIAL_NUMBER', true],
    ['out', 'DIAL_NUMBER', false],
    ['out', 'ENGAGEMENT_CREATED', true],
  ])
  expect(entries[1]?.reason).toContain('phoneNumber')
  expect(entries[2]?.deprecation).toMatch(/CREATE_ENGAGEMENT_SUCCEEDED/)
})

test('a duplicated outgoing message is validated once for its two entries', () => {
  const faults = new FaultInjector()
  faults.set({ duplicate: ['DIAL_NUMBER'] })
  const { env, entries } = recordedHost({ wrapOutbox: faults.wrap })
  const calls = vi.mocked(validateMessage).mock.calls
  const before = calls.length
  env.host.dialNumber(samplePayloads.DIAL_NUMBER)
  expect(calls.slice(before).map((c) => c[1])).toEqual(['from-host'])
  expect(entries.map((t) => [t.valid, t.fault])).toEqual([[true, undefined], [true, 'duplicate']])
})
