import { probeServer, type LiveUpdates } from './connect.ts'

/** A stand-in for the browser's EventSource: the test plays the server's events. */
class FakeEventSource extends EventTarget {
  static CLOSED = 2
  static last: FakeEventSource | undefined
  readyState = 1
  constructor(readonly url: string) {
    super()
    FakeEventSource.last = this
  }
  close() {
    this.readyState = FakeEventSource.CLOSED
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

it('probeServer: a server that refuses the page (its error body, any status but 404) rejects with its sentence, never falls back to browser-only mode', async () => {
  const refusal = (status: number, message: string) => json({ status: 'error', message, correlationId: crypto.randomUUID(), category: 'VALIDATION_ERROR' }, status)
  for (const status of [400, 403, 410, 429]) {
    vi.stubGlobal('fetch', async () => refusal(status, 'Sandbox name "a.b" (cookie ringside_sandbox) cannot be used.'))
    await expect(probeServer()).rejects.toThrow(`refused it (HTTP ${status}): Sandbox name "a.b"`)
    await expect((await freshConnectCrm())()).rejects.toThrow('refused it')
  }
  // Browser-only mode's own API answers the info path with its 404 body: no server, no refusal.
  vi.stubGlobal('fetch', async () => refusal(404, 'Unknown path'))
  expect(await probeServer()).toBeUndefined()
})

const serverInfo = (changePosition?: unknown) => json({ mode: 'server', origin: 'http://x', widgetOrigin: 'http://y', data: '/data', sandbox: null, cors: [], changePosition })

/** connectCrm in server mode (no SharedWorker: the page follows the stream itself), with its changes recorded. */
async function followed(changePosition?: unknown) {
  vi.stubGlobal('fetch', async () => serverInfo(changePosition))
  vi.stubGlobal('EventSource', FakeEventSource)
  FakeEventSource.last = undefined
  const connection = await (await freshConnectCrm())()
  const seen: string[][] = []
  connection.onChange((event) => seen.push(event.tables))
  return { connection, seen, source: FakeEventSource.last as unknown as FakeEventSource }
}

/** connect.ts keeps one connection per page: each test loads it afresh. */
async function freshConnectCrm() {
  vi.resetModules()
  return (await import('./connect.ts')).connectCrm
}

it('in server mode, changes come from the change stream; a reconnect that missed nothing refetches nothing, one that did refetches everything', async () => {
  vi.stubGlobal('fetch', async () => serverInfo({ epoch: 'run-1', seq: 3 }))
  vi.stubGlobal('EventSource', FakeEventSource)
  FakeEventSource.last = undefined
  const connection = await (await freshConnectCrm())()
  expect(connection.mode).toBe('server')
  expect(connection.server?.changePosition).toEqual({ epoch: 'run-1', seq: 3 })
  // The stream opens with the first listener (here: no SharedWorker, so the page follows it itself).
  const opened = () => FakeEventSource.last
  expect(opened()).toBeUndefined()
  const seen: string[][] = []
  connection.onChange((event) => seen.push(event.tables))
  expect(opened()?.url).toBe('/_ringside/v1/changes')
  const source = opened() as FakeEventSource
  // Live where the page loaded its data: nothing missed.
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 3, tables: ['a', 'b'] })
  source.send('message', { tables: ['crm_tickets'], seq: 4 })
  // This page's own write (it named itself with requestHeaders) is not passed on; another page's is.
  const self = connection.requestHeaders['x-ringside-client']
  expect(self).toMatch(/^[0-9a-f-]{36}$/)
  source.send('message', { tables: ['crm_calls'], seq: 5, client: self })
  source.send('message', { tables: ['crm_deals'], seq: 6, client: 'another-page' })
  source.send('message', 'not a change')
  source.send('message', { tables: ['crm_deals'], client: 'no seq' })
  // A reconnect at the position the page has seen: nothing was missed.
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 6, tables: ['a', 'b'] })
  expect(seen).toEqual([['crm_tickets'], ['crm_deals']])
  // A reconnect after commits 7 and 8 were made while the stream was down: every table.
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 8, tables: ['a', 'b'] })
  expect(seen).toEqual([['crm_tickets'], ['crm_deals'], ['a', 'b']])
  await expect(connection.settled()).resolves.toBeUndefined()
})

it('a commit made after the page loaded and before its stream first connected is caught up (every table refetched)', async () => {
  const { seen, source } = await followed({ epoch: 'run-1', seq: 3 })
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 4, tables: ['a', 'b'] })
  expect(seen).toEqual([['a', 'b']])
  source.send('message', { tables: ['a'], seq: 5 })
  expect(seen).toEqual([['a', 'b'], ['a']])
})

it('a page whose server did not say where its stream stood refetches on the first ready', async () => {
  const { seen, source } = await followed(undefined)
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 0, tables: ['a'] })
  expect(seen).toEqual([['a']])
})

it('after a restart (a new epoch, seq from 0) every table is refetched, and changes go on from the new count', async () => {
  const { seen, source } = await followed({ epoch: 'run-1', seq: 40 })
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 40, tables: ['a', 'b'] })
  source.send('ready', { mode: 'server', epoch: 'run-2', seq: 0, tables: ['a', 'b'] })
  expect(seen).toEqual([['a', 'b']])
  source.send('message', { tables: ['b'], seq: 1 })
  expect(seen).toEqual([['a', 'b'], ['b']])
})

it('a gap in seq on one connection refetches everything; a change already seen is not passed on again', async () => {
  const { seen, source } = await followed({ epoch: 'run-1', seq: 5 })
  source.send('ready', { mode: 'server', epoch: 'run-1', seq: 3, tables: ['a', 'b'] })
  // Commits 4 and 5 were in the data the page loaded.
  source.send('message', { tables: ['a'], seq: 4 })
  source.send('message', { tables: ['a'], seq: 5 })
  expect(seen).toEqual([])
  source.send('message', { tables: ['a'], seq: 7 })
  expect(seen).toEqual([['a', 'b']])
})

it('a stream the server refuses (its cap) is reported with the server\'s message and retried after a pause', async () => {
  vi.useFakeTimers()
  try {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { connection, seen, source } = await followed({ epoch: 'run-1', seq: 0 })
    const states: LiveUpdates[] = []
    connection.onLiveUpdates((state) => states.push(state))
    vi.stubGlobal('fetch', async () => json({ status: 'error', message: 'This Ringside server already serves 2 change streams, its cap.', category: 'RATE_LIMITS' }, 429))
    source.readyState = FakeEventSource.CLOSED
    source.dispatchEvent(new Event('error'))
    await vi.advanceTimersByTimeAsync(0)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('(HTTP 429): This Ringside server already serves 2 change streams, its cap.'))
    expect(FakeEventSource.last).toBe(source)
    await vi.advanceTimersByTimeAsync(2000)
    const again = FakeEventSource.last as unknown as FakeEventSource
    expect(again).not.toBe(source)
    expect(states).toEqual([{ live: false, status: 429, message: 'This Ringside server already serves 2 change streams, its cap.' }])
    again.send('ready', { mode: 'server', epoch: 'run-1', seq: 2, tables: ['a'] })
    expect(seen).toEqual([['a']])
    expect(states.at(-1)).toEqual({ live: true })
  } finally {
    vi.useRealTimers()
  }
})

describe('a page the Ringside server served never falls back to browser-only mode', () => {
  /** A fetch that never answers: it ends only when its signal aborts (the probe's deadline). */
  const stalled = (_input: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
  const browserService = vi.fn(async () => ({ onChange: () => () => {} }))

  /** Marks this page as served by a Ringside server (its Server-Timing entry) or by a static host, and loads connect.ts afresh. */
  async function page(servedByServer: boolean) {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' })
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { serverTiming: servedByServer ? [{ name: 'ringside-server', description: 'Ringside server', duration: 0 }] : [] } as unknown as PerformanceEntry,
    ])
    browserService.mockClear()
    vi.doMock('./msw.ts', () => ({ createBrowserCrmService: browserService }))
    return freshConnectCrm()
  }

  afterEach(() => {
    vi.doUnmock('./msw.ts')
    vi.restoreAllMocks()
  })

  it('the server-served mark is read from the navigation entry', async () => {
    await page(true)
    expect((await import('./connect.ts')).servedByRingsideServer()).toBe(true)
    await page(false)
    expect((await import('./connect.ts')).servedByRingsideServer()).toBe(false)
  })

  it('a server that does not answer: the page waits with a sentence, then says so plainly at its deadline, never switching store', async () => {
    const connectCrm = await page(true)
    vi.stubGlobal('fetch', stalled)
    const sentences: string[] = []
    const error = await connectCrm({ probeTimeoutMs: 50, serverDeadlineMs: 400, onWait: (sentence) => sentences.push(sentence) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).name).toBe('ServerUnreachableError')
    expect((error as Error).message).toMatch(/^The Ringside server at http:\/\/127\.0\.0\.1:5173 has not answered since .+ \(\d+ s; last try: no answer within \d+ ms\)\. The page does not switch to a database of its own: check the terminal running npm start/)
    expect(sentences.length).toBeGreaterThan(0)
    expect(sentences[0]).toMatch(/^Waiting for the Ringside server at http:\/\/127\.0\.0\.1:5173: no answer since .+Is npm start \(or ringside start\) still running\? This page keeps to that server's data and gives up at /)
    expect(browserService).not.toHaveBeenCalled()
  })

  it('a server that answers late (or after a failed connection) is used: server mode, not the in-page database', async () => {
    const connectCrm = await page(true)
    let tries = 0
    vi.stubGlobal('fetch', async (input: unknown, init?: RequestInit) => {
      tries += 1
      if (tries === 1) return stalled(input, init)
      if (tries === 2) throw new TypeError('Failed to fetch')
      return serverInfo()
    })
    const sentences: string[] = []
    const connection = await connectCrm({ probeTimeoutMs: 50, onWait: (sentence) => sentences.push(sentence) })
    expect(connection.mode).toBe('server')
    expect(sentences).toHaveLength(2)
    expect(sentences[1]).toContain('last try: the connection failed')
    expect(browserService).not.toHaveBeenCalled()
  })

  it('an answer that is not a Ringside server (e.g. another program on the port) is said plainly; no fallback', async () => {
    const connectCrm = await page(true)
    vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }))
    await expect(connectCrm({ probeTimeoutMs: 50 })).rejects.toThrow(/served this page, but \/_ringside\/v1\/server did not answer as a Ringside server \(HTTP 200, text\/html\)/)
    expect(browserService).not.toHaveBeenCalled()
  })

  it('a page a static host served (no mark) keeps its behaviour: no answer within the probe, so browser-only mode', async () => {
    const connectCrm = await page(false)
    vi.stubGlobal('fetch', stalled)
    const connection = await connectCrm({ probeTimeoutMs: 50 })
    expect(connection.mode).toBe('browser-only')
    expect(browserService).toHaveBeenCalledTimes(1)
  })
})
