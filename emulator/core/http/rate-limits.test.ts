/**
 * Rate limits: the real numbers by default for app credentials, the real
 * headers and 429 body, exemptions, and the switch.
 */
import { ACCOUNT } from './auth.ts'
import { REAL_RATE_LIMITS } from './rate-limits.ts'
import { createCrmService } from '../service.ts'
import { body, call, createTestService, oauthCredential, privateApp, T0, UUID_V4, type Credential, type TestService } from '../timeline/testing.ts'

let api: TestService
beforeEach(() => {
  api = createTestService()
})

const integration: Credential = { bearer: ACCOUNT.integrationPrivateAppToken }
const list = (auth: Credential) => call(api, 'GET', '/crm/v3/objects/contacts?limit=1', { auth })
const search = (auth: Credential) => call(api, 'POST', '/crm/v3/objects/contacts/search', { auth, json: {} })

async function burst(auth: Credential, n: number): Promise<Response[]> {
  const responses: Response[] = []
  for (let i = 0; i < n; i++) responses.push(await list(auth))
  return responses
}

test('an OAuth app gets 100 requests per 10 s, with the real headers counting down', async () => {
  const oauth = await oauthCredential(api, 'crm.objects.contacts.read')
  const responses = await burst(oauth, 100)
  expect(responses.every((r) => r.status === 200)).toBe(true)
  expect(responses[0]!.headers.get('x-hubspot-ratelimit-max')).toBe('100')
  expect(responses[0]!.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000')
  expect(responses[0]!.headers.get('x-hubspot-ratelimit-remaining')).toBe('99')
  expect(responses[99]!.headers.get('x-hubspot-ratelimit-remaining')).toBe('0')
  // OAuth answers carry no daily headers, as in the real API.
  expect(responses[0]!.headers.get('x-hubspot-ratelimit-daily')).toBeNull()
})

test('the 101st request in 10 s is 429 with the real body; the window rolls on with the clock', async () => {
  const oauth = await oauthCredential(api, 'crm.objects.contacts.read')
  await burst(oauth, 100)
  const refused = await list(oauth)
  expect(refused.status).toBe(429)
  const parsed = await body(refused)
  expect(parsed).toMatchObject({
    status: 'error',
    message: 'You have reached your ten_secondly_rolling limit.',
    errorType: 'RATE_LIMIT',
    policyName: 'TEN_SECONDLY_ROLLING',
    groupName: `publicapi:app-id:${ACCOUNT.appId}:${ACCOUNT.hubId}`,
    category: 'RATE_LIMITS',
  })
  expect(parsed.correlationId).toMatch(UUID_V4)
  expect(refused.headers.get('x-hubspot-ratelimit-remaining')).toBe('0')
  api.clock.now = T0 + 9_999
  expect((await list(oauth)).status).toBe(429)
  api.clock.now = T0 + 10_000
  expect((await list(oauth)).status).toBe(200)
})

test('search has its own limit of 5 per second per token (message "You have reached your secondly limit.")', async () => {
  const oauth = await oauthCredential(api, 'crm.objects.contacts.read')
  for (let i = 0; i < 5; i++) expect((await search(oauth)).status).toBe(200)
  const refused = await search(oauth)
  expect(refused.status).toBe(429)
  expect(await body(refused)).toMatchObject({ policyName: 'SECONDLY', message: 'You have reached your secondly limit.' })
  // Other endpoints are still open.
  expect((await list(oauth)).status).toBe(200)
  api.clock.now = T0 + 1000
  const again = await search(oauth)
  expect(again.status).toBe(200)
  expect(again.headers.get('x-hubspot-ratelimit-secondly')).toBe('5')
  expect(again.headers.get('x-hubspot-ratelimit-secondly-remaining')).toBe('4')
})

test('an integration’s private-app token is limited and gets the daily headers; the harness’s own token is not limited', async () => {
  const first = await list(integration)
  expect(first.headers.get('x-hubspot-ratelimit-daily')).toBe('250000')
  expect(first.headers.get('x-hubspot-ratelimit-daily-remaining')).toBe('249999')
  await burst(integration, 99)
  expect((await list(integration)).status).toBe(429)
  const harness = await burst(privateApp, 150)
  expect(harness.every((r) => r.status === 200)).toBe(true)
  expect(harness[0]!.headers.get('x-hubspot-ratelimit-max')).toBeNull()
})

test('the daily limit answers DAILY and resets with the day', async () => {
  await call(api, 'PUT', '/_ringside/v1/rate-limits', { json: { daily: { max: 3 } } })
  await burst(integration, 3)
  const refused = await list(integration)
  expect(refused.status).toBe(429)
  expect((await body(refused)).policyName).toBe('DAILY')
  api.clock.now = T0 + 24 * 60 * 60 * 1000
  expect((await list(integration)).status).toBe(200)
})

test('a refused request does not use up the allowance, and errors from handlers still carry the headers', async () => {
  await call(api, 'PUT', '/_ringside/v1/rate-limits', { json: { burst: { max: 2, intervalMs: 10_000 } } })
  const missing = await call(api, 'GET', '/crm/v3/objects/contacts/999', { auth: integration })
  expect(missing.status).toBe(404)
  expect(missing.headers.get('x-hubspot-ratelimit-remaining')).toBe('1')
  await list(integration)
  for (let i = 0; i < 3; i++) expect((await list(integration)).status).toBe(429)
  api.clock.now = T0 + 10_000
  expect((await list(integration)).status).toBe(200)
})

test('the admin route shows and changes the settings; off means no limit and no headers', async () => {
  const settings = await body(await call(api, 'GET', '/_ringside/v1/rate-limits'))
  expect(settings).toMatchObject({ ...REAL_RATE_LIMITS, real: REAL_RATE_LIMITS })
  const off = await body(await call(api, 'PUT', '/_ringside/v1/rate-limits', { json: { enabled: false } }))
  expect(off.enabled).toBe(false)
  const responses = await burst(integration, 120)
  expect(responses.every((r) => r.status === 200)).toBe(true)
  expect(responses[0]!.headers.get('x-hubspot-ratelimit-max')).toBeNull()
  const bad = await call(api, 'PUT', '/_ringside/v1/rate-limits', { json: { burst: { max: 0, intervalMs: 10 } } })
  expect(bad.status).toBe(400)
})

test('createCrmService({ rateLimits }) sets them at start (what the server flag uses)', async () => {
  const off = createCrmService({ rateLimits: false })
  for (let i = 0; i < 110; i++) expect((await call(off, 'GET', '/crm/v3/objects/contacts?limit=1', { auth: integration })).status).toBe(200)
  const tight = createCrmService({ rateLimits: { burst: { max: 1, intervalMs: 10_000 } } })
  expect((await call(tight, 'GET', '/crm/v3/objects/contacts?limit=1', { auth: integration })).status).toBe(200)
  expect((await call(tight, 'GET', '/crm/v3/objects/contacts?limit=1', { auth: integration })).status).toBe(429)
})

test('the OAuth token endpoint and the admin routes are never counted', async () => {
  await call(api, 'PUT', '/_ringside/v1/rate-limits', { json: { burst: { max: 1, intervalMs: 10_000 } } })
  for (let i = 0; i < 5; i++) {
    expect((await call(api, 'GET', '/_ringside/v1/account')).status).toBe(200)
    expect((await call(api, 'POST', '/oauth/v1/token', { form: { grant_type: 'refresh_token', refresh_token: 'x' } })).status).toBe(400)
  }
})
