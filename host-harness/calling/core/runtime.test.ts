/**
 * The runtime with a real CallingHost in jsdom: jsdom does not load the
 * widget page, so each test plays the iframe's `load` and the widget's
 * replies (as MessageEvents from the iframe's window and the widget origin).
 */
import { api, CALLING_SETTINGS_PATH } from '../../lib/api-client.ts'
import { installTestCrm } from '../../lib/testing/test-crm.ts'
import { createCallingStore, type CallingStore } from './calling-store.ts'
import { CallingRuntime } from './runtime.ts'
import { WIDGET_ALLOW, WIDGET_SANDBOX, syncIntervalFromQuery, syncTimeoutFromQuery } from './widget-host.ts'
import { OVERRIDE_STORAGE_KEY } from './settings.ts'

const REGISTERED = 'http://127.0.0.1:4174/widget/'

let store: CallingStore
let runtime: CallingRuntime
let container: HTMLDivElement

function startRuntime(search = '') {
  window.history.replaceState(null, '', `/${search}`)
  store = createCallingStore()
  runtime = new CallingRuntime(store, api)
  container = document.createElement('div')
  document.body.append(container)
  runtime.attach(container)
}

const iframe = () => container.querySelector('iframe')

async function mounted(url: string): Promise<HTMLIFrameElement> {
  await vi.waitFor(() => expect(iframe()?.getAttribute('src')).toBe(url))
  return iframe()!
}

/** Plays the iframe load and the widget's SYNC_ACK. */
function handshake(frame: HTMLIFrameElement) {
  frame.dispatchEvent(new Event('load'))
  const sync = store.getState().traffic.filter((e) => e.type === 'SYNC').at(-1)
  const id = (sync?.message as { messageId: string }).messageId
  fromWidget(frame, { type: 'SYNC_ACK', messageId: id, version: '0.9.7' })
  expect(store.getState().status).toBe('ready')
}

let widgetSeq = 0
function fromWidget(frame: HTMLIFrameElement, data: Record<string, unknown>) {
  widgetSeq += 1
  const origin = new URL(frame.getAttribute('src')!).origin
  window.dispatchEvent(new MessageEvent('message', { data: { messageId: `w_${widgetSeq}`, ...data }, origin, source: frame.contentWindow }))
}

beforeEach(() => {
  installTestCrm()
  window.localStorage.clear()
})

afterEach(() => {
  runtime.dispose()
  container.remove()
})

test('the registered widget is mounted with the sandbox and allow lists, and becomes ready on SYNC_ACK', async () => {
  startRuntime()
  const frame = await mounted(REGISTERED)
  expect(frame.getAttribute('sandbox')).toBe(WIDGET_SANDBOX)
  expect(WIDGET_SANDBOX.split(' ').sort()).toEqual(['allow-forms', 'allow-popups', 'allow-same-origin', 'allow-scripts'])
  expect(frame.getAttribute('allow')).toBe(WIDGET_ALLOW)
  expect(store.getState()).toMatchObject({ mounted: true, currentSrc: REGISTERED, effective: { name: 'Ringside reference widget', isReady: true } })
  handshake(frame)
  expect(store.getState().widgetVersion).toBe('0.9.7')
  const sync = store.getState().traffic.find((e) => e.type === 'SYNC')?.message
  expect(sync).toMatchObject({ portalId: 123456, userId: 1, ownerId: 1, iframeLocation: 'widget', hostUrl: window.location.origin })
})

test('?widget= in the address wins over the registered URL; an invalid one is reported and ignored', async () => {
  startRuntime('?widget=' + encodeURIComponent('http://127.0.0.1:4174/widget/?outcome=busy'))
  await mounted('http://127.0.0.1:4174/widget/?outcome=busy')
  runtime.dispose()
  startRuntime('?widget=javascript:alert(1)')
  await mounted(REGISTERED)
  expect(store.getState().settingsErrors).toEqual([expect.stringContaining('?widget=javascript:alert(1) is not an http(s) URL')])
})

test('a ?widget= URL off this machine waits for a yes: the registered widget keeps running, no handshake with it', async () => {
  startRuntime('?widget=' + encodeURIComponent('https://attacker.example/w') + '&syncFast=1')
  const frame = await mounted(REGISTERED)
  expect(store.getState().pendingWidget).toEqual({ url: 'https://attacker.example/w', origin: 'https://attacker.example' })
  expect(container.querySelectorAll('iframe')).toHaveLength(1)
  handshake(frame)
  expect(store.getState().effective?.sources.url).toBe('api')
  runtime.loadPendingWidget()
  await mounted('https://attacker.example/w')
  expect(store.getState()).toMatchObject({ pendingWidget: null, effective: { sources: { url: 'query' } } })
  expect(window.location.search).toContain('widget=')
})

test('keeping the registered widget drops ?widget= from the address; nothing is framed from it', async () => {
  startRuntime('?widget=' + encodeURIComponent('http://127.attacker.example/w') + '&syncFast=1')
  await mounted(REGISTERED)
  expect(store.getState().pendingWidget?.origin).toBe('http://127.attacker.example')
  runtime.keepRegisteredWidget()
  expect(store.getState().pendingWidget).toBeNull()
  expect(window.location.search).toBe('?syncFast=1')
  await mounted(REGISTERED)
  // Loading after declining does nothing: the choice was made.
  runtime.loadPendingWidget()
  expect(iframe()?.getAttribute('src')).toBe(REGISTERED)
})

test('a localStorage override from another tab switches the widget; an invalid one is shown and ignored', async () => {
  startRuntime()
  await mounted(REGISTERED)
  window.localStorage.setItem(OVERRIDE_STORAGE_KEY, JSON.stringify({ url: 'https://dialer.example/app', name: 'Dev build', isReady: false }))
  window.dispatchEvent(new StorageEvent('storage', { key: OVERRIDE_STORAGE_KEY }))
  await mounted('https://dialer.example/app')
  expect(container.querySelectorAll('iframe')).toHaveLength(1)
  expect(store.getState().effective).toMatchObject({ name: 'Dev build', isReady: false, sources: { url: 'override' } })

  window.localStorage.setItem(OVERRIDE_STORAGE_KEY, JSON.stringify({ url: 'data:text/html,<b>x</b>' }))
  window.dispatchEvent(new StorageEvent('storage', { key: OVERRIDE_STORAGE_KEY }))
  await mounted(REGISTERED)
  expect(store.getState().settingsErrors).toEqual([expect.stringContaining('not an http(s) URL')])
})

test('setting the URL in the harness writes the override and stops ?widget= from applying', async () => {
  startRuntime('?widget=' + encodeURIComponent('https://a.example/') + '&syncTimeoutMs=900')
  await vi.waitFor(() => expect(store.getState().pendingWidget).not.toBeNull())
  runtime.loadPendingWidget()
  await mounted('https://a.example/')
  expect(runtime.setOverrideUrl('ftp://nope')).toEqual({ ok: false, error: expect.stringContaining('http(s)') })
  expect(runtime.setOverrideUrl('https://b.example/w')).toEqual({ ok: true })
  await mounted('https://b.example/w')
  expect(JSON.parse(window.localStorage.getItem(OVERRIDE_STORAGE_KEY) ?? 'null')).toEqual({ url: 'https://b.example/w' })
  expect(window.location.search).toBe('?syncTimeoutMs=900')
  expect(runtime.setOverrideUrl(null)).toEqual({ ok: true })
  await mounted(REGISTERED)
  expect(window.localStorage.getItem(OVERRIDE_STORAGE_KEY)).toBeNull()
})

test('a change of the calling settings through the API is applied at once', async () => {
  startRuntime()
  await mounted(REGISTERED)
  await api.patch(CALLING_SETTINGS_PATH, { isReady: false, name: 'Renamed app', url: 'https://new.example/widget' }, { developerKey: true })
  await mounted('https://new.example/widget')
  expect(store.getState().effective).toMatchObject({ name: 'Renamed app', isReady: false, sources: { url: 'api' } })
})

test('a new placement re-mounts the widget and is sent in SYNC', async () => {
  startRuntime()
  const first = await mounted(REGISTERED)
  handshake(first)
  runtime.setIframeLocation('remote')
  const second = iframe()!
  expect(second).not.toBe(first)
  handshake(second)
  const syncs = store.getState().traffic.filter((e) => e.type === 'SYNC').map((e) => (e.message as { iframeLocation: string }).iframeLocation)
  expect(syncs).toEqual(['widget', 'remote'])
})

test('host faults reach the CallingHost: a dropped DIAL_NUMBER never leaves, and survive a re-mount', async () => {
  startRuntime()
  await mounted(REGISTERED)
  runtime.setHostFaults({ drop: ['DIAL_NUMBER'] })
  runtime.setIframeLocation('window')
  const frame = iframe()!
  handshake(frame)
  fromWidget(frame, { type: 'INITIALIZED', data: { isLoggedIn: true } })
  expect(runtime.canDial()).toEqual({ ok: true })
  expect(runtime.startCall({ objectType: 'contacts', objectId: '1', phoneNumber: '+1 617 555 0101', phoneProperty: 'phone' })).toMatchObject({ ok: true })
  expect(store.getState().traffic.at(-1)).toMatchObject({ type: 'DIAL_NUMBER', fault: 'dropped' })
})

test('reloading the widget mid-call resets its state and flags the ghost call', async () => {
  startRuntime()
  const frame = await mounted(REGISTERED)
  handshake(frame)
  fromWidget(frame, { type: 'INITIALIZED', data: { isLoggedIn: true } })
  fromWidget(frame, { type: 'OUTGOING_CALL_STARTED', data: { externalCallId: 'c-1', toNumber: '+1 617 555 0101', createEngagement: true } })
  await runtime.controller?.idle()
  runtime.reloadWidget()
  expect(store.getState()).toMatchObject({ status: 'idle', initialized: false, loggedIn: null })
  expect(store.getState().conformance.findings).toEqual([expect.objectContaining({ rule: 'ghost-call', externalCallId: 'c-1' })])
  handshake(frame)
  expect(runtime.canDial()).toEqual({ ok: false, reason: expect.stringContaining('INITIALIZED') })
})

test('with SYNC withheld the handshake fails after the sync timeout', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] })
  try {
    startRuntime('?syncTimeoutMs=1500')
    await vi.waitFor(() => expect(iframe()).not.toBeNull())
    runtime.setHostFaults({ withholdSync: true })
    iframe()!.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(1499)
    expect(store.getState().status).toBe('syncing')
    vi.advanceTimersByTime(1)
    expect(store.getState()).toMatchObject({ status: 'failed', failureCause: 'timeout' })
    expect(store.getState().traffic.filter((e) => e.type === 'SYNC')).toEqual([])
    expect(runtime.canDial().reason).toContain('SYNC_ACK_FAILED: timeout')
  } finally {
    vi.useRealTimers()
  }
})

test.each([
  ['?syncFast=1', 10],
  ['', 1],
])('%s: SYNC is retried every 10 ms in fast mode, every 100 ms (the real host) by default', async (search, syncsIn95Ms) => {
  expect(syncIntervalFromQuery(search)).toBe(search ? 10 : 100)
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] })
  try {
    startRuntime(search)
    await vi.waitFor(() => expect(iframe()).not.toBeNull())
    iframe()!.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(95)
    expect(store.getState().traffic.filter((e) => e.type === 'SYNC')).toHaveLength(syncsIn95Ms)
  } finally {
    vi.useRealTimers()
  }
})

test('?syncTimeoutMs= is read and clamped', () => {
  expect(syncTimeoutFromQuery('?syncTimeoutMs=1500')).toBe(1500)
  expect(syncTimeoutFromQuery('?syncTimeoutMs=1')).toBe(200)
  expect(syncTimeoutFromQuery('?syncTimeoutMs=abc')).toBe(30000)
  expect(syncTimeoutFromQuery('')).toBe(30000)
})

test('messages from other windows are counted for the inspector, not logged as traffic; a bad widget message is traffic only', async () => {
  startRuntime()
  const frame = await mounted(REGISTERED)
  handshake(frame)
  const before = store.getState().traffic.length
  const stranger = document.createElement('iframe')
  document.body.append(stranger)
  const forged = { type: 'OUTGOING_CALL_STARTED', messageId: 'x_1', data: { externalCallId: 'forged', toNumber: '+1555' } }
  window.dispatchEvent(new MessageEvent('message', { data: forged, origin: 'http://127.0.0.1:4175', source: stranger.contentWindow }))
  window.dispatchEvent(new MessageEvent('message', { data: forged, origin: 'http://127.0.0.1:4175', source: stranger.contentWindow }))
  expect(store.getState().foreignDropped).toEqual({ count: 2, lastOrigin: 'http://127.0.0.1:4175', lastReason: 'unexpected source window' })
  expect(store.getState().traffic).toHaveLength(before)

  fromWidget(frame, { type: 'CALL_ENDED', data: { externalCallId: 'x' } }) // invalid: no engagementId
  expect(store.getState().foreignDropped?.count).toBe(2)
  expect(store.getState().traffic).toHaveLength(before + 1)
  stranger.remove()
})
