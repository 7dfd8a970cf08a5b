/**
 * Helpers for the contract tests of the OAuth and timeline APIs: a service
 * with a clock the test moves, requests with each kind of credential, the
 * OAuth dance, and checks of the uniform error body.
 */
import { expect } from 'vitest'
import { ACCOUNT } from '../http/auth.ts'
import { createCrmService, type CrmService } from '../service.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'

export const BASE_URL = 'http://api.test'
/** A registered redirect URL of a fresh account (the example backend's). */
export const REDIRECT_URI = EXAMPLE_BACKEND_REDIRECT_URL
export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0)
/** UUID v4 as crypto.randomUUID makes them. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

export interface TestService extends CrmService {
  /** The service's clock, in epoch ms; tests move it. */
  clock: { now: number }
}

export function createTestService(): TestService {
  const clock = { now: T0 }
  const service = createCrmService({ now: () => clock.now })
  return Object.assign(service, { clock })
}

export type Credential = { bearer: string } | { hapikey: string } | 'none'

export interface CallOptions {
  auth?: Credential
  json?: unknown
  form?: Record<string, string>
  headers?: Record<string, string>
}

/** Send one request; `path` may carry a query. */
export function call(service: CrmService, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const url = new URL(path, BASE_URL)
  const headers: Record<string, string> = { ...options.headers }
  const auth = options.auth ?? 'none'
  if (auth !== 'none' && 'hapikey' in auth) url.searchParams.set('hapikey', auth.hapikey)
  if (auth !== 'none' && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`
  let body: string | undefined
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  }
  return service.handle(new Request(url, { method, headers, body }))
}

export const developer: Credential = { hapikey: ACCOUNT.developerApiKey }
export const privateApp: Credential = { bearer: ACCOUNT.privateAppToken }

/** Read a JSON body, typed loosely: tests walk arbitrary JSON in their assertions. */
export async function body(response: Response): Promise<any> {
  return JSON.parse(await response.text())
}

/** Assert the status and the uniform error body; returns the body. */
export async function expectError(
  response: Response,
  status: number,
  category: string,
  subCategory?: string,
): Promise<{ message: string; subCategory?: string; error?: string; error_description?: string; context?: Record<string, string[]> }> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  const parsed = JSON.parse(text)
  // "error", except where the real API puts its own code in `status` (OAuth: BAD_REFRESH_TOKEN, …).
  expect(parsed.status).toBe(subCategory !== undefined && parsed.status !== 'error' ? subCategory : 'error')
  expect(parsed.correlationId).toMatch(UUID_V4)
  expect(parsed.category).toBe(category)
  expect(typeof parsed.message).toBe('string')
  expect(parsed.message.length).toBeGreaterThan(0)
  if (subCategory !== undefined) expect(parsed.subCategory).toBe(subCategory)
  return parsed
}

export interface AuthorizeOptions {
  scope?: string
  optionalScope?: string
  grantedScopes?: string[]
  redirectUri?: string
  state?: string
  codeChallenge?: string
  codeChallengeMethod?: string
}

/** The consent decision "grant": returns the one-time code. */
export async function authorize(service: CrmService, options: AuthorizeOptions = {}): Promise<string> {
  const response = await call(service, 'POST', '/_ringside/v1/oauth/authorize', {
    json: {
      client_id: ACCOUNT.clientId,
      redirect_uri: options.redirectUri ?? REDIRECT_URI,
      scope: options.scope ?? 'timeline tickets',
      ...(options.optionalScope !== undefined && { optional_scope: options.optionalScope }),
      ...(options.state !== undefined && { state: options.state }),
      ...(options.codeChallenge !== undefined && { code_challenge: options.codeChallenge }),
      ...(options.codeChallengeMethod !== undefined && { code_challenge_method: options.codeChallengeMethod }),
      decision: 'grant',
      ...(options.grantedScopes !== undefined && { granted_scopes: options.grantedScopes }),
    },
  })
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(200)
  return parsed.code as string
}

/** POST /oauth/v1/token with the app's client credentials plus `fields`. */
export function token(service: CrmService, fields: Record<string, string>): Promise<Response> {
  return call(service, 'POST', '/oauth/v1/token', {
    form: { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret, ...fields },
  })
}

/** Authorize and exchange the code: the token response. */
export async function grantTokens(
  service: CrmService,
  options: AuthorizeOptions = {},
): Promise<{ access_token: string; refresh_token: string; scopes: string[] }> {
  const code = await authorize(service, options)
  const response = await token(service, { grant_type: 'authorization_code', code, redirect_uri: options.redirectUri ?? REDIRECT_URI })
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(200)
  return parsed
}

/** An OAuth Bearer credential with the given scopes. */
export async function oauthCredential(service: CrmService, scope = 'timeline tickets'): Promise<Credential> {
  return { bearer: (await grantTokens(service, { scope })).access_token }
}
