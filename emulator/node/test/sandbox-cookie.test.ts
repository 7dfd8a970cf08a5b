/**
 * The sandbox cookie is trusted only when this server run minted it. Cookies
 * ignore ports (RFC 6265 §8.5), so a page on another port of this host can set
 * `ringside_sandbox` with a longer Path, which the browser sends first
 * (RFC 6265 §5.4). Walked here: a forged `main` beside the minted cookie, a
 * forged minted-looking name, an earlier run's cookie, names that break the
 * rule, and another server's cookie reaching a server without --sandboxes.
 * None of them reaches the main database; on a --sandboxes server a page gets
 * a fresh minted cookie and the API refuses; without --sandboxes the cookie
 * is ignored, neither refused nor cleared.
 */
import { afterEach, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { SANDBOX_COOKIE, SANDBOX_HEADER } from '../crms.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { expectErrorBody, freePortPair } from './support.ts'

const auth = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }
const MINTED_COOKIE = new RegExp(`^${SANDBOX_COOKIE}=(r[0-9a-f]{8}-[0-9a-f]{16}-[0-9a-f]{32}); Path=/; HttpOnly; SameSite=Lax$`)

let server: RingsideServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: { sandboxes: boolean; maxSandboxes?: number; port?: number }): Promise<string> {
  server = await startRingside({ port: options.port ?? (await freePortPair()), data: null, pages: 'none', ...options })
  return server.url.slice(0, -1)
}

/** A page request with this Cookie header (or none): its status, text, Set-Cookie, and the minted name it sets. */
async function page(origin: string, cookie?: string) {
  const response = await fetch(`${origin}/`, { headers: cookie === undefined ? {} : { cookie } })
  const setCookie = response.headers.get('set-cookie')
  return { status: response.status, text: await response.text(), setCookie, minted: MINTED_COOKIE.exec(setCookie ?? '')?.[1] }
}

const pair = (value: string) => `${SANDBOX_COOKIE}=${value}`

async function createTicket(origin: string, headers: Record<string, string>, subject: string): Promise<Response> {
  return fetch(`${origin}/crm/v3/objects/tickets`, {
    method: 'POST',
    headers: { ...auth, ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }),
  })
}

async function subjects(origin: string, headers: Record<string, string>): Promise<string[]> {
  const response = await fetch(`${origin}/crm/v3/objects/tickets?limit=100&properties=subject`, { headers: { ...auth, ...headers } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: Array<{ properties: { subject: string } }> }).results.map((t) => t.properties.subject)
}

test('the attack: a forged "main" pair sent before the minted one is skipped, the minted sandbox answers, and a reset never reaches the main database', async () => {
  const origin = await start({ sandboxes: true })
  expect((await createTicket(origin, { [SANDBOX_HEADER]: 'main' }, 'developer data')).status).toBe(201)
  const minted = (await page(origin)).minted as string
  expect(minted).toBeDefined()
  // As the browser sends them: the forged pair (Path=/crm, longer) first, the server's (Path=/) after.
  const cookie = `${pair('main')}; ${pair(minted)}`
  expect((await page(origin, cookie)).setCookie).toBeNull()
  expect((await createTicket(origin, { cookie }, 'in the browser sandbox')).status).toBe(201)
  expect(await subjects(origin, { cookie: pair(minted) })).toContain('in the browser sandbox')
  expect((await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST', headers: { ...auth, cookie } })).status).toBe(200)
  expect(await subjects(origin, { [SANDBOX_HEADER]: 'main' })).toContain('developer data')
  expect(await subjects(origin, { [SANDBOX_HEADER]: 'main' })).not.toContain('in the browser sandbox')
})

test('a cookie this run did not mint names no store: a page mints a fresh one, and the API refuses it (never the main database)', async () => {
  const origin = await start({ sandboxes: true })
  expect((await createTicket(origin, { [SANDBOX_HEADER]: 'main' }, 'developer data')).status).toBe(201)
  const minted = (await page(origin)).minted as string
  const [, body, mac] = /^(.*)-([0-9a-f]{32})$/.exec(minted) as RegExpExecArray
  const forgedMac = `${body}-${((mac as string)[0] === '0' ? '1' : '0') + (mac as string).slice(1)}`
  const otherRun = `r${minted.slice(1, 9) === '00000000' ? '11111111' : '00000000'}${minted.slice(9)}`
  const foreign = ['main', 'MAIN', 'alpha', forgedMac, otherRun, 'suite.worker.1', 'x'.repeat(65), '', 'a%20b', '__proto__']
  for (const value of foreign) {
    for (const cookie of [pair(value), `${pair(value)}; ${pair('main')}`]) {
      const answer = await page(origin, cookie)
      expect(answer.status, cookie).not.toBe(400)
      expect(answer.minted, cookie).toBeDefined()
      expect(answer.minted).not.toBe(value)
      const refused = await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST', headers: { ...auth, cookie } })
      expect([400, 410], `${cookie}: ${refused.status}`).toContain(refused.status)
      await expectErrorBody(refused, refused.status, refused.status === 400 ? 'VALIDATION_ERROR' : 'OBJECT_NOT_FOUND', /not given by this (server|run)/)
    }
  }
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, cookie: pair(otherRun) } }), 410, 'OBJECT_NOT_FOUND', /restart forgets/)
  expect(await subjects(origin, { [SANDBOX_HEADER]: 'main' })).toContain('developer data')
  // The header still names any store on purpose, main included, and fails closed.
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, [SANDBOX_HEADER]: 'a.b' } }), 400, 'VALIDATION_ERROR', /A sandbox name is 1 to 64/)
})

test('after a restart, a cookie a page gave before is refused by the API and replaced by a page, never given the old name afresh', async () => {
  const port = await freePortPair()
  let origin = await start({ sandboxes: true, port })
  const minted = (await page(origin)).minted as string
  expect((await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, cookie: pair(minted) } })).status).toBe(200)
  await server?.close()
  origin = await start({ sandboxes: true, port })
  // fetch may first pick a kept-alive socket of the stopped server: one retry.
  await fetch(`${origin}/_ringside/v1/server`).catch(() => undefined)
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, cookie: pair(minted) } }), 410, 'OBJECT_NOT_FOUND', /earlier run|restart forgets/)
  expect((await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST', headers: { ...auth, cookie: pair(minted) } })).status).toBe(410)
  const fresh = await page(origin, pair(minted))
  expect(fresh.minted).toBeDefined()
  expect(fresh.minted).not.toBe(minted)
})

test('a minted sandbox dropped at the cap is refused (410) by pages, which clear the cookie, and by the API', async () => {
  const origin = await start({ sandboxes: true, maxSandboxes: 1 })
  const minted = (await page(origin)).minted as string
  expect((await createTicket(origin, { cookie: pair(minted) }, 'a')).status).toBe(201)
  expect((await createTicket(origin, { [SANDBOX_HEADER]: 'beta' }, 'b')).status).toBe(201)
  const dropped = await page(origin, pair(minted))
  expect(dropped.status).toBe(410)
  expect(dropped.text).toMatch(/was dropped.*--max-sandboxes.*reload/)
  expect(dropped.setCookie).toMatch(new RegExp(`^${SANDBOX_COOKIE}=; Path=/; Max-Age=0`))
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, cookie: pair(minted) } }), 410, 'OBJECT_NOT_FOUND', /cookie ringside_sandbox.*dropped/)
})

test('without --sandboxes, another server\'s sandbox cookie is ignored: pages neither refuse nor clear it, the API uses the main database; the header still fails closed', async () => {
  const sandboxed = await start({ sandboxes: true })
  const theirs = (await page(sandboxed)).minted as string
  await server?.close()
  const origin = await start({ sandboxes: false })
  for (const value of [theirs, 'main', 'alpha', 'a.b']) {
    const answer = await page(origin, pair(value))
    expect(answer.status, value).not.toBe(400)
    expect(answer.status, value).not.toBe(410)
    expect(answer.setCookie, value).toBeNull()
    expect((await createTicket(origin, { cookie: pair(value) }, `with ${value}`)).status).toBe(201)
  }
  expect(await subjects(origin, {})).toContain(`with ${theirs}`)
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...auth, [SANDBOX_HEADER]: 'alpha' } }), 400, 'VALIDATION_ERROR', /without --sandboxes/)
})
