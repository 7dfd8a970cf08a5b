/**
 * Reading and checking what an OAuth request carries: the authorize
 * request's fields (client, registered redirect URI, scopes, PKCE), the
 * client's credentials at the token endpoints, and the shapes of what the
 * store answers (consent, decision, token grant, introspection).
 */
import { z } from 'zod'
import { ALL_SCOPES, type AccessTokenRow } from '../http/auth.ts'
import { validationError, type ApiError } from '../http/errors.ts'
import { safeDecodeURIComponent } from '../http/http.ts'
import { checkUrl } from '../../../shared/url/safe-url.ts'
import { REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { DEV_APP, OAuthErrorCode, oauthError } from './oauth-app.ts'

export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes)
  crypto.getRandomValues(buffer)
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('')
}

export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** base64url(SHA-256(verifier)), the S256 code challenge (RFC 7636 §4.2). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return base64url(new Uint8Array(digest))
}

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]; the same alphabet and length for a plain challenge. */
export const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/

/** Split a space-separated scope list (also tolerates commas); duplicates dropped, order kept. */
export function parseScopes(raw: string | null | undefined): string[] {
  if (!raw) return []
  return [...new Set(raw.split(/[\s,]+/).filter((s) => s.length > 0))]
}

export function checkKnownScopes(scopes: readonly string[], field: string): void {
  const unknown = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) {
    throw oauthError(
      OAuthErrorCode.BAD_SCOPE,
      'invalid_scope',
      `Unknown scope${unknown.length > 1 ? 's' : ''} in ${field}: ${unknown.join(', ')}. Known scopes: ${ALL_SCOPES.join(', ')}.`,
    )
  }
}

export function checkClientId(clientId: string | undefined): void {
  if (!clientId) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_request', 'client_id is required.')
  if (clientId !== DEV_APP.clientId) {
    throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', `Unknown client_id '${clientId}'. This emulator's app has client_id '${DEV_APP.clientId}'.`)
  }
}

export function checkRedirectUri(redirectUri: string | undefined): URL {
  if (!redirectUri) throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', 'redirect_uri is required.')
  const verdict = checkUrl(redirectUri)
  if (!verdict.ok) throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', `redirect_uri must be an absolute http(s) URL: '${redirectUri}' ${verdict.reason}.`)
  const url = new URL(verdict.href)
  if (url.hash !== '' || redirectUri.includes('#')) {
    throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', 'redirect_uri must not contain a fragment (#).')
  }
  return url
}

/** The authorization request, as read from the consent page's query. */
export interface AuthorizeRequest {
  clientId: string
  redirectUri: string
  requiredScopes: string[]
  optionalScopes: string[]
  state: string | undefined
  codeChallenge: string | undefined
  codeChallengeMethod: 'S256' | 'plain' | undefined
}

/** Request fields by name: the authorize query, or the decision's JSON body. */
export type Fields = Record<string, unknown>

export function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw validationError(`'${name}' must be a string.`)
  return value
}

/**
 * Check the query of /oauth/authorize (shared by the read and the decision).
 * `accepted` are the redirect URLs this request may use: the registered
 * ones and Ringside's own callback pages on the request's origin.
 */
export function parseAuthorizeRequest(fields: Fields, accepted: readonly string[]): AuthorizeRequest {
  const clientId = optionalString(fields, 'client_id')
  checkClientId(clientId)
  const redirectUri = optionalString(fields, 'redirect_uri')
  checkRedirectUri(redirectUri)
  if (!accepted.includes(redirectUri as string)) {
    // The real consent screen's wording; the rest says how to register it here.
    throw oauthError(
      OAuthErrorCode.BAD_REDIRECT_URI,
      'invalid_request',
      `Authorization failed as the redirect URL '${redirectUri}' doesn't match the app's registered redirect URL. ` +
        `Register it exactly (Developer → OAuth → Redirect URLs, POST ${REDIRECT_URLS_PATH}, or start with --redirect-url).`,
    )
  }
  const requiredScopes = parseScopes(optionalString(fields, 'scope'))
  if (requiredScopes.length === 0) throw oauthError(OAuthErrorCode.BAD_SCOPE, 'invalid_scope', 'scope is required: a space-separated list of scopes.')
  checkKnownScopes(requiredScopes, 'scope')
  const optionalScopes = parseScopes(optionalString(fields, 'optional_scope')).filter((s) => !requiredScopes.includes(s))
  checkKnownScopes(optionalScopes, 'optional_scope')

  const codeChallenge = optionalString(fields, 'code_challenge') || undefined
  const method = optionalString(fields, 'code_challenge_method') || undefined
  if (method !== undefined && method !== 'S256' && method !== 'plain') {
    throw oauthError(OAuthErrorCode.BAD_CODE_CHALLENGE, 'invalid_request', `code_challenge_method must be S256 or plain, got '${method}'.`)
  }
  if (method !== undefined && codeChallenge === undefined) {
    throw oauthError(OAuthErrorCode.BAD_CODE_CHALLENGE, 'invalid_request', 'code_challenge_method was sent without a code_challenge.')
  }
  if (codeChallenge !== undefined && !PKCE_VALUE.test(codeChallenge)) {
    throw oauthError(
      OAuthErrorCode.BAD_CODE_CHALLENGE,
      'invalid_request',
      'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636).',
    )
  }
  return {
    clientId: clientId as string,
    redirectUri: redirectUri as string,
    requiredScopes,
    optionalScopes,
    state: optionalString(fields, 'state'),
    codeChallenge,
    // RFC 7636 §4.3: without a method, the challenge is plain.
    codeChallengeMethod: codeChallenge === undefined ? undefined : (method ?? 'plain'),
  }
}

export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

export const iso = (ms: number) => new Date(ms).toISOString()

/** client_id/client_secret from HTTP Basic (RFC 6749 §2.3.1) if the request has it, else from the form. */
export function clientCredentials(authorization: string | null, form: Record<string, string>): { clientId: string | undefined; clientSecret: string | undefined } {
  const basic = authorization ? /^Basic\s+(\S+)$/i.exec(authorization) : null
  if (!basic) return { clientId: form.client_id, clientSecret: form.client_secret }
  let decoded: string
  try {
    decoded = atob(basic[1] as string)
  } catch {
    throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'The Basic authorization header is not valid base64.')
  }
  const colon = decoded.indexOf(':')
  if (colon < 0) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'The Basic authorization header must hold client_id:client_secret.')
  // RFC 6749 §2.3.1: both halves are form-urlencoded before encoding.
  const clientId = safeDecodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '))
  const clientSecret = safeDecodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' '))
  if (clientId === undefined || clientSecret === undefined) {
    throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'The Basic authorization header holds malformed percent-encoding.')
  }
  return { clientId, clientSecret }
}

/** The client of a token, introspect or revoke request (Basic header, else the form), checked; its client_id. */
export function authenticateClient(authorization: string | null, form: TokenForm): string {
  const { clientId, clientSecret } = clientCredentials(authorization, form)
  checkClientId(clientId)
  if (!clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret is required.')
  if (clientSecret !== DEV_APP.clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret does not match the client_id.')
  return clientId as string
}

/** The `token` field of an introspect or revoke request. */
export function requiredToken(form: TokenForm): string {
  const token = form.token
  if (!token) {
    const message = 'token is required: the access or refresh token, as a form field.'
    throw validationError(message, { extra: { error: 'invalid_request', error_description: message } })
  }
  return token
}

/**
 * The introspection answer's `signed_access_token`: the fields the real API
 * returns, filled from the token. The real values of `signature`,
 * `newSignature` and the scope-group fields are HubSpot's internal encoding
 * of the token, which an emulator cannot reproduce; they are opaque here.
 */
export function signedAccessToken(row: AccessTokenRow) {
  return {
    appId: row.appId,
    appInstallId: `${row.appId}-${row.hubId}`,
    audience: row.clientId,
    expiresAt: row.expiresAt,
    hubId: row.hubId,
    hublet: 'na1',
    installingUserId: row.userId,
    isPrivateDistribution: false,
    isServiceAccount: false,
    isUserLevel: false,
    newSignature: row.token.slice(-16),
    scopeToScopeGroupPks: '',
    scopes: row.scopes.join(' '),
    signature: row.token.slice(2, 18),
    trialScopeToScopeGroupPks: '',
    trialScopes: '',
    userId: row.userId,
  }
}

export const decisionSchema = z.object({
  decision: z.enum(['grant', 'deny']),
  granted_scopes: z.array(z.string()).optional(),
})

/** The consent screen's view of an authorization request. */
export interface Consent {
  app: { id: number; name: string; clientId: string }
  account: { hubId: number; hubDomain: string; userId: number; userEmail: string }
  redirectUri: string
  requiredScopes: string[]
  optionalScopes: string[]
  alreadyInstalled: boolean
}

/** The user's answer on the consent screen: where the browser goes next (and, on a grant, the code). */
export type Decision =
  | { decision: 'deny'; redirectTo: string }
  | { decision: 'grant'; code: string; scopes: string[]; redirectTo: string }

/** The token endpoint's success body (the real API's shape). */
export interface TokenGrant {
  access_token: string
  refresh_token: string
  expires_in: number
  token_type: 'bearer'
  token_use: 'access_token'
  hub_id: number
  user_id: number
  scopes: string[]
  id_token: string
}

/**
 * What a token request comes to: tokens, or a refusal whose writes must be
 * kept (a reused code's revocation, RFC 6749 §4.1.2), so the caller commits
 * the transaction and then answers with the error. Any other refusal is thrown.
 */
export type TokenOutcome = { grant: TokenGrant } | { refused: ApiError }

/** The token request's fields (RFC 6749 §4.1.3, §6; RFC 7636), by name. */
export type TokenForm = Record<string, string>
