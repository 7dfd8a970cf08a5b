import { and, assign, enqueueActions, fromCallback, sendTo, setup } from 'xstate'
import {
  callCompletedData,
  callEndedData,
  callTitle,
  engagementIdOf,
  incomingCallData,
  isDialable,
  isDtmfKey,
  newCall,
  normalizeNumber,
  outgoingCallData,
  suggestedDisposition,
  type ActiveCall,
  type LastCall,
} from './call-record.ts'
import type { CallOutcomeKey } from '../shared/crm/call-outcomes.ts'
import { DEFAULT_LINE_SETTINGS, createSimulatedLine, type LineCommand, type LineEvent, type LineSettings } from './phone-line.ts'
import { DEFAULT_MY_NUMBER, type RememberedSession } from './session.ts'
import type { DialNumberData, EndStatus, HostEvent, ReadyData, SdkCommand, SizeInfo } from './sdk-port.ts'

/**
 * The reference widget's call machine.
 *
 * It owns every decision about what goes to the host: side effects are
 * commands sent to two invoked actors, `sdk` (the SDK port, see
 * `sdk-bridge.ts`) and `line` (the phone line, see `phone-line.ts`). Because
 * a message can only be sent from a state that allows it, the widget cannot
 * put an illegal sequence on the wire: nothing before the host is ready, no
 * callAnswered/callEnded/callCompleted for a call the host was not told
 * about, no second call while one is open.
 */

export interface Notice {
  tone: 'info' | 'error'
  text: string
}

export interface CallMachineContext {
  /** True once onReady fired and initialized was sent. */
  hostReady: boolean
  host: ReadyData
  loggedIn: boolean
  available: boolean
  visibility: { isMinimized: boolean; isHidden: boolean }
  /** Last measured size of the widget, and the last size the host was told. */
  size: SizeInfo
  reportedSize: SizeInfo | null
  /** The user's own line number (fromNumber of outgoing calls). */
  myNumber: string
  /** Ask the user to press Call after the CRM's DIAL_NUMBER, instead of dialling at once. */
  confirmDial: boolean
  dialInput: string
  /** The DIAL_NUMBER payload the dial pad was filled from, if any. */
  dialingContext: DialNumberData | null
  call: ActiveCall | null
  lastCall: LastCall | null
  notice: Notice | null
}

export interface CallMachineInput {
  loggedIn?: boolean
  available?: boolean
  myNumber?: string
  confirmDial?: boolean
  size?: SizeInfo
}

/** Events the UI sends. */
export type UiEvent =
  | { type: 'auth.logIn' }
  | { type: 'auth.logOut' }
  | { type: 'presence.setAvailable'; available: boolean }
  | { type: 'settings.confirmDial'; confirmDial: boolean }
  | { type: 'dial.input'; value: string }
  | { type: 'call.dial' }
  | { type: 'call.answer' }
  | { type: 'call.reject' }
  | { type: 'call.hangUp' }
  | { type: 'call.toggleMute' }
  | { type: 'call.toggleHold' }
  | { type: 'call.dtmf'; digit: string }
  | { type: 'call.transfer'; to: string }
  | { type: 'wrapUp.notes'; notes: string }
  | { type: 'wrapUp.disposition'; disposition: CallOutcomeKey | '' }
  | { type: 'wrapUp.save' }
  | { type: 'call.dismiss' }
  | { type: 'notice.dismiss' }
  | { type: 'ui.resized'; width: number; height: number }
  | { type: 'sim.incoming'; from: string }
  | { type: 'sim.remoteHangUp' }
  | { type: 'sim.configure'; settings: Partial<LineSettings> }

export type CallMachineEvent = UiEvent | HostEvent | LineEvent

/** Until a real SDK port is provided, commands go nowhere (widget opened on its own). */
const noHost = fromCallback<SdkCommand>(() => undefined)

const DEFAULT_SIZE: SizeInfo = { width: 400, height: 600 }

const sameSize = (a: SizeInfo | null, b: SizeInfo) => a !== null && a.width === b.width && a.height === b.height

/** Applies a change to the current call; no-op when there is none. */
const updateCall = (context: CallMachineContext, change: (call: ActiveCall) => Partial<ActiveCall>) =>
  context.call ? { ...context.call, ...change(context.call) } : null

export const callMachine = setup({
  types: {
    context: {} as CallMachineContext,
    events: {} as CallMachineEvent,
    input: {} as CallMachineInput,
  },
  actors: {
    sdkBridge: noHost,
    phoneLine: createSimulatedLine({ settings: DEFAULT_LINE_SETTINGS, scheduledIncoming: null }),
  },
  delays: {
    /** How long the "call saved" screen stays if the host never answers. */
    completedLinger: 4000,
  },
  guards: {
    isFirstReady: ({ context }) => !context.hostReady,
    /** DIAL_NUMBER places the call at once: the user pressed Call in the CRM (unless confirmDial asks for a second press). */
    dialsOnRequest: ({ context, event }) => !context.confirmDial && event.type === 'host.dialNumber' && isDialable(event.data.phoneNumber),
    hasDialInput: ({ context }) => context.dialInput.trim() !== '',
    dialInputIsDialable: ({ context }) => isDialable(context.dialInput),
    isAvailable: ({ context }) => context.available,
    availabilityChanges: ({ context, event }) => event.type === 'presence.setAvailable' && event.available !== context.available,
    incomingNumberIsDialable: ({ event }) => event.type === 'line.incoming' && isDialable(event.from),
    transferTargetIsDialable: ({ event }) => event.type === 'call.transfer' && isDialable(event.to),
    isDtmfKey: ({ event }) => event.type === 'call.dtmf' && isDtmfKey(event.digit),
    awaitingEngagement: ({ context }) => context.call?.announced === true && context.call.engagement.status === 'pending',
    awaitingCallerId: ({ context }) => context.call?.direction === 'INBOUND' && context.call.callerId.status === 'pending',
    sizeChanged: ({ context, event }) =>
      event.type === 'ui.resized' && !sameSize(context.reportedSize ?? context.size, { width: event.width, height: event.height }),
  },
  actions: {
    /** Sends a command to the host, only once the host is ready. */
    toHost: enqueueActions(({ context, enqueue }, command: SdkCommand) => {
      if (context.hostReady) enqueue.sendTo('sdk', command)
    }),
    toLine: sendTo('line', (_, command: LineCommand) => command),
    /** Keeps the login and settings across reloads (main.tsx provides the widget origin's localStorage). */
    remember: (_, _session: Partial<RememberedSession>) => undefined,
    setConfirmDial: assign(({ event }) => (event.type === 'settings.confirmDial' ? { confirmDial: event.confirmDial } : {})),
    note: assign((_, notice: Notice) => ({ notice })),
    clearNotice: assign({ notice: null }),

    acceptReady: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'host.ready') return
      const { type: _type, ...host } = event
      enqueue.assign({ hostReady: true, host, reportedSize: context.size })
      const data = {
        isLoggedIn: context.loggedIn,
        isAvailable: context.available,
        ...(host.engagementId !== undefined ? { engagementId: host.engagementId } : {}),
        sizeInfo: context.size,
      }
      enqueue.sendTo('sdk', { type: 'initialized', data } satisfies SdkCommand)
    }),
    reportSize: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'ui.resized') return
      const size = { width: event.width, height: event.height }
      enqueue.assign({ size })
      if (!context.hostReady) return
      enqueue.assign({ reportedSize: size })
      enqueue.sendTo('sdk', { type: 'resizeWidget', data: size } satisfies SdkCommand)
    }),
    setLoggedIn: assign((_, loggedIn: boolean) => ({ loggedIn })),
    setAvailable: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'presence.setAvailable') return
      enqueue.assign({ available: event.available })
      if (context.hostReady) enqueue.sendTo('sdk', { type: event.available ? 'userAvailable' : 'userUnavailable' } satisfies SdkCommand)
    }),
    setVisibility: assign(({ event }) =>
      event.type === 'host.visibilityChanged' ? { visibility: { isMinimized: event.isMinimized, isHidden: event.isHidden } } : {},
    ),

    setDialInput: assign(({ context, event }) => {
      if (event.type !== 'dial.input') return {}
      const value = event.value.slice(0, 40)
      // Editing the number away from the CRM's request drops the CRM context.
      const keep = context.dialingContext !== null && normalizeNumber(value) === normalizeNumber(context.dialingContext.phoneNumber)
      return { dialInput: value, dialingContext: keep ? context.dialingContext : null }
    }),
    /** Fills the dial pad from DIAL_NUMBER; `then` says what the user does next (null: the call is placed at once). */
    takeDialRequest: assign(({ event }, params: { then: string | null }) => {
      if (event.type !== 'host.dialNumber') return {}
      const notice: Notice | null = params.then === null ? null : { tone: 'info', text: `The CRM asked to call ${event.data.phoneNumber}. ${params.then}` }
      return { dialInput: event.data.phoneNumber, dialingContext: event.data, notice }
    }),
    ignoreDialRequest: assign(({ event }) => {
      if (event.type !== 'host.dialNumber') return {}
      return {
        notice: { tone: 'info', text: `Ignored a request to call ${event.data.phoneNumber}: a call is in progress.` } satisfies Notice,
      }
    }),
    rejectNumber: enqueueActions(({ context, enqueue }, params: { number: string }) => {
      const message = `Cannot dial “${params.number.trim()}”: not a valid phone number.`
      enqueue.assign({ notice: { tone: 'error', text: message } })
      if (context.hostReady) enqueue.sendTo('sdk', { type: 'sendError', data: { message } } satisfies SdkCommand)
    }),

    startOutgoingCall: assign(({ context }) => ({
      notice: null,
      call: newCall({
        direction: 'OUTBOUND',
        fromNumber: context.myNumber,
        toNumber: normalizeNumber(context.dialInput),
        dialingContext: context.dialingContext,
      }),
    })),
    startIncomingCall: assign(({ context, event }) => {
      if (event.type !== 'line.incoming') return {}
      return {
        notice: null,
        call: newCall({ direction: 'INBOUND', fromNumber: normalizeNumber(event.from), toNumber: context.myNumber, dialingContext: null }),
      }
    }),
    /** outgoingCall / incomingCall; marks the call as known to the host. */
    announceCall: enqueueActions(({ context, enqueue }) => {
      const call = context.call
      if (!call) return
      if (!context.hostReady) {
        enqueue.assign({ notice: { tone: 'info', text: 'No CRM host is connected: this call will not be logged.' } })
        return
      }
      const inbound = call.direction === 'INBOUND'
      enqueue.assign({
        call: { ...call, announced: true, engagement: { status: 'pending' }, callerId: inbound ? { status: 'pending' } : call.callerId },
      })
      const command: SdkCommand = inbound
        ? { type: 'incomingCall', data: incomingCallData(call) }
        : { type: 'outgoingCall', data: outgoingCallData(call) }
      enqueue.sendTo('sdk', command)
    }),
    /** callAnswered / callEnded / callCompleted / callTransferred for a call the host knows. */
    reportCall: enqueueActions(({ context, enqueue }, params: { report: 'answered' | 'ended' | 'completed' | 'transferred' }) => {
      const call = context.call
      if (!context.hostReady || !call?.announced) return
      const ref = { externalCallId: call.externalCallId }
      const command: SdkCommand =
        params.report === 'answered'
          ? { type: 'callAnswered', data: ref }
          : params.report === 'transferred'
            ? { type: 'callTransferred', data: ref }
            : params.report === 'ended'
              ? { type: 'callEnded', data: callEndedData(call) }
              : { type: 'callCompleted', data: callCompletedData(call) }
      enqueue.sendTo('sdk', command)
    }),
    markAnswered: assign(({ context }) => ({ call: updateCall(context, () => ({ answeredAt: Date.now() })) })),
    setEndStatus: assign(({ context }, params: { status: EndStatus }) => ({
      call: updateCall(context, () => ({ endStatus: params.status, disposition: suggestedDisposition(params.status) })),
    })),
    markEnded: assign(({ context }) => ({ call: updateCall(context, () => ({ endedAt: Date.now(), muted: false, held: false })) })),
    toggleMute: assign(({ context }) => ({ call: updateCall(context, (c) => ({ muted: !c.muted })) })),
    toggleHold: assign(({ context }) => ({ call: updateCall(context, (c) => ({ held: !c.held })) })),
    addDigit: assign(({ context, event }) =>
      event.type === 'call.dtmf' ? { call: updateCall(context, (c) => ({ digits: (c.digits + event.digit).slice(-32) })) } : {},
    ),
    setTransferTarget: assign(({ context, event }) =>
      event.type === 'call.transfer' ? { call: updateCall(context, () => ({ transferredTo: normalizeNumber(event.to) })) } : {},
    ),
    setNotes: assign(({ context, event }) =>
      event.type === 'wrapUp.notes' ? { call: updateCall(context, () => ({ notes: event.notes.slice(0, 10000) })) } : {},
    ),
    setDisposition: assign(({ context, event }) =>
      event.type === 'wrapUp.disposition' ? { call: updateCall(context, () => ({ disposition: event.disposition })) } : {},
    ),

    storeEngagement: assign(({ context, event }) =>
      event.type === 'host.engagementCreated'
        ? { call: updateCall(context, () => ({ engagement: { status: 'created', engagementId: event.engagementId } })) }
        : {},
    ),
    storeEngagementFailure: assign(({ context, event }) =>
      event.type === 'host.engagementCreateFailed'
        ? { call: updateCall(context, () => ({ engagement: { status: 'failed', message: event.message } })) }
        : {},
    ),
    storeCallerId: assign(({ context, event }) => {
      if (event.type === 'host.callerIdMatched') {
        return { call: updateCall(context, () => ({ callerId: { status: 'matched', matches: event.matches } })) }
      }
      if (event.type === 'host.callerIdMatchFailed') {
        return { call: updateCall(context, () => ({ callerId: { status: 'unmatched', message: event.message } })) }
      }
      return {}
    }),
    /** Leaving `completed`: the call becomes `lastCall` and the dial pad is cleared. */
    archiveCall: assign(({ context }) => {
      const call = context.call
      if (!call) return {}
      const lastCall: LastCall = {
        externalCallId: call.externalCallId,
        engagementId: engagementIdOf(call),
        title: callTitle(call),
        update: call.announced ? { status: 'pending' } : { status: 'none' },
      }
      return { call: null, lastCall, dialInput: '', dialingContext: null }
    }),
    storeUpdateResult: assign(({ context, event }) => {
      if (!context.lastCall || context.lastCall.update.status !== 'pending') return {}
      if (event.type === 'host.engagementUpdated') return { lastCall: { ...context.lastCall, update: { status: 'saved' } } }
      if (event.type === 'host.engagementUpdateFailed') {
        return { lastCall: { ...context.lastCall, update: { status: 'failed', message: event.message } } }
      }
      return {}
    }),
    noteHostMessage: assign(({ event }) => (event.type === 'host.notice' ? { notice: { tone: 'error', text: event.message } } : {})),
    declineIncoming: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'line.incoming') return
      enqueue.sendTo('line', { type: 'line.reject' } satisfies LineCommand)
      const why = !context.loggedIn
        ? 'you are logged out'
        : !isDialable(event.from)
          ? 'the caller’s number is not valid'
          : !context.available
            ? 'you are unavailable'
            : 'a call is in progress'
      enqueue.assign({ notice: { tone: 'info', text: `Missed a call from ${event.from}: ${why}.` } })
    }),
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => ({
    hostReady: false,
    host: {},
    loggedIn: input.loggedIn ?? false,
    available: input.available ?? true,
    visibility: { isMinimized: false, isHidden: false },
    size: input.size ?? DEFAULT_SIZE,
    reportedSize: null,
    myNumber: input.myNumber ?? DEFAULT_MY_NUMBER,
    confirmDial: input.confirmDial ?? false,
    dialInput: '',
    dialingContext: null,
    call: null,
    lastCall: null,
    notice: null,
  }),
  invoke: [
    { id: 'sdk', src: 'sdkBridge' },
    { id: 'line', src: 'phoneLine' },
  ],
  initial: 'boot',
  on: {
    'host.ready': { guard: 'isFirstReady', actions: 'acceptReady' },
    'host.visibilityChanged': { actions: 'setVisibility' },
    'host.engagementCreated': { guard: 'awaitingEngagement', actions: 'storeEngagement' },
    'host.engagementCreateFailed': { guard: 'awaitingEngagement', actions: 'storeEngagementFailure' },
    'host.engagementUpdated': { actions: 'storeUpdateResult' },
    'host.engagementUpdateFailed': { actions: 'storeUpdateResult' },
    'host.callerIdMatched': { guard: 'awaitingCallerId', actions: 'storeCallerId' },
    'host.callerIdMatchFailed': { guard: 'awaitingCallerId', actions: 'storeCallerId' },
    'host.notice': { actions: 'noteHostMessage' },
    'host.dialNumber': { actions: 'ignoreDialRequest' },
    'line.incoming': { actions: 'declineIncoming' },
    'ui.resized': { guard: 'sizeChanged', actions: 'reportSize' },
    'notice.dismiss': { actions: 'clearNotice' },
    'settings.confirmDial': { actions: ['setConfirmDial', { type: 'remember', params: ({ event }) => ({ confirmDial: event.confirmDial }) }] },
    'sim.incoming': { actions: { type: 'toLine', params: ({ event }) => ({ type: 'line.simulateIncoming', from: event.from }) } },
    'sim.remoteHangUp': { actions: { type: 'toLine', params: { type: 'line.simulateRemoteHangUp' } } },
    'sim.configure': { actions: { type: 'toLine', params: ({ event }) => ({ type: 'line.configure', settings: event.settings }) } },
  },
  states: {
    /** Chooses the first screen from the input (autoLogin). */
    boot: {
      always: [{ guard: ({ context }) => context.loggedIn, target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      on: {
        'auth.logIn': {
          target: 'signedIn',
          actions: [
            { type: 'setLoggedIn', params: true },
            { type: 'remember', params: { loggedIn: true } },
            { type: 'toHost', params: { type: 'userLoggedIn' } },
            'clearNotice',
          ],
        },
        'host.dialNumber': { actions: { type: 'takeDialRequest', params: { then: 'Log in to call.' } } },
      },
    },
    signedIn: {
      initial: 'idle',
      on: {
        'presence.setAvailable': { guard: 'availabilityChanges', actions: 'setAvailable' },
      },
      states: {
        idle: {
          on: {
            'auth.logOut': {
              target: '#call.signedOut',
              actions: [
                { type: 'setLoggedIn', params: false },
                { type: 'remember', params: { loggedIn: false } },
                { type: 'toHost', params: { type: 'userLoggedOut' } },
              ],
            },
            'dial.input': { actions: 'setDialInput' },
            'host.dialNumber': [
              { guard: 'dialsOnRequest', target: 'outgoing', actions: { type: 'takeDialRequest', params: { then: null } } },
              { actions: { type: 'takeDialRequest', params: { then: 'Press Call to dial.' } } },
            ],
            'call.dial': [
              { guard: 'dialInputIsDialable', target: 'outgoing' },
              {
                guard: 'hasDialInput',
                actions: { type: 'rejectNumber', params: ({ context }) => ({ number: context.dialInput }) },
              },
              { actions: { type: 'note', params: { tone: 'error', text: 'Enter a number to call.' } } },
            ],
            'line.incoming': [
              { guard: and(['isAvailable', 'incomingNumberIsDialable']), target: 'incoming' },
              { actions: 'declineIncoming' },
            ],
          },
        },
        outgoing: {
          entry: ['startOutgoingCall', { type: 'toLine', params: ({ context }) => ({ type: 'line.dial', to: context.call?.toNumber ?? '' }) }, 'announceCall'],
          initial: 'dialing',
          on: {
            'line.answered': { target: 'answered' },
            'line.busy': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'BUSY' } } },
            'line.noAnswer': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'NO_ANSWER' } } },
            'line.failed': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'FAILED' } } },
            'call.hangUp': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.hangUp' } }, { type: 'setEndStatus', params: { status: 'CANCELED' } }],
            },
            'host.endCall': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.hangUp' } }, { type: 'setEndStatus', params: { status: 'CANCELED' } }],
            },
          },
          states: {
            dialing: { on: { 'line.ringing': { target: 'ringing' } } },
            ringing: {},
          },
        },
        incoming: {
          entry: ['startIncomingCall', 'announceCall'],
          on: {
            'call.answer': { target: 'answered', actions: { type: 'toLine', params: { type: 'line.answer' } } },
            'call.reject': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.reject' } }, { type: 'setEndStatus', params: { status: 'REJECTED' } }],
            },
            'host.endCall': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.reject' } }, { type: 'setEndStatus', params: { status: 'REJECTED' } }],
            },
            'line.callerGaveUp': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'MISSED' } } },
          },
        },
        answered: {
          entry: ['markAnswered', { type: 'reportCall', params: { report: 'answered' } }],
          on: {
            'call.toggleMute': {
              actions: ['toggleMute', { type: 'toLine', params: ({ context }) => ({ type: 'line.setMute', muted: context.call?.muted ?? false }) }],
            },
            'call.toggleHold': {
              actions: ['toggleHold', { type: 'toLine', params: ({ context }) => ({ type: 'line.setHold', held: context.call?.held ?? false }) }],
            },
            'call.dtmf': {
              guard: 'isDtmfKey',
              actions: ['addDigit', { type: 'toLine', params: ({ event }) => ({ type: 'line.sendDigit', digit: event.digit }) }],
            },
            'call.transfer': [
              {
                guard: 'transferTargetIsDialable',
                target: 'ended',
                actions: [
                  'setTransferTarget',
                  { type: 'toLine', params: ({ event }) => ({ type: 'line.transfer', to: normalizeNumber(event.to) }) },
                  { type: 'reportCall', params: { report: 'transferred' } },
                  { type: 'setEndStatus', params: { status: 'COMPLETED' } },
                ],
              },
              { actions: { type: 'rejectNumber', params: ({ event }) => ({ number: event.to }) } },
            ],
            'call.hangUp': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.hangUp' } }, { type: 'setEndStatus', params: { status: 'COMPLETED' } }],
            },
            'host.endCall': {
              target: 'ended',
              actions: [{ type: 'toLine', params: { type: 'line.hangUp' } }, { type: 'setEndStatus', params: { status: 'COMPLETED' } }],
            },
            'line.remoteHangUp': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'COMPLETED' } } },
            'line.failed': { target: 'ended', actions: { type: 'setEndStatus', params: { status: 'FAILED' } } },
          },
        },
        /** Wrap-up: notes and disposition, then Save. */
        ended: {
          entry: ['markEnded', { type: 'reportCall', params: { report: 'ended' } }],
          on: {
            'wrapUp.notes': { actions: 'setNotes' },
            'wrapUp.disposition': { actions: 'setDisposition' },
            'wrapUp.save': { target: 'completed' },
          },
        },
        /** callCompleted sent; waits briefly for the host's update result. */
        completed: {
          entry: { type: 'reportCall', params: { report: 'completed' } },
          exit: 'archiveCall',
          after: { completedLinger: { target: 'idle' } },
          on: {
            'host.engagementUpdated': { target: 'idle', actions: 'storeUpdateResult' },
            'host.engagementUpdateFailed': { target: 'idle', actions: 'storeUpdateResult' },
            'host.dialNumber': [
              { guard: 'dialsOnRequest', target: 'outgoing', actions: { type: 'takeDialRequest', params: { then: null } } },
              { target: 'idle', actions: { type: 'takeDialRequest', params: { then: 'Press Call to dial.' } } },
            ],
            'call.dismiss': { target: 'idle' },
          },
        },
      },
    },
  },
})

export type CallMachine = typeof callMachine
