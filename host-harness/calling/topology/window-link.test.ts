import { ANNOUNCE_WAIT_MS, LOOKING_FOR_WINDOW, PageLink, WHO_WAIT_MS, windowDialBlocker } from './page-link.ts'
import { WindowLink, type WindowHostPort } from './window-link.ts'
import type { ChannelPort, DialInput, LockPort, WindowSummary } from './window-protocol.ts'
import { manualTimers } from './testing/manual-timers.ts'
import { nodeChannels } from './testing/node-channels.ts'

const { channel, settle } = nodeChannels('window-link-test')

const INPUT: DialInput = { objectType: 'contacts', objectId: '1', phoneNumber: '+16175550101', phoneProperty: 'phone', record: { id: '1', properties: { firstname: 'Ada' } } }

/** A calling integration as the window's link sees it: starting (connecting) until `set` says otherwise. */
function fakeHost() {
  const listeners = new Set<() => void>()
  const calls: DialInput[] = []
  let cannotDial: string | null = 'The calling widget is still connecting.'
  let starting = true
  let call: WindowSummary['call'] = null
  const host: WindowHostPort = {
    summary: () => ({ widgetName: 'Fixture', handshake: cannotDial ? 'syncing' : 'ready', cannotDial, widgetStarting: starting, loggedIn: cannotDial ? null : true, available: null, isReady: true, call }),
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    startCall: (input) => {
      calls.push(input)
      call = { externalCallId: 'x1', status: 'DIALING', number: input.phoneNumber }
      for (const l of listeners) l()
      return { ok: true }
    },
  }
  /** null: the widget can dial; a reason: it cannot, and `stillStarting` says whether that passes by itself. */
  const set = (reason: string | null, stillStarting = false) => {
    cannotDial = reason
    starting = stillStarting
    for (const l of listeners) l()
  }
  return { host, calls, set }
}

test('a Call press with no calling window opens it, and the window dials once its widget can', async () => {
  const { host, calls, set } = fakeHost()
  let opens = 0
  const page = new PageLink({ channel: channel(), openWindow: () => ((opens += 1), true), newRequestId: () => 'r1' })
  page.start()
  await settle()
  expect(page.state.window).toBeNull()

  expect(page.dial(INPUT)).toEqual({ ok: true })
  expect(opens).toBe(1)
  expect(page.state.pending).toBe(true)

  // The window loads (window.open) and announces itself; its widget is still connecting.
  const win = new WindowLink({ channel: channel(), host })
  win.start()
  await settle()
  expect(page.state.window?.handshake).toBe('syncing')
  expect(calls).toEqual([])

  set(null) // handshake, INITIALIZED, logged in
  await settle()
  expect(calls).toEqual([INPUT])
  expect(page.state).toMatchObject({ pending: false, lastResult: { ok: true } })
  expect(page.state.window?.call).toMatchObject({ status: 'DIALING', number: '+16175550101' })
})

test('a page that loads while the window is open finds it (who → present) and dials without opening another', async () => {
  const { host, calls, set } = fakeHost()
  set(null)
  const win = new WindowLink({ channel: channel(), host })
  win.start()
  await settle()

  let opens = 0
  const reloaded = new PageLink({ channel: channel(), openWindow: () => ((opens += 1), true) })
  reloaded.start()
  await settle()
  expect(reloaded.state.window).toMatchObject({ widgetName: 'Fixture', cannotDial: null })

  reloaded.dial(INPUT)
  await settle()
  expect(opens).toBe(0)
  expect(calls).toHaveLength(1)
  expect(reloaded.state.lastResult).toEqual({ ok: true })
})

test('a window that closes is forgotten; the next Call press opens one again', async () => {
  const { host, set } = fakeHost()
  set(null)
  const win = new WindowLink({ channel: channel(), host })
  win.start()
  let opens = 0
  const page = new PageLink({ channel: channel(), openWindow: () => ((opens += 1), true) })
  page.start()
  await settle()
  expect(page.state.window).not.toBeNull()
  win.stop()
  await settle()
  expect(page.state.window).toBeNull()
  page.dial(INPUT)
  expect(opens).toBe(1)
})

test('a blocked pop-up is a clear failure, not a silent one', () => {
  const page = new PageLink({ channel: channel(), openWindow: () => false })
  page.start()
  const result = page.dial(INPUT)
  expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/blocked the calling window/) })
  expect(page.open()).toMatchObject({ ok: false })
  expect(page.state.lastResult?.ok).toBe(false)
})

test('the window answers with the reason when its widget never becomes able to dial', async () => {
  const { host } = fakeHost()
  let fire: (() => void) | null = null
  const win = new WindowLink({ channel: channel(), host, setTimer: (fn) => ((fire = fn), 1), clearTimer: () => {} })
  win.start()
  const page = new PageLink({ channel: channel(), openWindow: () => true })
  page.start()
  await settle()
  page.dial(INPUT)
  await settle()
  expect(page.state.pending).toBe(true)
  fire!()
  await settle()
  expect(page.state.lastResult).toEqual({ ok: false, reason: 'The calling window could not dial: The calling widget is still connecting.' })
})

test('messages that are not the harness protocol are dropped and logged', async () => {
  const logs: string[] = []
  const page = new PageLink({ channel: channel(), openWindow: () => true, log: (m) => logs.push(m) })
  page.start()
  const other = channel()
  other.postMessage({ kind: 'present', summary: { widgetName: 'x'.repeat(10_000), handshake: 'ready', cannotDial: null, loggedIn: true, available: null, isReady: true, call: null } })
  other.postMessage({ kind: '__proto__' })
  other.postMessage('hello')
  await settle()
  expect(page.state.window).toBeNull()
  expect(logs).toHaveLength(3)
})

test('a dial-result for another page\'s request leaves this page pending', async () => {
  const page = new PageLink({ channel: channel(), openWindow: () => true, newRequestId: () => 'mine' })
  page.start()
  page.dial(INPUT)
  channel().postMessage({ kind: 'dial-result', requestId: 'theirs', ok: true })
  await settle()
  expect(page.state.pending).toBe(true)
})

test('a page that finds no calling window opens one by itself; one that finds it does not', async () => {
  let fire: (() => void) | null = null
  let opened = 0
  const lonely = new PageLink({ channel: channel(), openWindow: () => true, onNoWindow: () => ((opened += 1), true), setTimer: (fn) => ((fire = fn), 1) })
  lonely.start()
  await settle()
  fire!()
  expect(opened).toBe(1)

  const { host } = fakeHost()
  new WindowLink({ channel: channel(), host }).start()
  const found = new PageLink({ channel: channel(), openWindow: () => true, onNoWindow: () => ((opened += 1), true), setTimer: (fn) => ((fire = fn), 1) })
  found.start()
  await settle()
  fire!()
  expect(opened).toBe(1)
})

test('a dial request carries only the record properties its label needs', async () => {
  const { host, calls, set } = fakeHost()
  set(null)
  new WindowLink({ channel: channel(), host }).start()
  const page = new PageLink({ channel: channel(), openWindow: () => true })
  page.start()
  await settle()
  page.dial({ ...INPUT, record: { id: '1', properties: { firstname: 'Ada', lastname: 'Lovelace', notes: 'private', ['__proto__']: 'x' } as Record<string, string> } })
  await settle()
  expect(calls[0]?.record).toEqual({ id: '1', properties: { firstname: 'Ada', lastname: 'Lovelace' } })
  expect(Object.getPrototypeOf(calls[0]?.record?.properties)).toBe(Object.prototype)
})

test("a record page's Call is blocked by what the calling window reports, and not when no window is known or its widget is still starting", () => {
  const summary = (cannotDial: string | null, widgetStarting = false): WindowSummary => ({ widgetName: 'Fixture', handshake: 'ready', cannotDial, widgetStarting, loggedIn: cannotDial === null, available: null, isReady: true, call: null })
  const state = { looking: false, opening: false, pending: false, lastResult: null }
  expect(windowDialBlocker({ ...state, window: null })).toBeNull()
  expect(windowDialBlocker({ ...state, window: null, looking: true })).toBe(LOOKING_FOR_WINDOW)
  expect(windowDialBlocker({ ...state, window: summary('Log in to the calling widget before calling.') })).toBe('Log in to the calling widget before calling.')
  expect(windowDialBlocker({ ...state, window: summary(null) })).toBeNull()
  expect(windowDialBlocker({ ...state, window: summary('The calling widget is still connecting.', true) })).toBeNull()
})

test('a dial handed to a calling window that goes away before answering goes to the next window that announces itself', async () => {
  // The page's Call press finds no window yet: the dial waits for one.
  const page = new PageLink({ channel: channel(), openWindow: () => true, newRequestId: () => 'r1' })
  page.start()
  page.dial(INPUT)
  // A first window page announces itself and takes the dial; its widget is still connecting.
  const first = fakeHost()
  const firstLink = new WindowLink({ channel: channel(), host: first.host })
  firstLink.start()
  await settle()
  expect(page.state.window).not.toBeNull()
  // That page goes away before its widget could dial (a second load of the window replaced it).
  firstLink.stop()
  await settle()
  expect(page.state).toMatchObject({ window: null, pending: true })
  // The page that replaced it announces itself; its widget can dial.
  const second = fakeHost()
  second.set(null)
  new WindowLink({ channel: channel(), host: second.host }).start()
  await settle()
  expect(first.calls).toEqual([])
  expect(second.calls).toEqual([INPUT])
  expect(page.state).toMatchObject({ pending: false, lastResult: { ok: true } })
})

test('a window that dialed and then goes away is not asked again', async () => {
  const { host, calls, set } = fakeHost()
  set(null)
  const link = new WindowLink({ channel: channel(), host })
  link.start()
  const page = new PageLink({ channel: channel(), openWindow: () => true, newRequestId: () => 'r1' })
  page.start()
  await settle()
  page.dial(INPUT)
  await settle()
  link.stop()
  const next = fakeHost()
  next.set(null)
  new WindowLink({ channel: channel(), host: next.host }).start()
  await settle()
  expect(calls).toEqual([INPUT])
  expect(next.calls).toEqual([])
})

/**
 * A channel whose messages wait for deliver(), so a test decides what each side has heard and when.
 * As a BroadcastChannel: each message goes to every other port open when it was posted, in order.
 */
function manualBus() {
  type Port = { listeners: Set<(event: MessageEvent) => void>; closed: boolean }
  const ports: Port[] = []
  const queue: Array<() => void> = []
  const port = (): ChannelPort => {
    const self: Port = { listeners: new Set(), closed: false }
    ports.push(self)
    return {
      postMessage: (message) => {
        const data: unknown = structuredClone(message)
        for (const other of ports) {
          if (other === self || other.closed) continue
          queue.push(() => {
            for (const listener of [...other.listeners]) listener({ data } as MessageEvent)
          })
        }
      },
      addEventListener: (_type, listener) => void self.listeners.add(listener),
      removeEventListener: (_type, listener) => void self.listeners.delete(listener),
      close: () => void (self.closed = true),
    }
  }
  const deliver = () => {
    while (queue.length > 0) queue.shift()!()
  }
  return { port, deliver }
}

test('a page that opens the calling window by itself does so before it offers Call, so the opening never falls inside a press', () => {
  const bus = manualBus()
  let whoTimer: (() => void) | null = null
  const atOpening: Array<string | null> = []
  const page: PageLink = new PageLink({
    channel: bus.port(),
    openWindow: () => true,
    onNoWindow: () => (atOpening.push(windowDialBlocker(page.state)), true),
    setTimer: (fn) => ((whoTimer = fn), 1),
  })
  page.start()
  bus.deliver() // `who`: no window answers
  expect(windowDialBlocker(page.state)).toBe(LOOKING_FOR_WINDOW)
  whoTimer!()
  expect(atOpening).toEqual([LOOKING_FOR_WINDOW]) // still not offered while the window opens
  expect(windowDialBlocker(page.state)).toBeNull() // offered right after, in the same task

  // A page that finds the window open offers Call at once, without waiting.
  const win = fakeHost()
  win.set(null)
  new WindowLink({ channel: bus.port(), host: win.host }).start()
  const reloaded = new PageLink({ channel: bus.port(), openWindow: () => true, onNoWindow: () => (atOpening.push('again'), true), setTimer: () => 1 })
  reloaded.start()
  expect(windowDialBlocker(reloaded.state)).toBe(LOOKING_FOR_WINDOW)
  bus.deliver()
  expect(windowDialBlocker(reloaded.state)).toBeNull()
  expect(atOpening).toHaveLength(1)
})

/** When the Call press lands, relative to the page's own opening of the calling window (WHO_WAIT_MS after load). */
const PRESS_MOMENTS = ['after the page opened the window, before it announces itself', 'after the window announced itself, its widget still starting'] as const

test.each(PRESS_MOMENTS)('a Call press %s is never blocked and is dialed exactly once, when the widget can', (moment) => {
  const bus = manualBus()
  let whoTimer: (() => void) | null = null
  let opens = 0
  const blockers: Array<string | null> = []
  const page: PageLink = new PageLink({
    channel: bus.port(),
    openWindow: () => ((opens += 1), true),
    onNoWindow: () => page.open().ok,
    setTimer: (fn) => ((whoTimer = fn), 1),
    newRequestId: () => 'r1',
  })
  const press = () => {
    // The Call button is enabled exactly when windowDialBlocker is null.
    expect(windowDialBlocker(page.state)).toBeNull()
    expect(page.dial(INPUT)).toEqual({ ok: true })
  }
  page.start()
  bus.deliver() // `who`: no window answers
  whoTimer!() // the page's own opening falls due
  page.subscribe(() => blockers.push(windowDialBlocker(page.state)))
  if (moment === PRESS_MOMENTS[0]) press()
  const win = fakeHost()
  new WindowLink({ channel: bus.port(), host: win.host }).start() // the window's page loads
  bus.deliver()
  expect(page.state.window).toMatchObject({ cannotDial: 'The calling widget is still connecting.', widgetStarting: true })
  if (moment === PRESS_MOMENTS[1]) press()
  bus.deliver()
  expect(page.state.pending).toBe(true)

  win.set('The calling widget has not sent INITIALIZED yet.', true) // handshake done
  bus.deliver()
  expect(win.calls).toEqual([])
  win.set(null) // INITIALIZED, logged in
  bus.deliver()
  win.set(null)
  bus.deliver()

  expect(win.calls).toEqual([INPUT])
  expect(page.state).toMatchObject({ pending: false, lastResult: { ok: true } })
  // The page opened the window once; a press with no window known yet opens (finds) it again.
  expect(opens).toBe(moment === PRESS_MOMENTS[0] ? 2 : 1)
  // Nothing disabled the Call button while the window opened.
  expect(blockers.filter((b) => b !== null)).toEqual([])
})

test('a calling window whose widget waits on the user (logged out) blocks the Call with its reason', () => {
  const bus = manualBus()
  const page = new PageLink({ channel: bus.port(), openWindow: () => true })
  page.start()
  const win = fakeHost()
  win.set('Log in to the calling widget before calling.')
  new WindowLink({ channel: bus.port(), host: win.host }).start()
  bus.deliver()
  expect(windowDialBlocker(page.state)).toBe('Log in to the calling widget before calling.')
})

test('with two calling windows open, a Call press is dialed by exactly one of them', () => {
  // Two tabs that could not find each other's window (a reply to `who` came too late) each opened one.
  const bus = manualBus()
  const first = fakeHost()
  const second = fakeHost()
  first.set(null)
  second.set(null)
  const firstLink = new WindowLink({ channel: bus.port(), host: first.host, windowId: 'w1' })
  firstLink.start()
  new WindowLink({ channel: bus.port(), host: second.host, windowId: 'w2' }).start()
  const page = new PageLink({ channel: bus.port(), openWindow: () => true, newRequestId: () => 'r1' })
  page.start()
  bus.deliver()
  page.dial(INPUT)
  bus.deliver()
  expect([...first.calls, ...second.calls]).toEqual([INPUT])
  expect(page.state).toMatchObject({ pending: false, lastResult: { ok: true } })

  // The other window closing changes nothing here; the one the page reports from closing is forgotten.
  const reported = page.state.window
  firstLink.stop()
  bus.deliver()
  expect(page.state.window).toBe(reported)
})

/**
 * An origin's Web Locks as navigator.locks keeps them, shared by every page of the test: per name, requests
 * are granted in order, an exclusive one alone, shared ones together; a lock is held until the promise its
 * callback returned settles. Callbacks run in a later microtask, as the browser's do.
 */
function fakeLocks(): LockPort {
  type Request = { mode: 'exclusive' | 'shared'; granted: boolean; grant(): void }
  const queues = new Map<string, Request[]>()
  const grantable = (name: string) => {
    const queue = queues.get(name) ?? []
    for (const [index, request] of queue.entries()) {
      if (request.granted) continue
      const ahead = queue.slice(0, index)
      const ok = request.mode === 'exclusive' ? ahead.length === 0 : ahead.every((r) => r.mode === 'shared' && r.granted)
      if (!ok) return
      request.granted = true
      request.grant()
    }
  }
  return {
    request: (name, { mode }, callback) =>
      new Promise((resolve, reject) => {
        const queue = queues.get(name) ?? []
        queues.set(name, queue)
        const request: Request = {
          mode,
          granted: false,
          grant: () =>
            queueMicrotask(() => {
              Promise.resolve()
                .then(callback)
                .then(resolve, reject)
                .finally(() => {
                  queue.splice(queue.indexOf(request), 1)
                  grantable(name)
                })
            }),
        }
        queue.push(request)
        grantable(name)
      }),
    query: async () => ({ held: [...queues].flatMap(([name, queue]) => queue.filter((r) => r.granted).map(() => ({ name }))) }),
  }
}

/** Lets the fake locks' callbacks and grants run (microtasks only: no timer of the test fires). */
const grants = async () => {
  for (let i = 0; i < 20; i += 1) await Promise.resolve()
}

test('of two tabs that load at once and hear of no calling window in time, only one opens a window by itself', async () => {
  // A busy machine: the window's report reaches no page before the pages' waits are over.
  const bus = manualBus()
  const locks = fakeLocks()
  const timers = manualTimers()
  let opens = 0
  const tab = () => new PageLink({ channel: bus.port(), openWindow: () => true, onNoWindow: () => ((opens += 1), true), locks, ...timers })
  const first = tab()
  const second = tab()
  first.start()
  second.start()
  bus.deliver() // their `who`s: no window yet
  timers.fire(WHO_WAIT_MS) // both waits end
  await grants()
  expect(opens).toBe(1)

  // The window the first tab opened loads; its report has not reached the tabs yet.
  const win = fakeHost()
  new WindowLink({ channel: bus.port(), host: win.host, locks }).start()
  await grants()
  expect(opens).toBe(1)
  expect(windowDialBlocker(second.state)).toBe(LOOKING_FOR_WINDOW) // the second tab waits, Call not offered yet

  bus.deliver() // the window's `present` reaches both tabs
  await grants()
  expect(opens).toBe(1)
  expect(first.state.window).not.toBeNull()
  expect(second.state).toMatchObject({ looking: false, window: { widgetName: 'Fixture' } })
})

test("a tab that hears of no calling window in time opens none while one holds the window's lock, and offers Call once it reports", async () => {
  const bus = manualBus()
  const locks = fakeLocks()
  const timers = manualTimers()
  const win = fakeHost()
  win.set(null)
  new WindowLink({ channel: bus.port(), host: win.host, locks }).start() // open since long ago: its `present` was missed
  await grants()
  let opens = 0
  const page = new PageLink({ channel: bus.port(), openWindow: () => true, onNoWindow: () => ((opens += 1), true), locks, ...timers })
  page.start()
  timers.fire(WHO_WAIT_MS) // the window's answer to `who` is late
  await grants()
  expect(opens).toBe(0)
  expect(windowDialBlocker(page.state)).toBe(LOOKING_FOR_WINDOW)
  bus.deliver()
  await grants()
  expect(windowDialBlocker(page.state)).toBeNull()
  expect(page.state.window?.widgetName).toBe('Fixture')

  // A window that never reports frees the tab after ANNOUNCE_WAIT_MS: Call is offered (it opens a window).
  const lateBus = manualBus()
  new WindowLink({ channel: lateBus.port(), host: fakeHost().host, locks }).start()
  const late = new PageLink({ channel: lateBus.port(), openWindow: () => true, onNoWindow: () => ((opens += 1), true), locks, ...timers })
  late.start()
  timers.fire(WHO_WAIT_MS)
  await grants()
  expect(late.state.looking).toBe(true)
  timers.fire(ANNOUNCE_WAIT_MS)
  await grants()
  expect(opens).toBe(0)
  expect(windowDialBlocker(late.state)).toBeNull()
})

test('a tab whose opening was blocked (no pop-ups) lets the next tab try at once', async () => {
  const bus = manualBus()
  const locks = fakeLocks()
  const timers = manualTimers()
  const tries: string[] = []
  const blocked = new PageLink({ channel: bus.port(), openWindow: () => false, onNoWindow: () => (tries.push('blocked'), false), locks, ...timers })
  const next = new PageLink({ channel: bus.port(), openWindow: () => true, onNoWindow: () => (tries.push('next'), true), locks, ...timers })
  blocked.start()
  next.start()
  timers.fire(WHO_WAIT_MS)
  await grants()
  expect(tries).toEqual(['blocked', 'next'])
})
