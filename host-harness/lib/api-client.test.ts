import { createCrmService } from '../../shared/api/service.ts'
import { api, ApiRequestError, crmConnectionInfo, followCrmConnection, isDataChange, onApiChange, REMOTE_CHANGE_WINDOW_MS, type ApiChange } from './api-client.ts'

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
  const stop = followCrmConnection({ mode: 'server', requestHeaders: { 'x-ringside-client': 'page-1' }, onChange: () => () => {} })
  await api.get('/crm/v3/objects/contacts')
  await api.post('/crm/v3/objects/tickets', { properties: { subject: 'Mine', hs_pipeline_stage: '1' } })
  stop()
  await api.get('/crm/v3/objects/contacts')
  expect(seen).toEqual(['page-1', 'page-1', null])
})
