import { PRESS_WAIT_MAX_MS, PressWatch } from './press-watch.ts'
import { PageLink, WHO_WAIT_MS, windowDialBlocker } from './page-link.ts'
import type { ChannelPort } from './window-protocol.ts'
import { manualTimers } from './testing/manual-timers.ts'

/** A page's window as the watch sees it: presses are events dispatched on it. */
function page() {
  const target = new EventTarget()
  const send = (type: string, fields: Record<string, unknown> = {}) => target.dispatchEvent(Object.assign(new Event(type), fields))
  return { target, send }
}

/** A started watch on a page, its timers, and `ran`: what waited for the presses and has run. */
function watching() {
  const timers = manualTimers()
  const { target, send } = page()
  const watch = new PressWatch(target, timers)
  watch.start()
  return { timers, send, watch, ran: [] as string[] }
}

test('with no press down, what waits for the presses runs at once', () => {
  const { watch, ran } = watching()
  watch.afterPresses(() => ran.push('open'))
  expect(ran).toEqual(['open'])
})

test('a pointer press holds it until the press ends, and then until the task after (the click comes first)', () => {
  const { timers, send, watch, ran } = watching()
  send('pointerdown', { pointerId: 1 })
  watch.afterPresses(() => ran.push('open'))
  expect(timers.fire(0)).toBe(0)
  send('pointerdown', { pointerId: 2 }) // a second finger
  send('pointerup', { pointerId: 1 })
  expect(timers.fire(0)).toBe(0) // the second finger is still down
  send('pointercancel', { pointerId: 2 })
  expect(ran).toEqual([]) // not inside the pointerup's own task
  expect(timers.fire(0)).toBe(1)
  expect(ran).toEqual(['open'])
  expect(timers.pendingDelays()).toEqual([]) // the cap is gone too
})

test('a key held down (a Space on a button activates it on keyup) holds it too; key repeats do not count twice', () => {
  const { timers, send, watch, ran } = watching()
  send('keydown', { code: 'Space', key: ' ' })
  send('keydown', { code: 'Space', key: ' ', repeat: true })
  watch.afterPresses(() => ran.push('open'))
  send('keyup', { code: 'Space', key: ' ' })
  timers.fire(0)
  expect(ran).toEqual(['open'])
})

test('a press that began between the release and the next task is waited for as well', () => {
  const { timers, send, watch, ran } = watching()
  send('pointerdown', { pointerId: 1 })
  watch.afterPresses(() => ran.push('open'))
  send('pointerup', { pointerId: 1 })
  send('pointerdown', { pointerId: 1 }) // the second press of a double click
  timers.fire(0)
  expect(ran).toEqual([])
  send('pointerup', { pointerId: 1 })
  timers.fire(0)
  expect(ran).toEqual(['open'])
})

test('the page losing the focus ends its presses; a press whose end never comes holds it PRESS_WAIT_MAX_MS at most', () => {
  const { timers, send, watch, ran } = watching()
  send('keydown', { code: 'KeyA', key: 'a' })
  watch.afterPresses(() => ran.push('after blur'))
  send('blur')
  timers.fire(0)
  expect(ran).toEqual(['after blur'])

  send('pointerdown', { pointerId: 7 })
  watch.afterPresses(() => ran.push('after the cap'))
  expect(timers.pendingDelays()).toEqual([PRESS_WAIT_MAX_MS])
  timers.fire(PRESS_WAIT_MAX_MS)
  timers.fire(0)
  expect(ran).toEqual(['after blur', 'after the cap'])
  expect(watch.pressed).toBe(false)
})

test('a stopped watch no longer hears presses', () => {
  const { send, watch } = watching()
  watch.stop()
  send('pointerdown', { pointerId: 1 })
  expect(watch.pressed).toBe(false)
})

test("the page's own opening of the calling window, due during a press on the page, waits until the press has ended", () => {
  // The user presses a tab, a link or a button of the record page while the page is still looking for
  // an open calling window; the page's wait (WHO_WAIT_MS) ends during that press.
  const timers = manualTimers()
  const { target, send } = page()
  const presses = new PressWatch(target, timers)
  presses.start()
  const channel: ChannelPort = { postMessage: () => {}, addEventListener: () => {}, removeEventListener: () => {}, close: () => {} }
  const opened: boolean[] = [] // whether a press was down at each opening
  const link: PageLink = new PageLink({
    channel,
    openWindow: () => true,
    onNoWindow: () => (opened.push(presses.pressed), true),
    afterPresses: (fn) => presses.afterPresses(fn),
    setTimer: timers.setTimer,
  })
  link.start()
  send('pointerdown', { pointerId: 1 })
  expect(timers.fire(WHO_WAIT_MS)).toBe(1) // no calling window answered
  expect(opened).toEqual([])
  expect(windowDialBlocker(link.state)).not.toBeNull() // Call is still not offered
  send('pointerup', { pointerId: 1 }) // the press ends; its click is dispatched in this same task
  expect(opened).toEqual([])
  timers.fire(0)
  expect(opened).toEqual([false])
  expect(windowDialBlocker(link.state)).toBeNull()
})
