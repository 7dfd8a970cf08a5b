import { Constants } from '@hubspot/calling-extensions-sdk'
import fc from 'fast-check'
import {
  CATALOGUE,
  MessageType,
  callEndStatus,
  callStatus,
  callerIdTypes,
  deprecationOf,
  errorType,
  getEntry,
  iframeLocation,
  validateMessage,
  type FromHostType,
  type FromWidgetType,
  type HostSendableType,
  type OnCallEnded,
  type Payload,
} from './catalogue.ts'
import type { CallingHost } from './host.ts'
import { malformedMessage } from './testing/malformed.ts'
import { sampleMessage } from './testing/samples.ts'
import type { EventHandlers } from './widget.ts'

const ALL_TYPES = Object.keys(CATALOGUE) as MessageType[]
const acceptedFrom = (type: MessageType) => CATALOGUE[type].acceptedFrom as readonly string[]

describe('coverage', () => {
  it('lists every message type of the spec and of the npm package', () => {
    const required = [
      'SYNC', 'SYNC_ACK', 'READY', 'INITIALIZED', 'LOGGED_IN', 'LOGGED_OUT', 'USER_AVAILABLE', 'USER_UNAVAILABLE',
      'INCOMING_CALL', 'OUTGOING_CALL_STARTED', 'CALL_ANSWERED', 'CALL_ENDED', 'CALL_COMPLETED', 'CALL_TRANSFERRED',
      'NAVIGATE_TO_RECORD', 'NAVIGATE_TO_RECORD_FAILED', 'FINALIZE_ENGAGEMENT', 'FINALIZE_ENGAGEMENT_SUCCEEDED',
      'FINALIZE_ENGAGEMENT_FAILED', 'PUBLISH_TO_CHANNEL', 'PUBLISH_TO_CHANNEL_SUCCEEDED', 'PUBLISH_TO_CHANNEL_FAILED',
      'SET_WIDGET_URL', 'SET_WIDGET_URL_FAILED', 'CALL_DATA', 'END_CALL', 'SET_CALL_STATE', 'INITIATE_CALL_ID_SUCCEEDED',
      'INITIATE_CALL_ID_FAILED', 'FAILED', 'VISIBILITY_CHANGED', 'CALLER_ID_MATCH_SUCCEEDED', 'CALLER_ID_MATCH_FAILED',
      'CREATE_ENGAGEMENT_SUCCEEDED', 'CREATE_ENGAGEMENT_FAILED', 'UPDATE_ENGAGEMENT_SUCCEEDED', 'UPDATE_ENGAGEMENT_FAILED',
      'ENGAGEMENT_CREATED', 'ERROR', 'RESIZE_WIDGET', 'DIAL_NUMBER',
    ]
    expect(ALL_TYPES.sort()).toEqual([...new Set(required)].sort())
    const npmTypes = Object.keys(Constants.messageType).filter((t) => t !== 'SYNC_ACK_FAILED' && t !== 'UNLOADING')
    for (const type of npmTypes) expect(ALL_TYPES).toContain(type)
  })

  it('maps types to the same eventHandlers names as the npm package', () => {
    const ours = Object.fromEntries(
      ALL_TYPES.flatMap((t) => {
        const entry = CATALOGUE[t]
        return 'handler' in entry ? [[t, entry.handler]] : []
      }),
    )
    expect(ours).toEqual(Constants.messageHandlerNames)
  })

  it('marks every npm widget → host event as widget-to-host with a CallingExtensions method', () => {
    for (const type of Object.keys(Constants.thirdPartyToHostEvents) as MessageType[]) {
      expect(CATALOGUE[type].direction).toBe('widget-to-host')
      expect(CATALOGUE[type]).toHaveProperty('method')
    }
  })

  it('keys each entry by its own type, and MessageType mirrors the keys', () => {
    for (const type of ALL_TYPES) {
      expect(CATALOGUE[type].type).toBe(type)
      expect(MessageType[type]).toBe(type)
    }
  })

  it('exports the enums of the wire protocol', () => {
    expect(Object.values(callEndStatus)).toEqual(['COMPLETED', 'FAILED', 'CANCELED', 'BUSY', 'NO_ANSWER', 'REJECTED', 'MISSED'])
    expect(Object.values(callStatus).sort()).toEqual(Object.values(Constants.callStatus).sort())
    expect(callerIdTypes).toEqual(Constants.callerIdTypes)
    expect(errorType).toEqual(Constants.errorType)
    expect(Object.values(iframeLocation)).toEqual(['widget', 'remote', 'window'])
  })

  it('finds entries safely for prototype names', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(getEntry(name)).toBeUndefined()
    expect(getEntry('DIAL_NUMBER')).toBe(CATALOGUE.DIAL_NUMBER)
  })
})

describe('validateMessage', () => {
  it.each(ALL_TYPES)('accepts the sample %s from its sender and calls it unknown from the other side', (type) => {
    const message = sampleMessage(type)
    for (const side of ['widget', 'host'] as const) {
      const result = validateMessage(message, side === 'widget' ? 'from-widget' : 'from-host')
      if (acceptedFrom(type).includes(side)) {
        expect(result).toMatchObject({ ok: true, entry: CATALOGUE[type] })
        if (result.ok) expect(result.message).toBe(message)
      } else {
        expect(result).toEqual({ ok: false, reason: 'unknown type', type })
      }
    }
  })

  it.each([
    ['null', null, 'not an object'],
    ['undefined', undefined, 'not an object'],
    ['a number', 42, 'not an object'],
    ['a string', 'SYNC', 'not an object'],
    ['an array', [{ type: 'SYNC' }], 'not an object'],
    ['an instance of a class', new Date(), 'not an object'],
    ['inherited fields', Object.create(sampleMessage('END_CALL')) as unknown, 'not an object'],
    ['a non-string type', { type: 5, messageId: 'm' }, 'missing type'],
    ['no messageId', { type: 'END_CALL' }, 'missing messageId'],
    ['an empty messageId', { type: 'END_CALL', messageId: '' }, 'missing messageId'],
    ['a NaN messageId', { type: 'END_CALL', messageId: Number.NaN }, 'missing messageId'],
    ['an object messageId', { type: 'END_CALL', messageId: {} }, 'missing messageId'],
    ['type "__proto__"', { type: '__proto__', messageId: 'm' }, 'unknown type'],
    ['type "constructor"', { type: 'constructor', messageId: 'm' }, 'unknown type'],
  ])('rejects %s', (_name, raw, reason) => {
    expect(validateMessage(raw, 'from-host')).toMatchObject({ ok: false, reason })
    expect(validateMessage(raw, 'from-widget')).toMatchObject({ ok: false, reason })
  })

  it('never throws, even on a Proxy whose traps throw', () => {
    const hostile = new Proxy({}, {
      get() {
        throw new Error('trap')
      },
      getPrototypeOf() {
        throw new Error('trap')
      },
    })
    expect(validateMessage(hostile, 'from-host')).toMatchObject({ ok: false, reason: expect.stringContaining('validation failed') })
  })

  it('clips huge type names in the result', () => {
    const result = validateMessage({ type: 'X'.repeat(1_000_000), messageId: 'm' }, 'from-widget')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.type?.length).toBeLessThanOrEqual(121)
  })

  it('accepts a null-prototype message (a plain object of another realm shape)', () => {
    const message = Object.assign(Object.create(null) as Record<string, unknown>, sampleMessage('CALL_ANSWERED'))
    expect(validateMessage(message, 'from-widget').ok).toBe(true)
  })

  it.each([
    ['DIAL_NUMBER with objectId/subjectId 0, no objectType', 'from-host', { type: 'DIAL_NUMBER', messageId: 'h', data: { phoneNumber: '+1', objectId: 0, subjectId: 0 } }],
    ['DIAL_NUMBER with only the legacy phone_number', 'from-host', { type: 'DIAL_NUMBER', messageId: 'h', data: { phone_number: '+1' } }],
    ['DIAL_NUMBER with null optional fields and unknown keys', 'from-host', { type: 'DIAL_NUMBER', messageId: 'h', data: { phoneNumber: '+1', objectType: null, threadId: 5, surprise: [1] } }],
    ['a numeric messageId (npm-style ids are strings, callers may set numbers)', 'from-widget', { type: 'USER_AVAILABLE', messageId: 1700000000000 }],
    ['extra top-level fields', 'from-widget', { type: 'CALL_ANSWERED', messageId: 'w', data: { externalCallId: 'x' }, extra: true }],
    ['INITIALIZED without data', 'from-widget', { type: 'INITIALIZED', messageId: 'w' }],
    ['INITIALIZED with undefined data', 'from-widget', { type: 'INITIALIZED', messageId: 'w', data: undefined }],
    ['CALL_COMPLETED with a string engagementId', 'from-widget', { type: 'CALL_COMPLETED', messageId: 'w', data: { externalCallId: 'x', engagementId: '42' } }],
    ['SET_WIDGET_URL with top-level iFrameUrl', 'from-widget', { type: 'SET_WIDGET_URL', messageId: 'w', iFrameUrl: 'https://a.test' }],
    ['SET_WIDGET_URL from the host', 'from-host', { type: 'SET_WIDGET_URL', messageId: 'h', iFrameUrl: 'https://a.test' }],
    ['a SYNC_ACK as the npm widget sends it (no HubSpot fields)', 'from-widget', { type: 'SYNC_ACK', messageId: '1700000000000_1700000000001', hostUrl: 'https://a.test', debugMode: false, version: '0.9.7-beta.0', iFrameUrl: 'https://w.test' }],
    ['a SYNC without HubSpot fields (npm host mode)', 'from-host', { type: 'SYNC', messageId: '1_2', hostUrl: 'https://a.test' }],
    ['the UNKNOWN_MESSAGE_TYPE error reply', 'from-widget', { type: 'ERROR', messageId: 'w', data: { type: 'UNKNOWN_MESSAGE_TYPE', data: { originalMessage: { type: 'X' } } } }],
    ['a custom object type id', 'from-widget', { type: 'NAVIGATE_TO_RECORD', messageId: 'w', data: { objectCoordinates: { portalId: 1, objectId: 2, objectTypeId: '2-123456' } } }],
  ] as const)('tolerates %s', (_name, side, raw) => {
    expect(validateMessage(raw, side)).toMatchObject({ ok: true })
  })

  it.each([
    ['an infinite engagementId', 'from-widget', { type: 'CALL_ENDED', messageId: 'w', data: { externalCallId: 'x', engagementId: Number.POSITIVE_INFINITY } }, 'engagementId'],
    ['an unknown callEndStatus', 'from-widget', { type: 'CALL_ENDED', messageId: 'w', data: { externalCallId: 'x', engagementId: 1, callEndStatus: 'HUNG_UP' } }, 'callEndStatus'],
    ['an unknown openIn', 'from-widget', { type: 'NAVIGATE_TO_RECORD', messageId: 'w', data: { objectCoordinates: { portalId: 1, objectId: 2, objectTypeId: '0-1' }, openIn: 'POPUP' } }, 'openIn'],
    ['a malformed objectTypeId', 'from-widget', { type: 'NAVIGATE_TO_RECORD', messageId: 'w', data: { objectCoordinates: { portalId: 1, objectId: 2, objectTypeId: 'contact' } } }, 'objectTypeId'],
    ['an unknown iframeLocation', 'from-host', { type: 'SYNC', messageId: 'h', hostUrl: 'https://a.test', iframeLocation: 'sidebar' }, 'iframeLocation'],
    ['a SYNC without hostUrl', 'from-host', { type: 'SYNC', messageId: 'h' }, 'hostUrl'],
    ['SET_WIDGET_URL without any iFrameUrl', 'from-widget', { type: 'SET_WIDGET_URL', messageId: 'w', data: {} }, 'iFrameUrl'],
    ['INCOMING_CALL without toNumber', 'from-widget', { type: 'INCOMING_CALL', messageId: 'w', data: { externalCallId: 'x', fromNumber: '+1' } }, 'toNumber'],
    ['a negative resize', 'from-widget', { type: 'RESIZE_WIDGET', messageId: 'w', data: { width: -1, height: 2 } }, 'width'],
    ['a non-string engagement property', 'from-widget', { type: 'CALL_COMPLETED', messageId: 'w', data: { externalCallId: 'x', engagementProperties: { hs_call_body: { html: 1 } } } }, 'engagementProperties'],
  ] as const)('rejects %s and names the field', (_name, side, raw, field) => {
    const result = validateMessage(raw, side)
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining(field) })
    expect((result as { reason: string }).reason).toMatch(/^invalid: /)
  })

  it('returns deprecation notes for deprecated types and the outgoingCall phoneNumber field', () => {
    const deprecatedTypes = ALL_TYPES.filter((t) => 'deprecated' in CATALOGUE[t]).sort()
    expect(deprecatedTypes).toEqual(['ENGAGEMENT_CREATED', 'PUBLISH_TO_CHANNEL', 'PUBLISH_TO_CHANNEL_FAILED', 'PUBLISH_TO_CHANNEL_SUCCEEDED'])
    for (const type of deprecatedTypes) {
      const side = acceptedFrom(type).includes('widget') ? 'from-widget' : 'from-host'
      expect(validateMessage(sampleMessage(type), side)).toMatchObject({ ok: true, deprecation: expect.stringMatching(/deprecated/) })
    }
    const legacy = { type: 'OUTGOING_CALL_STARTED', messageId: 'w', data: { externalCallId: 'x', phoneNumber: '+1' } }
    expect(validateMessage(legacy, 'from-widget')).toMatchObject({ ok: true, deprecation: expect.stringMatching(/phoneNumber/) })
    expect(validateMessage(sampleMessage('OUTGOING_CALL_STARTED'), 'from-widget')).not.toHaveProperty('deprecation')
    expect(deprecationOf('OUTGOING_CALL_STARTED', JSON.parse('{"__proto__":{"phoneNumber":"1"}}'))).toBeUndefined()
  })

  it('never throws on arbitrary values and rejects every malformed message (property, both sides)', () => {
    let runs = 0
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withTypedArray: true }), (raw) => {
        runs += 1
        expect(() => validateMessage(raw, 'from-widget')).not.toThrow()
        expect(() => validateMessage(raw, 'from-host')).not.toThrow()
      }),
      { numRuns: 1000 },
    )
    for (const side of ['from-widget', 'from-host'] as const) {
      fc.assert(
        fc.property(malformedMessage(side), (raw) => {
          runs += 1
          expect(validateMessage(raw, side).ok).toBe(false)
        }),
        { numRuns: 1000 },
      )
    }
    expect(runs).toBe(3000)
  })
})

describe('types', () => {
  it('derives payload and handler types from the catalogue', () => {
    expectTypeOf<Payload<'CALL_ENDED'>>().toEqualTypeOf<OnCallEnded>()
    expectTypeOf<Payload<'CALL_ENDED'>['engagementId']>().toEqualTypeOf<number>()
    expectTypeOf<Payload<'DIAL_NUMBER'>['objectId']>().toEqualTypeOf<string | number | null | undefined>()
    expectTypeOf<'SYNC_ACK'>().toExtend<FromWidgetType>()
    expectTypeOf<'DIAL_NUMBER'>().toExtend<FromHostType>()
    expectTypeOf<'SYNC'>().not.toExtend<HostSendableType>()
    expectTypeOf<NonNullable<EventHandlers['onDialNumber']>>().parameter(0).toEqualTypeOf<Payload<'DIAL_NUMBER'>>()
    expectTypeOf<CallingHost['dialNumber']>().parameter(0).toEqualTypeOf<Payload<'DIAL_NUMBER'>>()
    // interfaces (not only type aliases) are accepted as payloads
    interface MyEnd {
      externalCallId: string
      engagementId: number
    }
    expectTypeOf<MyEnd>().toExtend<OnCallEnded>()
    // @ts-expect-error CALL_ENDED needs engagementId
    const missing: OnCallEnded = { externalCallId: 'x' }
    expect(missing).toBeDefined()
  })
})
