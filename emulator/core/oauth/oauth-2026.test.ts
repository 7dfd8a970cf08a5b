/**
 * The date-versioned OAuth API (2026-03, 2026-09, and its v3 name) beside
 * v1: the token request as v1 answers it but from the form body only,
 * introspection in place of v1's token metadata GETs, revocation in place
 * of v1's DELETE.
 */
import { ACCOUNT } from '../http/auth.ts'
import { DATE_VERSIONS } from '../http/versions.ts'
import { ACCESS_TOKEN_TTL_SECONDS } from './oauth-app.ts'
import { authorize, body, call, createTestService, expectError, grantTokens, REDIRECT_URI, type TestService } from '../../testing/timeline.ts'

const CLIENT = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }
const PREFIXES = [...DATE_VERSIONS.map((v) => `/oauth/${v}`), '/oauth/v3']

let api: TestService
beforeEach(() => {
  api = createTestService()
})

const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => call(api, 'POST', path, { form, headers })

describe.each(PREFIXES)('%s', (prefix) => {
  test('the code exchange and the refresh answer as v1 does, and the tokens work', async () => {
    const code = await authorize(api, { scope: 'timeline tickets' })
    const granted = await post(`${prefix}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...CLIENT })
    expect(granted.status).toBe(200)
    expect(granted.headers.get('cache-control')).toBe('no-store')
    const tokens = await body(granted)
    expect(tokens).toMatchObject({ token_type: 'bearer', token_use: 'access_token', expires_in: ACCESS_TOKEN_TTL_SECONDS, hub_id: ACCOUNT.hubId, scopes: ['timeline', 'tickets'] })

    const tickets = await call(api, 'GET', '/crm/objects/2026-03/tickets?limit=1', { auth: { bearer: tokens.access_token } })
    expect(tickets.status).toBe(200)

    const refreshed = await body(await post(`${prefix}/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, ...CLIENT }))
    expect(refreshed.refresh_token).toBe(tokens.refresh_token)
    expect(refreshed.access_token).not.toBe(tokens.access_token)
  })

  test('the client may authenticate with HTTP Basic instead of the form', async () => {
    const { refresh_token } = await grantTokens(api)
    const basic = `Basic ${btoa(`${ACCOUNT.clientId}:${ACCOUNT.clientSecret}`)}`
    const response = await post(`${prefix}/token`, { grant_type: 'refresh_token', refresh_token }, { authorization: basic })
    expect(response.status).toBe(200)
  })

  test('fields only in the query are refused (v1 took them there); the error is the RFC 6749 one', async () => {
    const { refresh_token } = await grantTokens(api)
    const query = new URLSearchParams({ grant_type: 'refresh_token', refresh_token, ...CLIENT })
    const error = await expectError(await call(api, 'POST', `${prefix}/token?${query}`), 400, 'VALIDATION_ERROR')
    expect(error.error).toBe('invalid_request')
    expect(error.message).toContain('not as query parameters')
  })

  test('token errors are v1’s: the code in status, RFC 6749 error and error_description', async () => {
    const bad = await expectError(await post(`${prefix}/token`, { grant_type: 'refresh_token', refresh_token: 'na1-nope', ...CLIENT }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
    expect(bad).toMatchObject({ error: 'invalid_grant', error_description: 'missing or unknown refresh token' })
    const client = await expectError(await post(`${prefix}/token`, { grant_type: 'refresh_token', refresh_token: 'x', client_id: ACCOUNT.clientId, client_secret: 'wrong' }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
    expect(client.error).toBe('invalid_client')
    const grant = await expectError(await post(`${prefix}/token`, { grant_type: 'password', ...CLIENT }), 400, 'VALIDATION_ERROR', 'BAD_GRANT_TYPE')
    expect(grant.error).toBe('unsupported_grant_type')
    await expectError(await call(api, 'POST', `${prefix}/token`, { json: { grant_type: 'refresh_token' } }), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('introspection of a live access token and refresh token: their metadata with active true', async () => {
    const { access_token, refresh_token } = await grantTokens(api, { scope: 'timeline' })
    const access = await body(await post(`${prefix}/token/introspect`, { token: access_token, ...CLIENT }))
    expect(access).toMatchObject({
      token_use: 'access_token',
      active: true,
      token: access_token,
      token_type: 'access',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      hub_id: ACCOUNT.hubId,
      user_id: expect.any(Number),
      client_id: ACCOUNT.clientId,
      app_id: ACCOUNT.appId,
      scopes: ['timeline'],
      is_private_distribution: false,
      hub_domain: ACCOUNT.hubDomain,
      signed_access_token: expect.objectContaining({ appId: ACCOUNT.appId, hubId: ACCOUNT.hubId, expiresAt: expect.any(Number) }),
    })
    const refresh = await body(await post(`${prefix}/token/introspect`, { token: refresh_token, token_type_hint: 'refresh_token', ...CLIENT }))
    expect(refresh).toMatchObject({ token_use: 'refresh_token', active: true, token: refresh_token, client_id: ACCOUNT.clientId, app_id: ACCOUNT.appId, scopes: ['timeline'] })
    expect(refresh).not.toHaveProperty('expires_in')
  })

  test('introspection of an unknown, expired or revoked token is just active false', async () => {
    const { access_token, refresh_token } = await grantTokens(api)
    expect(await body(await post(`${prefix}/token/introspect`, { token: 'CNnothing', ...CLIENT }))).toEqual({ active: false })
    expect((await post(`${prefix}/token/revoke`, { token: refresh_token, ...CLIENT })).status).toBe(200)
    expect(await body(await post(`${prefix}/token/introspect`, { token: refresh_token, ...CLIENT }))).toEqual({ active: false })
    api.clock.now += ACCESS_TOKEN_TTL_SECONDS * 1000
    expect(await body(await post(`${prefix}/token/introspect`, { token: access_token, ...CLIENT }))).toEqual({ active: false })
  })

  test('introspection needs the client’s credentials and a token', async () => {
    const { access_token } = await grantTokens(api)
    const client = await expectError(await post(`${prefix}/token/introspect`, { token: access_token, client_id: ACCOUNT.clientId, client_secret: 'wrong' }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
    expect(client.error).toBe('invalid_client')
    await expectError(await post(`${prefix}/token/introspect`, { token: access_token }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
    const missing = await expectError(await post(`${prefix}/token/introspect`, CLIENT), 400, 'VALIDATION_ERROR')
    expect(missing.error).toBe('invalid_request')
  })

  test('revocation ends a refresh token: the refresh then fails with BAD_REFRESH_TOKEN; unknown tokens are a success too', async () => {
    const { refresh_token, access_token } = await grantTokens(api)
    const revoked = await post(`${prefix}/token/revoke`, { token: refresh_token, ...CLIENT })
    expect(revoked.status).toBe(200)
    expect(await revoked.text()).toBe('')
    await expectError(await post(`${prefix}/token`, { grant_type: 'refresh_token', refresh_token, ...CLIENT }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
    // v1's metadata says the same.
    await expectError(await call(api, 'GET', `/oauth/v1/refresh-tokens/${refresh_token}`), 404, 'OBJECT_NOT_FOUND', 'BAD_REFRESH_TOKEN')
    // RFC 7009 §2.2: revoking again, or an unknown token, is not an error.
    expect((await post(`${prefix}/token/revoke`, { token: refresh_token, ...CLIENT })).status).toBe(200)
    expect((await post(`${prefix}/token/revoke`, { token: 'na1-unknown', ...CLIENT })).status).toBe(200)
    // The access token made from it runs out on its own, as with v1's DELETE.
    expect((await call(api, 'GET', '/crm/v3/objects/tickets?limit=1', { auth: { bearer: access_token } })).status).toBe(200)
  })

  test('revoking an access token is refused with unsupported_token_type, and changes nothing', async () => {
    const { access_token } = await grantTokens(api)
    const error = await expectError(await post(`${prefix}/token/revoke`, { token: access_token, ...CLIENT }), 400, 'VALIDATION_ERROR')
    expect(error.error).toBe('unsupported_token_type')
    expect((await body(await post(`${prefix}/token/introspect`, { token: access_token, ...CLIENT }))).active).toBe(true)
  })

  test('revocation needs the client’s credentials', async () => {
    const { refresh_token } = await grantTokens(api)
    await expectError(await post(`${prefix}/token/revoke`, { token: refresh_token, client_id: 'other', client_secret: 'x' }), 400, 'VALIDATION_ERROR', 'BAD_CLIENT_ID')
    expect((await body(await post(`${prefix}/token/introspect`, { token: refresh_token, ...CLIENT }))).active).toBe(true)
  })
})

test('v1 keeps working beside the date-versioned API, query fields included', async () => {
  const { refresh_token, access_token } = await grantTokens(api)
  const query = new URLSearchParams({ grant_type: 'refresh_token', refresh_token, ...CLIENT })
  expect((await call(api, 'POST', `/oauth/v1/token?${query}`)).status).toBe(200)
  expect((await call(api, 'GET', `/oauth/v1/access-tokens/${access_token}`)).status).toBe(200)
})

test('OAuth has no date version but the published ones', async () => {
  const error = await expectError(await post('/oauth/2025-09/token', { grant_type: 'refresh_token', ...CLIENT }), 404, 'OBJECT_NOT_FOUND')
  expect(error.message).toContain('/oauth has no version 2025-09')
})
