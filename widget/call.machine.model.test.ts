// @vitest-environment node
import { createActor, fromCallback, type AnyTransitionDefinition } from 'xstate'
import { getShortestPaths, getStateNodes, toDirectedGraph } from 'xstate/graph'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { callMachine, type CallMachineEvent, type CallMachineInput } from './call.machine.ts'
import type { LineCommand } from './phone-line.ts'
import type { SdkCommand } from './sdk-port.ts'
import { ProtocolMonitor } from './testing/protocol-monitor.ts'

/**
 * Model-based tests. xstate/graph walks the machine with a fixed menu of
 * events and gives the shortest path to every distinct (abstracted) state.
 * From the end of each path every event the state accepts is tried once, on
 * a real actor with recording fakes. Every SDK call along the way goes
 * through the host's checker (ProtocolMonitor), and the test asserts that
 * every state node and every transition of the machine was exercised.
 */

// One machine instance for traversal and replay, so transition objects match.
let sink: SdkCommand[] = []
const machine = callMachine.provide({
  actors: {
    sdkBridge: fromCallback<SdkCommand>(({ receive }) => {
      receive((command) => sink.push(command))
    }),
    phoneLine: fromCallback<LineCommand>(() => undefined),
  },
})

const stateNodes = getStateNodes(machine.root)
const completedLinger = stateNodes.flatMap((n) => n.after.map((t) => t.eventType))

/** The menu: every event type, with payloads that take each guarded branch. */
const EVENTS = [
  { type: 'auth.logIn' },
  { type: 'auth.logOut' },
  { type: 'presence.setAvailable', available: false },
  { type: 'presence.setAvailable', available: true },
  { type: 'dial.input', value: '+15551230000' },
  { type: 'dial.input', value: 'abc' },
  { type: 'dial.input', value: '' },
  { type: 'call.dial' },
  { type: 'call.answer' },
  { type: 'call.reject' },
  { type: 'call.hangUp' },
  { type: 'call.toggleMute' },
  { type: 'call.toggleHold' },
  { type: 'call.dtmf', digit: '5' },
  { type: 'call.dtmf', digit: 'x' },
  { type: 'call.transfer', to: '+15550007777' },
  { type: 'call.transfer', to: 'nope' },
  { type: 'wrapUp.notes', notes: 'Notes' },
  { type: 'wrapUp.disposition', disposition: 'BUSY' },
  { type: 'wrapUp.save' },
  { type: 'call.dismiss' },
  { type: 'notice.dismiss' },
  { type: 'ui.resized', width: 400, height: 480 },
  { type: 'sim.incoming', from: '+15551234567' },
  { type: 'sim.remoteHangUp' },
  { type: 'sim.configure', settings: { outcome: 'busy' } },
  { type: 'host.ready', engagementId: 0 },
  { type: 'host.dialNumber', data: { phoneNumber: '+15550102000', objectId: 0 } },
  { type: 'host.dialNumber', data: { phoneNumber: 'not a number' } },
  // confirmDial is not part of the serialized state: it only picks a branch that the bad number above also takes.
  { type: 'settings.confirmDial', confirmDial: true },
  { type: 'host.engagementCreated', engagementId: 101 },
  { type: 'host.engagementCreateFailed', message: 'read-only' },
  { type: 'host.engagementUpdated', engagementId: 101 },
  { type: 'host.engagementUpdateFailed', message: 'locked' },
  { type: 'host.callerIdMatched', matches: [{ callerIdType: 'COMPANY', name: 'Acme' }] },
  { type: 'host.callerIdMatchFailed', message: 'no match' },
  { type: 'host.endCall' },
  { type: 'host.visibilityChanged', isMinimized: true, isHidden: false },
  { type: 'host.notice', message: 'Navigation failed' },
  { type: 'line.ringing' },
  { type: 'line.answered' },
  { type: 'line.busy' },
  { type: 'line.noAnswer' },
  { type: 'line.failed', reason: 'dropped' },
  { type: 'line.remoteHangUp' },
  { type: 'line.incoming', from: '+15551234567' },
  { type: 'line.incoming', from: 'anonymous' },
  { type: 'line.callerGaveUp' },
  // The delayed "back to idle" of `completed`, sent as the event XState schedules.
  ...completedLinger.map((type) => ({ type }) as unknown as CallMachineEvent),
] satisfies CallMachineEvent[]

type Snap = ReturnType<typeof machine.getInitialSnapshot>

/**
 * What makes two states different for this model. Ids, times and texts do
 * not; the dial pad only matters while no call is up; caller ID only for
 * incoming calls.
 */
function serializeState(snapshot: Snap): string {
  const c = snapshot.context
  const call = c.call && [
    c.call.direction,
    c.call.announced,
    c.call.engagement.status,
    c.call.direction === 'INBOUND' ? c.call.callerId.status : '-',
    c.call.muted,
    c.call.held,
    c.call.endStatus,
  ]
  const dial = c.call ? null : [c.dialInput === '' ? 'empty' : c.dialInput === 'abc' ? 'bad' : 'ok', c.dialingContext !== null]
  return JSON.stringify([snapshot.value, c.hostReady, c.loggedIn, c.available, dial, call])
}

const INPUT: CallMachineInput = {}
/** Starting logged in (autoLogin) only changes the first step; one path covers it. */
const AUTO_LOGIN: CallMachineInput = { loggedIn: true, available: false }

const paths = getShortestPaths(machine, { events: EVENTS, serializeState, input: INPUT })
const taken = new Set<AnyTransitionDefinition>()
const visited = new Set<string>()
const violations: string[] = []
let replays = 0

type Actor = ReturnType<typeof createActor<typeof machine>>

function startActor(options: { input: CallMachineInput; snapshot?: ReturnType<Actor['getPersistedSnapshot']> }): Actor {
  return createActor(machine, {
    ...options,
    inspect: (ev) => {
      if (ev.type === '@xstate.microstep') for (const t of ev._transitions) taken.add(t)
    },
  }).start()
}

/**
 * Feeds the SDK calls made since the last check to the host's checker, and
 * checks that the host's idea of the open call matches the widget's.
 */
function check(actor: Actor, monitor: ProtocolMonitor, label: string): void {
  for (const command of sink) monitor.record(command)
  sink = []
  const snap = actor.getSnapshot()
  for (const node of snap._nodes) visited.add(node.id)
  const open = monitor.open?.externalCallId ?? null
  const call = snap.context.call
  const resting = snap.matches('signedOut') || snap.matches({ signedIn: 'idle' })
  if (resting && open !== null) monitor.violations.push(`${label}: back at rest with call ${open} never completed`)
  if (!resting && call?.announced && !snap.matches({ signedIn: 'completed' }) && open !== call.externalCallId) {
    monitor.violations.push(`${label}: the host does not know the call in progress`)
  }
}

function report(events: CallMachineEvent[], monitor: ProtocolMonitor): void {
  replays += 1
  if (monitor.violations.length > 0) violations.push(`${events.map((e) => e.type).join(' → ')}:\n  ${monitor.violations.join('\n  ')}`)
}

/** Replays a path; returns the actor's persisted end state and the checker, to branch from. */
function replay(events: CallMachineEvent[], input: CallMachineInput) {
  sink = []
  const monitor = new ProtocolMonitor()
  const actor = startActor({ input })
  check(actor, monitor, 'start')
  events.forEach((event, i) => {
    actor.send(event)
    check(actor, monitor, `step ${i + 1} ${event.type}`)
  })
  const end = { snapshot: actor.getPersistedSnapshot(), monitor }
  actor.stop()
  report(events, monitor)
  return end
}

beforeAll(() => {
  vi.useFakeTimers()
  replay([{ type: 'call.dial' }], AUTO_LOGIN)
  for (const path of paths) {
    // The first step is XState's own init event, not something to send.
    const prefix = path.steps.map((s) => s.event).filter((e) => (e.type as string) !== 'xstate.init')
    const end = replay(prefix, INPUT)
    // From the end of the path, every event the state accepts, once.
    for (const event of EVENTS) {
      if (!path.state.can(event)) continue
      sink = []
      const monitor = end.monitor.clone()
      const actor = startActor({ input: INPUT, snapshot: end.snapshot })
      actor.send(event)
      check(actor, monitor, `then ${event.type}`)
      actor.stop()
      report([...prefix, event], monitor)
    }
  }
  // ~9,000 short replays: a hang guard for a busy machine, not a speed assertion.
}, 120_000)

afterAll(() => {
  vi.useRealTimers()
})

test('every path through the machine sends only SDK calls the host can accept', () => {
  expect(replays).toBeGreaterThan(paths.length * 5)
  expect(violations).toEqual([])
})

test('the paths visit every state of the machine', () => {
  const all = stateNodes.map((n) => n.id)
  // `boot` is transient (an `always` choice), so it shows as a taken transition instead.
  const passedThrough = new Set([...taken].map((t) => t.source.id))
  expect(all.filter((id) => !visited.has(id) && !passedThrough.has(id))).toEqual([])
  expect(all).toEqual(
    expect.arrayContaining([
      'call.signedOut',
      'call.signedIn.idle',
      'call.signedIn.outgoing.dialing',
      'call.signedIn.outgoing.ringing',
      'call.signedIn.incoming',
      'call.signedIn.answered',
      'call.signedIn.ended',
      'call.signedIn.completed',
    ]),
  )
})

test('the paths take every transition of the machine, guarded branches included', () => {
  const transitions = [machine.root, ...stateNodes].flatMap((n) => [...[...n.transitions.values()].flat(), ...(n.always ?? [])])
  const describe = (t: AnyTransitionDefinition) => `${t.source.id} --${t.eventType}--> ${t.target?.map((s) => s.id).join(',') ?? '(stay)'}`
  expect(transitions.length).toBeGreaterThan(50)
  expect(transitions.filter((t) => !taken.has(t)).map(describe)).toEqual([])
  // toDirectedGraph sees the same transitions (always-transitions aside).
  const edges: string[] = []
  const walk = (node: ReturnType<typeof toDirectedGraph>) => {
    for (const edge of node.edges) edges.push(describe(edge.transition))
    node.children.forEach(walk)
  }
  walk(toDirectedGraph(machine))
  const nonAlways = transitions.filter((t) => !(t.source.always ?? []).includes(t))
  expect(new Set(edges)).toEqual(new Set(nonAlways.map(describe)))
})

test('every callEndStatus is reachable and reported to the host', () => {
  const statuses = new Set<string>()
  for (const path of paths) {
    const call = path.state.context.call
    if (call?.endStatus && call.announced) statuses.add(call.endStatus)
  }
  expect([...statuses].sort()).toEqual(['BUSY', 'CANCELED', 'COMPLETED', 'FAILED', 'MISSED', 'NO_ANSWER', 'REJECTED'])
})
