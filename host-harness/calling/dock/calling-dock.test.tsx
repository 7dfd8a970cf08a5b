import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { installTestCrm } from '../../lib/testing/test-crm.ts'
import { CallingDock, dockReserve, dockTitle } from './calling-dock.tsx'
import { callingStore } from '../core/calling-store.ts'
import { callingRuntime } from '../core/runtime.ts'
import { OVERRIDE_STORAGE_KEY, type EffectiveSettings } from '../core/settings.ts'
import { CallingStatusBadge } from './status-badge.tsx'

beforeAll(() => {
  installTestCrm()
  window.localStorage.setItem(OVERRIDE_STORAGE_KEY, JSON.stringify({ name: 'Dev build', isReady: false }))
})

afterAll(() => {
  callingRuntime.dispose()
  window.localStorage.clear()
})

test('the dock shows the widget’s name, URL, a testing badge, and one widget state that the header badge and the frame cover agree on', async () => {
  render(
    <>
      <CallingStatusBadge />
      <CallingDock />
    </>,
  )
  const dock = await screen.findByRole('region', { name: 'Dev build' })
  const badge = () => screen.getByRole('group', { name: 'Calling status' })
  const pill = () => within(dock).getByRole('status')
  const cover = () => dock.querySelector('.calling-dock__cover')
  expect(dock).toHaveTextContent('http://127.0.0.1:4174/widget/')
  expect(dock).not.toHaveTextContent('isReady')
  expect(within(dock).getByText('testing')).toBeInTheDocument()
  expect(dock.querySelector('iframe')?.getAttribute('src')).toBe('http://127.0.0.1:4174/widget/')
  // The iframe's page is loading: every badge says so, and the frame is covered, never blank.
  expect(pill()).toHaveTextContent('Loading the widget…')
  expect(badge()).toHaveTextContent(/^Widget loadingtesting$/)
  expect(cover()).toHaveTextContent("Loading the widget's page…")
  act(() => callingStore.getState().patch({ status: 'syncing' }))
  expect(pill()).toHaveTextContent('Handshake syncing')
  expect(badge()).toHaveTextContent(/^Widget syncingtesting$/)
  expect(cover()).toHaveTextContent('Waiting for the widget to answer the handshake (SYNC_ACK)…')
  act(() => callingStore.getState().patch({ status: 'ready', initialized: true, loggedIn: false, available: true }))
  expect(pill()).toHaveTextContent('Handshake ready')
  expect(badge()).toHaveTextContent(/^Widget readyLogged outAvailabletesting$/)
  expect(cover()).toBeNull()
  act(() => callingStore.getState().patch({ status: 'failed', failureCause: 'iframe-error' }))
  expect(pill()).toHaveTextContent('Handshake failed: SYNC_ACK_FAILED (iframe-error)')
  expect(badge()).toHaveTextContent(/^Widget failed \(iframe-error\)testing$/)
  expect(cover()).toBeNull()
})

test('hiding keeps the iframe alive behind a Show widget button; minimizing keeps the header', async () => {
  const user = userEvent.setup()
  render(<CallingDock />)
  const dock = await screen.findByRole('region', { name: 'Dev build' })
  const frame = dock.querySelector('iframe')
  await user.click(within(dock).getByRole('button', { name: 'Minimize widget' }))
  expect(callingStore.getState().visibility).toEqual({ isHidden: false, isMinimized: true })
  expect(within(dock).getByRole('button', { name: 'Restore widget' })).toBeInTheDocument()
  await user.click(within(dock).getByRole('button', { name: 'Hide widget' }))
  expect(screen.queryByRole('region', { name: 'Dev build' })).toBeNull()
  await user.click(screen.getByRole('button', { name: 'Show widget' }))
  expect(screen.getByRole('region', { name: 'Dev build' }).querySelector('iframe')).toBe(frame)
  expect(callingStore.getState().visibility).toEqual({ isHidden: false, isMinimized: false })
})

test('widget errors appear as dismissable alerts, never as window.alert', async () => {
  const user = userEvent.setup()
  const nativeAlert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
  render(<CallingDock />)
  act(() => callingStore.getState().alert('Microphone permission denied', 'widget'))
  const alert = screen.getByRole('alert')
  expect(alert).toHaveTextContent('Calling widget: Microphone permission denied')
  await user.click(within(alert).getByRole('button', { name: 'Dismiss alert' }))
  expect(screen.queryByRole('alert')).toBeNull()
  expect(nativeAlert).not.toHaveBeenCalled()
})

test('a flood of widget errors keeps five readable alerts, counts the rest, and can be dismissed at once', async () => {
  const user = userEvent.setup()
  render(<CallingDock />)
  act(() => {
    for (let i = 1; i <= 12; i++) callingStore.getState().alert(i === 12 ? 'x'.repeat(50_000) : `error ${i}`, 'widget')
  })
  const alerts = screen.getAllByRole('alert')
  expect(alerts).toHaveLength(5)
  expect(alerts[0]).toHaveTextContent('error 8')
  expect(alerts[4]!.textContent!.length).toBeLessThan(400)
  expect(alerts[4]).toHaveTextContent('(50000 characters)')
  expect(screen.getByText('7 earlier alerts not shown (see the inspector)')).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Dismiss all' }))
  expect(screen.queryAllByRole('alert')).toHaveLength(0)
  expect(callingStore.getState().alertsDropped).toBe(0)
})

describe('dockTitle and dockReserve', () => {
  const settings = (url: 'api' | 'override' | 'query', name: 'api' | 'override' = 'api'): EffectiveSettings => ({
    name: name === 'override' ? 'Acme Dialer (dev)' : 'Ringside reference widget',
    url: 'https://dialer.example:3000/softphone/',
    width: 400,
    height: 600,
    isReady: true,
    supportsInboundCalling: true,
    sources: { url, name, isReady: 'api' },
  } as EffectiveSettings)

  test('the registered app’s name while its own widget is loaded', () => {
    expect(dockTitle(settings('api'), 'https://dialer.example:3000/softphone/')).toEqual({ title: 'Ringside reference widget' })
  })

  test('another widget (override or ?widget=): the override’s name, else its address with a note', () => {
    expect(dockTitle(settings('query'), null)).toEqual({ title: 'Widget at dialer.example:3000/softphone', note: 'instead of the registered app "Ringside reference widget"' })
    expect(dockTitle(settings('override', 'override'), null)).toEqual({ title: 'Acme Dialer (dev)' })
    // the widget moved itself with SET_WIDGET_URL
    expect(dockTitle(settings('api'), 'https://other.example/').title).toBe('Widget at other.example')
  })

  test('?widget= or an override naming the registered widget’s own URL: the registered app’s name, no note', () => {
    const same = { ...settings('query'), registeredUrl: 'https://dialer.example:3000/softphone/' }
    expect(dockTitle(same, null)).toEqual({ title: 'Ringside reference widget' })
    expect(dockTitle({ ...same, sources: { ...same.sources, url: 'override' } }, 'https://dialer.example:3000/softphone/')).toEqual({ title: 'Ringside reference widget' })
    // another URL than the registered one is still another widget
    expect(dockTitle({ ...same, url: 'https://other.example/' }, null)).toEqual({ title: 'Widget at other.example', note: 'instead of the registered app "Ringside reference widget"' })
  })

  test('the page keeps the dock’s width free in every placement unless it is hidden', () => {
    const base = { iframeLocation: 'widget' as const, visibility: { isHidden: false, isMinimized: false }, size: { width: 400, height: 600 }, mounted: true }
    expect(dockReserve(base)).toBe(434)
    expect(dockReserve({ ...base, visibility: { isHidden: true, isMinimized: false } })).toBe(0)
    // the call window stands beside the page too (the real one is a window of its own, never over the CRM)
    expect(dockReserve({ ...base, iframeLocation: 'window' })).toBe(434)
    expect(dockReserve({ ...base, iframeLocation: 'remote' })).toBe(434)
  })
})
