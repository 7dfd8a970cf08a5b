import { createCrmService } from '../../emulator/core/service.ts'
import type { LiveUpdates } from '../../emulator/browser/connect.ts'
import { api, ApiRequestError, crmConnectionInfo, followCrmConnection, isDataChange, liveUpdates, onApiChange, onApiExchange, onLiveUpdates, REMOTE_CHANGE_WINDOW_MS, type ApiChange, type ApiExchange } from './api-client.ts'

function routeFetchToService() {
  const service = createCrmService()
  vi.stubGlobal('fetch', (input: URL | RequestInfo, init?: RequestInit) => service.handle(new Request(input, init)))
  return service
}

afterEach(() => vi.unstubAllGlobals())

it('notifies listeners after a write, and not after reads or read-only POSTs', async () => {
  routeFetchToService()
  const changes: string[] = []
  const off = onApiChange((c) => changes.push(`${c.method} ${c.path}`))
  await api.get('/crm/v3/objects/contacts')
  await api.post('/crm/v3/objects/contacts/search', { filterGroups: [] })
  await api.post('/crm/v3/objects/tickets', { properties: { subject: 'Printer on fire', hs_pipeline_stage: '1' } })
  off()
  await api.post('/crm/v3/objects/tickets', { properties: { subject: 'Unheard', hs_pipeline_stage: '1' } })
  expect(changes).toEqual(['POST /crm/v3/objects/tickets'])
})

it('throws the API error body on a non-2xx response and notifies nobody', async () => {
  routeFetchToService()
  const listener = vi.fn()
  const off = onApiChange(listener)
  const error = await api.post('/crm/v3/objects/tickets', { properties: {} }).catch((e: unknown) => e)
  off()
  expect(error).toBeInstanceOf(ApiRequestError)
  expect((error as ApiRequestError).status).toBe(400)
  expect((error as ApiRequestError).body?.category).toBe('VALIDATION_ERROR')
  expect(listener).not.toHaveBeenCalled()
})

it('tells exchange listeners every request and its answer (errors and failures too), with its tag, without changing what the caller gets', async () => {
  routeFetchToService()
  const seen: ApiExchange[] = []
  const off = onApiExchange((e) => seen.push(e))
  const broken = onApiExchange(() => {
    throw new Error('a listener that throws')
  })
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
  const tag = { cause: 'message' }
  const created = await api.post<{ id: string }>('/crm/v3/objects/calls', { properties: { hs_call_title: 'x' } }, { tag })
  await api.get('/crm/v3/extensions/calling/1001/settings', { developerKey: true })
  const refused = await api.patch('/crm/v3/objects/calls/999999', { properties: {} }).catch((e: unknown) => e)
  off()
  broken()
  await api.get('/crm/v3/objects/contacts')
  expect(created.id).toMatch(/^\d+$/)
  expect(refused).toBeInstanceOf(ApiRequestError)
  expect(consoleError).toHaveBeenCalledTimes(3)
  expect(seen.map((e) => [e.method, e.path, e.status])).toEqual([
    ['POST', '/crm/v3/objects/calls', 201],
    ['GET', '/crm/v3/extensions/calling/1001/settings?hapikey=%E2%80%A6', 200],
    ['PATCH', '/crm/v3/objects/calls/999999', 404],
  ])
  expect(seen[0]).toMatchObject({ tag, requestBody: { properties: { hs_call_title: 'x' } }, responseBody: { id: created.id } })
  expect(seen[0]!.id).toBeLessThan(seen[1]!.id)
  expect(seen[0]!.durationMs).toBeGreaterThanOrEqual(0)
  expect(seen[2]!.responseBody).toMatchObject({ category: 'OBJECT_NOT_FOUND' })

  const lost: ApiExchange[] = []
  const offLost = onApiExchange((e) => lost.push(e))
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')))
  await expect(api.get('/crm/v3/objects/contacts')).rejects.toThrow('Failed to fetch')
  offLost()
  expect(lost).toMatchObject([{ method: 'GET', status: 0, error: 'Failed to fetch' }])
})

it.each([
  ['GET', '/crm/v3/objects/contacts', false],
  ['POST', '/crm/v3/objects/contacts/search', false],
  ['POST', '/crm/v3/objects/tickets/batch/read', false],
  ['POST', '/_ringside/v1/timeline/preview', false],
  ['POST', '/crm/v3/objects/tickets', true],
  ['PATCH', '/crm/v3/objects/calls/7', true],
  ['DELETE', '/crm/v3/objects/tickets/3', true],
  ['POST', '/_ringside/v1/reset', true],
])('%s %s is a data change: %s', (method, path, expected) => {
  expect(isDataChange({ method, path })).toBe(expected)
})

it('passes changes committed elsewhere to listeners, a burst as one change with every table it touched', () => {
  vi.useFakeTimers()
  try {
    let push: (event: { tables: string[] }) => void = () => {}
    const stop = followCrmConnection({
      mode: 'server',
      requestHeaders: {},
      onChange(listener) {
        push = listener
        return () => (push = () => {})
      },
      onLiveUpdates: () => () => {},
    })
    const changes: ApiChange[] = []
    const off = onApiChange((c) => changes.push(c))
    push({ tables: ['crm_calls', 'crm_associations'] })
    push({ tables: ['timeline_events'] })
    expect(changes).toEqual([])
    vi.advanceTimersByTime(REMOTE_CHANGE_WINDOW_MS)
    expect(changes).toEqual([{ method: 'REMOTE', path: '', tables: ['crm_calls', 'crm_associations', 'timeline_events'] }])
    expect(crmConnectionInfo()?.mode).toBe('server')

    stop()
    push({ tables: ['crm_tickets'] })
    vi.advanceTimersByTime(REMOTE_CHANGE_WINDOW_MS)
    expect(changes).toHaveLength(1)
    off()
  } finally {
    vi.useRealTimers()
  }
})

it('sends the connection’s headers with every request, so the server can tell this page’s writes apart', async () => {
  const service = createCrmService()
  const seen: Array<string | null> = []
  vi.stubGlobal('fetch', (input: URL | RequestInfo, init?: RequestInit) => {
    const request = new Request(input, init)
    seen.push(request.headers.get('x-ringside-client'))
    return service.handle(request)
  })
  const stop = followCrmConnection({ mode: 'server', requestHeaders: { 'x-ringside-client': 'page-1' }, onChange: () => () => {}, onLiveUpdates: () => () => {} })
  await api.get('/crm/v3/objects/contacts')
  await api.post('/crm/v3/objects/tickets', { properties: { subject: 'Mine', hs_pipeline_stage: '1' } })
  stop()
  await api.get('/crm/v3/objects/contacts')
  expect(seen).toEqual(['page-1', 'page-1', null])
})

it('tells its listeners when the server refuses the change stream and when a stream is accepted again', () => {
  let tell: (state: LiveUpdates) => void = () => {}
  const stop = followCrmConnection({
    mode: 'server',
    requestHeaders: {},
    onChange: () => () => {},
    onLiveUpdates(listener) {
      tell = listener
      return () => (tell = () => {})
    },
  })
  let calls = 0
  const off = onLiveUpdates(() => calls++)
  expect(liveUpdates()).toEqual({ live: true })
  tell({ live: false, status: 429, message: 'This Ringside server already serves 1000 change streams, its cap.' })
  expect(liveUpdates()).toEqual({ live: false, status: 429, message: 'This Ringside server already serves 1000 change streams, its cap.' })
  tell({ live: true })
  expect(liveUpdates()).toEqual({ live: true })
  expect(calls).toBe(2)
  tell({ live: false, status: 429, message: 'cap' })
  stop()
  expect(liveUpdates()).toEqual({ live: true })
  off()
})
