import { ANNOUNCE_WAIT_MS, PageLink, WHO_WAIT_MS } from './page-link.ts'
import type { ChannelMessage, WindowSummary } from './window-protocol.ts'
import { manualTimers } from './testing/manual-timers.ts'
import { nodeChannels } from './testing/node-channels.ts'

const { channel, settle } = nodeChannels('page-link-test')

const SUMMARY: WindowSummary = { widgetName: 'Fixture', handshake: 'syncing', cannotDial: 'connecting', widgetStarting: true, loggedIn: null, available: null, isReady: true, call: null }

test('while the calling window it opened loads, the record page says it is opening (not "not open"), until the window announces itself', async () => {
  const timers = manualTimers()
  const page: PageLink = new PageLink({ channel: channel(), openWindow: () => true, onNoWindow: (): boolean => page.open().ok, ...timers })
  page.start()
  expect(page.state).toMatchObject({ looking: true, opening: false })
  timers.fire(WHO_WAIT_MS)
  expect(page.state).toMatchObject({ looking: false, opening: true, window: null })

  channel().postMessage({ kind: 'present', windowId: 'w1', summary: SUMMARY } satisfies ChannelMessage)
  await settle()
  expect(page.state).toMatchObject({ opening: false, window: SUMMARY })
  // The ended wait changes nothing once the window is known.
  timers.fire(ANNOUNCE_WAIT_MS)
  expect(page.state).toMatchObject({ opening: false, window: SUMMARY })
})

test('a window that never announces itself is "not open" again after the announce wait; a blocked pop-up is never "opening"', () => {
  const timers = manualTimers()
  const page = new PageLink({ channel: channel(), openWindow: () => true, ...timers })
  page.start()
  expect(page.dial({ objectType: 'contacts', objectId: '1', phoneNumber: '+16175550101', phoneProperty: 'phone' })).toEqual({ ok: true })
  expect(page.state).toMatchObject({ opening: true, pending: true })
  timers.fire(ANNOUNCE_WAIT_MS)
  expect(page.state).toMatchObject({ opening: false, window: null })

  const blocked = new PageLink({ channel: channel(), openWindow: () => false, ...manualTimers() })
  blocked.start()
  expect(blocked.open().ok).toBe(false)
  expect(blocked.state.opening).toBe(false)
})
