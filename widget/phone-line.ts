import { fromCallback } from 'xstate'

/**
 * The simulated phone line: a developer tool that stands in for a telephony
 * provider. It carries no audio; it only decides, on a timer, what happens to
 * a call (answered, busy, no answer, line failure, remote hang-up) and can
 * ring the widget with an incoming call.
 *
 * It is an XState callback actor. The call machine invokes it under the id
 * `line`, sends it {@link LineCommand}s and receives {@link LineEvent}s.
 * Tests replace it with a fake through `machine.provide({ actors })`.
 */

/** What happens to the next outgoing call. */
export type LineOutcome = 'answer' | 'busy' | 'noAnswer' | 'fail'

export const LINE_OUTCOMES: readonly LineOutcome[] = ['answer', 'busy', 'noAnswer', 'fail']

export interface LineSettings {
  outcome: LineOutcome
  /** Time from dialing until the far end rings (or is busy / fails). */
  ringAfterMs: number
  /** With outcome `answer`: time from dialing until the far end answers. */
  answerAfterMs: number
  /** With outcome `noAnswer`: time from dialing until the line gives up. */
  noAnswerAfterMs: number
  /** If set, the remote party hangs up this long after the call is answered. */
  remoteHangUpAfterMs: number | null
  /** An incoming call that nobody answers is abandoned after this long. */
  incomingGiveUpAfterMs: number
}

export const DEFAULT_LINE_SETTINGS: LineSettings = {
  outcome: 'answer',
  ringAfterMs: 400,
  answerAfterMs: 2500,
  noAnswerAfterMs: 8000,
  remoteHangUpAfterMs: null,
  incomingGiveUpAfterMs: 30000,
}

export interface LineInput {
  settings: LineSettings
  /** An incoming call the line places by itself once, this long after it starts. */
  scheduledIncoming: { from: string; afterMs: number } | null
}

/** Commands the call machine sends to the line. */
export type LineCommand =
  | { type: 'line.dial'; to: string }
  | { type: 'line.answer' }
  | { type: 'line.reject' }
  | { type: 'line.hangUp' }
  | { type: 'line.sendDigit'; digit: string }
  | { type: 'line.setHold'; held: boolean }
  | { type: 'line.setMute'; muted: boolean }
  | { type: 'line.transfer'; to: string }
  | { type: 'line.configure'; settings: Partial<LineSettings> }
  | { type: 'line.simulateIncoming'; from: string }
  | { type: 'line.simulateRemoteHangUp' }

/** What the line reports back to the call machine. */
export type LineEvent =
  | { type: 'line.ringing' }
  | { type: 'line.answered' }
  | { type: 'line.busy' }
  | { type: 'line.noAnswer' }
  | { type: 'line.failed'; reason: string }
  | { type: 'line.remoteHangUp' }
  | { type: 'line.incoming'; from: string }
  | { type: 'line.callerGaveUp' }

type LinePhase = 'free' | 'outgoing' | 'incoming' | 'connected'

/**
 * The line's behaviour, independent of XState so it can be tested with fake
 * timers alone. `emit` receives every {@link LineEvent}; the returned object
 * takes commands and releases every timer on `stop`.
 */
export function createLineSimulator(input: LineInput, emit: (event: LineEvent) => void) {
  let settings: LineSettings = { ...input.settings }
  let phase: LinePhase = 'free'
  const timers = new Set<ReturnType<typeof setTimeout>>()

  const after = (ms: number, fn: () => void) => {
    const id = setTimeout(() => {
      timers.delete(id)
      fn()
    }, Math.max(0, ms))
    timers.add(id)
  }
  const clearTimers = () => {
    for (const id of timers) clearTimeout(id)
    timers.clear()
  }
  const endCall = (event: LineEvent) => {
    clearTimers()
    phase = 'free'
    emit(event)
  }
  const connect = () => {
    clearTimers()
    phase = 'connected'
    if (settings.remoteHangUpAfterMs !== null) {
      after(settings.remoteHangUpAfterMs, () => endCall({ type: 'line.remoteHangUp' }))
    }
  }
  const ringIn = (from: string) => {
    if (phase !== 'free') return
    phase = 'incoming'
    emit({ type: 'line.incoming', from })
    after(settings.incomingGiveUpAfterMs, () => endCall({ type: 'line.callerGaveUp' }))
  }

  const dial = () => {
    clearTimers()
    phase = 'outgoing'
    const { outcome, ringAfterMs, answerAfterMs, noAnswerAfterMs } = settings
    if (outcome === 'busy') {
      after(ringAfterMs, () => endCall({ type: 'line.busy' }))
      return
    }
    if (outcome === 'fail') {
      after(ringAfterMs, () => endCall({ type: 'line.failed', reason: 'The line dropped the call (simulated failure).' }))
      return
    }
    const settleAfter = outcome === 'answer' ? answerAfterMs : noAnswerAfterMs
    if (ringAfterMs < settleAfter) after(ringAfterMs, () => emit({ type: 'line.ringing' }))
    if (outcome === 'answer') {
      after(answerAfterMs, () => {
        connect()
        emit({ type: 'line.answered' })
      })
    } else {
      after(noAnswerAfterMs, () => endCall({ type: 'line.noAnswer' }))
    }
  }

  if (input.scheduledIncoming) {
    const { from, afterMs } = input.scheduledIncoming
    after(afterMs, () => ringIn(from))
  }

  return {
    send(command: LineCommand): void {
      switch (command.type) {
        case 'line.dial':
          dial()
          return
        case 'line.answer':
          if (phase === 'incoming') connect()
          return
        case 'line.reject':
        case 'line.hangUp':
        case 'line.transfer':
          clearTimers()
          phase = 'free'
          return
        case 'line.configure':
          settings = { ...settings, ...command.settings }
          return
        case 'line.simulateIncoming':
          ringIn(command.from)
          return
        case 'line.simulateRemoteHangUp':
          if (phase === 'connected') endCall({ type: 'line.remoteHangUp' })
          return
        case 'line.sendDigit':
        case 'line.setHold':
        case 'line.setMute':
          // A real provider would play DTMF tones or pause media; the
          // simulator has no audio, so there is nothing to do.
          return
      }
    },
    get phase(): LinePhase {
      return phase
    },
    get settings(): LineSettings {
      return settings
    },
    stop: clearTimers,
  }
}

/**
 * The simulator as the callback actor the call machine invokes (`phoneLine`).
 * The settings are bound here, so the machine needs no simulator config.
 */
export function createSimulatedLine(input: LineInput) {
  return fromCallback<LineCommand>(({ sendBack, receive }) => {
    const line = createLineSimulator(input, sendBack)
    receive((command) => line.send(command))
    return line.stop
  })
}
