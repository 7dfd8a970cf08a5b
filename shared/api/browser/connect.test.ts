import { connectCrm, probeServer } from './connect.ts'

/** A stand-in for the browser's EventSource: the test plays the server's events. */
class FakeEventSource extends EventTarget {
  static CLOSED = 2
  static last: FakeEventSource | undefined
  readyState = 1
  constructor(readonly url: string) {
    super()
    FakeEventSource.last = this
  }
  send(type: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }))
  }
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

afterEach(() => vi.unstubAllGlobals())

it('probeServer: only a JSON answer saying mode "server" counts', async () => {
  vi.stubGlobal('fetch', async () => json({ mode: 'server', origin: 'http://x', data: null, sandbox: null, cors: [] }))
  expect((await probeServer())?.mode).toBe('server')
  vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }))
  expect(await probeServer()).toBeUndefined()
  vi.stubGlobal('fetch', async () => json({ status: 'error' }, 404))
  expect(await probeServer()).toBeUndefined()
  vi.stubGlobal('fetch', async () => {
    throw new TypeError('Failed to fetch')
  })
  expect(await probeServer()).toBeUndefined()
})

it('in server mode, changes come from the change stream; after a reconnect, every table counts as changed', async () => {
  vi.stubGlobal('fetch', async () => json({ mode: 'server', origin: 'http://x', widgetOrigin: 'http://y', data: '/data', sandbox: null, cors: [] }))
  vi.stubGlobal('EventSource', FakeEventSource)
  const connection = await connectCrm()
  expect(connection.mode).toBe('server')
  // The stream opens with the first listener (here: no SharedWorker, so the page follows it itself).
  expect(FakeEventSource.last).toBeUndefined()
  const seen: string[][] = []
  connection.onChange((event) => seen.push(event.tables))
  expect(FakeEventSource.last?.url).toBe('/_ringside/v1/changes')
  const source = FakeEventSource.last as FakeEventSource
  source.send('ready', { mode: 'server', tables: ['a', 'b'] })
  source.send('message', { tables: ['crm_tickets'] })
  // This page's own write (it named itself with requestHeaders) is not passed on; another page's is.
  const self = connection.requestHeaders['x-ringside-client']
  expect(self).toMatch(/^[0-9a-f-]{36}$/)
  source.send('message', { tables: ['crm_calls'], client: self })
  source.send('message', { tables: ['crm_deals'], client: 'another-page' })
  source.send('message', 'not a change')
  source.send('ready', { mode: 'server', tables: ['a', 'b'] })
  expect(seen).toEqual([['crm_tickets'], ['crm_deals'], ['a', 'b']])
  await expect(connection.settled()).resolves.toBeUndefined()
})
