import { act, renderHook } from '@testing-library/react'
import { createCrmService } from '../../emulator/core/service.ts'
import { api } from './api-client.ts'
import { REFETCH_WINDOW_MS, useApiData } from './use-api-data.ts'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

it('refetches at once after a write, and once more for a burst of writes, not once per write', async () => {
  const service = createCrmService()
  vi.stubGlobal('fetch', (input: URL | RequestInfo, init?: RequestInit) => service.handle(new Request(input, init)))
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const load = vi.fn(() => api.get<{ results: Array<{ properties: { subject?: string } }> }>('/crm/v3/objects/tickets', { query: { limit: 100, properties: 'subject' } }))
  const { result } = renderHook(() => useApiData(load, []))
  await act(async () => {})
  expect(load).toHaveBeenCalledTimes(1)
  const ticket = (subject: string) => api.post('/crm/v3/objects/tickets', { properties: { subject, hs_pipeline_stage: '1' } })

  await act(() => ticket('first'))
  expect(load).toHaveBeenCalledTimes(2)
  await act(async () => {
    for (let i = 0; i < 20; i += 1) await ticket(`burst ${i}`)
  })
  expect(load).toHaveBeenCalledTimes(2)
  await act(async () => vi.advanceTimersByTime(REFETCH_WINDOW_MS))
  expect(load).toHaveBeenCalledTimes(3)
  // The last refetch shows the whole burst.
  expect(result.current.state.status).toBe('ok')
  expect(result.current.state.data?.results.map((r) => r.properties.subject)).toContain('burst 19')
  // A quiet window later, a single write refetches at once again.
  await act(async () => vi.advanceTimersByTime(REFETCH_WINDOW_MS))
  await act(() => ticket('later'))
  expect(load).toHaveBeenCalledTimes(4)
})
