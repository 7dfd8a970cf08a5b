/**
 * Tokens, as the real API issues and checks them
 * (https://developers.hubspot.com/docs/api/oauth/tokens): a code exchanged
 * once (PKCE checked when a code_challenge was sent; a reused code revokes
 * what it issued, RFC 6749 §4.1.2), refreshes that may narrow the scopes
 * but never widen them, introspection (RFC 7662), revocation (RFC 7009),
 * and the v1 metadata endpoints.
 */
import { ACCOUNT, type AccessTokenRow } from '../http/auth.ts'
import type { Database } from '../data/db.ts'
import { notFound, validationError, type ApiError } from '../http/errors.ts'
import { ACCESS_TOKEN_TTL_SECONDS, EXPIRED_TOKEN_RETENTION_MS, OAuthErrorCode, oauthError, unknownRefreshToken } from './oauth-app.ts'
import { tables, type OAuthTables, type AuthCodeRow, type RefreshTokenRow } from './oauth-tables.ts'
import { randomHex, s256Challenge, PKCE_VALUE, parseScopes, iso, authenticateClient, requiredToken, signedAccessToken, type TokenGrant, type TokenOutcome, type TokenForm } from './oauth-requests.ts'

/** The token side of OAuthStore: its tables, and every method that issues, reads or revokes tokens. */
export abstract class OAuthTokens {
  /** The OAuth tables of the database. */
  protected readonly t: OAuthTables

  constructor(db: Database) {
    // Declared up front so snapshots always know these tables.
    this.t = tables(db)
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
      const row = this.t.accessTokens.get(token)
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
      const row = this.t.refreshTokens.get(token)
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
    const row = this.t.refreshTokens.get(token)
    if (row && row.clientId === clientId && row.revokedAt === null) {
      this.t.refreshTokens.set(row.token, { ...row, revokedAt: now })
      return
    }
    if (!row && this.t.accessTokens.has(token)) {
      const message = 'Only refresh tokens can be revoked; an access token expires by itself (30 minutes after it was issued).'
      throw validationError(message, { extra: { error: 'unsupported_token_type', error_description: message } })
    }
  }

  async #exchangeCode(form: TokenForm, clientId: string, now: number): Promise<TokenOutcome> {
    const t = this.t
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
    const t = this.t
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
    const row = this.t.refreshTokens.get(token)
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
    const t = this.t
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
    this.t.refreshTokens.set(row.token, { ...row, revokedAt: now })
  }

  #liveRefreshToken(token: string): RefreshTokenRow {
    const row = this.t.refreshTokens.get(token)
    if (!row || row.revokedAt !== null) throw unknownRefreshToken()
    return row
  }

  /** An unexpired access token's metadata (the real API's AccessTokenInfoResponse); 404 otherwise. */
  accessTokenInfo(token: string, now: number) {
    const row = this.t.accessTokens.get(token)
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

}
