/**
 * Seeded message fuzz, both sides, generated from the catalogue (testing/fuzz.ts):
 * 10,000 messages per side, every type with each of its fields broken in turn. A
 * failure names the seed; replay it with FUZZ_SEED=<seed>.
 */
import { CATALOGUE, validateMessage, type FromWidgetType, type HandlerName } from './catalogue.ts'
import { CallingHost } from './host.ts'
import { judgeWidgetMessage } from './judgement.ts'
import { resetWarnOnce } from './log.ts'
import { httpOrigin } from './origin.ts'
import { fuzzCases, fuzzSeed, fuzzTargets, runFuzz, typesFrom } from './testing/fuzz.ts'
import { HOST_ORIGIN, WIDGET_ORIGIN, WIDGET_SRC, capturePosts, deliver, postedOfType, stubParentWindow } from './testing/jsdom-wire.ts'
import { observeHost } from './testing/observed.ts'
import { CallingExtensions, type EventHandlers } from './widget.ts'

const PER_SIDE = 10_000
const SYNC_FIELDS = { portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'widget', usesCallingWindow: false } as const

let uncaught: ReturnType<typeof vi.fn<(event: Event) => void>>
beforeEach(() => {
  resetWarnOnce()
  for (const level of ['debug', 'log', 'warn'] as const) vi.spyOn(console, level).mockImplementation(() => {})
  uncaught = vi.fn<(event: Event) => void>()
  window.addEventListener('error', uncaught)
})
afterEach(() => {
  window.removeEventListener('error', uncaught)
  document.body.replaceChildren()
})

test('every catalogue type on each side has fields to break (SYNC_ACK, INITIALIZED, SYNC and READY included)', () => {
  const widgetTypes = new Set(fuzzTargets(typesFrom('widget')).map((t) => t.type))
  const hostTypes = new Set(fuzzTargets(typesFrom('host')).map((t) => t.type))
  for (const type of ['SYNC_ACK', 'INITIALIZED', 'CALL_ENDED']) expect(widgetTypes).toContain(type)
  for (const type of ['SYNC', 'READY', 'DIAL_NUMBER']) expect(hostTypes).toContain(type)
  expect(widgetTypes.size + hostTypes.size).toBe(typesFrom('widget').length + typesFrom('host').length)
  expect(fuzzTargets(typesFrom('widget')).length).toBeLessThan(PER_SIDE)
})

test(`host: ${PER_SIDE.toLocaleString('en')} broken widget messages are judged, never thrown, and acted on only with the deviations reported`, { timeout: 60_000 }, () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const seed = fuzzSeed()
  const container = document.createElement('div')
  document.body.appendChild(container)
  const { observer, records: traffic } = observeHost()
  const host = new CallingHost({ container, src: WIDGET_SRC, sync: { ...SYNC_FIELDS }, autoResize: false, autoSetWidgetUrl: false, observer })
  const iframe = host.mount()
  const widget = iframe.contentWindow!
  const posts = capturePosts(widget)
  let heard = 0
  for (const type of typesFrom('widget') as FromWidgetType[]) if (type !== 'SYNC_ACK') host.on(type, () => (heard += 1))
  const lastSyncId = () => postedOfType(posts, 'SYNC').at(-1)?.messageId
  const syncing = () => {
    if (host.status !== 'syncing') iframe.dispatchEvent(new Event('load'))
  }
  const ready = () => {
    if (host.status === 'ready') return
    syncing()
    deliver({ ...postedOfType(posts, 'SYNC').at(-1), type: 'SYNC_ACK', iFrameUrl: WIDGET_ORIGIN }, WIDGET_ORIGIN, widget)
    expect(host.status).toBe('ready')
  }
  const runs = runFuzz(fuzzCases(typesFrom('widget'), PER_SIDE, seed), seed, ({ type, field, message }) => {
    if (type === 'SYNC_ACK') {
      syncing()
      if (field !== 'messageId') message.messageId = lastSyncId()
    } else {
      ready()
    }
    const before = traffic.length
    const heardBefore = heard
    const postsBefore = posts.length
    deliver(message, WIDGET_ORIGIN, widget)
    // Each `expect` here runs only when its condition fails: the same checks, without Vitest's cost per
    // assertion 20,000 times over (a third of the file's time).
    const added = traffic.slice(before).filter((e) => e.direction === 'in')
    if (added.length !== 1) expect(added).toHaveLength(1)
    const entry = added[0]!
    const judged = judgeWidgetMessage(message)
    if (type === 'SYNC_ACK' && message.type === 'SYNC_ACK') {
      // the handshake completes only on an acceptable SYNC_ACK answering an outstanding SYNC
      if ((host.status === 'ready') !== entry.valid) expect(host.status === 'ready').toBe(entry.valid)
      if (entry.valid && judged.act !== true) expect(judged.act).toBe(true)
    } else if (entry.valid) {
      if (judged.act !== true) expect(judged.act).toBe(true)
      // acted on although the SDK's types say otherwise: never silently
      if (!validateMessage(message, 'from-widget').ok && !((entry.deviations?.length ?? 0) > 0)) expect(entry.deviations?.length ?? 0).toBeGreaterThan(0)
      if (message.type !== 'SYNC_ACK' && heard - heardBefore !== 1) expect(heard - heardBefore).toBe(1)
    } else {
      if (typeof entry.reason !== 'string') expect(entry.reason).toEqual(expect.any(String))
      if (heard !== heardBefore) expect(heard).toBe(heardBefore)
    }
    // the host answers nothing on its own here (autoSetWidgetUrl off): at most the SYNC of a restart; every post
    // (the new ones here, all of them again after the run) goes to the widget's origin only
    const sent = posts.slice(postsBefore)
    if (!sent.every((p) => (p.message as { type: string }).type === 'SYNC')) expect(sent.map((p) => (p.message as { type: string }).type)).toEqual(sent.map(() => 'SYNC'))
    if (!sent.every((p) => p.targetOrigin === WIDGET_ORIGIN)) expect(sent.map((p) => p.targetOrigin)).toEqual(sent.map(() => WIDGET_ORIGIN))
  })
  host.destroy()
  expect(posts.every((p) => p.targetOrigin === WIDGET_ORIGIN)).toBe(true)
  expect(runs).toBe(PER_SIDE)
  expect(error).not.toHaveBeenCalled()
  expect(uncaught).not.toHaveBeenCalled()
})

test(`widget: ${PER_SIDE.toLocaleString('en')} broken host messages reach a handler only when valid, and SYNC completes the handshake only when valid`, { timeout: 60_000 }, () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const seed = fuzzSeed()
  const { parent, posts } = stubParentWindow()
  let handled = 0
  const names = [...Object.values(CATALOGUE).flatMap((e) => ('handler' in e ? [e.handler] : [])), 'defaultEventHandler'] as (HandlerName | 'defaultEventHandler')[]
  const handlers = Object.fromEntries(names.map((name) => [name, () => (handled += 1)])) as unknown as EventHandlers
  const options = { eventHandlers: handlers, hostOrigins: [HOST_ORIGIN] }
  const sdk = new CallingExtensions(options)
  deliver({ type: 'SYNC', messageId: 'host_1', hostUrl: HOST_ORIGIN, ...SYNC_FIELDS }, HOST_ORIGIN, parent)
  expect(sdk.isReady).toBe(true)
  const runs = runFuzz(fuzzCases(typesFrom('host'), PER_SIDE, seed), seed, ({ type, message }) => {
    const postsBefore = posts.length
    const handledBefore = handled
    const check = validateMessage(message, 'from-host')
    const validType = check.ok ? check.entry.type : undefined
    if (type === 'SYNC') {
      const fresh = new CallingExtensions(options)
      try {
        deliver(message, HOST_ORIGIN, parent)
        const acceptable = validType === 'SYNC' && httpOrigin(message.hostUrl) === HOST_ORIGIN
        if (fresh.isReady !== acceptable) expect(fresh.isReady).toBe(acceptable)
        const acks = postedOfType(posts.slice(postsBefore), 'SYNC_ACK')
        if (acks.length !== (acceptable ? 1 : 0)) expect(acks).toHaveLength(acceptable ? 1 : 0)
        if (acceptable && acks[0]!.messageId !== message.messageId) expect(acks[0]!.messageId).toBe(message.messageId)
      } finally {
        fresh.destroy()
      }
    } else {
      deliver(message, HOST_ORIGIN, parent)
      // As on the host side, each `expect` runs only when its condition fails.
      const calls = handled - handledBefore
      if (validType === undefined || validType === 'SYNC') {
        if (calls !== 0) expect(calls).toBe(0)
      } else if (validType === 'SET_WIDGET_URL') {
        if (!(calls <= 1)) expect(calls).toBeLessThanOrEqual(1)
      } else if (calls !== 1) {
        expect(calls).toBe(1)
      }
      // the only answer: UNKNOWN_MESSAGE_TYPE for an unknown type (never to an ERROR)
      const sent = posts.slice(postsBefore).map((p) => p.message as { type: string; data?: { type?: string } })
      if (!check.ok && check.reason === 'unknown type' && check.type !== 'ERROR') {
        expect(sent).toEqual([expect.objectContaining({ type: 'ERROR', data: expect.objectContaining({ type: 'UNKNOWN_MESSAGE_TYPE' }) })])
      } else if (sent.length !== 0) {
        expect(sent).toEqual([])
      }
    }
    if (sdk.hostOrigin !== HOST_ORIGIN) expect(sdk.hostOrigin).toBe(HOST_ORIGIN)
    const sent = posts.slice(postsBefore)
    if (!sent.every((p) => p.targetOrigin === HOST_ORIGIN)) expect(sent.map((p) => p.targetOrigin)).toEqual(sent.map(() => HOST_ORIGIN))
  })
  sdk.destroy()
  expect(posts.every((p) => p.targetOrigin === HOST_ORIGIN)).toBe(true)
  expect(runs).toBe(PER_SIDE)
  expect(error).not.toHaveBeenCalled()
  expect(uncaught).not.toHaveBeenCalled()
})
