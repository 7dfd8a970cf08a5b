/**
 * OAuth data and rules for the one developer app of the emulator, as the real
 * API applies them (https://developers.hubspot.com/docs/api/working-with-oauth,
 * https://developers.hubspot.com/docs/api/oauth/tokens): installations, auth
 * codes, refresh and access tokens, and every check on them. `routes.ts`
 * turns requests into calls of `OAuthStore` and its answers into responses.
 *
 * Rules: the redirect_uri at authorize must be exactly one of the app's
 * registered redirect URLs (see redirect-urls.ts), or the request is refused
 * without a redirect; a code is single-use and lives 5 minutes; the
 * redirect_uri at the token step must equal the one used at authorize
 * (https://developers.hubspot.com/docs/api/oauth/tokens: "This must exactly
 * match the redirect_uri used when initiating the OAuth 2.0 connection"); PKCE (S256 and plain) is
 * checked when a code_challenge was sent; a refresh may narrow the scopes of
 * the new access token but never widen them; access tokens live 30 minutes.
 *
 * Error bodies: as the real API answers them, the code in `status`
 * (`{"status":"BAD_REFRESH_TOKEN","message":…,"correlationId":…}`), so
 * token-refresh code that branches on `status` behaves as in production;
 * plus category VALIDATION_ERROR, the code again in `subCategory`, and
 * RFC 6749 `error`/`error_description`.
 *
 * Every write method checks everything first and then writes, so a request
 * that fails changes nothing (the router's transaction would undo it anyway).
 */
import { z } from 'zod'
import { ACCOUNT, ALL_SCOPES, accessTokens, type AccessTokenRow } from '../http/auth.ts'
import type { Database, Table } from '../data/db.ts'
import { notFound, validationError, type ApiError } from '../http/errors.ts'
import { safeDecodeURIComponent } from '../http/http.ts'
import { checkUrl } from '../../../shared/url/safe-url.ts'
import { DEFAULT_REDIRECT_URLS, MAX_REDIRECT_URLS, ownRedirectUrls, REDIRECT_URLS_PATH, redirectUrlProblem } from '../../../shared/crm/redirect-urls.ts'

/** The developer app the emulator knows (one app, installed in one account). */
export const DEV_APP = {
  appId: ACCOUNT.appId,
  name: 'Ringside Local App',
  clientId: ACCOUNT.clientId,
  clientSecret: ACCOUNT.clientSecret,
} as const

export const ACCESS_TOKEN_TTL_SECONDS = 1800
export const AUTH_CODE_TTL_MS = 5 * 60 * 1000
/** Expired access tokens are kept this long, so using one still says "expired" rather than "unknown". */
const EXPIRED_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000

/** The real API's token error codes (the `status` of its error body). */
export const OAuthErrorCode = {
  BAD_AUTH_CODE: 'BAD_AUTH_CODE',
  EXPIRED_AUTH_CODE: 'EXPIRED_AUTH_CODE',
  BAD_REFRESH_TOKEN: 'BAD_REFRESH_TOKEN',
  BAD_CLIENT_ID: 'BAD_CLIENT_ID',
  BAD_REDIRECT_URI: 'BAD_REDIRECT_URI',
  BAD_GRANT_TYPE: 'BAD_GRANT_TYPE',
  BAD_SCOPE: 'BAD_SCOPE',
  BAD_CODE_CHALLENGE: 'BAD_CODE_CHALLENGE',
} as const
export type OAuthErrorCode = (typeof OAuthErrorCode)[keyof typeof OAuthErrorCode]

type RfcError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope'

export function oauthError(code: OAuthErrorCode, error: RfcError, message: string) {
  return validationError(message, { status: code, subCategory: code, extra: { error, error_description: message } })
}

/** 404 for a refresh token the metadata endpoints do not know, with the real API's status code. */
function unknownRefreshToken() {
  return notFound('missing or unknown refresh token', { status: OAuthErrorCode.BAD_REFRESH_TOKEN, subCategory: OAuthErrorCode.BAD_REFRESH_TOKEN })
}

// ---------------------------------------------------------------------------
// Tables

const scopesSchema = z.array(z.string())

const installationSchema = z.object({
  appId: z.number().int(),
  hubId: z.number().int(),
  userId: z.number().int(),
  scopes: scopesSchema,
  installedAt: z.number(),
  uninstalledAt: z.number().nullable(),
})
type InstallationRow = z.infer<typeof installationSchema>

const authCodeSchema = z.object({
  code: z.string(),
  clientId: z.string(),
  appId: z.number().int(),
  hubId: z.number().int(),
  userId: z.number().int(),
  redirectUri: z.string(),
  scopes: scopesSchema,
  codeChallenge: z.string().nullable(),
  codeChallengeMethod: z.enum(['S256', 'plain']).nullable(),
  issuedAt: z.number(),
  expiresAt: z.number(),
  usedAt: z.number().nullable(),
  /** The refresh token the code was exchanged for (absent in data from before it was kept). */
  refreshToken: z.string().nullable().optional(),
})
type AuthCodeRow = z.infer<typeof authCodeSchema>

const refreshTokenSchema = z.object({
  token: z.string(),
  clientId: z.string(),
  appId: z.number().int(),
  hubId: z.number().int(),
  userId: z.number().int(),
  scopes: scopesSchema,
  issuedAt: z.number(),
  revokedAt: z.number().nullable(),
})
type RefreshTokenRow = z.infer<typeof refreshTokenSchema>

const redirectUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = redirectUrlProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** The app's auth settings: its registered redirect URLs (one row, keyed by appId). */
const appAuthSettingsSchema = z.object({
  redirectUrls: z.array(redirectUrlSchema).max(MAX_REDIRECT_URLS),
  updatedAt: z.number(),
})
type AppAuthSettingsRow = z.infer<typeof appAuthSettingsSchema>

interface OAuthTables {
  authSettings: Table<AppAuthSettingsRow>
  installations: Table<InstallationRow>
  codes: Table<AuthCodeRow>
  refreshTokens: Table<RefreshTokenRow>
  accessTokens: Table<AccessTokenRow>
}

function tables(db: Database): OAuthTables {
  return {
    authSettings: db.table('oauth_app_auth_settings', appAuthSettingsSchema),
    installations: db.table('oauth_installations', installationSchema),
    codes: db.table('oauth_auth_codes', authCodeSchema),
    refreshTokens: db.table('oauth_refresh_tokens', refreshTokenSchema),
    accessTokens: accessTokens(db),
  }
}

// ---------------------------------------------------------------------------
// Helpers

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes)
  crypto.getRandomValues(buffer)
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('')
}

function base64url(bytes: Uint8Array): string {
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
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/

/** Split a space-separated scope list (also tolerates commas); duplicates dropped, order kept. */
export function parseScopes(raw: string | null | undefined): string[] {
  if (!raw) return []
  return [...new Set(raw.split(/[\s,]+/).filter((s) => s.length > 0))]
}

function checkKnownScopes(scopes: readonly string[], field: string): void {
  const unknown = scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) {
    throw oauthError(
      OAuthErrorCode.BAD_SCOPE,
      'invalid_scope',
      `Unknown scope${unknown.length > 1 ? 's' : ''} in ${field}: ${unknown.join(', ')}. Known scopes: ${ALL_SCOPES.join(', ')}.`,
    )
  }
}

function checkClientId(clientId: string | undefined): void {
  if (!clientId) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_request', 'client_id is required.')
  if (clientId !== DEV_APP.clientId) {
    throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', `Unknown client_id '${clientId}'. This emulator's app has client_id '${DEV_APP.clientId}'.`)
  }
}

function checkRedirectUri(redirectUri: string | undefined): URL {
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

function optionalString(fields: Fields, name: string): string | undefined {
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
function parseAuthorizeRequest(fields: Fields, accepted: readonly string[]): AuthorizeRequest {
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

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

const iso = (ms: number) => new Date(ms).toISOString()


/** client_id/client_secret from HTTP Basic (RFC 6749 §2.3.1) if the request has it, else from the form. */
function clientCredentials(authorization: string | null, form: Record<string, string>): { clientId: string | undefined; clientSecret: string | undefined } {
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
function authenticateClient(authorization: string | null, form: TokenForm): string {
  const { clientId, clientSecret } = clientCredentials(authorization, form)
  checkClientId(clientId)
  if (!clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret is required.')
  if (clientSecret !== DEV_APP.clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret does not match the client_id.')
  return clientId as string
}

/** The `token` field of an introspect or revoke request. */
function requiredToken(form: TokenForm): string {
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
function signedAccessToken(row: AccessTokenRow) {
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

const decisionSchema = z.object({
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

function putRedirectUrls(table: Table<AppAuthSettingsRow>, redirectUrls: string[], now: number): void {
  table.set(String(DEV_APP.appId), { redirectUrls, updatedAt: now })
}

/** Set the app's registered redirect URLs (the seed); duplicates dropped, each checked. */
export function seedRedirectUrls(db: Database, redirectUrls: readonly string[], now: number): void {
  const list = [...new Set(redirectUrls)].slice(0, MAX_REDIRECT_URLS)
  for (const url of list) {
    const problem = redirectUrlProblem(url)
    if (problem) throw new Error(`Redirect URL ${url}: ${problem}`)
  }
  putRedirectUrls(tables(db).authSettings, list, now)
}

export class OAuthStore {
  readonly #t: OAuthTables

  constructor(db: Database) {
    // Declared up front so snapshots always know these tables.
    this.#t = tables(db)
  }

  /** The app's registered redirect URLs (an export from before they existed has none stored: the defaults). */
  registeredRedirectUrls(): string[] {
    return [...(this.#t.authSettings.get(String(DEV_APP.appId))?.redirectUrls ?? DEFAULT_REDIRECT_URLS)]
  }

  /** The registered redirect URLs, and Ringside's own callback pages on `origin`. */
  redirectUrls(origin: string) {
    return { appId: DEV_APP.appId, redirectUrls: this.registeredRedirectUrls(), builtIn: ownRedirectUrls(origin) }
  }

  #accepted(origin: string): string[] {
    return [...this.registeredRedirectUrls(), ...ownRedirectUrls(origin)]
  }

  /** Register a redirect URL (already registered: nothing changes). 400 with the reason if it cannot be one. */
  addRedirectUrl(value: unknown, now: number): void {
    if (typeof value !== 'string') throw validationError("'url' must be a string: the redirect URL to register.")
    const problem = redirectUrlProblem(value)
    if (problem) throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', problem)
    const list = this.registeredRedirectUrls()
    if (list.includes(value)) return
    if (list.length >= MAX_REDIRECT_URLS) {
      throw validationError(`The app already has ${MAX_REDIRECT_URLS} redirect URLs, the most Ringside keeps; remove one first.`)
    }
    putRedirectUrls(this.#t.authSettings, [...list, value], now)
  }

  /** Unregister a redirect URL; 404 if it is not registered. */
  removeRedirectUrl(value: string, now: number): void {
    const list = this.registeredRedirectUrls()
    if (!list.includes(value)) {
      throw notFound(`'${value}' is not a registered redirect URL. Registered: ${list.length > 0 ? list.join(', ') : 'none'}.`)
    }
    putRedirectUrls(this.#t.authSettings, list.filter((url) => url !== value), now)
  }

  /** What the consent screen shows for an authorization request (checked in full first). */
  consent(fields: Fields, origin: string): Consent {
    const request = parseAuthorizeRequest(fields, this.#accepted(origin))
    const installation = this.#t.installations.get(String(DEV_APP.appId))
    return {
      app: { id: DEV_APP.appId, name: DEV_APP.name, clientId: DEV_APP.clientId },
      account: { hubId: ACCOUNT.hubId, hubDomain: ACCOUNT.hubDomain, userId: ACCOUNT.userId, userEmail: ACCOUNT.userEmail },
      redirectUri: request.redirectUri,
      requiredScopes: request.requiredScopes,
      optionalScopes: request.optionalScopes,
      alreadyInstalled: installation !== undefined && installation.uninstalledAt === null,
    }
  }

  /**
   * The user's decision on an authorization request. A grant must hold every
   * required scope and only requested ones; it records (or widens) the
   * installation and issues a single-use code for the redirect.
   */
  decide(fields: Fields, origin: string, now: number): Decision {
    const request = parseAuthorizeRequest(fields, this.#accepted(origin))
    const parsed = decisionSchema.safeParse(fields)
    if (!parsed.success) {
      throw validationError("'decision' must be \"grant\" or \"deny\", and 'granted_scopes' an array of scope names.")
    }
    const { decision } = parsed.data
    if (decision === 'deny') {
      return {
        decision,
        redirectTo: redirectWith(request.redirectUri, {
          error: 'access_denied',
          error_description: 'The user denied the authorization request.',
          state: request.state,
        }),
      }
    }
    const granted = [...new Set(parsed.data.granted_scopes ?? request.requiredScopes)]
    const missing = request.requiredScopes.filter((s) => !granted.includes(s))
    if (missing.length > 0) {
      throw oauthError(OAuthErrorCode.BAD_SCOPE, 'invalid_scope', `Every required scope must be granted; missing: ${missing.join(', ')}.`)
    }
    const extra = granted.filter((s) => !request.requiredScopes.includes(s) && !request.optionalScopes.includes(s))
    if (extra.length > 0) {
      throw oauthError(OAuthErrorCode.BAD_SCOPE, 'invalid_scope', `Only requested scopes can be granted; not requested: ${extra.join(', ')}.`)
    }
    const t = this.#t
    // Hygiene: forget codes that expired over an hour ago.
    for (const row of [...t.codes.values()]) if (row.expiresAt + 3_600_000 < now) t.codes.delete(row.code)
    const key = String(DEV_APP.appId)
    const previous = t.installations.get(key)
    const active = previous !== undefined && previous.uninstalledAt === null
    t.installations.set(key, {
      appId: DEV_APP.appId,
      hubId: ACCOUNT.hubId,
      userId: ACCOUNT.userId,
      scopes: active ? [...new Set([...previous.scopes, ...granted])] : granted,
      installedAt: active ? previous.installedAt : now,
      uninstalledAt: null,
    })
    const code = randomHex(20)
    t.codes.set(code, {
      code,
      clientId: request.clientId,
      appId: DEV_APP.appId,
      hubId: ACCOUNT.hubId,
      userId: ACCOUNT.userId,
      redirectUri: request.redirectUri,
      scopes: granted,
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallengeMethod ?? null,
      issuedAt: now,
      expiresAt: now + AUTH_CODE_TTL_MS,
      usedAt: null,
    })
    return { decision, code, scopes: granted, redirectTo: redirectWith(request.redirectUri, { code, state: request.state }) }
  }

  /**
   * The token endpoint: check the grant type and the client (from the Basic
   * `authorization` header, else the form), then exchange a code or a
   * refresh token for tokens.
   */
  async token(form: TokenForm, authorization: string | null, now: number): Promise<TokenOutcome> {
    const grantType = form.grant_type
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw oauthError(
        OAuthErrorCode.BAD_GRANT_TYPE,
        grantType ? 'unsupported_grant_type' : 'invalid_request',
        grantType ? `Unsupported grant_type '${grantType}'; use authorization_code or refresh_token.` : 'grant_type is required (authorization_code or refresh_token).',
      )
    }
    const clientId = authenticateClient(authorization, form)
    return grantType === 'authorization_code' ? this.#exchangeCode(form, clientId, now) : { grant: this.#exchangeRefreshToken(form, clientId, now) }
  }

  /**
   * Token introspection (`POST /oauth/2026-03/token/introspect`, RFC 7662),
   * in place of v1's per-token GETs: the client authenticates, the token is
   * in the form. A live access or refresh token issued to this client gets
   * its metadata with `active: true` (PublicAccessTokenInfoResponse or
   * PublicRefreshTokenInfoResponse); any other token, unknown, expired,
   * revoked or another client's, gets just `{active: false}` (RFC 7662 §2.2).
   * `token_type_hint` only chooses which kind is looked up first.
   */
  introspect(form: TokenForm, authorization: string | null, now: number): Record<string, unknown> {
    const clientId = authenticateClient(authorization, form)
    const token = requiredToken(form)
    const access = (): Record<string, unknown> | undefined => {
      const row = this.#t.accessTokens.get(token)
      if (!row || row.clientId !== clientId || now >= row.expiresAt) return undefined
      return {
        token_use: 'access_token',
        active: true,
        token: row.token,
        token_type: 'access',
        expires_in: Math.floor((row.expiresAt - now) / 1000),
        hub_id: row.hubId,
        user_id: row.userId,
        client_id: row.clientId,
        app_id: row.appId,
        scopes: row.scopes,
        is_private_distribution: false,
        user: ACCOUNT.userEmail,
        hub_domain: ACCOUNT.hubDomain,
        signed_access_token: signedAccessToken(row),
      }
    }
    const refresh = (): Record<string, unknown> | undefined => {
      const row = this.#t.refreshTokens.get(token)
      if (!row || row.clientId !== clientId || row.revokedAt !== null) return undefined
      return {
        token_use: 'refresh_token',
        active: true,
        token: row.token,
        token_type: 'refresh',
        hub_id: row.hubId,
        user_id: row.userId,
        client_id: row.clientId,
        app_id: row.appId,
        scopes: row.scopes,
        user: ACCOUNT.userEmail,
        hub_domain: ACCOUNT.hubDomain,
      }
    }
    const found = form.token_type_hint === 'refresh_token' ? (refresh() ?? access()) : (access() ?? refresh())
    return found ?? { active: false }
  }

  /**
   * Token revocation (`POST /oauth/2026-03/token/revoke`, RFC 7009), in
   * place of v1's `DELETE /oauth/v1/refresh-tokens/{token}`: it revokes a
   * refresh token of this client (access tokens made from it run out on
   * their own, as with v1). An unknown or already revoked token is a
   * success too (RFC 7009 §2.2); an access token is refused with
   * `unsupported_token_type`, since only refresh tokens can be revoked.
   */
  revoke(form: TokenForm, authorization: string | null, now: number): void {
    const clientId = authenticateClient(authorization, form)
    const token = requiredToken(form)
    const row = this.#t.refreshTokens.get(token)
    if (row && row.clientId === clientId && row.revokedAt === null) {
      this.#t.refreshTokens.set(row.token, { ...row, revokedAt: now })
      return
    }
    if (!row && this.#t.accessTokens.has(token)) {
      const message = 'Only refresh tokens can be revoked; an access token expires by itself (30 minutes after it was issued).'
      throw validationError(message, { extra: { error: 'unsupported_token_type', error_description: message } })
    }
  }

  async #exchangeCode(form: TokenForm, clientId: string, now: number): Promise<TokenOutcome> {
    const t = this.#t
    const code = form.code
    if (!code) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_request', 'code is required for grant_type=authorization_code.')
    const row = t.codes.get(code)
    if (!row) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_grant', 'missing or unknown auth code')
    if (row.usedAt !== null) return { refused: this.#refuseReusedCode(row, now) }
    if (now >= row.expiresAt) {
      throw oauthError(
        OAuthErrorCode.EXPIRED_AUTH_CODE,
        'invalid_grant',
        `This auth code expired ${Math.max(1, Math.round((now - row.expiresAt) / 1000))} second(s) ago; codes are valid for 5 minutes.`,
      )
    }
    if (row.clientId !== clientId) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_grant', 'This auth code was issued to another client.')
    if (!form.redirect_uri) throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', 'redirect_uri is required for grant_type=authorization_code.')
    if (form.redirect_uri !== row.redirectUri) {
      throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_grant', 'redirect_uri does not match the one used in the authorization request.')
    }
    if (row.codeChallenge !== null) {
      const verifier = form.code_verifier
      if (!verifier) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_request', 'code_verifier is required: this code was issued with a PKCE code_challenge.')
      if (!PKCE_VALUE.test(verifier)) {
        throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_request', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636).')
      }
      const expected = row.codeChallengeMethod === 'S256' ? await s256Challenge(verifier) : verifier
      if (expected !== row.codeChallenge) {
        throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_grant', `code_verifier does not match the ${row.codeChallengeMethod} code_challenge.`)
      }
    }
    const refresh: RefreshTokenRow = {
      token: `na1-${randomHex(4)}-${randomHex(2)}-${randomHex(2)}-${randomHex(2)}-${randomHex(6)}`,
      clientId: row.clientId,
      appId: row.appId,
      hubId: row.hubId,
      userId: row.userId,
      scopes: row.scopes,
      issuedAt: now,
      revokedAt: null,
    }
    t.refreshTokens.set(refresh.token, refresh)
    t.codes.set(code, { ...row, usedAt: now, refreshToken: refresh.token })
    return { grant: this.#issueTokens(row, refresh, row.scopes, now) }
  }

  /**
   * RFC 6749 §4.1.2: a code used more than once is refused, and the tokens
   * issued from it are revoked: its refresh token, and every access token
   * made with that refresh token (the first one and every refresh since, as
   * the real API keeps one refresh token across refreshes). The real API
   * answers an unusable code with 400 BAD_AUTH_CODE "missing or unknown auth
   * code"; the message starts the same way.
   */
  #refuseReusedCode(row: AuthCodeRow, now: number): ApiError {
    const t = this.#t
    const refresh = row.refreshToken ? t.refreshTokens.get(row.refreshToken) : undefined
    if (refresh && refresh.revokedAt === null) t.refreshTokens.set(refresh.token, { ...refresh, revokedAt: now })
    if (refresh) for (const access of [...t.accessTokens.values()]) if (access.refreshToken === refresh.token) t.accessTokens.delete(access.token)
    return oauthError(
      OAuthErrorCode.BAD_AUTH_CODE,
      'invalid_grant',
      'missing or unknown auth code: this code was already exchanged (codes are single-use), so the tokens issued from it are now revoked (RFC 6749 §4.1.2).',
    )
  }

  #exchangeRefreshToken(form: TokenForm, clientId: string, now: number): TokenGrant {
    const token = form.refresh_token
    if (!token) throw oauthError(OAuthErrorCode.BAD_REFRESH_TOKEN, 'invalid_request', 'refresh_token is required for grant_type=refresh_token.')
    const row = this.#t.refreshTokens.get(token)
    if (!row || row.revokedAt !== null) throw oauthError(OAuthErrorCode.BAD_REFRESH_TOKEN, 'invalid_grant', 'missing or unknown refresh token')
    if (row.clientId !== clientId) throw oauthError(OAuthErrorCode.BAD_REFRESH_TOKEN, 'invalid_grant', 'This refresh token was issued to another client.')
    let scopes = row.scopes
    if (form.scope !== undefined && form.scope.trim() !== '') {
      const asked = parseScopes(form.scope)
      const wider = asked.filter((s) => !row.scopes.includes(s))
      if (wider.length > 0) {
        throw oauthError(
          OAuthErrorCode.BAD_SCOPE,
          'invalid_scope',
          `A refresh can only narrow the granted scopes; not granted: ${wider.join(', ')}. Granted: ${row.scopes.join(', ')}.`,
        )
      }
      scopes = asked
    }
    return this.#issueTokens(row, row, scopes, now)
  }

  #issueTokens(grant: { appId: number; hubId: number; userId: number; clientId: string }, refresh: RefreshTokenRow, scopes: string[], now: number): TokenGrant {
    const t = this.#t
    // Hygiene: drop access tokens long past their expiry.
    for (const row of [...t.accessTokens.values()]) {
      if (row.expiresAt + EXPIRED_TOKEN_RETENTION_MS < now) t.accessTokens.delete(row.token)
    }
    const access: AccessTokenRow = {
      token: `CN${randomHex(24)}`,
      refreshToken: refresh.token,
      clientId: grant.clientId,
      appId: grant.appId,
      hubId: grant.hubId,
      userId: grant.userId,
      scopes,
      issuedAt: now,
      expiresAt: now + ACCESS_TOKEN_TTL_SECONDS * 1000,
    }
    t.accessTokens.set(access.token, access)
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      token_type: 'bearer',
      token_use: 'access_token',
      hub_id: grant.hubId,
      user_id: grant.userId,
      scopes,
      id_token: `idt.${randomHex(16)}`,
    }
  }

  /** A live refresh token's metadata (the real API's RefreshTokenInfoResponse); 404 BAD_REFRESH_TOKEN otherwise. */
  refreshTokenInfo(token: string) {
    const row = this.#liveRefreshToken(token)
    return {
      token: row.token,
      token_type: 'refresh',
      client_id: row.clientId,
      hub_id: row.hubId,
      user_id: row.userId,
      scopes: row.scopes,
      hub_domain: ACCOUNT.hubDomain,
      user: ACCOUNT.userEmail,
    }
  }

  /** Revoke a live refresh token; 404 BAD_REFRESH_TOKEN for an unknown or revoked one. */
  revokeRefreshToken(token: string, now: number): void {
    const row = this.#liveRefreshToken(token)
    this.#t.refreshTokens.set(row.token, { ...row, revokedAt: now })
  }

  #liveRefreshToken(token: string): RefreshTokenRow {
    const row = this.#t.refreshTokens.get(token)
    if (!row || row.revokedAt !== null) throw unknownRefreshToken()
    return row
  }

  /** An unexpired access token's metadata (the real API's AccessTokenInfoResponse); 404 otherwise. */
  accessTokenInfo(token: string, now: number) {
    const row = this.#t.accessTokens.get(token)
    if (!row) throw notFound('missing or unknown access token')
    if (now >= row.expiresAt) throw notFound(`This access token expired at ${iso(row.expiresAt)}.`)
    return {
      token: row.token,
      token_type: 'access',
      expires_in: Math.floor((row.expiresAt - now) / 1000),
      hub_id: row.hubId,
      app_id: row.appId,
      user_id: row.userId,
      scopes: row.scopes,
      user: ACCOUNT.userEmail,
      hub_domain: ACCOUNT.hubDomain,
      is_private_distribution: false,
    }
  }

  /** The app's installation in the account, with its live tokens (an emulator view; the real API has none). */
  installations(now: number) {
    const t = this.#t
    const row = t.installations.get(String(DEV_APP.appId))
    const live = [...t.accessTokens.values()].filter((a) => a.appId === DEV_APP.appId && a.expiresAt > now)
    const refresh = [...t.refreshTokens.values()].filter((r) => r.appId === DEV_APP.appId && r.revokedAt === null)
    return {
      results: [
        {
          appId: DEV_APP.appId,
          appName: DEV_APP.name,
          clientId: DEV_APP.clientId,
          hubId: ACCOUNT.hubId,
          hubDomain: ACCOUNT.hubDomain,
          installed: row !== undefined && row.uninstalledAt === null,
          installedAt: row ? iso(row.installedAt) : null,
          uninstalledAt: row?.uninstalledAt ? iso(row.uninstalledAt) : null,
          scopes: row && row.uninstalledAt === null ? row.scopes : [],
          accessTokens: live.map((a) => ({
            token: a.token,
            scopes: a.scopes,
            issuedAt: iso(a.issuedAt),
            expiresAt: iso(a.expiresAt),
            expiresIn: Math.floor((a.expiresAt - now) / 1000),
          })),
          refreshTokens: refresh.map((r) => ({ token: r.token, scopes: r.scopes, issuedAt: iso(r.issuedAt) })),
        },
      ],
    }
  }

  /**
   * Uninstall the app from the account, as the user's "uninstall" in the
   * CRM does: every access token is dropped, every refresh token revoked and
   * every unused code forgotten. 404 if it is not installed.
   */
  uninstall(appId: string, now: number): void {
    if (appId !== String(DEV_APP.appId)) throw notFound(`No app ${appId}; this emulator has app ${DEV_APP.appId}.`)
    const t = this.#t
    const row = t.installations.get(appId)
    if (!row || row.uninstalledAt !== null) throw notFound(`App ${DEV_APP.appId} is not installed in account ${ACCOUNT.hubId}.`)
    t.installations.set(appId, { ...row, uninstalledAt: now })
    for (const token of [...t.accessTokens.values()]) if (token.appId === DEV_APP.appId) t.accessTokens.delete(token.token)
    for (const token of [...t.refreshTokens.values()]) {
      if (token.appId === DEV_APP.appId && token.revokedAt === null) t.refreshTokens.set(token.token, { ...token, revokedAt: now })
    }
    for (const code of [...t.codes.values()]) if (code.appId === DEV_APP.appId) t.codes.delete(code.code)
  }
}
