/**
 * Messages that are not calling-SDK messages at all: what a vendor's own library in the
 * widget's page posts to the parent (plain objects, strings, objects with only `type` or
 * only `messageId`). The SDK's receiving side drops them without a word
 * (IFrameManager.onMessage: `if (!messageId || !type) return`); so does the host, and they
 * are never judged as the widget's SDK use.
 */
import NpmCallingExtensions from '@hubspot/calling-extensions-sdk'
import { notSdkReason } from './catalogue.ts'
import { judgeWidgetMessage } from './judgement.ts'
import { HOST_ORIGIN, deliver, stubParentWindow } from './testing/jsdom-wire.ts'
import { ackFor, destroyHostEnvs, fromWidget, load, mountHost, readyHost, syncs } from './testing/host-env.ts'
import { sampleMessage } from './testing/samples.ts'

/** A vendor library's kind of traffic, as seen in widgets' pages. */
const VENDOR_TRAFFIC: ReadonlyArray<[string, unknown]> = [
  ['a plain object', { event: 'agent-status', status: 'ready' }],
  ['a string', 'vendor:ping'],
  ['a JSON string', JSON.stringify({ type: 'CALL_ENDED', messageId: 'x' })],
  ['a number', 42],
  ['an array', [{ type: 'INITIALIZED', messageId: 1 }]],
  ['an object with only type', { type: 'vendor:ready' }],
  ['an object with only a calling-SDK type', { type: 'CALL_ENDED', data: { externalCallId: 'c' } }],
  ['an object with only messageId', { messageId: 'vendor-7', payload: {} }],
  ['an empty type', { type: '', messageId: 'm1' }],
  ['a messageId of 0', { type: 'INITIALIZED', messageId: 0 }],
  ['a null messageId', { type: 'INITIALIZED', messageId: null }],
]

const SDK_SHAPED: ReadonlyArray<[string, unknown]> = [
  ['a valid message', sampleMessage('INITIALIZED')],
  ['an unknown type', { type: 'vendor:ready', messageId: 'v1' }],
  ['a numeric messageId', { type: 'INITIALIZED', messageId: 5, data: { isLoggedIn: true } }],
  ['a broken payload', { type: 'CALL_ENDED', messageId: 'w1', data: 'ended' }],
]

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {})
})

afterEach(() => {
  destroyHostEnvs()
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

describe('notSdkReason: the SDK’s own test', () => {
  it.each(VENDOR_TRAFFIC)('%s is not a calling-SDK message', (_name, data) => {
    expect(notSdkReason(data)).toMatch(/^not a calling-SDK message \(/)
  })

  it.each(SDK_SHAPED)('%s is SDK-shaped (judged as usual)', (_name, data) => {
    expect(notSdkReason(data)).toBeUndefined()
  })

  it('says what is missing', () => {
    expect(notSdkReason({ a: 1 })).toBe('not a calling-SDK message (no type, no messageId)')
    expect(notSdkReason({ type: 'x' })).toBe('not a calling-SDK message (no messageId)')
    expect(notSdkReason({ messageId: 'x' })).toBe('not a calling-SDK message (no type)')
    expect(notSdkReason('x')).toBe('not a calling-SDK message (a string)')
    expect(notSdkReason(null)).toBe('not a calling-SDK message (null)')
  })

  it('agrees with the real SDK 0.9.7: what it drops is exactly what notSdkReason names', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { parent } = stubParentWindow()
    const handled: unknown[] = []
    const sdk = new NpmCallingExtensions({ debugMode: false, eventHandlers: { defaultEventHandler: (_data: unknown, event: unknown) => handled.push(event) } as never })
    try {
      deliver({ type: 'SYNC', messageId: 'host_1', hostUrl: HOST_ORIGIN, portalId: 1 }, HOST_ORIGIN, parent)
      for (const [name, data] of [...VENDOR_TRAFFIC, ...SDK_SHAPED]) {
        const before = handled.length
        deliver(structuredClone(data), HOST_ORIGIN, parent)
        const dropped = handled.length === before
        expect({ name, dropped }).toEqual({ name, dropped: notSdkReason(data) !== undefined })
      }
    } finally {
      sdk.iFrameManager.remove()
    }
  })
})

describe('the host drops them, as the SDK does', () => {
  it('judges them notSdk with no deviation (no finding), keeping a type it can show', () => {
    for (const [, data] of VENDOR_TRAFFIC) {
      const judged = judgeWidgetMessage(data)
      expect(judged).toMatchObject({ act: false, notSdk: true, deviations: [] })
    }
    expect(judgeWidgetMessage({ type: 'vendor:ready' })).toMatchObject({ type: 'vendor:ready', reason: 'not a calling-SDK message (no messageId)' })
  })

  it('keeps each in the traffic, marked notSdk, calls no listener, answers nothing and emits no ignored', () => {
    const env = readyHost()
    const listener = vi.fn()
    const ignored = vi.fn()
    env.host.on('message', listener)
    env.host.on('ignored', ignored)
    for (const [, data] of VENDOR_TRAFFIC) fromWidget(env, data)
    expect(env.traffic).toHaveLength(VENDOR_TRAFFIC.length)
    expect(env.traffic.every((t) => t.direction === 'in' && t.valid === false && t.notSdk === true && t.deviations === undefined)).toBe(true)
    expect(env.traffic.map((t) => t.reason)).toEqual(VENDOR_TRAFFIC.map(([, data]) => notSdkReason(data)))
    expect(listener).not.toHaveBeenCalled()
    expect(ignored).not.toHaveBeenCalled()
    expect(env.posts).toHaveLength(0)
    expect(env.host.status).toBe('ready')
  })

  it('before the handshake they change nothing: SYNC_ACK still completes it, nothing is queued or answered', () => {
    const env = mountHost()
    load(env)
    for (const [, data] of VENDOR_TRAFFIC) fromWidget(env, data)
    expect(env.host.status).toBe('syncing')
    expect(env.traffic.filter((t) => t.direction === 'in').every((t) => t.notSdk === true && t.beforeHandshake === true)).toBe(true)
    fromWidget(env, ackFor(syncs(env)[0]))
    expect(env.host.status).toBe('ready')
  })
})
