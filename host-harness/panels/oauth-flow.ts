/**
 * The harness playing a calling app's back end in the OAuth code flow:
 * send the user to the consent page with a random `state`, take the code on
 * the way back (checking that `state`), exchange it at /oauth/v1/token
 * (form body, no Authorization header), refresh, and uninstall.
 */
import { z } from 'zod'
import { api } from '../lib/api-client.ts'
import { harnessCallbackUrl, REDIRECT_URLS_PATH } from '../../shared/crm/redirect-urls.ts'
import { useHarnessStore, type OAuthConnection } from '../lib/harness-store.ts'
import { ACCOUNT } from '../../shared/crm/account.ts'
import { requireSafeUrl } from '../../shared/url/safe-url.ts'

/** Scopes a calling app with timeline events asks for. */
export const DEFAULT_SCOPES = [
  'oauth',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.companies.read',
  'crm.objects.deals.read',
  'tickets',
  'timeline',
] as const

export const TOKEN_PATH = '/oauth/v1/token'
export const INSTALLATIONS_PATH = '/_ringside/v1/installations'

/** Where the consent page sends the browser back (no fragment: the API refuses one). */
export function redirectUri(origin: string = window.location.origin): string {
  return harnessCallbackUrl(origin)
}

export function authorizeUrl(state: string, scopes: readonly string[], origin: string = window.location.origin): string {
  const url = new URL('/oauth/authorize', origin)
  url.searchParams.set('client_id', ACCOUNT.clientId)
  url.searchParams.set('redirect_uri', redirectUri(origin))
  url.searchParams.set('scope', scopes.join(' '))
  url.searchParams.set('state', state)
  return url.href
}

function randomState(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Remember a fresh state and go to the consent page (same tab). */
export function beginConnect(scopes: readonly string[], go: (url: string) => void = (url) => window.location.assign(requireSafeUrl(url, 'The consent page URL'))): void {
  const state = randomState()
  useHarnessStore.getState().setPendingOAuthState(state)
  go(authorizeUrl(state, scopes))
}

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number(),
  token_type: z.string(),
  scopes: z.array(z.string()).optional(),
  hub_id: z.number().optional(),
  user_id: z.number().optional(),
})

function toConnection(body: unknown, now: number): OAuthConnection {
  const parsed = tokenResponseSchema.safeParse(body)
  if (!parsed.success) throw new Error(`The token endpoint answered with an unexpected body: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  const t = parsed.data
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    tokenType: t.token_type,
    scopes: t.scopes ?? [],
    expiresAt: now + t.expires_in * 1000,
    obtainedAt: now,
    ...(t.hub_id !== undefined && { hubId: t.hub_id }),
    ...(t.user_id !== undefined && { userId: t.user_id }),
  }
}

/** Exchange an authorization code; stores and returns the tokens. */
export async function exchangeCode(code: string): Promise<OAuthConnection> {
  const body = await api.post<unknown>(TOKEN_PATH, undefined, {
    anonymous: true,
    form: {
      grant_type: 'authorization_code',
      client_id: ACCOUNT.clientId,
      client_secret: ACCOUNT.clientSecret,
      redirect_uri: redirectUri(),
      code,
    },
  })
  const connection = toConnection(body, Date.now())
  useHarnessStore.getState().setOAuthConnection(connection)
  return connection
}

/** Get a new access token with the stored refresh token; stores and returns the tokens. */
export async function refreshConnection(refreshToken: string): Promise<OAuthConnection> {
  const body = await api.post<unknown>(TOKEN_PATH, undefined, {
    anonymous: true,
    form: {
      grant_type: 'refresh_token',
      client_id: ACCOUNT.clientId,
      client_secret: ACCOUNT.clientSecret,
      refresh_token: refreshToken,
    },
  })
  const connection = toConnection(body, Date.now())
  useHarnessStore.getState().setOAuthConnection(connection)
  return connection
}

/** Uninstall the app from the account (revokes its tokens) and forget them. */
export async function disconnect(): Promise<void> {
  await api.delete(`${INSTALLATIONS_PATH}/${ACCOUNT.appId}`)
  useHarnessStore.getState().clearOAuthConnection()
}

export interface Installation {
  appId: number
  appName: string
  clientId: string
  hubId: number
  hubDomain: string
  installed: boolean
  installedAt: string | null
  uninstalledAt: string | null
  scopes: string[]
  accessTokens: Array<{ token: string; scopes: string[]; issuedAt: string; expiresAt: string; expiresIn: number }>
  refreshTokens: Array<{ token: string; scopes: string[]; issuedAt: string }>
}

export async function loadInstallation(): Promise<Installation | undefined> {
  const body = await api.get<{ results: Installation[] }>(INSTALLATIONS_PATH)
  return body.results.find((r) => r.appId === ACCOUNT.appId)
}

/** The app's registered redirect URLs, and Ringside's own callback pages on this origin. */
export interface RedirectUrls {
  appId: number
  redirectUrls: string[]
  builtIn: string[]
}

export function loadRedirectUrls(): Promise<RedirectUrls> {
  return api.get<RedirectUrls>(REDIRECT_URLS_PATH)
}

/** Register a redirect URL (the API says why when it cannot be one). */
export function registerRedirectUrl(url: string): Promise<RedirectUrls> {
  return api.post<RedirectUrls>(REDIRECT_URLS_PATH, { url })
}

export async function removeRedirectUrl(url: string): Promise<void> {
  await api.delete(REDIRECT_URLS_PATH, { query: { url } })
}
