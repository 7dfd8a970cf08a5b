/**
 * Host ↔ widget in one jsdom page. The widget's window.parent is a stand-in window;
 * posts are forwarded asynchronously as a browser would: structured-cloned, dropped
 * when targetOrigin does not match the receiver, with the sender's origin and window.
 * The widget side is either our CallingExtensions or the real npm package 0.9.7.
 */
import NpmCallingExtensions from '@hubspot/calling-extensions-sdk'
import { validateMessage, type SyncFields } from './catalogue.ts'
import { CallingHost } from './host.ts'
import { WIDGET_ORIGIN, WIDGET_SRC, createFrameWindow, deliver } from './testing/jsdom-wire.ts'
import { observeHost } from './testing/observed.ts'
import { CallingExtensions } from './widget.ts'

const HOST_PAGE_ORIGIN = window.location.origin
const SYNC_FIELDS: SyncFields = { portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'window', usesCallingWindow: true }

/** The calls a widget makes; both SDKs expose the same method names. */
interface WidgetApi {
  initialized(p: { isLoggedIn: boolean; engagementId?: number }): void
  outgoingCall(p: { externalCallId: string; toNumber: string; fromNumber: string; createEngagement: boolean; callStartTime: number }): void
  callEnded(p: { externalCallId: string; engagementId: number; callEndStatus: 'COMPLETED' }): void
  callCompleted(p: { externalCallId: string; engagementId: number; hideWidget: boolean }): void
}

type Handlers = {
  onReady: (data: unknown) => void
  onDialNumber: (data: unknown) => void
  onCreateEngagementSucceeded: (data: unknown) => void
}

const widgetKinds: Array<[string, (handlers: Handlers) => { api: WidgetApi; destroy: () => void }]> = [
  [
    'ringside CallingExtensions',
    (handlers) => {
      const sdk = new CallingExtensions({ eventHandlers: handlers, hostOrigins: [HOST_PAGE_ORIGIN] })
      return { api: sdk, destroy: () => sdk.destroy() }
    },
  ],
  [
    'npm @hubspot/calling-extensions-sdk 0.9.7',
    (handlers) => {
      const sdk = new NpmCallingExtensions({ debugMode: false, eventHandlers: handlers as never })
      return { api: sdk as unknown as WidgetApi, destroy: () => sdk.iFrameManager.remove() }
    },
  ],
]

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
  document.body.replaceChildren()
})

/**
 * A mounted CallingHost whose iframe window and the widget's parent stand-in forward
 * posts to each other (structured-cloned, asynchronously, dropped on a targetOrigin
 * mismatch); the widget is created by `createWidget` with `handlers`.
 */
function connect(createWidget: (handlers: Handlers) => { api: WidgetApi; destroy: () => void }, handlers: Handlers) {
  vi.spyOn(console, 'debug').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})

  // the widget frame's parent, as seen from inside the widget
  const { win: parentStandIn } = createFrameWindow()
  vi.spyOn(window, 'parent', 'get').mockReturnValue(parentStandIn)

  const container = document.createElement('div')
  document.body.appendChild(container)
  const { observer, records: traffic } = observeHost()
  const host = new CallingHost({ container, src: WIDGET_SRC, sync: SYNC_FIELDS, observer })
  cleanup.push(() => host.destroy())
  const iframe = host.mount()
  const widgetWindow = iframe.contentWindow
  if (!widgetWindow) throw new Error('no iframe window')

  const forward = (targetOrigin: unknown, receiverOrigin: string, data: unknown, origin: string, source: Window) => {
    // targetOrigin may be a whole URL (the npm widget after SET_WIDGET_URL): its origin counts
    if (new URL(String(targetOrigin)).origin !== receiverOrigin) return // the browser drops it
    const copy: unknown = structuredClone(data)
    setTimeout(() => deliver(copy, origin, source), 0)
  }
  vi.spyOn(widgetWindow, 'postMessage').mockImplementation(((data: unknown, targetOrigin: unknown) =>
    forward(targetOrigin, WIDGET_ORIGIN, data, HOST_PAGE_ORIGIN, parentStandIn)) as Window['postMessage'])
  vi.spyOn(parentStandIn, 'postMessage').mockImplementation(((data: unknown, targetOrigin: unknown) =>
    forward(targetOrigin, HOST_PAGE_ORIGIN, data, WIDGET_ORIGIN, widgetWindow)) as Window['postMessage'])

  const widget = createWidget(handlers)
  cleanup.push(widget.destroy)
  return { host, iframe, traffic, api: widget.api }
}

describe.each(widgetKinds)('CallingHost with %s', (_name, createWidget) => {
  it('handshakes and runs an outbound call with engagement creation, all traffic valid', async () => {
    const received: string[] = []
    const ready = vi.fn()
    const connected = connect(createWidget, {
      onReady: (data) => {
        ready(data)
        api?.initialized({ isLoggedIn: true })
      },
      onDialNumber: () =>
        api?.outgoingCall({ externalCallId: 'ext-9', toNumber: '+15550100', fromNumber: '+15550199', createEngagement: true, callStartTime: 1 }),
      onCreateEngagementSucceeded: (data) => {
        const { engagementId } = data as { engagementId: number }
        api?.callEnded({ externalCallId: 'ext-9', engagementId, callEndStatus: 'COMPLETED' })
        api?.callCompleted({ externalCallId: 'ext-9', engagementId, hideWidget: false })
      },
    })
    const { host, iframe, traffic, api } = connected

    host.onMessage((m) => received.push(m.type))
    host.on('OUTGOING_CALL_STARTED', (data) => {
      if (data.createEngagement) host.createEngagementSucceeded({ engagementId: 42 })
    })
    const completed = new Promise<unknown>((resolve) => host.on('CALL_COMPLETED', (data) => resolve(data)))

    iframe.dispatchEvent(new Event('load'))
    await vi.waitFor(() => expect(host.status).toBe('ready'))
    expect(host.handshake?.version).toEqual(expect.any(String))
    expect(ready).toHaveBeenCalledWith(expect.objectContaining({ portalId: 123, iframeLocation: 'window', usesCallingWindow: true, hostUrl: HOST_PAGE_ORIGIN }))

    host.dialNumber({ phoneNumber: '+15550100', objectId: 501, objectType: 'CONTACT', portalId: 123 })
    await expect(completed).resolves.toEqual({ externalCallId: 'ext-9', engagementId: 42, hideWidget: false })

    expect(received).toEqual(['SYNC_ACK', 'INITIALIZED', 'OUTGOING_CALL_STARTED', 'CALL_ENDED', 'CALL_COMPLETED'])
    const inbound = traffic.filter((t) => t.direction === 'in')
    expect(inbound.every((t) => t.valid)).toBe(true)
    const outbound = traffic.filter((t) => t.direction === 'out')
    expect(outbound.map((t) => validateMessage(t.message, 'from-host').ok)).not.toContain(false)
    // neither side ever sent an ERROR (no UNKNOWN_MESSAGE_TYPE ping-pong)
    expect(traffic.some((t) => t.type === 'ERROR')).toBe(false)
  })

  it("send('SET_WIDGET_URL') reaches the widget's onReady as {iFrameUrl}, and the widget keeps talking to the host", async () => {
    const readies: unknown[] = []
    const connected = connect(createWidget, {
      onReady: (data) => readies.push(data),
      onDialNumber: () => undefined,
      onCreateEngagementSucceeded: () => undefined,
    })
    const { host, iframe, traffic, api } = connected
    iframe.dispatchEvent(new Event('load'))
    await vi.waitFor(() => expect(readies).toHaveLength(1))

    const url = `${HOST_PAGE_ORIGIN}/crm/contacts/1`
    host.send('SET_WIDGET_URL', { iFrameUrl: url })
    await vi.waitFor(() => expect(readies).toHaveLength(2))
    expect(readies[1]).toStrictEqual({ iFrameUrl: url })

    const ended = new Promise<unknown>((resolve) => host.on('CALL_ENDED', (data) => resolve(data)))
    api?.callEnded({ externalCallId: 'ext-1', engagementId: 1, callEndStatus: 'COMPLETED' })
    await expect(ended).resolves.toMatchObject({ externalCallId: 'ext-1' })
    expect(traffic.map((t) => (t.direction === 'in' ? t.valid : validateMessage(t.message, 'from-host').ok))).not.toContain(false)
  })
})
