import { expect, test } from 'vitest'
import {
  parseCallerIdMatched,
  parseDialNumber,
  parseEngagementCreateFailed,
  parseEngagementCreated,
  parseReady,
  parseVisibilityChanged,
} from './host-events.ts'

test('DIAL_NUMBER keeps known fields, primitive extras, and tolerates objectId 0 and no objectType', () => {
  const parsed = parseDialNumber({
    phoneNumber: ' +1 555 010 2000 ',
    objectId: 0,
    subjectId: 0,
    portalId: 123,
    calleeInfo: { calleeId: 51, calleeObjectTypeId: '0-1' },
    phone_number: '+1 555 010 2000',
    threadId: 'T-1',
    nested: { dropped: true },
  })
  expect(parsed).toEqual({
    ok: true,
    event: {
      type: 'host.dialNumber',
      data: {
        phoneNumber: '+1 555 010 2000',
        objectId: 0,
        subjectId: 0,
        portalId: 123,
        calleeInfo: { calleeId: 51, calleeObjectTypeId: '0-1' },
        extra: { phone_number: '+1 555 010 2000', threadId: 'T-1' },
      },
    },
  })
})

test('DIAL_NUMBER accepts the legacy phone_number alone', () => {
  expect(parseDialNumber({ phone_number: '+15550102000' })).toMatchObject({ ok: true, event: { data: { phoneNumber: '+15550102000' } } })
})

test.each([[undefined], [null], ['+1555'], [{}], [{ phoneNumber: '   ' }], [{ phoneNumber: 15550102000 }]])(
  'DIAL_NUMBER %j without a usable phone number is refused with a reason',
  (data) => {
    const parsed = parseDialNumber(data)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.reason).toMatch(/DIAL_NUMBER/)
  },
)

test('CREATE_ENGAGEMENT_SUCCEEDED needs a numeric engagementId', () => {
  expect(parseEngagementCreated({ engagementId: 101 })).toEqual({ ok: true, event: { type: 'host.engagementCreated', engagementId: 101 } })
  expect(parseEngagementCreated({ engagementId: '101' }).ok).toBe(false)
  expect(parseEngagementCreated(undefined).ok).toBe(false)
})

test('a failure reply shows the host error message, or a default when there is none', () => {
  expect(parseEngagementCreateFailed({ error: { message: ' Portal is read-only ' } })).toEqual({
    ok: true,
    event: { type: 'host.engagementCreateFailed', message: 'Portal is read-only' },
  })
  expect(parseEngagementCreateFailed({})).toEqual({
    ok: true,
    event: { type: 'host.engagementCreateFailed', message: 'The host could not create the call engagement.' },
  })
})

test('caller-ID matches keep contacts and companies with a name and drop the rest', () => {
  const parsed = parseCallerIdMatched({
    callerIdMatches: [
      { callerIdType: 'CONTACT', firstName: 'Ada', lastName: null, email: 'ada@example.com', objectCoordinates: {} },
      { callerIdType: 'CONTACT', firstName: '', lastName: '' },
      { callerIdType: 'COMPANY', name: 'Acme' },
      { callerIdType: 'DEAL', name: 'Big deal' },
      'junk',
    ],
  })
  expect(parsed).toEqual({
    ok: true,
    event: {
      type: 'host.callerIdMatched',
      matches: [
        { callerIdType: 'CONTACT', firstName: 'Ada', lastName: '', email: 'ada@example.com' },
        { callerIdType: 'COMPANY', name: 'Acme' },
      ],
    },
  })
  expect(parseCallerIdMatched({}).ok).toBe(false)
})

test('onReady keeps only well-typed SYNC fields', () => {
  expect(parseReady({ portalId: 123, userId: 'x', ownerId: 9, engagementId: 0, iframeLocation: 'remote', hostUrl: 'http://h' })).toEqual({
    ok: true,
    event: { type: 'host.ready', portalId: 123, ownerId: 9, engagementId: 0, iframeLocation: 'remote' },
  })
  expect(parseReady(undefined)).toEqual({ ok: true, event: { type: 'host.ready' } })
})

test('VISIBILITY_CHANGED needs at least one flag', () => {
  expect(parseVisibilityChanged({ isHidden: true })).toEqual({
    ok: true,
    event: { type: 'host.visibilityChanged', isMinimized: false, isHidden: true },
  })
  expect(parseVisibilityChanged({}).ok).toBe(false)
})
