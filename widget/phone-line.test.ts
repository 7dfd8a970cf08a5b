import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { createLineSimulator, DEFAULT_LINE_SETTINGS, type LineEvent, type LineInput, type LineSettings } from './phone-line.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function line(settings: Partial<LineSettings> = {}, scheduledIncoming: LineInput['scheduledIncoming'] = null) {
  const events: LineEvent[] = []
  const sim = createLineSimulator({ settings: { ...DEFAULT_LINE_SETTINGS, ...settings }, scheduledIncoming }, (e) => events.push(e))
  return { sim, events, types: () => events.map((e) => e.type) }
}

test('an answered outgoing call rings, then connects after answerAfterMs', () => {
  const { sim, types } = line({ outcome: 'answer', ringAfterMs: 100, answerAfterMs: 500 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(99)
  expect(types()).toEqual([])
  vi.advanceTimersByTime(1)
  expect(types()).toEqual(['line.ringing'])
  vi.advanceTimersByTime(400)
  expect(types()).toEqual(['line.ringing', 'line.answered'])
  expect(sim.phase).toBe('connected')
})

test('an answer faster than the ring skips the ringing event', () => {
  const { sim, types } = line({ outcome: 'answer', ringAfterMs: 400, answerAfterMs: 300 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(1000)
  expect(types()).toEqual(['line.answered'])
})

test.each([
  ['busy', 'line.busy'],
  ['fail', 'line.failed'],
] as const)('outcome %s ends the call with %s instead of ringing', (outcome, event) => {
  const { sim, types } = line({ outcome, ringAfterMs: 200 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(200)
  expect(types()).toEqual([event])
  expect(sim.phase).toBe('free')
})

test('outcome noAnswer rings and gives up after noAnswerAfterMs', () => {
  const { sim, types } = line({ outcome: 'noAnswer', ringAfterMs: 100, noAnswerAfterMs: 3000 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(2999)
  expect(types()).toEqual(['line.ringing'])
  vi.advanceTimersByTime(1)
  expect(types()).toEqual(['line.ringing', 'line.noAnswer'])
})

test('hanging up cancels every pending outcome', () => {
  const { sim, types } = line({ outcome: 'answer', ringAfterMs: 100, answerAfterMs: 500 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  sim.send({ type: 'line.hangUp' })
  vi.advanceTimersByTime(10_000)
  expect(types()).toEqual([])
})

test('the remote party hangs up remoteHangUpAfterMs after the answer', () => {
  const { sim, types } = line({ outcome: 'answer', ringAfterMs: 10, answerAfterMs: 20, remoteHangUpAfterMs: 1000 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(1019)
  expect(types()).toEqual(['line.ringing', 'line.answered'])
  vi.advanceTimersByTime(1)
  expect(types()).toEqual(['line.ringing', 'line.answered', 'line.remoteHangUp'])
})

test('a scheduled incoming call rings once and is abandoned if nobody answers', () => {
  const { events } = line({ incomingGiveUpAfterMs: 5000 }, { from: '+15551234567', afterMs: 700 })
  vi.advanceTimersByTime(700)
  expect(events).toEqual([{ type: 'line.incoming', from: '+15551234567' }])
  vi.advanceTimersByTime(5000)
  expect(events.at(-1)).toEqual({ type: 'line.callerGaveUp' })
})

test('answering an incoming call stops the give-up timer; the remote hang-up button ends it', () => {
  const { sim, types } = line({ incomingGiveUpAfterMs: 5000 })
  sim.send({ type: 'line.simulateIncoming', from: '+15551234567' })
  sim.send({ type: 'line.answer' })
  vi.advanceTimersByTime(60_000)
  expect(types()).toEqual(['line.incoming'])
  sim.send({ type: 'line.simulateRemoteHangUp' })
  expect(types()).toEqual(['line.incoming', 'line.remoteHangUp'])
})

test('a simulated incoming call is not placed while the line is busy with another call', () => {
  const { sim, types } = line({ outcome: 'answer', answerAfterMs: 10 })
  sim.send({ type: 'line.dial', to: '+15550001' })
  sim.send({ type: 'line.simulateIncoming', from: '+15551234567' })
  vi.advanceTimersByTime(10)
  expect(types()).toEqual(['line.answered'])
})

test('configure changes the outcome of the next call', () => {
  const { sim, types } = line({ outcome: 'answer', ringAfterMs: 50 })
  sim.send({ type: 'line.configure', settings: { outcome: 'busy' } })
  sim.send({ type: 'line.dial', to: '+15550001' })
  vi.advanceTimersByTime(50)
  expect(types()).toEqual(['line.busy'])
})

test('stop releases the timers', () => {
  const { sim, types } = line({}, { from: '+15551234567', afterMs: 100 })
  sim.stop()
  vi.advanceTimersByTime(1000)
  expect(types()).toEqual([])
})
