import { DROPPED_CALL_KEY, droppedCallText, installFullNavigation, rememberDroppedCall, storeNavigationMode, takeDroppedCall } from './full-navigation.ts'

/** A window with its own storage and a location whose reload is counted. */
function fakeWindow(search = '') {
  const target = new EventTarget()
  let reloads = 0
  const win = Object.assign(target, {
    location: { search, reload: () => (reloads += 1) },
    localStorage: new Map<string, string>(),
    sessionStorage: new Map<string, string>(),
  })
  const storage = (map: Map<string, string>) => ({
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  })
  const w = { ...win, addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target), localStorage: storage(win.localStorage), sessionStorage: storage(win.sessionStorage) }
  return { win: w as unknown as Window, reloads: () => reloads, dispatch: (type: string) => target.dispatchEvent(new Event(type)), session: win.sessionStorage }
}

test('in-page navigation (the default) never reloads', () => {
  const { win, reloads, dispatch } = fakeWindow()
  installFullNavigation(win)
  dispatch('hashchange')
  expect(reloads()).toBe(0)
})

test('?navigation=full reloads the page on every route change', () => {
  const { win, reloads, dispatch } = fakeWindow('?navigation=full')
  const off = installFullNavigation(win)
  dispatch('hashchange')
  dispatch('hashchange')
  expect(reloads()).toBe(2)
  off()
  dispatch('hashchange')
  expect(reloads()).toBe(2)
})

test('the stored setting turns full loads on and off at once', () => {
  const { win, reloads, dispatch } = fakeWindow()
  installFullNavigation(win)
  storeNavigationMode('full', win)
  dispatch('hashchange')
  storeNavigationMode('in-page', win)
  dispatch('hashchange')
  expect(reloads()).toBe(1)
})

test('a call open when the page goes away is reported once by the next load', () => {
  const { win, dispatch } = fakeWindow()
  const call = { externalCallId: 'c-1', status: 'IN_PROGRESS', engagementId: 42, record: { objectType: 'contacts', objectId: '1', label: 'Ada Lovelace' } }
  rememberDroppedCall(() => call, win)
  dispatch('pagehide')
  const dropped = takeDroppedCall(win)
  expect(dropped).toEqual(call)
  expect(droppedCallText(dropped!)).toBe('The call c-1 on Ada Lovelace (IN_PROGRESS) was dropped by a full page load: engagement 42 stays as the API holds it.')
  expect(takeDroppedCall(win)).toBeNull()
})

test('no open call, no note; a malformed note is ignored', () => {
  const { win, dispatch, session } = fakeWindow()
  rememberDroppedCall(() => null, win)
  dispatch('pagehide')
  expect(takeDroppedCall(win)).toBeNull()
  session.set(DROPPED_CALL_KEY, '{"externalCallId":1}')
  expect(takeDroppedCall(win)).toBeNull()
  session.set(DROPPED_CALL_KEY, '{"externalCallId":"a","status":"RINGING","engagementId":1.5,"record":{"objectType":"contacts"}}')
  expect(takeDroppedCall(win)).toEqual({ externalCallId: 'a', status: 'RINGING' })
})
