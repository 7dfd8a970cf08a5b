/**
 * The one developer app the emulator knows, the lifetimes of its codes and
 * tokens, and the real API's OAuth error codes with the error body that
 * carries them (the code in `status` and `subCategory`, plus RFC 6749
 * `error`/`error_description`).
 */
import { ACCOUNT } from '../http/auth.ts'
import { notFound, validationError } from '../http/errors.ts'

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
export const EXPIRED_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000

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

export type RfcError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope'

export function oauthError(code: OAuthErrorCode, error: RfcError, message: string) {
  return validationError(message, { status: code, subCategory: code, extra: { error, error_description: message } })
}

/** 404 for a refresh token the metadata endpoints do not know, with the real API's status code. */
export function unknownRefreshToken() {
  return notFound('missing or unknown refresh token', { status: OAuthErrorCode.BAD_REFRESH_TOKEN, subCategory: OAuthErrorCode.BAD_REFRESH_TOKEN })
}
