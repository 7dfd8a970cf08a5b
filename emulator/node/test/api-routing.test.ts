/**
 * How the server routes an API request to a CRM: with --sandboxes, the
 * sandbox a request names (header, else cookie) answers it, and the main CRM
 * answers one that names none; the server's own info is answered beside it.
 * The requests go over HTTP, through the same listeners as every client's.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { SANDBOX_COOKIE, SANDBOX_HEADER } from '../crms.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair } from './support.ts'

let server: RingsideServer
let origin: string
const auth = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'none', sandboxes: true })
  origin = server.url.slice(0, -1)
})

afterAll(async () => {
  await server?.close()
})

async function ticketSubjects(headers: Record<string, string>): Promise<string[]> {
  const response = await fetch(`${origin}/crm/v3/objects/tickets?limit=100&properties=subject`, { headers: { ...auth, ...headers } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: Array<{ properties: { subject: string } }> }).results.map((ticket) => ticket.properties.subject)
}

/** A sandbox cookie minted by the server, as a page response gives it to a browser. */
async function mintedCookie(): Promise<string> {
  const setCookie = (await fetch(`${origin}/`)).headers.get('set-cookie') ?? ''
  return (/^ringside_sandbox=[^;]+/.exec(setCookie) as RegExpExecArray)[0]
}

test('a request is answered by the sandbox it names in its header, else in its minted cookie, else by the main CRM', async () => {
  const created = await fetch(`${origin}/crm/v3/objects/tickets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', [SANDBOX_HEADER]: 'alpha' },
    body: JSON.stringify({ properties: { subject: 'only in alpha', hs_pipeline_stage: '1' } }),
  })
  expect(created.status).toBe(201)
  const browser = await mintedCookie()
  const other = await mintedCookie()
  const inCookie = await fetch(`${origin}/crm/v3/objects/tickets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', cookie: browser },
    body: JSON.stringify({ properties: { subject: 'only in the cookie', hs_pipeline_stage: '1' } }),
  })
  expect(inCookie.status).toBe(201)
  expect(await ticketSubjects({ cookie: browser })).toContain('only in the cookie')
  expect(await ticketSubjects({ [SANDBOX_HEADER]: 'alpha', cookie: browser })).toContain('only in alpha')
  expect(await ticketSubjects({ [SANDBOX_HEADER]: 'alpha', cookie: browser })).not.toContain('only in the cookie')
  expect(await ticketSubjects({ cookie: other })).not.toContain('only in the cookie')
  expect(await ticketSubjects({})).not.toContain('only in alpha')
  expect(await ticketSubjects({})).not.toContain('only in the cookie')
  // A cookie the server did not mint names no store, not even the one of that name.
  expect((await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, cookie: `${SANDBOX_COOKIE}=alpha` } })).status).toBe(400)
})

test('the server info is answered beside the CRM', async () => {
  const info = await fetch(`${origin}/_ringside/v1/server`, { headers: { [SANDBOX_HEADER]: 'alpha' } })
  expect(info.status).toBe(200)
  expect(await info.json()).toMatchObject({ mode: 'server', sandbox: 'alpha' })
})
