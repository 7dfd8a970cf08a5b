import { ACCOUNT } from '../http/auth.ts'
import { tablesOf } from '../../testing/objects.ts'
import { s256Challenge } from './oauth-requests.ts'
import { DEFAULT_REDIRECT_URLS, MAX_REDIRECT_URLS, REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import {
  authorize,
  body,
  call,
  createTestService,
  expectError,
  grantTokens,
  BASE_URL,
  REDIRECT_URI,
  T0,
  token,
  type TestService,
  UUID_V4,
} from '../../testing/timeline.ts'

const MINUTE = 60_000
// RFC 7636 appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'

let api: TestService
beforeEach(() => {
  api = createTestService()
})

function consentQuery(params: Record<string, string>): string {
  return `/_ringside/v1/oauth/authorize?${new URLSearchParams(params).toString()}`
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  token(api, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...extra })

// ---------------------------------------------------------------- consent

test('the consent read shows the app, the account and the required and optional scopes', async () => {
  const response = await call(
    api,
    'GET',
    consentQuery({ client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline tickets', optional_scope: 'crm.objects.contacts.read timeline' }),
  )
  expect(response.status).toBe(200)
  const consent = await body(response)
  expect(consent.app).toEqual({ id: 1001, name: expect.any(String), clientId: 'local-client' })
  expect(consent.account).toMatchObject({ hubId: 123456, hubDomain: 'demo.local' })
  expect(consent.requiredScopes).toEqual(['timeline', 'tickets'])
  // A scope both required and optional is required.
  expect(consent.optionalScopes).toEqual(['crm.objects.contacts.read'])
})

test.each([
  [{ client_id: 'nope', redirect_uri: REDIRECT_URI, scope: 'timeline' }, 'BAD_CLIENT_ID'],
  [{ redirect_uri: REDIRECT_URI, scope: 'timeline' }, 'BAD_CLIENT_ID'],
  [{ client_id: 'local-client', redirect_uri: 'javascript:alert(1)', scope: 'timeline' }, 'BAD_REDIRECT_URI'],
  [{ client_id: 'local-client', redirect_uri: '/relative/callback', scope: 'timeline' }, 'BAD_REDIRECT_URI'],
  [{ client_id: 'local-client', redirect_uri: 'https://app.example/cb#frag', scope: 'timeline' }, 'BAD_REDIRECT_URI'],
  [{ client_id: 'local-client', scope: 'timeline' }, 'BAD_REDIRECT_URI'],
  [{ client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline no.such.scope' }, 'BAD_SCOPE'],
  [{ client_id: 'local-client', redirect_uri: REDIRECT_URI }, 'BAD_SCOPE'],
  [{ client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline', code_challenge_method: 'S512', code_challenge: RFC_CHALLENGE }, 'BAD_CODE_CHALLENGE'],
  [{ client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline', code_challenge: 'short' }, 'BAD_CODE_CHALLENGE'],
])('the consent read refuses %o with %s', async (params, subCategory) => {
  await expectError(await call(api, 'GET', consentQuery(params)), 400, 'VALIDATION_ERROR', subCategory)
})

test('granting returns a redirect to redirect_uri with the code and the state, and records the installation', async () => {
  expect((await call(api, 'POST', REDIRECT_URLS_PATH, { json: { url: `${REDIRECT_URI}?keep=1` } })).status).toBe(200)
  const response = await call(api, 'POST', '/_ringside/v1/oauth/authorize', {
    json: { client_id: 'local-client', redirect_uri: `${REDIRECT_URI}?keep=1`, scope: 'timeline', state: 'xyz', decision: 'grant' },
  })
  expect(response.status).toBe(200)
  const decision = await body(response)
  const url = new URL(decision.redirectTo)
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI)
  expect(url.searchParams.get('keep')).toBe('1')
  expect(url.searchParams.get('state')).toBe('xyz')
  expect(url.searchParams.get('code')).toBe(decision.code)
  const installations = await body(await call(api, 'GET', '/_ringside/v1/installations'))
  expect(installations.results[0]).toMatchObject({ appId: 1001, installed: true, scopes: ['timeline'] })
})

test('denying redirects with error=access_denied and the state, and installs nothing', async () => {
  const response = await call(api, 'POST', '/_ringside/v1/oauth/authorize', {
    json: { client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline', state: 'xyz', decision: 'deny' },
  })
  expect(response.status).toBe(200)
  const url = new URL((await body(response)).redirectTo)
  expect(url.searchParams.get('error')).toBe('access_denied')
  expect(url.searchParams.get('state')).toBe('xyz')
  expect(url.searchParams.has('code')).toBe(false)
  const installations = await body(await call(api, 'GET', '/_ringside/v1/installations'))
  expect(installations.results[0].installed).toBe(false)
})

test('a decision for an unknown client or a non-http redirect_uri is refused and gives no redirect', async () => {
  const badClient = await call(api, 'POST', '/_ringside/v1/oauth/authorize', {
    json: { client_id: 'other', redirect_uri: REDIRECT_URI, scope: 'timeline', decision: 'deny' },
  })
  const error = await expectError(badClient, 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
  expect(error).not.toHaveProperty('redirectTo')
  const badRedirect = await call(api, 'POST', '/_ringside/v1/oauth/authorize', {
    json: { client_id: 'local-client', redirect_uri: 'data:text/html,hi', scope: 'timeline', decision: 'grant' },
  })
  await expectError(badRedirect, 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
})

test('tokens carry exactly the scopes granted: required ones plus the optional ones the user ticked', async () => {
  const granted = await grantTokens(api, {
    scope: 'timeline',
    optionalScope: 'tickets crm.objects.contacts.read',
    grantedScopes: ['timeline', 'tickets'],
  })
  expect(granted.scopes).toEqual(['timeline', 'tickets'])
})

test('a grant that drops a required scope or adds an unrequested one is refused', async () => {
  const base = { client_id: 'local-client', redirect_uri: REDIRECT_URI, scope: 'timeline tickets', optional_scope: 'oauth', decision: 'grant' }
  const dropped = await call(api, 'POST', '/_ringside/v1/oauth/authorize', { json: { ...base, granted_scopes: ['timeline'] } })
  await expectError(dropped, 400, 'VALIDATION_ERROR', 'BAD_SCOPE')
  const added = await call(api, 'POST', '/_ringside/v1/oauth/authorize', {
    json: { ...base, granted_scopes: ['timeline', 'tickets', 'crm.objects.deals.write'] },
  })
  await expectError(added, 400, 'VALIDATION_ERROR', 'BAD_SCOPE')
})

// ---------------------------------------------------------- token endpoint

test('exchanging a code returns exactly the fields of the real token response', async () => {
  const code = await authorize(api, { scope: 'timeline tickets' })
  const response = await exchange(code)
  expect(response.status).toBe(200)
  expect(response.headers.get('cache-control')).toBe('no-store')
  const tokens = await body(response)
  expect(Object.keys(tokens).sort()).toEqual(
    ['access_token', 'expires_in', 'hub_id', 'id_token', 'refresh_token', 'scopes', 'token_type', 'token_use', 'user_id'].sort(),
  )
  expect(tokens).toMatchObject({
    expires_in: 1800,
    token_type: 'bearer',
    token_use: 'access_token',
    hub_id: ACCOUNT.hubId,
    user_id: ACCOUNT.userId,
    scopes: ['timeline', 'tickets'],
  })
  for (const field of ['access_token', 'refresh_token', 'id_token']) {
    expect(typeof tokens[field]).toBe('string')
    expect(tokens[field].length).toBeGreaterThan(10)
  }
})

test('token error bodies carry the real code as status (as the real API does), a UUID v4, VALIDATION_ERROR and RFC 6749 fields', async () => {
  const response = await exchange('not-a-code')
  const error = await expectError(response, 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  expect((error as { status?: string }).status).toBe('BAD_AUTH_CODE')
  expect(error.error).toBe('invalid_grant')
  expect(error.error_description).toBe(error.message)
})

test.each([
  ['BAD_REFRESH_TOKEN', { grant_type: 'refresh_token', refresh_token: 'nope' }],
  ['BAD_AUTH_CODE', { grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECT_URI }],
  ['BAD_CLIENT_ID', { grant_type: 'refresh_token', refresh_token: 'nope', client_id: 'other' }],
  ['BAD_REDIRECT_URI', { grant_type: 'authorization_code', code: 'x' }],
])('a %s token error has that code as its status, so refresh code that branches on status works', async (code, fields) => {
  const response = code === 'BAD_REDIRECT_URI' ? await token(api, { ...fields, code: await authorize(api) }) : await token(api, fields)
  const parsed = await body(response)
  expect(response.status).toBe(400)
  expect(parsed.status).toBe(code)
  expect(parsed.correlationId).toMatch(UUID_V4)
  expect(parsed.message.length).toBeGreaterThan(0)
})

test('an unknown refresh token at the metadata endpoint is 404 with status BAD_REFRESH_TOKEN', async () => {
  const parsed = await body(await call(api, 'GET', '/oauth/v1/refresh-tokens/nope'))
  expect(parsed.status).toBe('BAD_REFRESH_TOKEN')
})

test('token fields may be sent as query parameters, as older client code does', async () => {
  const code = await authorize(api)
  const query = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: ACCOUNT.clientId,
    client_secret: ACCOUNT.clientSecret,
    redirect_uri: REDIRECT_URI,
    code,
  })
  const first = await body(await call(api, 'POST', `/oauth/v1/token?${query}`))
  expect(first.access_token).toMatch(/^CN/)
  const refreshQuery = new URLSearchParams({ client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret, refresh_token: first.refresh_token })
  // Mixed: grant_type in the form, the rest in the query.
  const refreshed = await call(api, 'POST', `/oauth/v1/token?${refreshQuery}`, { form: { grant_type: 'refresh_token' } })
  expect(refreshed.status).toBe(200)
  expect((await body(refreshed)).access_token).not.toBe(first.access_token)
})

test('a Basic header whose client id is bad percent-encoding is BAD_CLIENT_ID, not a crash', async () => {
  const before = tablesOf(api)
  const response = await call(api, 'POST', '/oauth/v1/token', {
    headers: { authorization: `Basic ${btoa('%E0%A4%A:local-secret')}` },
    form: { grant_type: 'refresh_token', refresh_token: 'x' },
  })
  const error = await expectError(response, 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
  expect(error.error).toBe('invalid_client')
  expect(tablesOf(api)).toBe(before)
})

test('the token endpoint takes form bodies only: JSON is 415', async () => {
  const response = await call(api, 'POST', '/oauth/v1/token', {
    json: { grant_type: 'authorization_code', client_id: 'local-client', client_secret: 'local-secret', code: 'x' },
  })
  await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE')
})

test.each([
  [{}, 'invalid_request'],
  [{ grant_type: 'password' }, 'unsupported_grant_type'],
  [{ grant_type: 'client_credentials' }, 'unsupported_grant_type'],
])('grant_type %o is refused with BAD_GRANT_TYPE / %s', async (fields, rfc) => {
  const error = await expectError(await token(api, fields), 400, 'VALIDATION_ERROR', 'BAD_GRANT_TYPE')
  expect(error.error).toBe(rfc)
})

test('an empty token request is BAD_GRANT_TYPE, not a crash', async () => {
  const response = await call(api, 'POST', '/oauth/v1/token', { headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await expectError(response, 400, 'VALIDATION_ERROR', 'BAD_GRANT_TYPE')
})

test('a code is single-use: the second exchange is BAD_AUTH_CODE', async () => {
  const code = await authorize(api)
  expect((await exchange(code)).status).toBe(200)
  const error = await expectError(await exchange(code), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  expect(error.error).toBe('invalid_grant')
})

test('a code still works at 4:59 after it was issued', async () => {
  const code = await authorize(api)
  api.clock.now = T0 + 4 * MINUTE + 59_000
  expect((await exchange(code)).status).toBe(200)
})

test('a code is EXPIRED_AUTH_CODE at 5:01 after it was issued', async () => {
  const code = await authorize(api)
  api.clock.now = T0 + 5 * MINUTE + 1000
  const error = await expectError(await exchange(code), 400, 'VALIDATION_ERROR', 'EXPIRED_AUTH_CODE')
  expect(error.error).toBe('invalid_grant')
})

test('a redirect_uri different from the authorize one is BAD_REDIRECT_URI, and the failed attempt does not use up the code', async () => {
  const code = await authorize(api)
  await expectError(await exchange(code, { redirect_uri: 'https://app.example/other' }), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  await expectError(await token(api, { grant_type: 'authorization_code', code }), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  expect((await exchange(code)).status).toBe(200)
})

test('a wrong client_secret or client_id is BAD_CLIENT_ID / invalid_client', async () => {
  const code = await authorize(api)
  const secret = await expectError(await exchange(code, { client_secret: 'wrong' }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
  expect(secret.error).toBe('invalid_client')
  await expectError(await exchange(code, { client_id: 'other-client' }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
})

test('client credentials may come as HTTP Basic instead of form fields', async () => {
  const code = await authorize(api)
  const response = await call(api, 'POST', '/oauth/v1/token', {
    form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
    headers: { authorization: `Basic ${btoa('local-client:local-secret')}` },
  })
  expect(response.status).toBe(200)
})

// -------------------------------------------------------------------- PKCE

test('s256Challenge matches the RFC 7636 test vector', async () => {
  expect(await s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE)
})

test('PKCE S256: the right code_verifier gets tokens', async () => {
  const code = await authorize(api, { codeChallenge: RFC_CHALLENGE, codeChallengeMethod: 'S256' })
  expect((await exchange(code, { code_verifier: RFC_VERIFIER })).status).toBe(200)
})

test('PKCE S256: a wrong or missing code_verifier is BAD_AUTH_CODE', async () => {
  const code = await authorize(api, { codeChallenge: RFC_CHALLENGE, codeChallengeMethod: 'S256' })
  const wrong = await expectError(await exchange(code, { code_verifier: `${RFC_VERIFIER.slice(0, -1)}x` }), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  expect(wrong.error).toBe('invalid_grant')
  await expectError(await exchange(code), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  // The plain verifier equal to the S256 challenge must not pass either.
  await expectError(await exchange(code, { code_verifier: RFC_CHALLENGE }), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
})

test('PKCE plain: the verifier must equal the challenge', async () => {
  const verifier = 'a'.repeat(43) + '-._~'
  const code = await authorize(api, { codeChallenge: verifier, codeChallengeMethod: 'plain' })
  await expectError(await exchange(code, { code_verifier: 'b'.repeat(47) }), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  expect((await exchange(code, { code_verifier: verifier })).status).toBe(200)
})

test('PKCE without a method is plain (RFC 7636 §4.3)', async () => {
  const verifier = 'v'.repeat(64)
  const code = await authorize(api, { codeChallenge: verifier })
  expect((await exchange(code, { code_verifier: verifier })).status).toBe(200)
})

// ----------------------------------------------------------------- refresh

test('a refresh gives a new access token with the granted scopes and the same refresh token', async () => {
  const first = await grantTokens(api)
  const response = await token(api, { grant_type: 'refresh_token', refresh_token: first.refresh_token })
  expect(response.status).toBe(200)
  const second = await body(response)
  expect(second.access_token).not.toBe(first.access_token)
  expect(second.refresh_token).toBe(first.refresh_token)
  expect(second.scopes).toEqual(first.scopes)
})

test('a refresh with scope narrows the new token; a later refresh without scope has the full grant again', async () => {
  const first = await grantTokens(api, { scope: 'timeline tickets' })
  const narrowed = await body(await token(api, { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'timeline' }))
  expect(narrowed.scopes).toEqual(['timeline'])
  const ticketsWithNarrowed = await call(api, 'GET', '/crm/v3/objects/tickets', { auth: { bearer: narrowed.access_token } })
  await expectError(ticketsWithNarrowed, 403, 'MISSING_SCOPES')
  const full = await body(await token(api, { grant_type: 'refresh_token', refresh_token: first.refresh_token }))
  expect(full.scopes).toEqual(['timeline', 'tickets'])
})

test('a refresh can never widen the scopes', async () => {
  const first = await grantTokens(api, { scope: 'timeline' })
  const error = await expectError(
    await token(api, { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'timeline tickets' }),
    400,
    'VALIDATION_ERROR',
    'BAD_SCOPE',
  )
  expect(error.error).toBe('invalid_scope')
})

test('an unknown or missing refresh token is BAD_REFRESH_TOKEN', async () => {
  const unknown = await expectError(await token(api, { grant_type: 'refresh_token', refresh_token: 'na1-nope' }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
  expect(unknown.error).toBe('invalid_grant')
  await expectError(await token(api, { grant_type: 'refresh_token' }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
})

// ---------------------------------------------------------------- metadata

test('refresh-token metadata has the fields of the real API and deprecation headers', async () => {
  const { refresh_token } = await grantTokens(api, { scope: 'timeline' })
  const response = await call(api, 'GET', `/oauth/v1/refresh-tokens/${refresh_token}`)
  expect(response.status).toBe(200)
  expect(response.headers.get('deprecation')).toBe('true')
  expect(response.headers.get('warning')).toBe('299 - "Deprecated API"')
  expect(response.headers.get('link')).toContain('rel="deprecation"')
  expect(await body(response)).toEqual({
    client_id: 'local-client',
    hub_id: 123456,
    scopes: ['timeline'],
    token: refresh_token,
    token_type: 'refresh',
    user_id: 1,
    hub_domain: 'demo.local',
    user: ACCOUNT.userEmail,
  })
  await expectError(await call(api, 'GET', '/oauth/v1/refresh-tokens/na1-unknown'), 404, 'OBJECT_NOT_FOUND', 'BAD_REFRESH_TOKEN')
})

test('access-token metadata reports the app, the scopes and the seconds left', async () => {
  const { access_token } = await grantTokens(api, { scope: 'timeline' })
  api.clock.now = T0 + 10 * MINUTE
  const info = await body(await call(api, 'GET', `/oauth/v1/access-tokens/${access_token}`))
  expect(info).toMatchObject({ token: access_token, app_id: 1001, hub_id: 123456, user_id: 1, scopes: ['timeline'], expires_in: 1200 })
  api.clock.now = T0 + 31 * MINUTE
  await expectError(await call(api, 'GET', `/oauth/v1/access-tokens/${access_token}`), 404, 'OBJECT_NOT_FOUND')
})

// ------------------------------------------------------- using the tokens

test('an access token works until 30 minutes and is then EXPIRED_AUTHENTICATION', async () => {
  const { access_token } = await grantTokens(api, { scope: 'tickets' })
  const auth = { bearer: access_token }
  api.clock.now = T0 + 29 * MINUTE + 59_000
  expect((await call(api, 'GET', '/crm/v3/objects/tickets', { auth })).status).toBe(200)
  api.clock.now = T0 + 30 * MINUTE + 5000
  const error = await expectError(await call(api, 'GET', '/crm/v3/objects/tickets', { auth }), 401, 'EXPIRED_AUTHENTICATION')
  expect(error.message).toMatch(/expired 5 second/)
})

test('scopes are enforced end to end: a timeline-only token cannot read tickets (403) but can read timeline events', async () => {
  const { access_token } = await grantTokens(api, { scope: 'timeline' })
  const auth = { bearer: access_token }
  const error = await call(api, 'GET', '/crm/v3/objects/tickets', { auth })
  const parsed = await expectError(error, 403, 'MISSING_SCOPES')
  expect(JSON.stringify(parsed)).toContain('tickets')
  expect((await call(api, 'GET', '/_ringside/v1/timeline/events', { auth })).status).toBe(200)
})

// -------------------------------------------------------------- uninstall

test('the installations list shows the live tokens', async () => {
  const { access_token, refresh_token } = await grantTokens(api, { scope: 'timeline' })
  const list = await body(await call(api, 'GET', '/_ringside/v1/installations'))
  const app = list.results[0]
  expect(app).toMatchObject({ appId: 1001, installed: true, scopes: ['timeline'] })
  expect(app.accessTokens.map((t: { token: string }) => t.token)).toEqual([access_token])
  expect(app.accessTokens[0].expiresIn).toBe(1800)
  expect(app.refreshTokens.map((t: { token: string }) => t.token)).toEqual([refresh_token])
  api.clock.now = T0 + 31 * MINUTE
  const later = await body(await call(api, 'GET', '/_ringside/v1/installations'))
  expect(later.results[0].accessTokens).toEqual([])
})

test('uninstalling revokes every access token (401) and refresh token (BAD_REFRESH_TOKEN) of the app', async () => {
  const { access_token, refresh_token } = await grantTokens(api, { scope: 'tickets' })
  const pending = await authorize(api, { scope: 'tickets' })
  expect((await call(api, 'DELETE', '/_ringside/v1/installations/1001')).status).toBe(204)
  await expectError(await call(api, 'GET', '/crm/v3/objects/tickets', { auth: { bearer: access_token } }), 401, 'INVALID_AUTHENTICATION')
  await expectError(await token(api, { grant_type: 'refresh_token', refresh_token }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
  await expectError(await exchange(pending), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  const list = await body(await call(api, 'GET', '/_ringside/v1/installations'))
  expect(list.results[0]).toMatchObject({ installed: false, accessTokens: [], refreshTokens: [], scopes: [] })
})

test('uninstalling an app that is not installed, or an unknown app, is 404', async () => {
  await expectError(await call(api, 'DELETE', '/_ringside/v1/installations/1001'), 404, 'OBJECT_NOT_FOUND')
  await grantTokens(api)
  await expectError(await call(api, 'DELETE', '/_ringside/v1/installations/999'), 404, 'OBJECT_NOT_FOUND')
})

test('after an uninstall a new grant installs the app again and its tokens work', async () => {
  await grantTokens(api, { scope: 'tickets' })
  await call(api, 'DELETE', '/_ringside/v1/installations/1001')
  const again = await grantTokens(api, { scope: 'tickets' })
  expect((await call(api, 'GET', '/crm/v3/objects/tickets', { auth: { bearer: again.access_token } })).status).toBe(200)
})

test('an access token works until the last millisecond before expires_in runs out, and is expired at that instant', async () => {
  const { access_token } = await grantTokens(api, { scope: 'tickets' })
  const get = () => call(api, 'GET', '/crm/v3/objects/tickets?limit=1', { auth: { bearer: access_token } })
  api.clock.now = T0 + 30 * MINUTE - 1
  expect((await get()).status).toBe(200)
  api.clock.now = T0 + 30 * MINUTE
  await expectError(await get(), 401, 'EXPIRED_AUTHENTICATION')
})

// ---------------------------------------------------------------- registered redirect URLs

const redirectUrls = async () => body(await call(api, 'GET', REDIRECT_URLS_PATH))
const register = (url: unknown) => call(api, 'POST', REDIRECT_URLS_PATH, { json: { url } })
const snapshot = async () => {
  const exported = await body(await call(api, 'GET', '/_ringside/v1/export'))
  delete exported.exportedAt
  return exported
}

test('an unregistered redirect_uri is refused at authorize with the real message, gives no redirect and changes nothing', async () => {
  const before = await snapshot()
  const foreign = 'https://attacker.example/steal'
  const read = await expectError(await call(api, 'GET', consentQuery({ client_id: 'local-client', redirect_uri: foreign, scope: 'timeline' })), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  expect(read.message).toContain(`Authorization failed as the redirect URL '${foreign}' doesn't match the app's registered redirect URL`)
  for (const decision of ['grant', 'deny']) {
    const refused = await expectError(
      await call(api, 'POST', '/_ringside/v1/oauth/authorize', { json: { client_id: 'local-client', redirect_uri: foreign, scope: 'timeline', state: 's', decision } }),
      400,
      'VALIDATION_ERROR',
      'BAD_REDIRECT_URI',
    )
    expect(refused).not.toHaveProperty('redirectTo')
    expect(JSON.stringify(refused)).not.toMatch(/code=/)
  }
  // Exact match: the registered URL with a trailing slash, another port or a query is another URL.
  for (const near of [`${REDIRECT_URI}/`, REDIRECT_URI.replace(':3000', ':3001'), `${REDIRECT_URI}?x=1`, REDIRECT_URI.replace('http:', 'https:')]) {
    await expectError(await call(api, 'GET', consentQuery({ client_id: 'local-client', redirect_uri: near, scope: 'timeline' })), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  }
  expect(await snapshot()).toEqual(before)
})

test("a registered redirect_uri works, and so do Ringside's own callback pages on the request's origin only", async () => {
  expect((await redirectUrls()).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS])
  expect((await grantTokens(api)).access_token).toBeTruthy()
  const own = `${BASE_URL}/?oauth_callback=1`
  expect((await redirectUrls()).builtIn).toEqual([own])
  expect((await grantTokens(api, { redirectUri: own })).access_token).toBeTruthy()
  // Only the harness's own callback: a test page on the origin (never served by Ringside) is registered like any app's.
  for (const other of ['http://other.test/?oauth_callback=1', `${BASE_URL}/e2e/fixtures/oauth-callback/`]) {
    await expectError(await call(api, 'GET', consentQuery({ client_id: 'local-client', redirect_uri: other, scope: 'timeline' })), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  }
})

test('registering: https anywhere, http only on localhost, no fragment; idempotent; removable; budgeted', async () => {
  const added = await register('https://app.example/callback')
  expect(added.status).toBe(200)
  expect((await body(added)).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS, 'https://app.example/callback'])
  expect((await register('https://app.example/callback')).status).toBe(200)
  expect((await redirectUrls()).redirectUrls).toHaveLength(DEFAULT_REDIRECT_URLS.length + 1)
  expect((await grantTokens(api, { redirectUri: 'https://app.example/callback' })).access_token).toBeTruthy()

  const before = await snapshot()
  for (const bad of ['http://127.0.0.1:3000/cb', 'http://app.example/cb', 'javascript:alert(1)', 'https://app.example/cb#x', '/relative', ' https://app.example/cb', `https://app.example/${'a'.repeat(2100)}`, '']) {
    const error = await expectError(await register(bad), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
    expect(error.message.length).toBeGreaterThan(0)
  }
  await expectError(await register(42), 400, 'VALIDATION_ERROR')
  await expectError(await call(api, 'DELETE', `${REDIRECT_URLS_PATH}?url=${encodeURIComponent('https://nope.example/')}`), 404, 'OBJECT_NOT_FOUND')
  expect(await snapshot()).toEqual(before)

  expect((await call(api, 'DELETE', `${REDIRECT_URLS_PATH}?url=${encodeURIComponent('https://app.example/callback')}`)).status).toBe(204)
  await expectError(
    await call(api, 'GET', consentQuery({ client_id: 'local-client', redirect_uri: 'https://app.example/callback', scope: 'timeline' })),
    400,
    'VALIDATION_ERROR',
    'BAD_REDIRECT_URI',
  )
  for (let i = (await redirectUrls()).redirectUrls.length; i < MAX_REDIRECT_URLS; i++) expect((await register(`https://app.example/${i}`)).status).toBe(200)
  await expectError(await register('https://app.example/one-too-many'), 400, 'VALIDATION_ERROR')
})

test('the registered redirect URLs survive export and import; reset brings back the defaults; an older export without them gets the defaults', async () => {
  await register('http://localhost:4000/cb')
  const exported = await body(await call(api, 'GET', '/_ringside/v1/export'))
  await call(api, 'POST', '/_ringside/v1/reset', { json: {} })
  expect((await redirectUrls()).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS])
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: exported })).status).toBe(200)
  expect((await redirectUrls()).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS, 'http://localhost:4000/cb'])
  const older = structuredClone(exported)
  delete older.tables.oauth_app_auth_settings
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: older })).status).toBe(200)
  expect((await redirectUrls()).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS])
  // An export whose list breaks the rules is refused, and nothing changes.
  const forged = structuredClone(exported)
  forged.tables.oauth_app_auth_settings[0][1].redirectUrls.push('http://evil.example/cb')
  await expectError(await call(api, 'POST', '/_ringside/v1/import', { json: forged }), 400, 'VALIDATION_ERROR')
  expect((await redirectUrls()).redirectUrls).toEqual([...DEFAULT_REDIRECT_URLS])
})

test('at the token step, another registered redirect_uri than the one at authorize is the real 400 BAD_REDIRECT_URI, and the code survives', async () => {
  await register('https://app.example/other')
  const code = await authorize(api)
  const before = await snapshot()
  const error = await expectError(await exchange(code, { redirect_uri: 'https://app.example/other' }), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  expect(error).toMatchObject({ status: 'BAD_REDIRECT_URI', error: 'invalid_grant' })
  expect(await snapshot()).toEqual(before)
  expect((await exchange(code)).status).toBe(200)
})
