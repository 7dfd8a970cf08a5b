/**
 * RFC 6749 §4.1.2: an authorization code used more than once is refused, and
 * the tokens issued from it are revoked: the refresh token, the access token
 * of the exchange, and every access token refreshed from that refresh token.
 * Both token endpoints (v1, and the date-versioned one) behave alike.
 */
import { ACCOUNT } from '../http/auth.ts'
import { authorize, body, call, createTestService, expectError, REDIRECT_URI, type TestService } from '../timeline/testing.ts'

const CLIENT = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }

let api: TestService
beforeEach(() => {
  api = createTestService()
})

const tokenAt = (path: string, fields: Record<string, string>) => call(api, 'POST', path, { form: { ...CLIENT, ...fields } })
const readTickets = (accessToken: string) => call(api, 'GET', '/crm/v3/objects/tickets?limit=1', { auth: { bearer: accessToken } })
const introspect = async (token: string) => body(await tokenAt('/oauth/2026-03/token/introspect', { token }))

describe.each(['/oauth/v1/token', '/oauth/2026-03/token'])('a reused code at %s', (tokenPath) => {
  test('is refused with BAD_AUTH_CODE and revokes the refresh token and every access token made from it', async () => {
    const code = await authorize(api)
    const exchange = () => tokenAt(tokenPath, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI })
    const first = await exchange()
    expect(first.status).toBe(200)
    const { access_token: accessToken, refresh_token: refreshToken } = await body(first)
    const refreshed = await tokenAt(tokenPath, { grant_type: 'refresh_token', refresh_token: refreshToken })
    expect(refreshed.status).toBe(200)
    const refreshedAccess: string = (await body(refreshed)).access_token
    expect((await readTickets(accessToken)).status).toBe(200)
    expect((await readTickets(refreshedAccess)).status).toBe(200)

    // Tokens from another code of the same app are not touched.
    const otherCode = await authorize(api)
    const other = await body(await tokenAt(tokenPath, { grant_type: 'authorization_code', code: otherCode, redirect_uri: REDIRECT_URI }))

    const reused = await expectError(await exchange(), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
    expect(reused.error).toBe('invalid_grant')
    expect(reused.message).toMatch(/^missing or unknown auth code: .*revoked/)

    for (const token of [accessToken, refreshedAccess]) {
      const refused = await expectError(await readTickets(token), 401, 'INVALID_AUTHENTICATION')
      expect(refused.message).toMatch(/not valid \(unknown or revoked\)/)
      expect(await introspect(token)).toEqual({ active: false })
    }
    const refresh = await expectError(await tokenAt(tokenPath, { grant_type: 'refresh_token', refresh_token: refreshToken }), 400, 'VALIDATION_ERROR', 'BAD_REFRESH_TOKEN')
    expect(refresh.error).toBe('invalid_grant')
    expect(await introspect(refreshToken)).toEqual({ active: false })

    expect((await readTickets(other.access_token)).status).toBe(200)
    expect((await tokenAt(tokenPath, { grant_type: 'refresh_token', refresh_token: other.refresh_token })).status).toBe(200)

    // A third use is refused the same way, and issues nothing.
    await expectError(await exchange(), 400, 'VALIDATION_ERROR', 'BAD_AUTH_CODE')
  })
})

test('a code refused for another reason (wrong redirect_uri) is not used up, and revokes nothing', async () => {
  const code = await authorize(api)
  await expectError(await tokenAt('/oauth/v1/token', { grant_type: 'authorization_code', code, redirect_uri: 'https://app.example/other' }), 400, 'VALIDATION_ERROR', 'BAD_REDIRECT_URI')
  const granted = await tokenAt('/oauth/v1/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI })
  expect(granted.status).toBe(200)
  expect((await readTickets((await body(granted)).access_token)).status).toBe(200)
})
