/**
 * OAuth 2.0 for the one developer app of the emulator (spec §4.1, §5;
 * api-shapes §2): the consent step, the token endpoint, token metadata, and
 * installation state.
 *
 * Flow: the consent page (/oauth/authorize, a page of this repo) reads
 * `GET /_ringside/v1/oauth/authorize` to show the request, then posts the
 * user's decision to `POST /_ringside/v1/oauth/authorize`, which records the
 * installation and returns where to send the browser: `redirect_uri?code=…&state=…`
 * (or `?error=access_denied&state=…`). The app exchanges the code at
 * `POST /oauth/v1/token` (form-urlencoded only).
 *
 * Rules: a code is single-use and lives 5 minutes; the redirect_uri at the
 * token step must equal the one used at authorize; PKCE (S256 and plain) is
 * checked when a code_challenge was sent; a refresh may narrow the scopes of
 * the new access token but never widen them; access tokens live 30 minutes.
 *
 * Error bodies: as the real API answers them, the code in `status`
 * (`{"status":"BAD_REFRESH_TOKEN","message":…,"correlationId":…}`), so
 * token-refresh code that branches on `status` behaves as in production;
 * plus category VALIDATION_ERROR, the code again in `subCategory`, and
 * RFC 6749 `error`/`error_description`.
 *
 * The token endpoint takes its fields in the form body or as query
 * parameters (the v1 endpoint accepts both, and older client code sends
 * `?grant_type=…&client_id=…`); a field in both places takes the body's value.
 */
import { z } from 'zod'
import { ACCOUNT, ALL_SCOPES, accessTokens, type AccessTokenRow } from './auth.ts'
import type { Database, Table } from './db.ts'
import { notFound, validationError } from './errors.ts'
import { json, noContent, safeDecodeURIComponent } from './http.ts'
import type { Route, RouteContext } from './router.ts'
import type { ServiceDeps } from './service.ts'

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

function oauthError(code: OAuthErrorCode, error: RfcError, message: string) {
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

interface OAuthTables {
  installations: Table<InstallationRow>
  codes: Table<AuthCodeRow>
  refreshTokens: Table<RefreshTokenRow>
  accessTokens: Table<AccessTokenRow>
}

function tables(db: Database): OAuthTables {
  return {
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
  let url: URL
  try {
    url = new URL(redirectUri)
  } catch {
    throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', `redirect_uri '${redirectUri}' is not an absolute URL.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw oauthError(OAuthErrorCode.BAD_REDIRECT_URI, 'invalid_request', `redirect_uri must be an http(s) URL, got '${url.protocol}'.`)
  }
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

type Fields = Record<string, unknown>

function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw validationError(`'${name}' must be a string.`)
  return value
}

/** Check the query of /oauth/authorize (shared by the read and the decision). */
function parseAuthorizeRequest(fields: Fields): AuthorizeRequest {
  const clientId = optionalString(fields, 'client_id')
  checkClientId(clientId)
  const redirectUri = optionalString(fields, 'redirect_uri')
  checkRedirectUri(redirectUri)
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

// ---------------------------------------------------------------------------
// Routes

const decisionSchema = z.object({
  decision: z.enum(['grant', 'deny']),
  granted_scopes: z.array(z.string()).optional(),
})

/** Fields of a token request (RFC 6749 §4.1.3, §6, §2.3.1; RFC 7636). */
const TOKEN_FIELDS = ['grant_type', 'client_id', 'client_secret', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope'] as const

export function oauthRoutes(deps: ServiceDeps): Route[] {
  // Declared up front so snapshots always know these tables.
  tables(deps.db)
  const none = { kind: 'none' } as const

  function issueTokens(ctx: RouteContext, t: OAuthTables, grant: { appId: number; hubId: number; userId: number; clientId: string }, refresh: RefreshTokenRow, scopes: string[]): Response {
    // Hygiene: drop access tokens long past their expiry.
    for (const row of [...t.accessTokens.values()]) {
      if (row.expiresAt + EXPIRED_TOKEN_RETENTION_MS < ctx.now) t.accessTokens.delete(row.token)
    }
    const access: AccessTokenRow = {
      token: `CN${randomHex(24)}`,
      refreshToken: refresh.token,
      clientId: grant.clientId,
      appId: grant.appId,
      hubId: grant.hubId,
      userId: grant.userId,
      scopes,
      issuedAt: ctx.now,
      expiresAt: ctx.now + ACCESS_TOKEN_TTL_SECONDS * 1000,
    }
    t.accessTokens.set(access.token, access)
    return json(
      {
        access_token: access.token,
        refresh_token: refresh.token,
        expires_in: ACCESS_TOKEN_TTL_SECONDS,
        token_type: 'bearer',
        token_use: 'access_token',
        hub_id: grant.hubId,
        user_id: grant.userId,
        scopes,
        id_token: `idt.${randomHex(16)}`,
      },
      200,
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    )
  }

  /** client_id/client_secret from the form, or from HTTP Basic (RFC 6749 §2.3.1). */
  function clientCredentials(ctx: RouteContext, form: Record<string, string>): { clientId: string | undefined; clientSecret: string | undefined } {
    const header = ctx.request.headers.get('authorization')
    const basic = header ? /^Basic\s+(\S+)$/i.exec(header) : null
    if (basic) {
      let decoded = ''
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
    return { clientId: form.client_id, clientSecret: form.client_secret }
  }

  async function exchangeCode(ctx: RouteContext, t: OAuthTables, form: Record<string, string>, clientId: string): Promise<Response> {
    const code = form.code
    if (!code) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_request', 'code is required for grant_type=authorization_code.')
    const row = t.codes.get(code)
    if (!row) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_grant', 'missing or unknown auth code')
    if (row.usedAt !== null) throw oauthError(OAuthErrorCode.BAD_AUTH_CODE, 'invalid_grant', 'This auth code has already been used; codes are single-use.')
    if (ctx.now >= row.expiresAt) {
      throw oauthError(
        OAuthErrorCode.EXPIRED_AUTH_CODE,
        'invalid_grant',
        `This auth code expired ${Math.max(1, Math.round((ctx.now - row.expiresAt) / 1000))} second(s) ago; codes are valid for 5 minutes.`,
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
    t.codes.set(code, { ...row, usedAt: ctx.now })
    const refresh: RefreshTokenRow = {
      token: `na1-${randomHex(4)}-${randomHex(2)}-${randomHex(2)}-${randomHex(2)}-${randomHex(6)}`,
      clientId: row.clientId,
      appId: row.appId,
      hubId: row.hubId,
      userId: row.userId,
      scopes: row.scopes,
      issuedAt: ctx.now,
      revokedAt: null,
    }
    t.refreshTokens.set(refresh.token, refresh)
    return issueTokens(ctx, t, row, refresh, row.scopes)
  }

  function exchangeRefreshToken(ctx: RouteContext, t: OAuthTables, form: Record<string, string>, clientId: string): Response {
    const token = form.refresh_token
    if (!token) throw oauthError(OAuthErrorCode.BAD_REFRESH_TOKEN, 'invalid_request', 'refresh_token is required for grant_type=refresh_token.')
    const row = t.refreshTokens.get(token)
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
    return issueTokens(ctx, t, row, row, scopes)
  }

  const deprecationHeaders = {
    deprecation: 'true',
    link: '<https://developers.hubspot.com/docs/api/oauth/tokens>; rel="deprecation"; type="text/html"',
    warning: '299 - "Deprecated API"',
  }

  return [
    {
      method: 'GET',
      path: '/_ringside/v1/oauth/authorize',
      auth: none,
      handler(ctx) {
        const request = parseAuthorizeRequest(Object.fromEntries(ctx.query))
        const installation = tables(ctx.db).installations.get(String(DEV_APP.appId))
        return json({
          app: { id: DEV_APP.appId, name: DEV_APP.name, clientId: DEV_APP.clientId },
          account: { hubId: ACCOUNT.hubId, hubDomain: ACCOUNT.hubDomain, userId: ACCOUNT.userId, userEmail: ACCOUNT.userEmail },
          redirectUri: request.redirectUri,
          requiredScopes: request.requiredScopes,
          optionalScopes: request.optionalScopes,
          alreadyInstalled: installation !== undefined && installation.uninstalledAt === null,
        })
      },
    },
    {
      method: 'POST',
      path: '/_ringside/v1/oauth/authorize',
      auth: none,
      handler(ctx) {
        const body = ctx.jsonBody()
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError('The body must be a JSON object.')
        const fields = body as Fields
        const request = parseAuthorizeRequest(fields)
        const parsed = decisionSchema.safeParse(fields)
        if (!parsed.success) {
          throw validationError("'decision' must be \"grant\" or \"deny\", and 'granted_scopes' an array of scope names.")
        }
        const { decision } = parsed.data
        if (decision === 'deny') {
          return json({
            decision,
            redirectTo: redirectWith(request.redirectUri, {
              error: 'access_denied',
              error_description: 'The user denied the authorization request.',
              state: request.state,
            }),
          })
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
        const t = tables(ctx.db)
        // Hygiene: forget codes that expired over an hour ago.
        for (const row of [...t.codes.values()]) if (row.expiresAt + 3_600_000 < ctx.now) t.codes.delete(row.code)
        const key = String(DEV_APP.appId)
        const previous = t.installations.get(key)
        const active = previous !== undefined && previous.uninstalledAt === null
        t.installations.set(key, {
          appId: DEV_APP.appId,
          hubId: ACCOUNT.hubId,
          userId: ACCOUNT.userId,
          scopes: active ? [...new Set([...previous.scopes, ...granted])] : granted,
          installedAt: active ? previous.installedAt : ctx.now,
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
          issuedAt: ctx.now,
          expiresAt: ctx.now + AUTH_CODE_TTL_MS,
          usedAt: null,
        })
        return json({ decision, code, scopes: granted, redirectTo: redirectWith(request.redirectUri, { code, state: request.state }) })
      },
    },
    {
      method: 'POST',
      path: '/oauth/v1/token',
      auth: none,
      accepts: ['form'],
      async handler(ctx) {
        // Fields may come as query parameters too; the body's value wins.
        const form: Record<string, string> = Object.create(null)
        for (const name of TOKEN_FIELDS) {
          const value = ctx.query.get(name)
          if (value !== null) form[name] = value
        }
        if (ctx.body.kind === 'form') Object.assign(form, ctx.body.value)
        if (ctx.body.kind !== 'form' && form.grant_type === undefined) {
          throw oauthError(
            OAuthErrorCode.BAD_GRANT_TYPE,
            'invalid_request',
            'Send the token request as an application/x-www-form-urlencoded body (or its fields as query parameters).',
          )
        }
        const grantType = form.grant_type
        if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
          throw oauthError(
            OAuthErrorCode.BAD_GRANT_TYPE,
            grantType ? 'unsupported_grant_type' : 'invalid_request',
            grantType ? `Unsupported grant_type '${grantType}'; use authorization_code or refresh_token.` : 'grant_type is required (authorization_code or refresh_token).',
          )
        }
        const { clientId, clientSecret } = clientCredentials(ctx, form)
        checkClientId(clientId)
        if (!clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret is required.')
        if (clientSecret !== DEV_APP.clientSecret) throw oauthError(OAuthErrorCode.BAD_CLIENT_ID, 'invalid_client', 'client_secret does not match the client_id.')
        const t = tables(ctx.db)
        return grantType === 'authorization_code' ? exchangeCode(ctx, t, form, clientId as string) : exchangeRefreshToken(ctx, t, form, clientId as string)
      },
    },
    {
      method: 'GET',
      path: '/oauth/v1/refresh-tokens/:token',
      auth: none,
      handler(ctx) {
        const row = tables(ctx.db).refreshTokens.get(ctx.params.token as string)
        if (!row || row.revokedAt !== null) throw unknownRefreshToken()
        return json(
          {
            token: row.token,
            token_type: 'refresh',
            client_id: row.clientId,
            hub_id: row.hubId,
            user_id: row.userId,
            scopes: row.scopes,
            hub_domain: ACCOUNT.hubDomain,
            user: ACCOUNT.userEmail,
          },
          200,
          deprecationHeaders,
        )
      },
    },
    {
      method: 'DELETE',
      path: '/oauth/v1/refresh-tokens/:token',
      auth: none,
      handler(ctx) {
        const t = tables(ctx.db)
        const row = t.refreshTokens.get(ctx.params.token as string)
        if (!row || row.revokedAt !== null) throw unknownRefreshToken()
        t.refreshTokens.set(row.token, { ...row, revokedAt: ctx.now })
        return noContent(deprecationHeaders)
      },
    },
    {
      method: 'GET',
      path: '/oauth/v1/access-tokens/:token',
      auth: none,
      handler(ctx) {
        const row = tables(ctx.db).accessTokens.get(ctx.params.token as string)
        if (!row) throw notFound('missing or unknown access token')
        if (ctx.now >= row.expiresAt) throw notFound(`This access token expired at ${iso(row.expiresAt)}.`)
        return json(
          {
            token: row.token,
            token_type: 'access',
            expires_in: Math.floor((row.expiresAt - ctx.now) / 1000),
            hub_id: row.hubId,
            app_id: row.appId,
            user_id: row.userId,
            scopes: row.scopes,
            user: ACCOUNT.userEmail,
            hub_domain: ACCOUNT.hubDomain,
            is_private_distribution: false,
          },
          200,
          deprecationHeaders,
        )
      },
    },
    {
      method: 'GET',
      path: '/_ringside/v1/installations',
      auth: none,
      handler(ctx) {
        const t = tables(ctx.db)
        const row = t.installations.get(String(DEV_APP.appId))
        const live = [...t.accessTokens.values()].filter((a) => a.appId === DEV_APP.appId && a.expiresAt > ctx.now)
        const refresh = [...t.refreshTokens.values()].filter((r) => r.appId === DEV_APP.appId && r.revokedAt === null)
        return json({
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
                expiresIn: Math.floor((a.expiresAt - ctx.now) / 1000),
              })),
              refreshTokens: refresh.map((r) => ({ token: r.token, scopes: r.scopes, issuedAt: iso(r.issuedAt) })),
            },
          ],
        })
      },
    },
    {
      method: 'DELETE',
      path: '/_ringside/v1/installations/:appId',
      auth: none,
      handler(ctx) {
        if (ctx.params.appId !== String(DEV_APP.appId)) throw notFound(`No app ${ctx.params.appId}; this emulator has app ${DEV_APP.appId}.`)
        const t = tables(ctx.db)
        const row = t.installations.get(String(DEV_APP.appId))
        if (!row || row.uninstalledAt !== null) throw notFound(`App ${DEV_APP.appId} is not installed in account ${ACCOUNT.hubId}.`)
        t.installations.set(String(DEV_APP.appId), { ...row, uninstalledAt: ctx.now })
        for (const token of [...t.accessTokens.values()]) if (token.appId === DEV_APP.appId) t.accessTokens.delete(token.token)
        for (const token of [...t.refreshTokens.values()]) {
          if (token.appId === DEV_APP.appId && token.revokedAt === null) t.refreshTokens.set(token.token, { ...token, revokedAt: ctx.now })
        }
        for (const code of [...t.codes.values()]) if (code.appId === DEV_APP.appId) t.codes.delete(code.code)
        return noContent()
      },
    },
  ]
}
