/**
 * Credentials of a fresh emulator and how requests are authenticated.
 *
 * Three kinds of credential, as in the real API
 * (https://developers.hubspot.com/docs/api/intro-to-auth):
 * - the developer API key, sent as `?hapikey=`, for developer-account
 *   endpoints (timeline templates and tokens, calling settings);
 * - OAuth access tokens, `Authorization: Bearer <token>`, issued by
 *   /oauth/v1/token with the scopes granted on the consent screen;
 * - private-app access tokens, Bearer tokens with every scope: `pat-local`
 *   is the harness's own (as the CRM's own UI would act; never rate
 *   limited), `pat-app-local` an integration's private app (rate limited
 *   like any app).
 */
import { z } from 'zod'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { expiredAuthentication, invalidAuthentication, missingScopes } from './errors.ts'

/** The customer account, developer app and keys of a fresh emulator (shared with the harness and the widget). */
import { ACCOUNT } from '../../../shared/crm/account.ts'

export { ACCOUNT }

/** Every scope the emulator knows; the private-app token holds all of them. */
export const ALL_SCOPES = [
  'oauth',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'tickets',
  'timeline',
  'crm.schemas.contacts.read',
  'crm.extensions_calling_transcripts.read',
  'crm.extensions_calling_transcripts.write',
  'crm.objects.owners.read',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
  'crm.objects.custom.read',
  'crm.objects.custom.write',
] as const
export type Scope = (typeof ALL_SCOPES)[number]

/** What a route needs. */
export type AuthRequirement =
  | { kind: 'none' }
  /** `?hapikey=` developer API key. */
  | { kind: 'developer' }
  /**
   * A Bearer token holding every listed scope, plus those `scopesOf` names for
   * the path's parameters (a route over any object type needs that type's
   * scope). `oauthOnly` refuses the private-app token.
   */
  | { kind: 'bearer'; scopes: readonly Scope[]; scopesOf?: (params: Readonly<Record<string, string>>) => readonly Scope[]; oauthOnly?: boolean }

/** Who made the request, once authenticated. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'developer'; appId: number }
  | { kind: 'oauth'; token: string; appId: number; hubId: number; userId: number; scopes: readonly string[] }
  | { kind: 'private-app'; token: string; hubId: number; scopes: readonly string[] }

export const accessTokenSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  clientId: z.string(),
  appId: z.number().int(),
  hubId: z.number().int(),
  userId: z.number().int(),
  scopes: z.array(z.string()),
  issuedAt: z.number(),
  expiresAt: z.number(),
})
export type AccessTokenRow = z.infer<typeof accessTokenSchema>

/** Access tokens, keyed by token. Written by the OAuth resource. */
export function accessTokens(db: Database): Table<AccessTokenRow> {
  return db.table('oauth_access_tokens', accessTokenSchema)
}

function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization')
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1] : undefined
}

/**
 * Check a request against a route's requirement. Returns the principal or
 * throws the real API's 401/403 error.
 */
export function authenticate(
  request: Request,
  url: URL,
  requirement: AuthRequirement,
  db: Database,
  now: number,
  params: Readonly<Record<string, string>> = {},
): Principal {
  if (requirement.kind === 'none') return { kind: 'anonymous' }

  if (requirement.kind === 'developer') {
    const key = url.searchParams.get('hapikey')
    if (key === null) {
      throw invalidAuthentication(
        'Authentication credentials not found. This endpoint takes a developer API key as the hapikey query parameter.',
      )
    }
    if (key !== ACCOUNT.developerApiKey) throw invalidAuthentication('The developer API key provided is invalid.')
    return { kind: 'developer', appId: ACCOUNT.appId }
  }

  const token = bearerToken(request)
  if (token === undefined) {
    if (url.searchParams.has('hapikey')) {
      throw invalidAuthentication(
        'Developer API keys cannot be used here. Send an OAuth access token as "Authorization: Bearer <token>".',
      )
    }
    throw invalidAuthentication(
      'Authentication credentials not found. This API supports OAuth 2.0 authentication; send "Authorization: Bearer <token>".',
    )
  }

  if (token === ACCOUNT.privateAppToken || token === ACCOUNT.integrationPrivateAppToken) {
    if (requirement.oauthOnly) {
      throw invalidAuthentication(
        'Private app access tokens cannot be used here. Use an OAuth access token from an app installed in the account.',
      )
    }
    return { kind: 'private-app', token, hubId: ACCOUNT.hubId, scopes: ALL_SCOPES }
  }

  const row = accessTokens(db).get(token)
  if (!row) throw invalidAuthentication('The OAuth token used to make this call is not valid (unknown or revoked).')
  // A token is good for the app it was issued to, in the account that installed it; one brought in
  // from another app or hub (an import) reads nothing here.
  if (row.appId !== ACCOUNT.appId || row.hubId !== ACCOUNT.hubId || row.clientId !== ACCOUNT.clientId) {
    throw invalidAuthentication(`The OAuth token used to make this call was issued to another app or account (app ${row.appId}, hub ${row.hubId}), not to app ${ACCOUNT.appId} in hub ${ACCOUNT.hubId}.`)
  }
  if (now >= row.expiresAt) throw expiredAuthentication(row.expiresAt, now)
  const required = requirement.scopesOf ? [...new Set([...requirement.scopes, ...requirement.scopesOf(params)])] : requirement.scopes
  const missing = required.filter((s) => !row.scopes.includes(s))
  if (missing.length > 0) throw missingScopes(required)
  return { kind: 'oauth', token, appId: row.appId, hubId: row.hubId, userId: row.userId, scopes: row.scopes }
}
