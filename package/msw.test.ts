import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { crmHandlers } from './msw.ts'

// The app's own handler after Ringside's: it answers whatever crmHandlers leaves alone.
const server = setupServer(...crmHandlers({ rateLimits: false }), http.all('*', () => new Response('the app', { status: 200 })))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

const pat = { authorization: 'Bearer pat-local' }

test('the API is answered on any origin, under its legacy and date-versioned paths', async () => {
  for (const url of ['https://api.hubapi.com/crm/v3/objects/contacts?limit=1', 'http://localhost:3000/crm/objects/2026-03/contacts?limit=1']) {
    const response = await fetch(url, { headers: pat })
    expect(response.status, url).toBe(200)
    expect(((await response.json()) as { results: unknown[] }).results).toHaveLength(1)
  }
})

test('an unknown path under a name the service serves is the API’s JSON 404', async () => {
  const response = await fetch('https://api.hubapi.com/crm/v9/nothing', { headers: pat })
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' })
})

test('the app’s own paths under the API’s other product names, and the consent page path, reach the app', async () => {
  for (const url of ['http://localhost:3000/settings/profile', 'http://localhost:3000/files/report.pdf', 'http://localhost:3000/oauth/authorize?client_id=x']) {
    const response = await fetch(url)
    expect(await response.text(), url).toBe('the app')
  }
})
