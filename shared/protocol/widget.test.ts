import fc from 'fast-check'
import { CATALOGUE, SDK_VERSION, type HandlerName, type MessageType } from './catalogue.ts'
import { resetWarnOnce } from './log.ts'
import { malformedMessage } from './testing/malformed.ts'
import { HOST_ORIGIN, deliver, postedOfType, postedTypes, stubParentWindow, type Post } from './testing/jsdom-wire.ts'
import { sampleMessage, samplePayloads } from './testing/samples.ts'
import { CallingExtensions, type CallingExtensionsOptions, type EventHandlers } from './widget.ts'

const HANDLER_NAMES = Object.values(CATALOGUE).flatMap((e) => ('handler' in e ? [e.handler] : [])) as HandlerName[]

/** Every handler (plus FAILED and defaultEventHandler) as a spy. */
function spyHandlers() {
  const spies: Record<string, ReturnType<typeof vi.fn>> = {}
  for (const name of [...HANDLER_NAMES, 'FAILED', 'defaultEventHandler']) spies[name] = vi.fn()
  return { spies, handlers: spies as unknown as EventHandlers }
}

let parent: Window
let posts: Post[]
const instances: CallingExtensions[] = []

function create(options: Partial<CallingExtensionsOptions> = {}): CallingExtensions {
  const sdk = new CallingExtensions({ eventHandlers: {}, ...options })
  instances.push(sdk)
  return sdk
}

function syncMessage(extra: Record<string, unknown> = {}) {
  return { ...sampleMessage('SYNC', 'host_sync_1'), ...extra }
}

/** A widget that finished the handshake; `posts` is emptied afterwards. */
function readyWidget(options: Partial<CallingExtensionsOptions> = {}): CallingExtensions {
  const sdk = create(options)
  deliver(syncMessage(), HOST_ORIGIN, parent)
  expect(sdk.isReady).toBe(true)
  posts.length = 0
  return sdk
}

function fromHost(data: unknown): void {
  deliver(data, HOST_ORIGIN, parent)
}

beforeEach(() => {
  ;({ parent, posts } = stubParentWindow())
  resetWarnOnce()
  vi.spyOn(console, 'debug').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
  // e.g. "No event handler … READY" when a test passes no onReady; asserted where it matters
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(() => {
  for (const sdk of instances.splice(0)) sdk.destroy()
  document.body.replaceChildren()
})

describe('handshake', () => {
  it('answers the first SYNC with a SYNC_ACK that copies it, keeps its messageId and adds debugMode, version and its own origin', () => {
    create()
    const sync = syncMessage({ engagementId: 42, extraField: 'kept' })
    fromHost(sync)
    expect(posts).toHaveLength(1)
    expect(posts[0]?.targetOrigin).toBe(HOST_ORIGIN)
    expect(posts[0]?.message).toEqual({
      ...sync,
      type: 'SYNC_ACK',
      debugMode: false,
      version: SDK_VERSION,
      iFrameUrl: window.location.origin,
    })
  })

  it('calls onReady with the SYNC fields after acknowledging', () => {
    const onReady = vi.fn(() => expect(postedTypes(posts)).toEqual(['SYNC_ACK']))
    create({ eventHandlers: { onReady } })
    fromHost(syncMessage({ engagementId: 42 }))
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(onReady.mock.calls[0]).toEqual([
      {
        engagementId: 42,
        portalId: 123,
        userId: 7,
        ownerId: 9,
        iframeLocation: 'widget',
        usesCallingWindow: false,
        hostUrl: HOST_ORIGIN,
      },
      expect.objectContaining({ type: 'READY' }),
    ])
  })

  it('ignores every later SYNC: no second SYNC_ACK and no second onReady', () => {
    const onReady = vi.fn()
    create({ eventHandlers: { onReady } })
    fromHost(syncMessage())
    fromHost(syncMessage({ messageId: 'host_sync_2' }))
    fromHost(syncMessage({ messageId: 'host_sync_3', portalId: 999 }))
    expect(postedOfType(posts, 'SYNC_ACK')).toHaveLength(1)
    expect(onReady).toHaveBeenCalledTimes(1)
  })

  it('drops messages other than SYNC before the handshake', () => {
    const { spies, handlers } = spyHandlers()
    create({ eventHandlers: handlers })
    fromHost(sampleMessage('DIAL_NUMBER'))
    fromHost({ type: 'NOT_A_TYPE', messageId: 'x' })
    expect(posts).toHaveLength(0)
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled()
  })

  it('throws like the npm package when eventHandlers are missing', () => {
    expect(() => new CallingExtensions(undefined as unknown as CallingExtensionsOptions)).toThrow(/eventHandlers/)
    expect(() => new CallingExtensions({} as CallingExtensionsOptions)).toThrow(/eventHandlers/)
  })

  it('rejects hostOrigins entries that are not http(s) origins', () => {
    expect(() => create({ hostOrigins: ['javascript:alert(1)'] })).toThrow(/hostOrigins/)
  })
})

describe('SYNC source and origin filtering', () => {
  const other = () => window // a window that is not window.parent
  it.each([
    { name: 'parent at the hostUrl origin', source: 'parent', origin: HOST_ORIGIN, hostUrl: HOST_ORIGIN, shouldAccept: true },
    { name: 'hostUrl with a path and trailing slash', source: 'parent', origin: HOST_ORIGIN, hostUrl: `${HOST_ORIGIN}/contacts/1/`, shouldAccept: true },
    { name: 'listed in hostOrigins', source: 'parent', origin: HOST_ORIGIN, hostUrl: HOST_ORIGIN, hostOrigins: [HOST_ORIGIN], shouldAccept: true },
    { name: 'not listed in hostOrigins', source: 'parent', origin: HOST_ORIGIN, hostUrl: HOST_ORIGIN, hostOrigins: ['https://other.test'], shouldAccept: false },
    { name: 'origin differs from hostUrl', source: 'parent', origin: 'https://evil.test', hostUrl: HOST_ORIGIN, shouldAccept: false },
    { name: 'hostUrl spoofed to the sender origin but another window', source: 'other', origin: HOST_ORIGIN, hostUrl: HOST_ORIGIN, shouldAccept: false },
    { name: 'no source window', source: 'none', origin: HOST_ORIGIN, hostUrl: HOST_ORIGIN, shouldAccept: false },
    { name: 'scheme mismatch (http vs https)', source: 'parent', origin: 'http://app.crm.test', hostUrl: HOST_ORIGIN, shouldAccept: false },
    { name: 'port mismatch', source: 'parent', origin: 'https://app.crm.test:8443', hostUrl: HOST_ORIGIN, shouldAccept: false },
    { name: 'opaque origin "null"', source: 'parent', origin: 'null', hostUrl: 'null', shouldAccept: false },
    { name: 'javascript: hostUrl', source: 'parent', origin: HOST_ORIGIN, hostUrl: 'javascript:alert(1)', shouldAccept: false },
    { name: 'missing hostUrl', source: 'parent', origin: HOST_ORIGIN, hostUrl: undefined, shouldAccept: false },
  ])('$name → accepted: $shouldAccept', ({ source, origin, hostUrl, hostOrigins, shouldAccept }) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onReady = vi.fn()
    const sdk = create({ eventHandlers: { onReady }, ...(hostOrigins ? { hostOrigins } : {}) })
    const sync = syncMessage({ hostUrl })
    const sourceWindow = source === 'parent' ? parent : source === 'other' ? other() : null
    deliver(sync, origin, sourceWindow)
    expect(sdk.isReady).toBe(shouldAccept)
    expect(postedOfType(posts, 'SYNC_ACK')).toHaveLength(shouldAccept ? 1 : 0)
    expect(onReady).toHaveBeenCalledTimes(shouldAccept ? 1 : 0)
    if (shouldAccept) expect(posts[0]?.targetOrigin).toBe(HOST_ORIGIN)
  })
})

describe('after the handshake: source and origin filtering', () => {
  it.each([
    { name: 'parent at the host origin', source: 'parent', origin: HOST_ORIGIN, shouldAccept: true },
    { name: 'parent at another origin', source: 'parent', origin: 'https://evil.test', shouldAccept: false },
    { name: 'another window at the host origin', source: 'other', origin: HOST_ORIGIN, shouldAccept: false },
    { name: 'no source at the host origin', source: 'none', origin: HOST_ORIGIN, shouldAccept: false },
    { name: 'parent at the host origin over http', source: 'parent', origin: 'http://app.crm.test', shouldAccept: false },
  ])('$name → delivered: $shouldAccept', ({ source, origin, shouldAccept }) => {
    const onDialNumber = vi.fn()
    readyWidget({ eventHandlers: { onDialNumber } })
    const sourceWindow = source === 'parent' ? parent : source === 'other' ? window : null
    deliver(sampleMessage('DIAL_NUMBER'), origin, sourceWindow)
    expect(onDialNumber).toHaveBeenCalledTimes(shouldAccept ? 1 : 0)
    // dropped messages are never answered either
    if (!shouldAccept) expect(posts).toHaveLength(0)
  })
})

describe('sending', () => {
  it('queues messages sent before the handshake and flushes them in order right after SYNC_ACK', () => {
    const seenAtReady: unknown[] = []
    const sdk = create({ eventHandlers: { onReady: () => seenAtReady.push(...postedTypes(posts)) } })
    sdk.initialized({ isLoggedIn: true })
    sdk.userAvailable()
    sdk.outgoingCall({ externalCallId: 'ext-1', toNumber: '+1555' })
    expect(posts).toHaveLength(0)
    fromHost(syncMessage())
    const expected = ['SYNC_ACK', 'INITIALIZED', 'USER_AVAILABLE', 'OUTGOING_CALL_STARTED']
    expect(postedTypes(posts)).toEqual(expected)
    expect(seenAtReady).toEqual(expected)
    expect(posts.every((p) => p.targetOrigin === HOST_ORIGIN)).toBe(true)
  })

  it('keeps at most 500 messages before the handshake: the oldest go first, with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sdk = create()
    for (let i = 0; i < 503; i += 1) sdk.callData({ i })
    expect(posts).toHaveLength(0)
    expect(warn).toHaveBeenCalledTimes(3)
    fromHost(syncMessage())
    const flushed = posts.filter((p) => (p.message as { type: string }).type === 'CALL_DATA')
    expect(flushed).toHaveLength(500)
    expect(flushed.map((p) => (p.message as { data: { i: number } }).data.i)).toEqual(Array.from({ length: 500 }, (_, k) => k + 3))
  })

  it.each([
    ['userAvailable', 'USER_AVAILABLE'],
    ['userUnavailable', 'USER_UNAVAILABLE'],
    ['userLoggedIn', 'LOGGED_IN'],
    ['userLoggedOut', 'LOGGED_OUT'],
  ] as const)('%s sends exactly {type: %s, messageId} with no data key', (method, type) => {
    const sdk = readyWidget()
    sdk[method]()
    expect(posts).toHaveLength(1)
    const message = posts[0]?.message as Record<string, unknown>
    expect(Object.keys(message)).toEqual(['type', 'messageId'])
    expect(message.type).toBe(type)
  })

  const payloadMethods = [
    ['initialized', 'INITIALIZED'],
    ['incomingCall', 'INCOMING_CALL'],
    ['outgoingCall', 'OUTGOING_CALL_STARTED'],
    ['callAnswered', 'CALL_ANSWERED'],
    ['callEnded', 'CALL_ENDED'],
    ['callCompleted', 'CALL_COMPLETED'],
    ['callTransferred', 'CALL_TRANSFERRED'],
    ['navigateToRecord', 'NAVIGATE_TO_RECORD'],
    ['finalizeEngagement', 'FINALIZE_ENGAGEMENT'],
    ['publishToChannel', 'PUBLISH_TO_CHANNEL'],
    ['callData', 'CALL_DATA'],
    ['sendError', 'ERROR'],
    ['resizeWidget', 'RESIZE_WIDGET'],
    ['setWidgetUrl', 'SET_WIDGET_URL'],
  ] as const
  it.each(payloadMethods)('%s sends exactly {type: %s, data, messageId} with the payload unmodified', (method, type) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sdk = readyWidget()
    const payload = structuredClone(samplePayloads[type])
    const call = sdk[method] as (p: unknown) => void
    call.call(sdk, payload)
    const message = posts[0]?.message as Record<string, unknown>
    expect(Object.keys(message)).toEqual(['type', 'data', 'messageId'])
    expect(message.type).toBe(type)
    expect(message.data).toBe(payload)
    expect(message.data).toEqual(samplePayloads[type])
  })

  it('every catalogue method exists on CallingExtensions', () => {
    const sdk = create()
    const methods = Object.values(CATALOGUE).flatMap((e) => ('method' in e ? [e.method] : []))
    for (const method of methods) expect(typeof (sdk as unknown as Record<string, unknown>)[method]).toBe('function')
  })

  it('sendMessage passes extra top-level fields through and keeps a caller messageId', () => {
    const sdk = readyWidget()
    const withoutId = { type: 'SET_WIDGET_URL', iFrameUrl: 'https://eu.widget.test' }
    sdk.sendMessage(withoutId)
    sdk.sendMessage({ type: 'CALL_DATA', data: { a: 1 }, messageId: 'mine' })
    expect(posts[0]?.message).toEqual({ type: 'SET_WIDGET_URL', iFrameUrl: 'https://eu.widget.test', messageId: expect.any(String) })
    expect(posts[1]?.message).toEqual({ type: 'CALL_DATA', data: { a: 1 }, messageId: 'mine' })
    // the id is added to a copy: the caller's object is left as it was
    expect(withoutId).toEqual({ type: 'SET_WIDGET_URL', iFrameUrl: 'https://eu.widget.test' })
  })

  it('sendMessage throws a clear TypeError on a message without a string type', () => {
    const sdk = readyWidget()
    expect(() => sdk.sendMessage(null as unknown as { type: string })).toThrow(TypeError)
    expect(() => sdk.sendMessage({ type: 5 } as unknown as { type: string })).toThrow(/string `type`/)
  })

  it('gives every message a unique id that never starts with a digit', () => {
    const a = readyWidget()
    const b = create()
    deliver(syncMessage(), HOST_ORIGIN, parent)
    posts.length = 0 // b's SYNC_ACK reuses the SYNC's id by design
    for (let i = 0; i < 500; i++) {
      a.callData(i)
      b.callData(i)
    }
    const ids = posts.map((p) => (p.message as { messageId: string }).messageId)
    expect(ids.length).toBeGreaterThanOrEqual(1000)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^w[a-z0-9]+_\d+$/)
  })

  it('sends nothing after destroy()', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sdk = readyWidget()
    sdk.destroy()
    sdk.userAvailable()
    fromHost(sampleMessage('END_CALL'))
    expect(posts).toHaveLength(0)
  })
})

describe('dispatch', () => {
  const handledTypes = (Object.keys(CATALOGUE) as MessageType[]).filter(
    (t) => 'handler' in CATALOGUE[t] && t !== 'READY',
  )

  it.each(handledTypes)('%s reaches its own handler as (data, rawMessage)', (type) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { spies, handlers } = spyHandlers()
    readyWidget({ eventHandlers: handlers })
    spies.onReady?.mockClear()
    const message = sampleMessage(type)
    fromHost(message)
    const name = (CATALOGUE[type] as { handler: string }).handler
    expect(spies[name]).toHaveBeenCalledTimes(1)
    expect(spies[name]).toHaveBeenCalledWith(message.data, message)
    expect(spies.defaultEventHandler).not.toHaveBeenCalled()
    expect(posts).toHaveLength(0)
  })

  it('routes a known type without its own handler to defaultEventHandler', () => {
    const defaultEventHandler = vi.fn()
    readyWidget({ eventHandlers: { defaultEventHandler } })
    const message = sampleMessage('VISIBILITY_CHANGED')
    fromHost(message)
    expect(defaultEventHandler).toHaveBeenCalledWith(message.data, message)
  })

  it('logs console.error when neither the handler nor defaultEventHandler exists', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    readyWidget({ eventHandlers: {} })
    fromHost(sampleMessage('END_CALL'))
    expect(error).toHaveBeenCalledWith(expect.any(String), expect.stringContaining('END_CALL'))
  })

  const failedTypes = (Object.keys(CATALOGUE) as MessageType[]).filter((t) => t.endsWith('_FAILED'))
  it.each(failedTypes)('%s calls the literal FAILED handler first, then its own handler', (type) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const order: string[] = []
    const name = (CATALOGUE[type] as { handler: string }).handler
    const handlers = { FAILED: vi.fn(() => order.push('FAILED')), [name]: vi.fn(() => order.push(name)), onFailed: vi.fn() }
    readyWidget({ eventHandlers: handlers as EventHandlers })
    const message = sampleMessage(type)
    fromHost(message)
    expect(order).toEqual(['FAILED', name])
    expect(handlers.FAILED).toHaveBeenCalledWith(message.data, message)
    if (type !== 'FAILED') expect(handlers.onFailed).not.toHaveBeenCalled()
  })

  it('calls onFailed only for the type FAILED (not for *_FAILED), and FAILED key not for it', () => {
    const handlers = { FAILED: vi.fn(), onFailed: vi.fn(), onCreateEngagementFailed: vi.fn() }
    readyWidget({ eventHandlers: handlers })
    fromHost(sampleMessage('CREATE_ENGAGEMENT_FAILED'))
    expect(handlers.onFailed).not.toHaveBeenCalled()
    fromHost(sampleMessage('FAILED'))
    expect(handlers.onFailed).toHaveBeenCalledTimes(1)
    // 'FAILED' does not end in _FAILED: the literal key saw only the first message
    expect(handlers.FAILED).toHaveBeenCalledTimes(1)
  })

  it('answers an unknown type with ERROR UNKNOWN_MESSAGE_TYPE carrying the original message, and calls no handler', () => {
    const { spies, handlers } = spyHandlers()
    readyWidget({ eventHandlers: handlers })
    spies.onReady?.mockClear()
    const original = { type: 'UPDATE_ASSOCIATIONS_FAILED', messageId: 'host_9', data: { x: 1 } }
    fromHost(original)
    expect(posts).toHaveLength(1)
    expect(posts[0]?.targetOrigin).toBe(HOST_ORIGIN)
    expect(posts[0]?.message).toEqual({
      type: 'ERROR',
      data: { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: original } },
      messageId: expect.stringMatching(/^w/),
    })
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled()
  })

  it('treats a widget → host type arriving from the host as unknown (UNKNOWN_MESSAGE_TYPE)', () => {
    readyWidget()
    fromHost(sampleMessage('CALL_ENDED'))
    expect(postedTypes(posts)).toEqual(['ERROR'])
  })

  it('never answers an ERROR with an ERROR', () => {
    const { spies, handlers } = spyHandlers()
    readyWidget({ eventHandlers: handlers })
    spies.onReady?.mockClear()
    fromHost({ type: 'ERROR', messageId: 'host_1', data: { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: {} } } })
    fromHost({ type: 'ERROR', messageId: 'host_2', data: { message: 'x' } })
    expect(posts).toHaveLength(0)
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled()
  })

  it.each([
    ['top-level iFrameUrl', { type: 'SET_WIDGET_URL', messageId: 'h1', iFrameUrl: 'https://eu.app.crm.test/path' }],
    ['data.iFrameUrl', { type: 'SET_WIDGET_URL', messageId: 'h1', data: { iFrameUrl: 'https://eu.app.crm.test/path' } }],
    [
      'both (as CallingHost sends it)',
      { type: 'SET_WIDGET_URL', data: { iFrameUrl: 'https://eu.app.crm.test/path' }, messageId: 'h1', iFrameUrl: 'https://eu.app.crm.test/path' },
    ],
  ])('SET_WIDGET_URL with %s retargets to that origin and fires onReady({iFrameUrl})', (_name, message) => {
    const onReady = vi.fn()
    const onEndCall = vi.fn()
    const sdk = readyWidget({ eventHandlers: { onReady, onEndCall } })
    onReady.mockClear()
    fromHost(message)
    expect(onReady).toHaveBeenCalledWith({ iFrameUrl: 'https://eu.app.crm.test/path' }, expect.objectContaining({ type: 'READY' }))
    expect(sdk.hostOrigin).toBe('https://eu.app.crm.test')
    sdk.userAvailable()
    expect(posts.at(-1)?.targetOrigin).toBe('https://eu.app.crm.test')
    // the old origin is no longer trusted
    fromHost(sampleMessage('END_CALL'))
    expect(onEndCall).not.toHaveBeenCalled()
    deliver(sampleMessage('END_CALL'), 'https://eu.app.crm.test', parent)
    expect(onEndCall).toHaveBeenCalledTimes(1)
  })

  it('with hostOrigins, ignores SET_WIDGET_URL to an origin not in the list and keeps trusting only the current host', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onReady = vi.fn()
    const onEndCall = vi.fn()
    const sdk = readyWidget({ eventHandlers: { onReady, onEndCall }, hostOrigins: [HOST_ORIGIN, 'https://eu.app.crm.test'] })
    onReady.mockClear()
    fromHost({ type: 'SET_WIDGET_URL', messageId: 'h1', iFrameUrl: 'https://attacker.test/phish' })
    expect(onReady).not.toHaveBeenCalled()
    expect(sdk.hostOrigin).toBe(HOST_ORIGIN)
    expect(warn).toHaveBeenCalledWith(expect.any(String), expect.stringContaining('SET_WIDGET_URL'))
    sdk.userAvailable()
    expect(posts.at(-1)?.targetOrigin).toBe(HOST_ORIGIN)
    // nothing from the refused origin is dispatched; the listed one still retargets
    deliver(sampleMessage('END_CALL'), 'https://attacker.test', parent)
    expect(onEndCall).not.toHaveBeenCalled()
    fromHost({ type: 'SET_WIDGET_URL', messageId: 'h2', iFrameUrl: 'https://eu.app.crm.test/x' })
    expect(sdk.hostOrigin).toBe('https://eu.app.crm.test')
    expect(onReady).toHaveBeenCalledWith({ iFrameUrl: 'https://eu.app.crm.test/x' }, expect.objectContaining({ type: 'READY' }))
  })

  it('ignores SET_WIDGET_URL to a non-http(s) URL', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onReady = vi.fn()
    const sdk = readyWidget({ eventHandlers: { onReady } })
    onReady.mockClear()
    fromHost({ type: 'SET_WIDGET_URL', messageId: 'h1', iFrameUrl: 'javascript:alert(1)' })
    expect(onReady).not.toHaveBeenCalled()
    expect(sdk.hostOrigin).toBe(HOST_ORIGIN)
  })

  it('keeps dispatching when a handler throws, and reports the error', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const onCreateEngagementFailed = vi.fn()
    readyWidget({
      eventHandlers: {
        FAILED: () => {
          throw new Error('boom')
        },
        onCreateEngagementFailed,
      },
    })
    fromHost(sampleMessage('CREATE_ENGAGEMENT_FAILED'))
    expect(onCreateEngagementFailed).toHaveBeenCalledTimes(1)
    expect(error).toHaveBeenCalled()
  })
})

describe('validation', () => {
  it.each([
    ['DIAL_NUMBER without a phone number', { type: 'DIAL_NUMBER', messageId: 'h', data: { objectId: 1 } }],
    ['CREATE_ENGAGEMENT_SUCCEEDED with a string engagementId', { type: 'CREATE_ENGAGEMENT_SUCCEEDED', messageId: 'h', data: { engagementId: '42' } }],
    ['CREATE_ENGAGEMENT_FAILED without error', { type: 'CREATE_ENGAGEMENT_FAILED', messageId: 'h', data: {} }],
    ['VISIBILITY_CHANGED missing isHidden', { type: 'VISIBILITY_CHANGED', messageId: 'h', data: { isMinimized: true } }],
    ['CALLER_ID_MATCH_SUCCEEDED with a bad callerIdType', { type: 'CALLER_ID_MATCH_SUCCEEDED', messageId: 'h', data: { callerIdMatches: [{ callerIdType: 'DEAL' }] } }],
    ['ENGAGEMENT_CREATED with NaN', { type: 'ENGAGEMENT_CREATED', messageId: 'h', data: { engagementId: Number.NaN } }],
    ['a known type without messageId', { type: 'END_CALL' }],
    ['data with a prototype trick', { type: 'DIAL_NUMBER', messageId: 'h', data: Object.create({ phoneNumber: '+1' }) as object }],
  ])('%s reaches no handler and gets no reply', (_name, message) => {
    const { spies, handlers } = spyHandlers()
    readyWidget({ eventHandlers: handlers })
    spies.onReady?.mockClear()
    fromHost(message)
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled()
    expect(posts).toHaveLength(0)
  })

  it('accepts tolerated real-host shapes: DIAL_NUMBER with objectId 0, no objectType, legacy phone_number, extra keys', () => {
    const onDialNumber = vi.fn()
    readyWidget({ eventHandlers: { onDialNumber } })
    fromHost({ type: 'DIAL_NUMBER', messageId: 'h', data: { phone_number: '+1555', objectId: 0, subjectId: 0, threadId: 'x', brandNew: { a: 1 } } })
    expect(onDialNumber).toHaveBeenCalledTimes(1)
  })

  it('never throws and never calls a handler for ≥1,000 malformed messages from the trusted host', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const uncaught = vi.fn()
    window.addEventListener('error', uncaught)
    const { spies, handlers } = spyHandlers()
    readyWidget({ eventHandlers: handlers })
    spies.onReady?.mockClear()
    let delivered = 0
    fc.assert(
      fc.property(malformedMessage('from-host'), (message) => {
        fromHost(message)
        delivered += 1
      }),
      { numRuns: 1500 },
    )
    window.removeEventListener('error', uncaught)
    expect(delivered).toBeGreaterThanOrEqual(1000)
    for (const spy of Object.values(spies)) expect(spy).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    expect(uncaught).not.toHaveBeenCalled()
    // no reply is ever an answer to an ERROR
    for (const reply of postedOfType(posts, 'ERROR')) {
      const original = (reply.data as { data: { originalMessage: { type?: unknown } } }).data.originalMessage
      expect(original.type).not.toBe('ERROR')
    }
  })
})

describe('deprecations', () => {
  it('warns once per page for publishToChannel, even across instances', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const a = readyWidget()
    const b = readyWidget()
    a.publishToChannel({ externalCallId: 'x', engagementId: 1 })
    a.publishToChannel({ externalCallId: 'x', engagementId: 1 })
    b.publishToChannel({ externalCallId: 'x', engagementId: 1 })
    const hits = warn.mock.calls.filter((c) => c.join(' ').includes('PUBLISH_TO_CHANNEL'))
    expect(hits).toHaveLength(1)
    expect(postedOfType(posts, 'PUBLISH_TO_CHANNEL')).toHaveLength(3)
  })

  it('warns once for outgoingCall phoneNumber and not for toNumber', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const sdk = readyWidget()
    sdk.outgoingCall({ externalCallId: 'x', toNumber: '+1' })
    expect(warn).not.toHaveBeenCalled()
    sdk.outgoingCall({ externalCallId: 'x', phoneNumber: '+1' })
    sdk.outgoingCall({ externalCallId: 'y', phoneNumber: '+2' })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.join(' ')).toMatch(/phoneNumber is deprecated/)
  })

  it('warns once when ENGAGEMENT_CREATED arrives, and still dispatches it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const onEngagementCreated = vi.fn()
    readyWidget({ eventHandlers: { onEngagementCreated } })
    fromHost(sampleMessage('ENGAGEMENT_CREATED'))
    fromHost(sampleMessage('ENGAGEMENT_CREATED'))
    expect(onEngagementCreated).toHaveBeenCalledTimes(2)
    expect(warn.mock.calls.filter((c) => c.join(' ').includes('ENGAGEMENT_CREATED'))).toHaveLength(1)
  })

  it('does not warn about ENGAGEMENT_CREATED to a widget that does not listen for it (the host sends it after every create)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const defaultEventHandler = vi.fn()
    readyWidget({ eventHandlers: { onCreateEngagementSucceeded: vi.fn(), defaultEventHandler } })
    fromHost(sampleMessage('ENGAGEMENT_CREATED'))
    expect(warn.mock.calls.filter((c) => c.join(' ').includes('ENGAGEMENT_CREATED'))).toHaveLength(0)
    expect(defaultEventHandler).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ type: 'ENGAGEMENT_CREATED' }))
  })
})

describe('logging', () => {
  /** The console calls of one level, as arrays of arguments. */
  const calls = (level: 'debug' | 'log') => vi.mocked(console[level]).mock.calls
  const texts = (level: 'debug' | 'log') => calls(level).map((args) => args.filter((a) => typeof a === 'string').join(' '))

  it('with debugMode off, sending and receiving messages writes nothing to the console', () => {
    const onDialNumber = vi.fn()
    const sdk = readyWidget({ debugMode: false, eventHandlers: { onDialNumber } })
    vi.mocked(console.debug).mockClear()
    sdk.callEnded({ externalCallId: 'x', engagementId: 1 })
    sdk.userAvailable()
    fromHost(sampleMessage('DIAL_NUMBER'))
    expect(onDialNumber).toHaveBeenCalledTimes(1)
    expect(posts).toHaveLength(2)
    expect(console.debug).not.toHaveBeenCalled()
    expect(console.log).not.toHaveBeenCalled()
  })

  it('with debugMode off, the handshake, the queue flush and dropped messages go to console.debug (not console.log), without payload objects', () => {
    const sdk = create({ debugMode: false })
    sdk.userAvailable()
    fromHost(syncMessage())
    fromHost({ ...sampleMessage('DIAL_NUMBER'), data: { phoneNumber: 5 } })
    deliver(sampleMessage('END_CALL'), 'https://evil.test', parent)
    sdk.logDebugMessage({ message: 'hello' })
    expect(console.log).not.toHaveBeenCalled()
    const logged = texts('debug')
    expect(logged.some((t) => /handshake complete/.test(t))).toBe(true)
    expect(logged.some((t) => /flushing 1 message/.test(t))).toBe(true)
    expect(logged.some((t) => /dropped DIAL_NUMBER \(invalid/.test(t))).toBe(true)
    expect(logged.some((t) => /unexpected window or origin.*evil\.test/.test(t))).toBe(true)
    expect(logged.some((t) => /hello/.test(t))).toBe(true)
    for (const args of calls('debug')) for (const arg of args) expect(typeof arg === 'string' || typeof arg === 'number').toBe(true)
  })

  it('with debugMode on, logs every message sent and received with console.log (not console.debug), and says so in SYNC_ACK', () => {
    const sdk = create({ debugMode: true, eventHandlers: { onDialNumber: () => undefined } })
    fromHost(syncMessage())
    expect((posts[0]?.message as { debugMode: boolean }).debugMode).toBe(true)
    sdk.callAnswered({ externalCallId: 'x' })
    fromHost(sampleMessage('DIAL_NUMBER'))
    sdk.logDebugMessage({ message: 'hello' })
    expect(console.debug).not.toHaveBeenCalled()
    const logged = calls('log').map((args) => args.slice(1, 3).join(' '))
    expect(logged).toEqual(expect.arrayContaining(['From host SYNC', 'To host SYNC_ACK', 'To host CALL_ANSWERED', 'From host DIAL_NUMBER']))
    expect(texts('log').some((t) => /handshake complete/.test(t))).toBe(true)
    // the message itself is passed by reference for the console to render, never serialized
    const answered = calls('log').find((args) => args[2] === 'CALL_ANSWERED')
    expect(answered?.[3]).toBe(posts.find((p) => (p.message as { type: string }).type === 'CALL_ANSWERED')?.message)
  })
})
