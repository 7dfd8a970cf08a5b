import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { EndStatus, SdkCommand } from './sdk-port.ts'
import { checkSequence } from './testing/protocol-monitor.ts'
import { startFakeCall, typesOf } from './testing/fake-actors.ts'

const T0 = Date.UTC(2026, 0, 15, 9, 30, 0)

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})
afterEach(() => {
  vi.useRealTimers()
})

type Started = ReturnType<typeof startFakeCall>

/** Host ready and user logged in, calls recorded from here on. */
function readyCall(input = {}) {
  const started = startFakeCall({ loggedIn: true, ...input })
  started.actor.send({ type: 'host.ready', engagementId: 0, portalId: 123 })
  return started
}

function dialAndAnswer({ actor }: Started, number = '+15551230000') {
  actor.send({ type: 'dial.input', value: number })
  actor.send({ type: 'call.dial' })
  actor.send({ type: 'host.engagementCreated', engagementId: 101 })
  actor.send({ type: 'line.ringing' })
  actor.send({ type: 'line.answered' })
}

const find = <T extends SdkCommand['type']>(calls: SdkCommand[], type: T) =>
  calls.find((c): c is Extract<SdkCommand, { type: T }> => c.type === type)

test('sends initialized with login, availability, engagementId and size once the host is ready', () => {
  const { actor, sdkCalls } = startFakeCall({ loggedIn: true, available: false, size: { width: 380, height: 520 } })
  expect(sdkCalls).toEqual([])
  actor.send({ type: 'host.ready', engagementId: 42 })
  expect(sdkCalls).toEqual([
    { type: 'initialized', data: { isLoggedIn: true, isAvailable: false, engagementId: 42, sizeInfo: { width: 380, height: 520 } } },
  ])
})

test('sends nothing before onReady; the login done before it is carried by initialized', () => {
  const { actor, sdkCalls } = startFakeCall()
  expect(actor.getSnapshot().value).toBe('signedOut')
  actor.send({ type: 'auth.logIn' })
  actor.send({ type: 'presence.setAvailable', available: false })
  expect(sdkCalls).toEqual([])
  actor.send({ type: 'host.ready' })
  expect(sdkCalls).toEqual([{ type: 'initialized', data: { isLoggedIn: true, isAvailable: false, sizeInfo: { width: 400, height: 600 } } }])
})

test('a second onReady does not send initialized again', () => {
  const { actor, sdkCalls } = readyCall()
  actor.send({ type: 'host.ready' })
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
})

test('login, logout and availability toggles reach the host, availability only when it changes; the login is remembered until logout', () => {
  const { actor, sdkCalls, remembered } = startFakeCall()
  actor.send({ type: 'host.ready' })
  actor.send({ type: 'auth.logIn' })
  actor.send({ type: 'presence.setAvailable', available: true })
  actor.send({ type: 'presence.setAvailable', available: false })
  actor.send({ type: 'presence.setAvailable', available: true })
  actor.send({ type: 'auth.logOut' })
  expect(typesOf(sdkCalls)).toEqual(['initialized', 'userLoggedIn', 'userUnavailable', 'userAvailable', 'userLoggedOut'])
  expect(actor.getSnapshot().value).toBe('signedOut')
  expect(remembered).toEqual([{ loggedIn: true }, { loggedIn: false }])
  expect(checkSequence(sdkCalls)).toEqual([])
})

test('DIAL_NUMBER places the call at once: the user pressed Call in the CRM', () => {
  const { actor, sdkCalls, lineCalls } = readyCall()
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+1 555 010 2000', objectId: 7, objectType: 'CONTACT' } })
  const snap = actor.getSnapshot()
  expect(snap.matches({ signedIn: 'outgoing' })).toBe(true)
  expect(snap.context.notice).toBeNull()
  expect(typesOf(sdkCalls)).toEqual(['initialized', 'outgoingCall'])
  expect(find(sdkCalls, 'outgoingCall')?.data).toMatchObject({ toNumber: '+15550102000', dialingContext: { objectId: 7, objectType: 'CONTACT' } })
  expect(lineCalls).toEqual([{ type: 'line.dial', to: '+15550102000' }])
})

test('with confirmDial, DIAL_NUMBER fills in the number and waits for the user to press Call', () => {
  const { actor, sdkCalls, lineCalls } = readyCall({ confirmDial: true })
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+1 555 010 2000', objectId: 7, objectType: 'CONTACT' } })
  const snap = actor.getSnapshot()
  expect(snap.matches({ signedIn: 'idle' })).toBe(true)
  expect(snap.context.dialInput).toBe('+1 555 010 2000')
  expect(snap.context.notice?.text).toBe('The CRM asked to call +1 555 010 2000. Press Call to dial.')
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
  expect(lineCalls).toEqual([])
})

test('the confirmDial setting changes at run time and is remembered', () => {
  const { actor, sdkCalls, remembered } = readyCall()
  actor.send({ type: 'settings.confirmDial', confirmDial: true })
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15550102000' } })
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
  expect(remembered).toEqual([{ confirmDial: true }])
})

test('a DIAL_NUMBER that is not a phone number is filled in, never dialled', () => {
  const { actor, sdkCalls } = readyCall()
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: 'call me' } })
  expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true)
  expect(actor.getSnapshot().context.dialInput).toBe('call me')
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
})

test('a DIAL_NUMBER with objectId 0 and no objectType is dialled with its whole payload as dialingContext', () => {
  const { actor, sdkCalls } = readyCall()
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15550102000', objectId: 0, subjectId: 0, extra: { threadId: 'T-9' } } })
  expect(find(sdkCalls, 'outgoingCall')?.data).toEqual({
    externalCallId: expect.any(String),
    toNumber: '+15550102000',
    fromNumber: '+16175550100',
    callStartTime: T0,
    createEngagement: true,
    dialingContext: { phoneNumber: '+15550102000', objectId: 0, subjectId: 0, threadId: 'T-9' },
  })
})

test('editing the number away from the DIAL_NUMBER drops its context', () => {
  const { actor, sdkCalls } = readyCall({ confirmDial: true })
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15550102000', objectId: 5 } })
  actor.send({ type: 'dial.input', value: '+15550109999' })
  actor.send({ type: 'call.dial' })
  expect(find(sdkCalls, 'outgoingCall')?.data).not.toHaveProperty('dialingContext')
})

test('a duplicate DIAL_NUMBER during a call is ignored and shown as a note', () => {
  const started = readyCall()
  dialAndAnswer(started, '+15551230000')
  started.actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15559990000' } })
  const snap = started.actor.getSnapshot()
  expect(snap.matches({ signedIn: 'answered' })).toBe(true)
  expect(snap.context.call?.toNumber).toBe('+15551230000')
  expect(snap.context.notice).toEqual({ tone: 'info', text: expect.stringContaining('Ignored a request to call +15559990000') })
  expect(typesOf(started.sdkCalls).filter((t) => t === 'outgoingCall')).toHaveLength(1)
})

test('a full outgoing call sends outgoingCall, callAnswered, callEnded and callCompleted with the call data', () => {
  const started = readyCall()
  const { actor, sdkCalls, lineCalls } = started
  dialAndAnswer(started)
  vi.advanceTimersByTime(12_345)
  actor.send({ type: 'call.hangUp' })
  actor.send({ type: 'wrapUp.notes', notes: '  Asked for a quote.  ' })
  actor.send({ type: 'wrapUp.save' })

  expect(typesOf(sdkCalls)).toEqual(['initialized', 'outgoingCall', 'callAnswered', 'callEnded', 'callCompleted'])
  expect(checkSequence(sdkCalls)).toEqual([])
  const id = find(sdkCalls, 'outgoingCall')?.data.externalCallId
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  expect(find(sdkCalls, 'callAnswered')?.data).toEqual({ externalCallId: id })
  expect(find(sdkCalls, 'callEnded')?.data).toEqual({ externalCallId: id, engagementId: 101, callEndStatus: 'COMPLETED' })
  expect(find(sdkCalls, 'callCompleted')?.data).toEqual({
    externalCallId: id,
    engagementId: 101,
    hideWidget: false,
    engagementProperties: {
      hs_timestamp: String(T0),
      hs_call_body: 'Asked for a quote.',
      hs_call_status: 'COMPLETED',
      hs_call_duration: '12345',
      hs_call_disposition: 'f240bbac-87c9-4f6e-bf70-924b57d47db7', // Connected
      hs_call_direction: 'OUTBOUND',
      hs_call_from_number: '+16175550100',
      hs_call_to_number: '+15551230000',
    },
  })
  expect(lineCalls).toEqual([{ type: 'line.dial', to: '+15551230000' }, { type: 'line.hangUp' }])
  expect(actor.getSnapshot().matches({ signedIn: 'completed' })).toBe(true)
})

test.each<[string, EndStatus, (s: Started) => void]>([
  ['the far end is busy', 'BUSY', ({ actor }) => actor.send({ type: 'line.busy' })],
  ['nobody answers', 'NO_ANSWER', ({ actor }) => actor.send({ type: 'line.noAnswer' })],
  ['the line fails while dialing', 'FAILED', ({ actor }) => actor.send({ type: 'line.failed', reason: 'x' })],
  ['the caller hangs up while ringing out', 'CANCELED', ({ actor }) => (actor.send({ type: 'line.ringing' }), actor.send({ type: 'call.hangUp' }))],
  ['the host ends a call ringing out', 'CANCELED', ({ actor }) => actor.send({ type: 'host.endCall' })],
])('an outgoing call ends %s with callEndStatus %s', (_, status, act) => {
  const started = readyCall()
  started.actor.send({ type: 'dial.input', value: '555-0199' })
  started.actor.send({ type: 'call.dial' })
  act(started)
  expect(started.actor.getSnapshot().matches({ signedIn: 'ended' })).toBe(true)
  expect(find(started.sdkCalls, 'callEnded')?.data.callEndStatus).toBe(status)
  expect(typesOf(started.sdkCalls)).not.toContain('callAnswered')
  expect(checkSequence(started.sdkCalls)).toEqual([])
})

test.each<[string, EndStatus, (s: Started) => void]>([
  ['the user hangs up', 'COMPLETED', ({ actor }) => actor.send({ type: 'call.hangUp' })],
  ['the remote party hangs up', 'COMPLETED', ({ actor }) => actor.send({ type: 'line.remoteHangUp' })],
  ['the host ends it', 'COMPLETED', ({ actor }) => actor.send({ type: 'host.endCall' })],
  ['the line fails', 'FAILED', ({ actor }) => actor.send({ type: 'line.failed', reason: 'dropped' })],
])('an answered call ends when %s with callEndStatus %s', (_, status, act) => {
  const started = readyCall()
  dialAndAnswer(started)
  act(started)
  expect(find(started.sdkCalls, 'callEnded')?.data.callEndStatus).toBe(status)
  expect(checkSequence(started.sdkCalls)).toEqual([])
})

test('an incoming call is announced, shows the caller-ID match and can be answered', () => {
  const { actor, sdkCalls, lineCalls } = readyCall({ myNumber: '+15550001111' })
  actor.send({ type: 'line.incoming', from: '+1 555 123 4567' })
  expect(actor.getSnapshot().matches({ signedIn: 'incoming' })).toBe(true)
  expect(find(sdkCalls, 'incomingCall')?.data).toEqual({
    externalCallId: expect.any(String),
    fromNumber: '+15551234567',
    toNumber: '+15550001111',
    callStartTime: T0,
    createEngagement: true,
  })
  actor.send({ type: 'host.callerIdMatched', matches: [{ callerIdType: 'CONTACT', firstName: 'Ada', lastName: 'Lovelace' }] })
  expect(actor.getSnapshot().context.call?.callerId).toEqual({
    status: 'matched',
    matches: [{ callerIdType: 'CONTACT', firstName: 'Ada', lastName: 'Lovelace' }],
  })
  actor.send({ type: 'call.answer' })
  actor.send({ type: 'call.hangUp' })
  actor.send({ type: 'wrapUp.save' })
  expect(lineCalls).toEqual([{ type: 'line.answer' }, { type: 'line.hangUp' }])
  const completed = find(sdkCalls, 'callCompleted')?.data
  expect(completed?.engagementProperties).not.toHaveProperty('hs_call_title')
  expect(completed?.engagementProperties).toMatchObject({
    hs_call_direction: 'INBOUND',
    hs_call_from_number: '+15551234567',
    hs_call_to_number: '+15550001111',
  })
  expect(checkSequence(sdkCalls)).toEqual([])
})

test.each<[string, EndStatus, (s: Started) => void]>([
  ['the user declines', 'REJECTED', ({ actor }) => actor.send({ type: 'call.reject' })],
  ['the caller gives up', 'MISSED', ({ actor }) => actor.send({ type: 'line.callerGaveUp' })],
  ['the host ends it', 'REJECTED', ({ actor }) => actor.send({ type: 'host.endCall' })],
])('an unanswered incoming call ends when %s with callEndStatus %s', (_, status, act) => {
  const started = readyCall()
  started.actor.send({ type: 'line.incoming', from: '+15551234567' })
  act(started)
  expect(find(started.sdkCalls, 'callEnded')?.data.callEndStatus).toBe(status)
  expect(checkSequence(started.sdkCalls)).toEqual([])
})

test('an engagement creation failure is shown while the call goes on', () => {
  const { actor, sdkCalls } = readyCall()
  actor.send({ type: 'dial.input', value: '+15551230000' })
  actor.send({ type: 'call.dial' })
  actor.send({ type: 'host.engagementCreateFailed', message: 'Portal is read-only' })
  expect(actor.getSnapshot().context.call?.engagement).toEqual({ status: 'failed', message: 'Portal is read-only' })
  actor.send({ type: 'line.answered' })
  actor.send({ type: 'call.hangUp' })
  actor.send({ type: 'wrapUp.save' })
  expect(typesOf(sdkCalls)).toEqual(['initialized', 'outgoingCall', 'callAnswered', 'callEnded', 'callCompleted'])
  expect(find(sdkCalls, 'callEnded')?.data.engagementId).toBe(0)
  expect(find(sdkCalls, 'callCompleted')?.data).not.toHaveProperty('engagementId')
})

test('an engagement id that arrives with no call waiting for one is not stored', () => {
  const { actor } = readyCall()
  actor.send({ type: 'host.engagementCreated', engagementId: 9 })
  expect(actor.getSnapshot().context.call).toBeNull()
})

test('dialing an invalid number asks the host to alert and stays on the dial pad', () => {
  const { actor, sdkCalls, lineCalls } = readyCall()
  actor.send({ type: 'dial.input', value: 'call mom' })
  actor.send({ type: 'call.dial' })
  expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true)
  expect(sdkCalls.at(-1)).toEqual({ type: 'sendError', data: { message: 'Cannot dial “call mom”: not a valid phone number.' } })
  expect(lineCalls).toEqual([])
})

test('pressing Call with an empty number only shows a hint', () => {
  const { actor, sdkCalls } = readyCall()
  actor.send({ type: 'call.dial' })
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
  expect(actor.getSnapshot().context.notice).toEqual({ tone: 'error', text: 'Enter a number to call.' })
})

test('resizeWidget is sent after onReady and only when the size changes', () => {
  const { actor, sdkCalls } = startFakeCall({ loggedIn: true })
  actor.send({ type: 'ui.resized', width: 400, height: 500 })
  actor.send({ type: 'host.ready' })
  actor.send({ type: 'ui.resized', width: 400, height: 500 })
  actor.send({ type: 'ui.resized', width: 400, height: 640 })
  actor.send({ type: 'ui.resized', width: 400, height: 640 })
  expect(sdkCalls).toEqual([
    { type: 'initialized', data: { isLoggedIn: true, isAvailable: true, sizeInfo: { width: 400, height: 500 } } },
    { type: 'resizeWidget', data: { width: 400, height: 640 } },
  ])
})

test('after callCompleted the widget returns to the dial pad when the host confirms the update', () => {
  const started = readyCall()
  dialAndAnswer(started)
  started.actor.send({ type: 'call.hangUp' })
  started.actor.send({ type: 'wrapUp.save' })
  started.actor.send({ type: 'host.engagementUpdated', engagementId: 101 })
  const snap = started.actor.getSnapshot()
  expect(snap.matches({ signedIn: 'idle' })).toBe(true)
  expect(snap.context.call).toBeNull()
  expect(snap.context.lastCall).toMatchObject({ engagementId: 101, update: { status: 'saved' } })
})

test('after callCompleted the widget returns to the dial pad on its own and still records a late update failure', () => {
  const started = readyCall()
  dialAndAnswer(started)
  started.actor.send({ type: 'call.hangUp' })
  started.actor.send({ type: 'wrapUp.save' })
  vi.advanceTimersByTime(4000)
  expect(started.actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true)
  started.actor.send({ type: 'host.engagementUpdateFailed', message: 'Engagement 101 is locked' })
  expect(started.actor.getSnapshot().context.lastCall?.update).toEqual({ status: 'failed', message: 'Engagement 101 is locked' })
})

test('a DIAL_NUMBER right after callCompleted places the next call without a reload', () => {
  const started = readyCall()
  dialAndAnswer(started)
  started.actor.send({ type: 'call.hangUp' })
  started.actor.send({ type: 'wrapUp.save' })
  started.actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15552220000' } })
  expect(started.actor.getSnapshot().matches({ signedIn: 'outgoing' })).toBe(true)
  expect(started.actor.getSnapshot().context.lastCall?.update).toEqual({ status: 'pending' })
  const ids = started.sdkCalls.filter((c) => c.type === 'outgoingCall').map((c) => c.data.externalCallId)
  expect(ids).toHaveLength(2)
  expect(new Set(ids).size).toBe(2)
  expect(checkSequence(started.sdkCalls)).toEqual([])
})

test('mute, hold and keypad digits go to the line and never to the host', () => {
  const started = readyCall()
  dialAndAnswer(started)
  const { actor, lineCalls, sdkCalls } = started
  actor.send({ type: 'call.toggleMute' })
  actor.send({ type: 'call.toggleHold' })
  actor.send({ type: 'call.dtmf', digit: '5' })
  actor.send({ type: 'call.dtmf', digit: 'x' })
  actor.send({ type: 'call.dtmf', digit: '#' })
  expect(lineCalls.slice(1)).toEqual([
    { type: 'line.setMute', muted: true },
    { type: 'line.setHold', held: true },
    { type: 'line.sendDigit', digit: '5' },
    { type: 'line.sendDigit', digit: '#' },
  ])
  expect(actor.getSnapshot().context.call).toMatchObject({ muted: true, held: true, digits: '5#' })
  expect(typesOf(sdkCalls)).toEqual(['initialized', 'outgoingCall', 'callAnswered'])
})

test('a transfer sends callTransferred, then ends the call as COMPLETED', () => {
  const started = readyCall()
  dialAndAnswer(started)
  started.actor.send({ type: 'call.transfer', to: 'nobody' })
  expect(started.actor.getSnapshot().matches({ signedIn: 'answered' })).toBe(true)
  started.actor.send({ type: 'call.transfer', to: '+1 555 000 7777' })
  expect(typesOf(started.sdkCalls).slice(-3)).toEqual(['sendError', 'callTransferred', 'callEnded'])
  expect(find(started.sdkCalls, 'callEnded')?.data.callEndStatus).toBe('COMPLETED')
  expect(started.lineCalls.at(-1)).toEqual({ type: 'line.transfer', to: '+15550007777' })
  expect(checkSequence(started.sdkCalls)).toEqual([])
})

test('a DIAL_NUMBER while logged out is kept for after login', () => {
  const { actor, sdkCalls } = startFakeCall()
  actor.send({ type: 'host.ready' })
  actor.send({ type: 'host.dialNumber', data: { phoneNumber: '+15553334444' } })
  expect(actor.getSnapshot().context.notice?.text).toContain('Log in to call')
  actor.send({ type: 'auth.logIn' })
  actor.send({ type: 'call.dial' })
  expect(typesOf(sdkCalls)).toEqual(['initialized', 'userLoggedIn', 'outgoingCall'])
})

test('an incoming call while unavailable is declined on the line and never reaches the host', () => {
  const { actor, sdkCalls, lineCalls } = readyCall({ available: false })
  actor.send({ type: 'line.incoming', from: '+15551234567' })
  expect(actor.getSnapshot().matches({ signedIn: 'idle' })).toBe(true)
  expect(lineCalls).toEqual([{ type: 'line.reject' }])
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
  expect(actor.getSnapshot().context.notice?.text).toBe('Missed a call from +15551234567: you are unavailable.')
})

test('without a host a call runs locally, and a host that connects mid-call hears nothing about it', () => {
  const { actor, sdkCalls } = startFakeCall({ loggedIn: true })
  actor.send({ type: 'dial.input', value: '+15551230000' })
  actor.send({ type: 'call.dial' })
  expect(actor.getSnapshot().context.notice?.text).toContain('will not be logged')
  actor.send({ type: 'host.ready' })
  actor.send({ type: 'line.answered' })
  actor.send({ type: 'call.hangUp' })
  actor.send({ type: 'wrapUp.save' })
  expect(typesOf(sdkCalls)).toEqual(['initialized'])
})

test('the visibility reported by the host is kept for display', () => {
  const { actor } = readyCall()
  actor.send({ type: 'host.visibilityChanged', isMinimized: true, isHidden: false })
  expect(actor.getSnapshot().context.visibility).toEqual({ isMinimized: true, isHidden: false })
})

test('simulator controls are forwarded to the line', () => {
  const { actor, lineCalls } = readyCall()
  actor.send({ type: 'sim.configure', settings: { outcome: 'busy' } })
  actor.send({ type: 'sim.incoming', from: '+15557770000' })
  actor.send({ type: 'sim.remoteHangUp' })
  expect(lineCalls).toEqual([
    { type: 'line.configure', settings: { outcome: 'busy' } },
    { type: 'line.simulateIncoming', from: '+15557770000' },
    { type: 'line.simulateRemoteHangUp' },
  ])
})
