/**
 * Over real HTTP, as curl or a backend sees it: the date-versioned paths, the
 * OAuth 2026-03 endpoints, and the JSON 404 of an API path no route serves
 * (where a page server would have answered an empty 404).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'
import { DATE_VERSIONS } from '../../core/http/versions.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const PAT = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }
const CLIENT = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }

let server: RingsideServer
let origin: string

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: scratchDir('versions'), pages: 'none' })
  origin = server.url.slice(0, -1)
})

afterAll(async () => {
  await server?.close()
  removeScratchDirs()
})

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

/** The API's JSON 404: its body, after checking the status, the content type and the correlation id. */
async function expectApi404(response: Response): Promise<{ message: string; category: string }> {
  expect(response.status).toBe(404)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = (await response.json()) as { status: string; message: string; correlationId: string; category: string }
  expect(body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' })
  expect(body.correlationId).toMatch(UUID)
  expect(response.headers.get('x-hubspot-correlation-id')).toBe(body.correlationId)
  return body
}

describe('date-versioned paths over HTTP', { timeout: 20_000 }, () => {
  test('GET /crm/objects/<version>/contacts answers as GET /crm/v3/objects/contacts', async () => {
    const legacy = (await (await fetch(`${origin}/crm/v3/objects/contacts?limit=2`, { headers: PAT })).json()) as { results: Array<{ id: string }> }
    for (const version of DATE_VERSIONS) {
      const response = await fetch(`${origin}/crm/objects/${version}/contacts?limit=2`, { headers: PAT })
      expect(response.status).toBe(200)
      const body = (await response.json()) as { results: Array<{ id: string }>; paging?: { next: { link: string } } }
      expect(body.results.map((r) => r.id)).toEqual(legacy.results.map((r) => r.id))
      expect(body.paging?.next.link).toContain(`/crm/objects/${version}/contacts?`)
    }
  })

  test('a version that does not exist is the API’s JSON 404, naming the published ones', async () => {
    const body = await expectApi404(await fetch(`${origin}/crm/objects/2025-01/contacts`, { headers: PAT }))
    expect(body.message).toContain(`/crm/objects has no version 2025-01; the date versions are ${DATE_VERSIONS.join(', ')}`)
  })
})

describe('API paths no route serves', { timeout: 20_000 }, () => {
  test.each([
    ['GET', '/account-info/v3/details'],
    ['POST', '/events/v3/send'],
    ['GET', '/integrations/v1/me'],
    ['GET', '/crm/v9/objects/contacts'],
    ['GET', '/crm-object-schemas/v9/schemas'],
    ['POST', '/oauth/v9/token'],
    ['GET', '/integrators/timeline/2026-03/events'],
    ['GET', '/marketing/v3/emails'],
  ])('%s %s is the API’s JSON 404, marked X-HubSpot-NotFound', async (method, path) => {
    const response = await fetch(`${origin}${path}`, { method, headers: PAT })
    expect(response.headers.get('x-hubspot-notfound')).toBe('true')
    const body = await expectApi404(response)
    expect(body.message).toBe(`No API route matches ${method} ${path}.`)
  })

  test('the OAuth consent page and other page paths are not the API’s', async () => {
    for (const path of ['/oauth/authorize', '/oauth/authorize/', '/nothing-here']) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, path).toBe(404)
      // This server has no pages (pages: 'none'): the page server's plain answer, not the API's.
      expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/)
    }
  })

  test('the widget origin answers API paths with the JSON 404 that points at the API', async () => {
    const body = await expectApi404(await fetch(`${server.widgetOrigin}/crm/objects/2026-03/contacts`, { headers: PAT }))
    expect(body.message).toContain(origin)
  })
})

describe('OAuth 2026-03 over HTTP', { timeout: 20_000 }, () => {
  async function code(): Promise<string> {
    const response = await fetch(`${origin}/_ringside/v1/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: ACCOUNT.clientId, redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, scope: 'timeline tickets', decision: 'grant' }),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { code: string }).code
  }

  test('code → tokens → API call → introspect → refresh → revoke → refresh refused', async () => {
    const granted = await fetch(`${origin}/oauth/2026-03/token`, form({ grant_type: 'authorization_code', code: await code(), redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, ...CLIENT }))
    expect(granted.status).toBe(200)
    const tokens = (await granted.json()) as { access_token: string; refresh_token: string; expires_in: number; token_type: string }
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 1800 })

    const tickets = await fetch(`${origin}/crm/objects/2026-03/tickets?limit=1`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(tickets.status).toBe(200)

    const introspected = (await (await fetch(`${origin}/oauth/2026-03/token/introspect`, form({ token: tokens.access_token, ...CLIENT }))).json()) as Record<string, unknown>
    expect(introspected).toMatchObject({ active: true, token_use: 'access_token', client_id: ACCOUNT.clientId, hub_id: ACCOUNT.hubId, scopes: ['timeline', 'tickets'] })

    const refreshed = await fetch(`${origin}/oauth/2026-03/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...CLIENT }))
    expect(refreshed.status).toBe(200)

    const revoked = await fetch(`${origin}/oauth/2026-03/token/revoke`, form({ token: tokens.refresh_token, token_type_hint: 'refresh_token', ...CLIENT }))
    expect(revoked.status).toBe(200)
    const refused = await fetch(`${origin}/oauth/2026-03/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...CLIENT }))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ status: 'BAD_REFRESH_TOKEN', category: 'VALIDATION_ERROR', error: 'invalid_grant' })
    expect(await (await fetch(`${origin}/oauth/2026-03/token/introspect`, form({ token: tokens.refresh_token, ...CLIENT }))).json()).toEqual({ active: false })
  })

  test('the fields in the query string are refused, where v1 takes them', async () => {
    const query = new URLSearchParams({ grant_type: 'authorization_code', code: await code(), redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, ...CLIENT })
    const refused = await fetch(`${origin}/oauth/2026-03/token?${query}`, { method: 'POST' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ category: 'VALIDATION_ERROR', error: 'invalid_request' })
    expect((await fetch(`${origin}/oauth/v1/token?${query}`, { method: 'POST' })).status).toBe(200)
  })
})
