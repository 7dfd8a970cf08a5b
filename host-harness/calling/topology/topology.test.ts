import { createCallingStore } from '../core/calling-store.ts'
import type { CallingRuntime } from '../core/runtime.ts'
import { DROPPED_CALL_KEY } from './full-navigation.ts'
import { Topology, openCallingWindow, windowSummaryOf } from './topology.ts'

function fakeRuntime(store: ReturnType<typeof createCallingStore>) {
  const dialed: unknown[] = []
  const runtime = {
    setIframeLocation: (location: 'widget' | 'remote' | 'window') => store.getState().patch({ iframeLocation: location }),
    startCall: (input: unknown) => (dialed.push(input), { ok: true as const, messageId: 'm1' }),
  }
  return { runtime: runtime as unknown as CallingRuntime, dialed }
}

/** A window whose address and pop-ups the test controls. */
function fakeWindow(search: string) {
  const target = new EventTarget()
  const opened: string[] = []
  const win = Object.assign(target, {
    location: { search, pathname: '/', reload: () => {} },
    localStorage: window.localStorage,
    sessionStorage: window.sessionStorage,
    open: (url: string, name: string) => {
      opened.push(`${name}:${url}`)
      return { location: { href: 'about:blank', replace: (u: string) => opened.push(u) }, focus: () => {} }
    },
  })
  return { win: win as unknown as Window, opened }
}

const INPUT = { objectType: 'contacts', objectId: '1', phoneNumber: '+16175550101', phoneProperty: 'phone' }

test('in the window placement a record page sends its Call to the calling window, opening it', () => {
  const store = createCallingStore({})
  const { runtime, dialed } = fakeRuntime(store)
  const { win, opened } = fakeWindow('?placement=window&widget=http%3A%2F%2Fw%2F')
  const topology = new Topology()
  topology.start({ runtime, store, inCallingWindow: false, widgetName: () => 'W', win })
  expect(store.getState().iframeLocation).toBe('window')
  expect(topology.canDialHere()).toBe(true)
  expect(topology.routeCall(INPUT)).toEqual({ ok: true, messageId: 'calling-window' })
  expect(dialed).toEqual([]) // the page's own runtime does not dial
  expect(opened).toEqual(['ringside-calling-window:', '?placement=window&widget=http%3A%2F%2Fw%2F#/calling-integration-popup-ui/123456'])
  topology.pageLink?.stop()
})

test('in the page placements the page dials itself; the calling window always does', () => {
  const store = createCallingStore({})
  const { runtime } = fakeRuntime(store)
  const page = new Topology()
  page.start({ runtime, store, inCallingWindow: false, widgetName: () => 'W', win: fakeWindow('?placement=remote').win })
  expect(store.getState().iframeLocation).toBe('remote')
  expect(page.routeCall(INPUT)).toBeNull()
  page.pageLink?.stop()

  const windowStore = createCallingStore({})
  const inWindow = new Topology()
  inWindow.start({ runtime: fakeRuntime(windowStore).runtime, store: windowStore, inCallingWindow: true, widgetName: () => 'W', win: fakeWindow('?placement=widget').win })
  expect(windowStore.getState().iframeLocation).toBe('window')
  expect(inWindow.routeCall(INPUT)).toBeNull()
})

test('a bad ?placement= is reported; a dropped call of the previous page is announced once', () => {
  window.sessionStorage.setItem(DROPPED_CALL_KEY, JSON.stringify({ externalCallId: 'c9', status: 'RINGING', engagementId: 7 }))
  const store = createCallingStore({})
  new Topology().start({ runtime: fakeRuntime(store).runtime, store, inCallingWindow: false, widgetName: () => 'W', win: fakeWindow('?placement=floating').win })
  expect(store.getState().alerts.map((a) => a.message)).toEqual([
    '?placement=floating is not one of widget, remote, window; it is ignored.',
    'The call c9 (RINGING) was dropped by a full page load: engagement 7 stays as the API holds it.',
  ])
  expect(window.sessionStorage.getItem(DROPPED_CALL_KEY)).toBeNull()
})

test('the window reports its widget, whether it can dial and the call as the API holds it', () => {
  const store = createCallingStore({})
  store.getState().patch({
    status: 'ready',
    mounted: true,
    initialized: true,
    loggedIn: true,
    call: { externalCallId: 'x'.repeat(600), direction: 'outbound', number: '+1 617 555 0101', status: 'IN_PROGRESS', engagementId: 5, engagement: { id: '5', properties: { hs_call_status: 'IN_PROGRESS' } }, record: { objectType: 'contacts', objectId: '1', label: 'Maria Garcia' } },
  })
  const summary = windowSummaryOf(store.getState(), 'Widget at w/')
  expect(summary).toMatchObject({ widgetName: 'Widget at w/', handshake: 'ready', cannotDial: null, call: { status: 'IN_PROGRESS', engagementId: 5, engagementStatus: 'IN_PROGRESS', record: { label: 'Maria Garcia' } } })
  expect(summary.call?.externalCallId).toHaveLength(512)
})

test('the window says whether its widget is still starting (a Call waits for it) or waits on the user (a Call is blocked)', () => {
  const store = createCallingStore({})
  const starting = () => windowSummaryOf(store.getState(), 'W').widgetStarting
  expect(starting()).toBe(true) // the calling settings are loading
  store.getState().patch({ settingsLoad: 'loaded' })
  expect(starting()).toBe(false) // no widget to load
  store.getState().patch({ mounted: true, status: 'syncing' })
  expect(starting()).toBe(true)
  store.getState().patch({ status: 'ready' })
  expect(starting()).toBe(true) // no INITIALIZED yet
  store.getState().patch({ initialized: true, loggedIn: false })
  expect(windowSummaryOf(store.getState(), 'W')).toMatchObject({ widgetStarting: false, cannotDial: 'Log in to the calling widget before calling.' })
  store.getState().patch({ loggedIn: true })
  expect(windowSummaryOf(store.getState(), 'W')).toMatchObject({ widgetStarting: false, cannotDial: null })
  store.getState().patch({ status: 'failed', failureCause: 'timeout' })
  expect(starting()).toBe(false)
})

test("the widget's NAVIGATE_TO_RECORD in the calling window moves the page that opened it, never the window", () => {
  const focus = vi.fn()
  const opener = { closed: false, location: { origin: 'http://h', hash: '#/contacts' }, focus }
  const opened: string[] = []
  const win = { opener, location: { origin: 'http://h', pathname: '/', search: '?placement=window' }, open: (url: string) => opened.push(url) } as unknown as Window
  const topology = new Topology()
  expect(topology.navigateFromWindow('COMPANY', '3', win)).toBe(true)
  expect(opener.location.hash).toBe('#/companies/3')
  expect(focus).toHaveBeenCalled()
  expect(topology.navigateFromWindow('contacts', 'x', win)).toBe(false)

  const orphan = { opener: null, location: win.location, open: (url: string) => opened.push(url) } as unknown as Window
  expect(topology.navigateFromWindow('contacts', '2', orphan)).toBe(true)
  expect(opened).toEqual(['#/contacts/2'])
})

test('a calling window still loading its address is not sent there again (the page\'s own opening and a Call press can meet)', () => {
  const replaced: string[] = []
  // The one window the browser has under the name: about:blank until its page arrives.
  const popup = { location: { href: 'about:blank', replace: (url: string) => replaced.push(url) }, focus: () => {} }
  const win = { location: { pathname: '/', search: '?placement=window' }, open: () => popup } as unknown as Window
  expect(openCallingWindow(win)).toBe(true) // no window answered `who`: the page opens one
  expect(openCallingWindow(win)).toBe(true) // the Call press, while that window still loads
  expect(replaced).toEqual(['?placement=window#/calling-integration-popup-ui/123456'])
  // Once its page is there, a press only finds and focuses it.
  popup.location.href = 'http://h/?placement=window#/calling-integration-popup-ui/123456'
  expect(openCallingWindow(win)).toBe(true)
  expect(replaced).toHaveLength(1)
})
