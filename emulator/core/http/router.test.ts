import { z } from 'zod'
import { Database } from '../data/db.ts'
import { conflict } from './errors.ts'
import { json, MAX_BODY_BYTES, noContent } from './http.ts'
import type { Route } from './route.ts'
import { createRouter } from './router.ts'
import { expectError, UUID_V4 } from '../timeline/testing.ts'

const BASE = 'http://api.test'

function setup(extra: Route[] = []) {
  const db = new Database()
  const notes = db.table('notes', z.object({ text: z.string() }))
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/crm/v3/notes/:noteId',
      auth: { kind: 'none' },
      handler: (ctx) => json({ id: ctx.params.noteId, note: notes.get(ctx.params.noteId!) ?? null }),
    },
    {
      method: 'POST',
      path: '/crm/v3/notes',
      auth: { kind: 'none' },
      handler(ctx) {
        const body = ctx.jsonBody() as { text: string; fail?: string }
        notes.set(String(db.nextId('notes')), { text: body.text })
        if (body.fail === 'api') throw conflict('second write refused')
        if (body.fail === 'bug') throw new TypeError('handler bug')
        return json({ ok: true }, 201)
      },
    },
    { method: 'DELETE', path: '/crm/v3/notes/:noteId', auth: { kind: 'none' }, handler: () => noContent() },
    {
      method: 'POST',
      path: '/crm/v3/timeline/events',
      auth: { kind: 'none' },
      handler: (ctx) => json({ path: ctx.path }, 201),
    },
    { method: 'GET', path: '/crm/v3/private', auth: { kind: 'bearer', scopes: ['tickets'] }, handler: () => json({ ok: true }) },
    { method: 'GET', path: '/crm/v3/developer', auth: { kind: 'developer' }, handler: () => json({ ok: true }) },
    { method: 'POST', path: '/oauth/v1/form', auth: { kind: 'none' }, accepts: ['form'], handler: (ctx) => json(ctx.body) },
    ...extra,
  ]
  const handle = createRouter(routes, { db, now: () => 0, newCorrelationId: () => crypto.randomUUID() })
  return { db, notes, handle }
}

const post = (path: string, body: string, type = 'application/json') =>
  new Request(BASE + path, { method: 'POST', headers: { 'content-type': type }, body })

test('a request whose handler throws changes nothing, whatever it wrote first', async () => {
  const { db, handle } = setup()
  await handle(post('/crm/v3/notes', JSON.stringify({ text: 'kept' })))
  const before = JSON.stringify(db.snapshot().tables)
  await expectError(await handle(post('/crm/v3/notes', JSON.stringify({ text: 'dropped', fail: 'api' }))), 409, 'CONFLICT')
  expect(JSON.stringify(db.snapshot().tables)).toBe(before)
})

test("a request's x-ringside-client (its first 100 characters) goes with its commit; a request without one commits with none", async () => {
  const { db, handle } = setup()
  const clients: Array<string | undefined> = []
  db.onChange((commit) => clients.push(commit.client))
  const named = post('/crm/v3/notes', JSON.stringify({ text: 'named' }))
  named.headers.set('x-ringside-client', `page-${'x'.repeat(200)}`)
  expect((await handle(named)).status).toBe(201)
  expect((await handle(post('/crm/v3/notes', JSON.stringify({ text: 'anonymous' })))).status).toBe(201)
  expect(clients).toEqual([`page-${'x'.repeat(95)}`, undefined])
})

test('an unexpected exception is a 500 error body and is rolled back too', async () => {
  const { db, handle } = setup()
  const before = JSON.stringify(db.snapshot().tables)
  const error = await expectError(await handle(post('/crm/v3/notes', JSON.stringify({ text: 'x', fail: 'bug' }))), 500, 'INTERNAL_ERROR')
  expect(error.message).toContain('handler bug')
  expect(JSON.stringify(db.snapshot().tables)).toBe(before)
})

test('a body past the limit is 413, whether it streams without a length or its Content-Length understates it', async () => {
  const { db, handle } = setup()
  const before = JSON.stringify(db.snapshot().tables)
  const big = JSON.stringify({ text: 'x'.repeat(MAX_BODY_BYTES) })
  const streamed = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(big))
      controller.close()
    },
  })
  const chunked = new Request(`${BASE}/crm/v3/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: streamed, duplex: 'half' } as RequestInit)
  expect((await expectError(await handle(chunked), 413, 'PAYLOAD_TOO_LARGE')).message).toContain(`over ${MAX_BODY_BYTES}`)
  const understated = new Request(`${BASE}/crm/v3/notes`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '20' }, body: big })
  expect((await expectError(await handle(understated), 413, 'PAYLOAD_TOO_LARGE')).message).toContain(`over ${MAX_BODY_BYTES}`)
  const declared = new Request(`${BASE}/crm/v3/notes`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) }, body: '{}' })
  await expectError(await handle(declared), 413, 'PAYLOAD_TOO_LARGE')
  expect(JSON.stringify(db.snapshot().tables)).toBe(before)
  // A body of its declared length is read and served.
  const body = JSON.stringify({ text: 'fits' })
  const fits = await handle(new Request(`${BASE}/crm/v3/notes`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body }))
  expect(fits.status).toBe(201)
})

test('a known path with another method is 405 with an Allow header', async () => {
  const { handle } = setup()
  const response = await handle(new Request(`${BASE}/crm/v3/notes/7`, { method: 'PUT' }))
  expect(response.headers.get('allow')).toBe('GET, DELETE')
  await expectError(response, 405, 'METHOD_NOT_ALLOWED')
})

test('an unknown path is 404 OBJECT_NOT_FOUND', async () => {
  const { handle } = setup()
  await expectError(await handle(new Request(`${BASE}/crm/v3/nothing-here`)), 404, 'OBJECT_NOT_FOUND')
})

test('a text/plain body is 415 on a JSON route', async () => {
  const { handle } = setup()
  await expectError(await handle(post('/crm/v3/notes', '{"text":"x"}', 'text/plain')), 415, 'UNSUPPORTED_MEDIA_TYPE')
})

test('a JSON body is 415 on a form-only route', async () => {
  const { handle } = setup()
  await expectError(await handle(post('/oauth/v1/form', '{"a":1}')), 415, 'UNSUPPORTED_MEDIA_TYPE')
})

test('malformed JSON is 400 VALIDATION_ERROR', async () => {
  const { handle } = setup()
  const error = await expectError(await handle(post('/crm/v3/notes', '{"text": ')), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/Invalid input JSON/)
})

test('a missing body on a JSON route is 400', async () => {
  const { handle } = setup()
  await expectError(await handle(new Request(`${BASE}/crm/v3/notes`, { method: 'POST' })), 400, 'VALIDATION_ERROR')
})

test('form bodies are parsed into fields', async () => {
  const { handle } = setup()
  const response = await handle(post('/oauth/v1/form', 'a=1&b=two%20words', 'application/x-www-form-urlencoded'))
  expect(await response.json()).toMatchObject({ kind: 'form', value: { a: '1', b: 'two words' } })
})

test('/integrators/timeline/v3/* is served by the /crm/v3/timeline/* routes', async () => {
  const { handle } = setup()
  const response = await handle(post('/integrators/timeline/v3/events', '{}'))
  expect(response.status).toBe(201)
  expect(await response.json()).toEqual({ path: '/crm/v3/timeline/events' })
})

test('path parameters are URI-decoded and a trailing slash is ignored', async () => {
  const { handle } = setup()
  const response = await handle(new Request(`${BASE}/crm/v3/notes/a%20b/`))
  expect(await response.json()).toEqual({ id: 'a b', note: null })
})

test('a malformed percent-escape in a path parameter matches no route', async () => {
  const { handle } = setup()
  await expectError(await handle(new Request(`${BASE}/crm/v3/notes/%E0%A4%A`)), 404, 'OBJECT_NOT_FOUND')
})

test('every response carries the correlation id, and an error body repeats it', async () => {
  const { handle } = setup()
  const ok = await handle(new Request(`${BASE}/crm/v3/notes/1`))
  expect(ok.headers.get('x-hubspot-correlation-id')).toMatch(UUID_V4)
  const failed = await handle(new Request(`${BASE}/crm/v3/nothing`))
  const body = (await failed.json()) as { correlationId: string }
  expect(failed.headers.get('x-hubspot-correlation-id')).toBe(body.correlationId)
})

test('a response with immutable headers still gets its correlation id', async () => {
  const { handle } = setup([{ method: 'GET', path: '/crm/v3/redirect', auth: { kind: 'none' }, handler: () => Response.redirect(`${BASE}/x`, 302) }])
  const response = await handle(new Request(`${BASE}/crm/v3/redirect`))
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe(`${BASE}/x`)
  expect(response.headers.get('x-hubspot-correlation-id')).toMatch(UUID_V4)
})

test('a bearer route without a token is 401 with the auth-failure header', async () => {
  const { handle } = setup()
  const response = await handle(new Request(`${BASE}/crm/v3/private`))
  expect(response.headers.get('x-hubspot-auth-failure')).toBe('401 Unauthorized')
  await expectError(response, 401, 'INVALID_AUTHENTICATION')
})

test('a developer route takes only the developer API key', async () => {
  const { handle } = setup()
  expect((await handle(new Request(`${BASE}/crm/v3/developer?hapikey=dev-key-local`))).status).toBe(200)
  await expectError(await handle(new Request(`${BASE}/crm/v3/developer?hapikey=wrong`)), 401, 'INVALID_AUTHENTICATION')
  await expectError(
    await handle(new Request(`${BASE}/crm/v3/developer`, { headers: { authorization: 'Bearer pat-local' } })),
    401,
    'INVALID_AUTHENTICATION',
  )
})

test('concurrent writes from several requests all land and none sees another half done', async () => {
  const { notes, handle } = setup()
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      handle(post('/crm/v3/notes', JSON.stringify({ text: `n${i}`, ...(i % 4 === 0 && { fail: 'api' }) }))),
    ),
  )
  expect(results.map((r) => r.status).filter((s) => s === 201)).toHaveLength(15)
  expect(notes.size).toBe(15)
})
