/**
 * The consent page's talk with the emulated CRM, over HTTP only:
 * `GET /_ringside/v1/oauth/authorize` describes the request (or says why it
 * is invalid), `POST /_ringside/v1/oauth/authorize` records the decision and
 * answers where to send the browser.
 */
import { z } from 'zod'
import { checkUrl, refusalText } from '../../shared/url/safe-url.ts'

/**
 * The query parameters of /oauth/authorize that the service needs: those of the
 * real authorization URL (client_id, redirect_uri, space-separated scope,
 * optional_scope, state; https://developers.hubspot.com/docs/api/working-with-oauth)
 * plus the PKCE challenge and its method.
 */
export const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'scope', 'optional_scope', 'state', 'code_challenge', 'code_challenge_method'] as const
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>

export function readAuthorizeParams(search: string): AuthorizeParams {
  const query = new URLSearchParams(search)
  const params: AuthorizeParams = {}
  for (const name of AUTHORIZE_PARAMS) {
    const value = query.get(name)
    if (value !== null) params[name] = value
  }
  return params
}

const consentSchema = z.object({
  app: z.object({ id: z.number(), name: z.string(), clientId: z.string() }),
  account: z.object({ hubId: z.number(), hubDomain: z.string(), userEmail: z.string() }),
  redirectUri: z.string(),
  requiredScopes: z.array(z.string()),
  optionalScopes: z.array(z.string()),
  alreadyInstalled: z.boolean(),
})
export type Consent = z.infer<typeof consentSchema>

const decisionSchema = z.object({ redirectTo: z.string() })

/** Human wording of each scope the emulator knows. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  oauth: 'Basic OAuth access',
  'crm.objects.contacts.read': 'View contacts',
  'crm.objects.contacts.write': 'Create and edit contacts and call records',
  'crm.objects.companies.read': 'View companies',
  'crm.objects.companies.write': 'Create and edit companies',
  'crm.objects.deals.read': 'View deals',
  'crm.objects.deals.write': 'Create and edit deals',
  tickets: 'View, create and edit tickets',
  timeline: 'Add events to record timelines',
  'crm.schemas.contacts.read': 'View contact properties',
}

/** A failure the page shows as it is; `message` comes from the service's error body. */
export class ConsentError extends Error {
  override name = 'ConsentError'
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `The service answered HTTP ${response.status}.`
}

export async function fetchConsent(params: AuthorizeParams): Promise<Consent> {
  const query = new URLSearchParams(Object.entries(params) as Array<[string, string]>)
  const response = await fetch(`/_ringside/v1/oauth/authorize?${query.toString()}`)
  if (!response.ok) throw new ConsentError(await errorMessage(response))
  const parsed = consentSchema.safeParse(await response.json())
  if (!parsed.success) throw new ConsentError('The service sent an unexpected description of the request.')
  return parsed.data
}

/**
 * Record the decision; resolves with the URL to send the browser to, which
 * is checked by shared/url/safe-url.ts before anyone navigates there.
 */
export async function sendDecision(params: AuthorizeParams, decision: 'grant' | 'deny', grantedScopes: readonly string[]): Promise<string> {
  const response = await fetch('/_ringside/v1/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...params, decision, ...(decision === 'grant' && { granted_scopes: grantedScopes }) }),
  })
  if (!response.ok) throw new ConsentError(await errorMessage(response))
  const parsed = decisionSchema.safeParse(await response.json())
  if (!parsed.success) throw new ConsentError('The service sent an unexpected answer to the decision.')
  const target = checkUrl(parsed.data.redirectTo)
  if (!target.ok) throw new ConsentError(`Refusing to redirect: ${refusalText('the URL', parsed.data.redirectTo, target.reason)}`)
  return target.href
}
