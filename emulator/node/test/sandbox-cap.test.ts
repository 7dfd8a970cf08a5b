/**
 * The sandbox cap (--max-sandboxes): a sandbox in use (a request in flight, a
 * change stream open) is never dropped; at the cap a new sandbox takes the
 * place of the least recently used one not in use, and a request that names
 * the dropped one later is refused (410), never given a fresh CRM in silence;
 * when every sandbox is in use, the new one is refused (429) with a body that
 * names the cap and its option. (The cookie's rules: sandbox-cookie.test.ts.)
 */
import { afterEach, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { SANDBOX_HEADER, SANDBOX_RELEASE_PATH } from '../crms.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { expectErrorBody, freePortPair } from './support.ts'

const auth = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }

let server: RingsideServer | undefined
const streams: AbortController[] = []
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort()
  await server?.close()
  server = undefined
})

async function start(options: { sandboxes: boolean; maxSandboxes?: number }): Promise<string> {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'none', ...options })
  return server.url.slice(0, -1)
}

const inSandbox = (name: string) => ({ ...auth, [SANDBOX_HEADER]: name })

async function createTicket(origin: string, sandbox: string, subject: string): Promise<Response> {
  return fetch(`${origin}/crm/v3/objects/tickets`, {
    method: 'POST',
    headers: { ...inSandbox(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({ properties: { subject, hs_pipeline_stage: '1' } }),
  })
}

async function subjects(origin: string, sandbox: string): Promise<string[]> {
  const response = await fetch(`${origin}/crm/v3/objects/tickets?limit=100&properties=subject`, { headers: inSandbox(sandbox) })
  expect(response.status).toBe(200)
  return ((await response.json()) as { results: Array<{ properties: { subject: string } }> }).results.map((t) => t.properties.subject)
}

/** Open the sandbox's change stream (as a harness page does) and keep it open until the returned controller aborts. */
async function openStream(origin: string, sandbox: string): Promise<AbortController> {
  const controller = new AbortController()
  streams.push(controller)
  const response = await fetch(`${origin}/_ringside/v1/changes`, { headers: { [SANDBOX_HEADER]: sandbox }, signal: controller.signal })
  expect(response.status).toBe(200)
  // The first event (ready) says the stream is open.
  await response.body?.getReader().read()
  return controller
}

test('at the cap with every sandbox in use, a new one is refused with 429 naming the cap and --max-sandboxes; once one is free, it takes its place and the old name is refused, not recreated', async () => {
  const origin = await start({ sandboxes: true, maxSandboxes: 3 })
  const held = await Promise.all(['one', 'two', 'three'].map((name) => openStream(origin, name)))
  const refused = await createTicket(origin, 'four', 'not created')
  await expectErrorBody(refused, 429, 'RATE_LIMITS', /cap of 3 sandboxes.*--max-sandboxes/)

  // Closing "one"'s stream frees it; the server hears of the close shortly after (a generous 5 s deadline).
  held[0]?.abort()
  const deadline = Date.now() + 5000
  let created = await createTicket(origin, 'four', 'in four')
  while (created.status === 429 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50))
    created = await createTicket(origin, 'four', 'in four')
  }
  expect(created.status).toBe(201)
  expect(await subjects(origin, 'four')).toContain('in four')

  // "one" was dropped: every request naming it is refused, and says how to start it afresh.
  for (let i = 0; i < 2; i++) {
    await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: inSandbox('one') }), 410, 'OBJECT_NOT_FOUND', /"one".*dropped.*cap of 3 sandboxes \(--max-sandboxes\).*reset/)
  }
  // The others, in use all along, are untouched.
  for (const name of ['two', 'three']) expect((await fetch(`${origin}/_ringside/v1/server`, { headers: inSandbox(name) })).status).toBe(200)
  // A reset names it afresh (taking the place of "four", now the least recently used not in use).
  expect((await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST', headers: inSandbox('one') })).status).toBe(200)
  expect((await createTicket(origin, 'one', 'one again')).status).toBe(201)
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: inSandbox('four') }), 410, 'OBJECT_NOT_FOUND', /"four".*dropped/)
})

test('a long suite churning through many sandboxes one at a time works at a small cap, and a sandbox in use survives the churn', async () => {
  const origin = await start({ sandboxes: true, maxSandboxes: 4 })
  await openStream(origin, 'keeper')
  expect((await createTicket(origin, 'keeper', 'kept')).status).toBe(201)
  expect((await createTicket(origin, 'idle-early', 'early')).status).toBe(201)
  for (let i = 0; i < 40; i++) {
    const name = `worker-1-test-${i}`
    expect((await fetch(`${origin}/_ringside/v1/reset`, { method: 'POST', headers: inSandbox(name) })).status).toBe(200)
    expect((await createTicket(origin, name, `test ${i}`)).status).toBe(201)
    expect(await subjects(origin, name)).toContain(`test ${i}`)
  }
  expect(await subjects(origin, 'keeper')).toContain('kept')
  await expectErrorBody(await fetch(`${origin}/crm/v3/objects/tickets`, { headers: inSandbox('idle-early') }), 410, 'OBJECT_NOT_FOUND', /dropped/)
  // The most recent ones are still there.
  expect(await subjects(origin, 'worker-1-test-39')).toContain('test 39')
}, 30_000)

test('a test run releases its sandbox with DELETE /_ringside/v1/sandbox; one in use is not released; the name then starts afresh', async () => {
  const origin = await start({ sandboxes: true, maxSandboxes: 2 })
  const release = (headers: Record<string, string>) => fetch(`${origin}${SANDBOX_RELEASE_PATH}`, { method: 'DELETE', headers })
  expect((await createTicket(origin, 'done', 'before the release')).status).toBe(201)
  expect((await release(inSandbox('done'))).status).toBe(204)
  expect(await subjects(origin, 'done')).not.toContain('before the release')

  const stream = await openStream(origin, 'busy')
  await expectErrorBody(await release(inSandbox('busy')), 409, 'CONFLICT', /"busy" is in use.*close its pages/)
  stream.abort()
  const deadline = Date.now() + 5000
  let released = await release(inSandbox('busy'))
  while (released.status === 409 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50))
    released = await release(inSandbox('busy'))
  }
  expect(released.status).toBe(204)

  await expectErrorBody(await release(auth), 400, 'VALIDATION_ERROR', /main database, which is never released/)
  await expectErrorBody(await release(inSandbox('a.b')), 400, 'VALIDATION_ERROR', /A sandbox name is 1 to 64 characters/)
})

test('with --cors, a refusal carries the CORS headers, so a widget frontend on an allowed origin can read why', async () => {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'none', sandboxes: true, corsOrigins: ['http://widget.test'] })
  const origin = server.url.slice(0, -1)
  const refused = await fetch(`${origin}/crm/v3/objects/tickets`, { headers: { ...inSandbox('suite.worker.1'), origin: 'http://widget.test' } })
  expect(refused.headers.get('access-control-allow-origin')).toBe('http://widget.test')
  await expectErrorBody(refused, 400, 'VALIDATION_ERROR', /A sandbox name is 1 to 64 characters/)
})
