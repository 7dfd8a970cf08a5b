/**
 * Test support (component tests only): a fresh emulated CRM behind `fetch`,
 * standing in for MSW, and helpers to set data up through its HTTP API.
 */
import { vi } from 'vitest'
import { createCrmService, type CrmService } from '../../emulator/core/service.ts'
import { harnessCallbackUrl } from '../../shared/crm/redirect-urls.ts'

export const TEST_ORIGIN = 'http://localhost:3000'

/** Route every `fetch` to a fresh seeded CRM service. */
export function installTestCrm(): CrmService {
  const service = createCrmService({ seedOptions: { widgetUrl: 'http://127.0.0.1:4174/widget/' } })
  // jsdom's Blob (a File body) is not one Node's Request knows: it is passed on as its text, as a browser would send its bytes.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
    service.handle(new Request(input, init?.body instanceof Blob ? { ...init, body: await init.body.text() } : init)),
  )
  return service
}

/** Call the service directly (test set-up), failing loudly on an error status. */
export async function callApi<T = unknown>(
  service: CrmService,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; form?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = {}
  let body: string | undefined
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const response = await service.handle(new Request(new URL(path, TEST_ORIGIN), { method, headers, body }))
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`)
  return (text ? JSON.parse(text) : undefined) as T
}

/** Install the app through the consent decision route and exchange the code: an OAuth access token. */
export async function oauthAccessToken(service: CrmService, scopes = 'oauth timeline crm.objects.contacts.read'): Promise<string> {
  const redirectUri = harnessCallbackUrl(TEST_ORIGIN)
  const decision = await callApi<{ code: string }>(service, 'POST', '/_ringside/v1/oauth/authorize', {
    body: { client_id: 'local-client', redirect_uri: redirectUri, scope: scopes, state: 'test', decision: 'grant' },
  })
  const tokens = await callApi<{ access_token: string }>(service, 'POST', '/oauth/v1/token', {
    form: { grant_type: 'authorization_code', client_id: 'local-client', client_secret: 'local-secret', redirect_uri: redirectUri, code: decision.code },
  })
  return tokens.access_token
}

/** Id of the seeded contact with this first name. */
export async function contactIdByName(service: CrmService, firstname: string): Promise<string> {
  const found = await callApi<{ results: Array<{ id: string }> }>(service, 'POST', '/crm/v3/objects/contacts/search', {
    token: 'pat-local',
    body: { filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: firstname }] }] },
  })
  const id = found.results[0]?.id
  if (!id) throw new Error(`no seeded contact named ${firstname}`)
  return id
}
