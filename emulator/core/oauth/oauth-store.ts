/**
 * OAuth data and rules for the one developer app of the emulator, as the real
 * API applies them (https://developers.hubspot.com/docs/api/working-with-oauth,
 * https://developers.hubspot.com/docs/api/oauth/tokens): installations, auth
 * codes, refresh and access tokens, and every check on them. `oauth-routes.ts`
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
 *
 * This file holds the app's side: redirect URLs, consent, the user's
 * decision, installations. Tokens are in oauth-tokens.ts (OAuthTokens, the
 * base class), the requests' checks in oauth-requests.ts, the tables in
 * oauth-tables.ts, the app and error codes in oauth-app.ts.
 */
import { ACCOUNT } from '../http/auth.ts'
import { notFound, validationError } from '../http/errors.ts'
import { DEFAULT_REDIRECT_URLS, MAX_REDIRECT_URLS, ownRedirectUrls, redirectUrlProblem } from '../../../shared/crm/redirect-urls.ts'
import { DEV_APP, AUTH_CODE_TTL_MS, OAuthErrorCode, oauthError } from './oauth-app.ts'
import { putRedirectUrls } from './oauth-tables.ts'
import { randomHex, parseAuthorizeRequest, redirectWith, iso, decisionSchema, type Fields, type Consent, type Decision } from './oauth-requests.ts'
import { OAuthTokens } from './oauth-tokens.ts'

export class OAuthStore extends OAuthTokens {
  /** The app's registered redirect URLs (an export from before they existed has none stored: the defaults). */
  registeredRedirectUrls(): string[] {
    return [...(this.t.authSettings.get(String(DEV_APP.appId))?.redirectUrls ?? DEFAULT_REDIRECT_URLS)]
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
    putRedirectUrls(this.t.authSettings, [...list, value], now)
  }

  /** Unregister a redirect URL; 404 if it is not registered. */
  removeRedirectUrl(value: string, now: number): void {
    const list = this.registeredRedirectUrls()
    if (!list.includes(value)) {
      throw notFound(`'${value}' is not a registered redirect URL. Registered: ${list.length > 0 ? list.join(', ') : 'none'}.`)
    }
    putRedirectUrls(this.t.authSettings, list.filter((url) => url !== value), now)
  }

  /** What the consent screen shows for an authorization request (checked in full first). */
  consent(fields: Fields, origin: string): Consent {
    const request = parseAuthorizeRequest(fields, this.#accepted(origin))
    const installation = this.t.installations.get(String(DEV_APP.appId))
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
    const t = this.t
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

  /** The app's installation in the account, with its live tokens (an emulator view; the real API has none). */
  installations(now: number) {
    const t = this.t
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
    const t = this.t
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
