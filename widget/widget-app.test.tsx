import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { CallActor } from './call-context.ts'
import { callMachine, type CallMachineInput } from './call.machine.ts'
import { createSimulatedLine, DEFAULT_LINE_SETTINGS, type LineSettings } from './phone-line.ts'
import { createSdkBridge, type WidgetHandlers } from './sdk-bridge.ts'
import type { SdkCommand } from './sdk-port.ts'
import { fakeSdk } from './testing/fake-sdk.ts'
import { checkSequence } from './testing/protocol-monitor.ts'
import { typesOf } from './testing/fake-actors.ts'
import { WidgetApp } from './widget-app.tsx'

const T0 = Date.UTC(2026, 0, 15, 9, 30, 0)

// Typing key by key through React is slow on a busy 2-core machine; this is
// a hang guard, not a speed assertion.
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
  // Testing Library drains pending work with setTimeout(0) and advances fake
  // timers only when it sees Jest's; point it at Vitest's clock instead.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

function renderWidget(opts: { input?: CallMachineInput; line?: Partial<LineSettings>; problems?: string[] } = {}) {
  const sdk = fakeSdk()
  const log = vi.fn()
  const settings = { ...DEFAULT_LINE_SETTINGS, ringAfterMs: 200, answerAfterMs: 500, ...opts.line }
  const machine = callMachine.provide({
    actors: {
      sdkBridge: createSdkBridge(sdk.connect, log),
      phoneLine: createSimulatedLine({ settings, scheduledIncoming: null }),
    },
  })
  render(
    <CallActor.Provider logic={machine} options={{ input: opts.input ?? {} }}>
      <WidgetApp simulator={{ settings, incomingFrom: '+15551234567', problems: opts.problems ?? [] }} />
    </CallActor.Provider>,
  )
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
  /** Plays the host: calls one of the widget's SDK handlers. */
  const host = (fn: (h: WidgetHandlers) => void) => act(() => fn(sdk.host()))
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms))
  const status = () => screen.getByRole('status', { name: 'Call status' })
  return { sdk, log, user, host, wait, status }
}

function renderReadyWidget(opts: Parameters<typeof renderWidget>[0] = {}) {
  const w = renderWidget({ ...opts, input: { loggedIn: true, ...opts.input } })
  w.host((h) => h.onReady({ portalId: 123, userId: 7, engagementId: 0 }))
  return w
}

const find = <T extends SdkCommand['type']>(calls: SdkCommand[], type: T) =>
  calls.find((c): c is Extract<SdkCommand, { type: T }> => c.type === type)

test('typing a number and pressing Enter places the call', async () => {
  const { sdk, user, status } = renderReadyWidget()
  expect(status()).toHaveTextContent('Ready')
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '+1 555 123 0000{Enter}')
  expect(status()).toHaveTextContent('Dialing…')
  expect(find(sdk.calls, 'outgoingCall')?.data).toMatchObject({ toNumber: '+15551230000', fromNumber: '+16175550100', createEngagement: true })
})

test('the keypad buttons, named by digit, build the number and the last digit can be deleted', async () => {
  const { user } = renderReadyWidget()
  const pad = screen.getByRole('group', { name: 'Dial pad keys' })
  for (const key of ['5', '5', '5', '0', '1', '#']) await user.click(within(pad).getByRole('button', { name: key }))
  await user.click(screen.getByRole('button', { name: 'Delete last digit' }))
  expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('55501')
})

test('a full call: DIAL_NUMBER places it, answer, hang up, wrap-up and save send the exact SDK sequence', async () => {
  const { sdk, user, host, wait, status } = renderWidget()
  host((h) => h.onReady({ portalId: 123, userId: 7 }))
  expect(screen.getByRole('heading', { name: 'You are logged out' })).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Log in' }))

  host((h) => h.onDialNumber({ phoneNumber: '+15550102000', objectId: 51, objectType: 'CONTACT', portalId: 123 }))
  expect(status()).toHaveTextContent('Dialing…')
  expect(typesOf(sdk.calls)).toEqual(['initialized', 'userLoggedIn', 'outgoingCall'])
  host((h) => h.onCreateEngagementSucceeded({ engagementId: 101 }))
  expect(screen.getByText('Logged in the CRM (engagement 101)')).toBeInTheDocument()
  await wait(200)
  expect(status()).toHaveTextContent('Ringing…')
  await wait(300)
  expect(status()).toHaveTextContent('In call 00:00')
  await wait(12_000)
  expect(status()).toHaveTextContent('In call 00:12')

  await user.click(screen.getByRole('button', { name: 'Hang up' }))
  expect(status()).toHaveTextContent('Call ended — wrap up')
  await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'Wants a demo next week')
  expect(screen.getByRole('combobox', { name: 'Disposition' })).toHaveValue('CONNECTED')
  await user.selectOptions(screen.getByRole('combobox', { name: 'Disposition' }), 'Left voicemail')
  await user.click(screen.getByRole('button', { name: 'Save' }))
  expect(status()).toHaveTextContent('Saving call…')

  host((h) => h.onUpdateEngagementSucceeded({ engagementId: 101 }))
  expect(status()).toHaveTextContent('Ready')
  expect(screen.getByText('Last call (Call to +15550102000): saved in the CRM')).toBeInTheDocument()

  expect(typesOf(sdk.calls)).toEqual(['initialized', 'userLoggedIn', 'outgoingCall', 'callAnswered', 'callEnded', 'callCompleted'])
  expect(checkSequence(sdk.calls)).toEqual([])
  const id = find(sdk.calls, 'outgoingCall')?.data.externalCallId
  expect(find(sdk.calls, 'outgoingCall')?.data.dialingContext).toEqual({
    phoneNumber: '+15550102000',
    objectId: 51,
    objectType: 'CONTACT',
    portalId: 123,
  })
  expect(find(sdk.calls, 'callEnded')?.data).toEqual({ externalCallId: id, engagementId: 101, callEndStatus: 'COMPLETED' })
  expect(find(sdk.calls, 'callCompleted')?.data).toMatchObject({
    externalCallId: id,
    engagementId: 101,
    hideWidget: false,
    engagementProperties: {
      hs_call_body: 'Wants a demo next week',
      hs_call_disposition: 'b2cf5968-551e-4856-9783-52b3da59a7d0', // Left voicemail
      hs_call_duration: '12000',
      hs_call_status: 'COMPLETED',
      hs_call_direction: 'OUTBOUND',
    },
  })
})

test('with "Confirm before dialling" checked, DIAL_NUMBER fills in the number and Call places it', async () => {
  const { sdk, user, host, status } = renderReadyWidget()
  await user.click(screen.getByRole('checkbox', { name: 'Confirm before dialling a number from the CRM' }))
  host((h) => h.onDialNumber({ phoneNumber: '+15550102000', objectId: 51, objectType: 'CONTACT', portalId: 123 }))
  expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+15550102000')
  expect(screen.getByText('From the CRM: contact #51')).toBeInTheDocument()
  expect(typesOf(sdk.calls)).toEqual(['initialized'])
  await user.click(screen.getByRole('button', { name: 'Call' }))
  expect(status()).toHaveTextContent('Dialing…')
  expect(find(sdk.calls, 'outgoingCall')?.data.dialingContext).toMatchObject({ objectId: 51, objectType: 'CONTACT' })
})

test('an incoming call from the simulator shows the caller-ID match and can be answered', async () => {
  const { sdk, user, host, status } = renderReadyWidget()
  await user.click(screen.getByText('Line simulator (developer tool)'))
  await user.click(screen.getByRole('button', { name: 'Simulate incoming call' }))
  expect(status()).toHaveTextContent('Incoming call…')
  expect(screen.getByText('Looking up the caller in the CRM…')).toBeInTheDocument()
  expect(find(sdk.calls, 'incomingCall')?.data).toMatchObject({ fromNumber: '+15551234567', toNumber: '+16175550100', createEngagement: true })

  host((h) =>
    h.onCallerIdMatchSucceeded({
      callerIdMatches: [
        { callerIdType: 'CONTACT', objectCoordinates: { portalId: 123, objectId: 51, objectTypeId: '0-1' }, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        { callerIdType: 'COMPANY', objectCoordinates: { portalId: 123, objectId: 9, objectTypeId: '0-2' }, name: 'Analytical Engines Ltd' },
      ],
    }),
  )
  const matches = screen.getByRole('list', { name: 'CRM matches' })
  expect(within(matches).getByText('Contact: Ada Lovelace (ada@example.com)')).toBeInTheDocument()
  expect(within(matches).getByText('Company: Analytical Engines Ltd')).toBeInTheDocument()
  expect(screen.getByText('Ada Lovelace', { selector: '.party-name' })).toBeInTheDocument()

  await user.click(screen.getByRole('button', { name: 'Answer' }))
  expect(status()).toHaveTextContent('In call 00:00')
  expect(typesOf(sdk.calls)).toEqual(['initialized', 'incomingCall', 'callAnswered'])
})

test('declining an incoming call ends it as REJECTED', async () => {
  const { sdk, user } = renderReadyWidget()
  await user.click(screen.getByRole('button', { name: 'Simulate incoming call' }))
  await user.click(screen.getByRole('button', { name: 'Decline' }))
  expect(find(sdk.calls, 'callEnded')?.data.callEndStatus).toBe('REJECTED')
  expect(screen.getByText('Declined · 00:00')).toBeInTheDocument()
})

test('an engagement creation failure is shown while the call goes on', async () => {
  const { sdk, user, host, wait, status } = renderReadyWidget()
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '+15551230000{Enter}')
  host((h) => h.onCreateEngagementFailed({ error: { message: 'Portal 123 is read-only.' } }))
  expect(screen.getByRole('alert')).toHaveTextContent('The CRM could not log this call: Portal 123 is read-only. The call continues.')
  expect(status()).toHaveTextContent('Dialing…')
  await wait(500)
  expect(status()).toHaveTextContent('In call 00:00')
  expect(screen.getByRole('alert')).toHaveTextContent('Portal 123 is read-only.')
  expect(typesOf(sdk.calls)).toEqual(['initialized', 'outgoingCall', 'callAnswered'])
})

test('dialing an invalid number shows an error and asks the host to alert', async () => {
  const { sdk, user, status } = renderReadyWidget()
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), 'abc{Enter}')
  expect(screen.getByRole('alert')).toHaveTextContent('Cannot dial “abc”: not a valid phone number.')
  expect(status()).toHaveTextContent('Ready')
  expect(sdk.calls.at(-1)).toEqual({ type: 'sendError', data: { message: 'Cannot dial “abc”: not a valid phone number.' } })
})

test('the availability switch and Log out reach the host', async () => {
  const { sdk, user, status } = renderReadyWidget()
  const available = screen.getByRole('switch', { name: 'Available' })
  expect(available).toBeChecked()
  await user.click(available)
  expect(available).not.toBeChecked()
  expect(status()).toHaveTextContent('Unavailable')
  await user.click(screen.getByRole('button', { name: 'Log out' }))
  expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument()
  expect(typesOf(sdk.calls)).toEqual(['initialized', 'userUnavailable', 'userLoggedOut'])
})

test('mute, hold and the in-call keypad work during a call', async () => {
  const { user, wait } = renderReadyWidget()
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '5550199{Enter}')
  await wait(500)
  const mute = screen.getByRole('button', { name: 'Mute' })
  await user.click(mute)
  expect(mute).toHaveAttribute('aria-pressed', 'true')
  await user.click(screen.getByRole('button', { name: 'Hold' }))
  expect(screen.getByRole('status', { name: 'Call status' })).toHaveTextContent('On hold 00:00')
  await user.click(screen.getByRole('button', { name: 'Keypad' }))
  const keys = screen.getByRole('group', { name: 'Call keypad' })
  await user.click(within(keys).getByRole('button', { name: '4' }))
  await user.click(within(keys).getByRole('button', { name: '2' }))
  expect(screen.getByLabelText('Digits sent')).toHaveTextContent('42')
})

test('a transfer sends callTransferred and ends the call', async () => {
  const { sdk, user, wait } = renderReadyWidget()
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '5550199{Enter}')
  await wait(500)
  await user.click(screen.getByRole('button', { name: 'Transfer' }))
  await user.type(screen.getByRole('textbox', { name: 'Transfer to' }), '+15550007777')
  await user.click(screen.getByRole('button', { name: 'Transfer call' }))
  expect(typesOf(sdk.calls).slice(-2)).toEqual(['callTransferred', 'callEnded'])
  expect(screen.getByText('Completed · 00:00 · transferred to +15550007777')).toBeInTheDocument()
})

test('END_CALL from the host ends the call in progress', async () => {
  const { sdk, user, host, wait, status } = renderReadyWidget()
  await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '5550199{Enter}')
  await wait(500)
  host((h) => h.onEndCall())
  expect(status()).toHaveTextContent('Call ended — wrap up')
  expect(find(sdk.calls, 'callEnded')?.data.callEndStatus).toBe('COMPLETED')
})

test('a malformed host message is reported on screen and changes nothing', () => {
  const { sdk, log, host } = renderReadyWidget()
  host((h) => h.onDialNumber({ objectId: 5 }))
  expect(screen.getByRole('alert')).toHaveTextContent('Ignored a malformed message from the CRM (DIAL_NUMBER without a phoneNumber).')
  expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('')
  expect(log).toHaveBeenCalledWith('[widget] dropped DIAL_NUMBER: DIAL_NUMBER without a phoneNumber', { objectId: 5 })
  expect(typesOf(sdk.calls)).toEqual(['initialized'])
})

test('the host-reported visibility is shown', () => {
  const { host } = renderReadyWidget()
  host((h) => h.onVisibilityChanged({ isMinimized: true, isHidden: false }))
  expect(screen.getByText('The CRM reports this widget as minimized.')).toBeInTheDocument()
})

test('the rendered size is reported with resizeWidget, debounced, only when it changed', async () => {
  let notify: () => void = () => undefined
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        notify = callback
      }
      observe() {}
      disconnect() {}
    },
  )
  const { sdk, wait } = renderReadyWidget()
  const root = document.querySelector('.widget')
  let height = 480
  vi.spyOn(root as HTMLElement, 'getBoundingClientRect').mockImplementation(() => new DOMRect(0, 0, 399.4, height))
  act(() => notify())
  act(() => notify())
  await wait(149)
  expect(typesOf(sdk.calls)).toEqual(['initialized'])
  await wait(1)
  act(() => notify())
  await wait(150)
  height = 530
  act(() => notify())
  await wait(150)
  expect(sdk.calls.filter((c) => c.type === 'resizeWidget')).toEqual([
    { type: 'resizeWidget', data: { width: 400, height: 480 } },
    { type: 'resizeWidget', data: { width: 400, height: 530 } },
  ])
})

test('the line simulator lists ignored URL parameters', () => {
  renderWidget({ problems: ['outcome=maybe is not one of answer, busy, no-answer, fail'] })
  expect(within(screen.getByRole('list', { name: 'Ignored URL parameters' })).getByText(/outcome=maybe/)).toBeInTheDocument()
})
