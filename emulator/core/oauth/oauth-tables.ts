/**
 * The OAuth tables (installations, auth codes, refresh tokens, the app's
 * registered redirect URLs; access tokens are auth.ts's), declared on one
 * database, and the seed's write of the redirect URLs.
 */
import { z } from 'zod'
import { accessTokens, type AccessTokenRow } from '../http/auth.ts'
import type { Database } from '../data/db.ts'
import type { Table } from '../data/table.ts'
import { MAX_REDIRECT_URLS, redirectUrlProblem } from '../../../shared/crm/redirect-urls.ts'
import { DEV_APP } from './oauth-app.ts'

const scopesSchema = z.array(z.string())

const installationSchema = z.object({
  appId: z.number().int(),
  hubId: z.number().int(),
  userId: z.number().int(),
  scopes: scopesSchema,
  installedAt: z.number(),
  uninstalledAt: z.number().nullable(),
})
export type InstallationRow = z.infer<typeof installationSchema>

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
export type AuthCodeRow = z.infer<typeof authCodeSchema>

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
export type RefreshTokenRow = z.infer<typeof refreshTokenSchema>

const redirectUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = redirectUrlProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** The app's auth settings: its registered redirect URLs (one row, keyed by appId). */
const appAuthSettingsSchema = z.object({
  redirectUrls: z.array(redirectUrlSchema).max(MAX_REDIRECT_URLS),
  updatedAt: z.number(),
})
export type AppAuthSettingsRow = z.infer<typeof appAuthSettingsSchema>

export interface OAuthTables {
  authSettings: Table<AppAuthSettingsRow>
  installations: Table<InstallationRow>
  codes: Table<AuthCodeRow>
  refreshTokens: Table<RefreshTokenRow>
  accessTokens: Table<AccessTokenRow>
}

export function tables(db: Database): OAuthTables {
  return {
    authSettings: db.table('oauth_app_auth_settings', appAuthSettingsSchema),
    installations: db.table('oauth_installations', installationSchema),
    codes: db.table('oauth_auth_codes', authCodeSchema),
    refreshTokens: db.table('oauth_refresh_tokens', refreshTokenSchema),
    accessTokens: accessTokens(db),
  }
}

export function putRedirectUrls(table: Table<AppAuthSettingsRow>, redirectUrls: string[], now: number): void {
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
