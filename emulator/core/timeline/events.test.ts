import { body, call, createTestService, developer, expectError, oauthCredential, privateApp, T0, UUID_V4, type Credential, type TestService } from './testing.ts'

const TEMPLATES = '/crm/v3/timeline/1001/event-templates'
const EVENTS = '/crm/v3/timeline/events'
// Seeded contact 1.
const MARIA = { id: '1', email: 'maria.garcia@northwind.example' }

let api: TestService
let oauth: Credential
beforeEach(async () => {
  api = createTestService()
  oauth = await oauthCredential(api, 'timeline')
})

const token = (name: string, extra: Record<string, unknown> = {}) => ({ name, label: name, type: 'string', ...extra })

async function newTemplate(json: Record<string, unknown> = {}): Promise<string> {
  const response = await call(api, 'POST', TEMPLATES, {
    auth: developer,
    json: { name: 'Webinar', headerTemplate: 'Registered for **{{webinar}}**', detailTemplate: 'Seats: {{extraData.seats}}', tokens: [token('webinar')], ...json },
  })
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(201)
  return parsed.id
}

const postEvent = (json: unknown, auth: Credential = oauth) => call(api, 'POST', EVENTS, { auth, json })

async function createEvent(json: Record<string, unknown>) {
  const response = await postEvent(json)
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(201)
  return parsed
}

async function contact(id: string, properties = 'email,jobtitle') {
  const response = await call(api, 'GET', `/crm/v3/objects/contacts/${id}?properties=${properties}&propertiesWithHistory=jobtitle`, { auth: privateApp })
  return { status: response.status, record: response.status === 200 ? await body(response) : undefined }
}

// ------------------------------------------------------------ credentials

test('creating an event needs an OAuth token: the developer key and the private-app token are refused (401)', async () => {
  const templateId = await newTemplate()
  const event = { eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }
  await expectError(await postEvent(event, developer), 401, 'INVALID_AUTHENTICATION')
  await expectError(await postEvent(event, privateApp), 401, 'INVALID_AUTHENTICATION')
  await expectError(await postEvent(event, 'none'), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'POST', `${EVENTS}/batch/create`, { auth: privateApp, json: { inputs: [event] } }), 401, 'INVALID_AUTHENTICATION')
})

test('an OAuth token without the timeline scope is 403 MISSING_SCOPES', async () => {
  const templateId = await newTemplate()
  const ticketsOnly = await oauthCredential(api, 'tickets')
  await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }, ticketsOnly), 403, 'MISSING_SCOPES')
})

test('an expired OAuth token is 401 EXPIRED_AUTHENTICATION', async () => {
  const templateId = await newTemplate()
  api.clock.now = T0 + 31 * 60_000
  await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }), 401, 'EXPIRED_AUTHENTICATION')
})

test('reading events accepts the OAuth token and the private-app token, not the developer key', async () => {
  const templateId = await newTemplate()
  const event = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } })
  const path = `${EVENTS}/${templateId}/${event.id}`
  expect((await call(api, 'GET', path, { auth: oauth })).status).toBe(200)
  expect((await call(api, 'GET', path, { auth: privateApp })).status).toBe(200)
  await expectError(await call(api, 'GET', path, { auth: developer }), 401, 'INVALID_AUTHENTICATION')
})

// ------------------------------------------------------------- creation

test('creating an event returns 201 and the TimelineEventResponse', async () => {
  const templateId = await newTemplate()
  const iframe = { linkLabel: 'Open', headerLabel: 'Recording', url: 'https://video.example/1', width: 600, height: 400 }
  const response = await postEvent({
    eventTemplateId: templateId,
    id: 'evt-1',
    objectId: MARIA.id,
    timestamp: '2026-01-10T09:30:00Z',
    tokens: { webinar: 'Scaling calls' },
    extraData: { seats: 3, nested: [1, { a: null }] },
    timelineIFrame: iframe,
  })
  expect(response.status).toBe(201)
  expect(await body(response)).toEqual({
    id: 'evt-1',
    eventTemplateId: templateId,
    objectType: 'contacts',
    objectId: MARIA.id,
    timestamp: '2026-01-10T09:30:00.000Z',
    tokens: { webinar: 'Scaling calls' },
    extraData: { seats: 3, nested: [1, { a: null }] },
    timelineIFrame: iframe,
    createdAt: new Date(T0).toISOString(),
  })
})

test('the /integrators/timeline/v3 prefix creates and reads events too', async () => {
  const templateId = await newTemplate()
  const created = await call(api, 'POST', '/integrators/timeline/v3/events', { auth: oauth, json: { eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } } })
  expect(created.status).toBe(201)
  const { id } = await body(created)
  expect((await call(api, 'GET', `/integrators/timeline/v3/events/${templateId}/${id}`, { auth: oauth })).status).toBe(200)
})

test('without an id the server generates a UUID; {{uuid}} inside an id is expanded', async () => {
  const templateId = await newTemplate()
  const generated = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } })
  expect(generated.id).toMatch(UUID_V4)
  const expanded = await createEvent({ eventTemplateId: templateId, id: 'signup-{{uuid}}', objectId: MARIA.id, tokens: { webinar: 'W' } })
  expect(expanded.id).toMatch(/^signup-[0-9a-f-]{36}$/)
  expect(expanded.id.slice(7)).toMatch(UUID_V4)
})

test('timestamp accepts ISO 8601 and epoch milliseconds, defaults to now, and refuses anything else', async () => {
  const templateId = await newTemplate()
  const base = { eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }
  expect((await createEvent({ ...base, timestamp: 1767225600000 })).timestamp).toBe('2026-01-01T00:00:00.000Z')
  expect((await createEvent({ ...base, timestamp: '1767225600000' })).timestamp).toBe('2026-01-01T00:00:00.000Z')
  expect((await createEvent({ ...base, timestamp: '2026-01-01T01:00:00+01:00' })).timestamp).toBe('2026-01-01T00:00:00.000Z')
  expect((await createEvent(base)).timestamp).toBe(new Date(T0).toISOString())
  for (const bad of ['yesterday', '2026-13-45T00:00:00Z', 1.5]) {
    await expectError(await postEvent({ ...base, timestamp: bad }), 400, 'VALIDATION_ERROR')
  }
})

test('an event missing a template token is 400 naming the token', async () => {
  const templateId = await newTemplate({ tokens: [token('webinar'), token('seat')] })
  const missing = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }), 400, 'VALIDATION_ERROR', 'MISSING_TOKENS')
  expect(missing.message).toContain('seat')
  expect(missing.context).toEqual({ missingTokens: ['seat'] })
  await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id }), 400, 'VALIDATION_ERROR', 'MISSING_TOKENS')
})

test('an event with a token the template does not define is 400', async () => {
  const templateId = await newTemplate()
  const error = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W', extra: 'x' } }), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain("'extra'")
})

test('an unknown template is 404; a template of another type is used with its own rules', async () => {
  await expectError(await postEvent({ eventTemplateId: '999', objectId: MARIA.id, tokens: {} }), 404, 'OBJECT_NOT_FOUND')
})

test.each([
  ['number', {}, [42, '42', '-3.5', '1e3'], ['abc', '', '12abc', true]],
  ['date', {}, [1767225600000, '1767225600000', '-1'], ['2026-01-01', '1.5', 1.5, 'soon']],
  ['enumeration', { options: [{ value: 'gold', label: 'Gold' }, { value: 'silver', label: 'Silver' }] }, ['gold', 'silver'], ['Gold', 'bronze', '']],
  ['string', {}, ['anything', '', 12], [true, false]],
] as const)('a %s token takes %#: the right values and refuses the wrong ones', async (type, extra, good, bad) => {
  const templateId = await newTemplate({ tokens: [token('v', { type, ...extra })] })
  for (const value of good) {
    expect((await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { v: value } })).status, `${type} ${String(value)}`).toBe(201)
  }
  for (const value of bad) {
    await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { v: value } }), 400, 'VALIDATION_ERROR')
  }
})

test('token values are returned as strings; number and date values in canonical form', async () => {
  const templateId = await newTemplate({ tokens: [token('n', { type: 'number' }), token('d', { type: 'date' })] })
  const event = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { n: 7, d: '0001767225600000' } })
  expect(event.tokens).toEqual({ n: '7', d: '1767225600000' })
})

test.each([
  [{ linkLabel: 'L', headerLabel: 'H', url: 'javascript:alert(1)', width: 1, height: 1 }, /url/],
  [{ linkLabel: 'L', headerLabel: 'H', url: 'ftp://files.example/x', width: 1, height: 1 }, /url/],
  [{ linkLabel: 'L', headerLabel: 'H', url: 'https://ok.example', width: 0, height: 1 }, /width/],
  [{ linkLabel: 'L', headerLabel: 'H', url: 'https://ok.example', width: 10, height: -5 }, /height/],
  [{ linkLabel: 'L', headerLabel: 'H', url: 'https://ok.example', width: 10.5, height: 5 }, /width/],
  [{ headerLabel: 'H', url: 'https://ok.example', width: 10, height: 5 }, /linkLabel/],
])('timelineIFrame %o is refused', async (iframe, reason) => {
  const templateId = await newTemplate()
  const error = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' }, timelineIFrame: iframe }), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(reason)
})

test('an unknown top-level field is 400 naming it', async () => {
  const templateId = await newTemplate()
  const error = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' }, tokenz: {} }), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('tokenz')
})

test('a duplicate event id for the same template is 409; the same id on another template is fine', async () => {
  const a = await newTemplate()
  const b = await newTemplate({ name: 'Other' })
  await createEvent({ eventTemplateId: a, id: 'same', objectId: MARIA.id, tokens: { webinar: 'W' } })
  await expectError(await postEvent({ eventTemplateId: a, id: 'same', objectId: MARIA.id, tokens: { webinar: 'W' } }), 409, 'CONFLICT')
  await createEvent({ eventTemplateId: b, id: 'same', objectId: MARIA.id, tokens: { webinar: 'W' } })
})

// ---------------------------------------------------------------- limits

test('a token value of exactly 510 KB is accepted and one byte more is refused', async () => {
  const templateId = await newTemplate()
  const limit = 510 * 1024
  expect((await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'x'.repeat(limit) } })).status).toBe(201)
  const over = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'x'.repeat(limit + 1) } }), 400, 'VALIDATION_ERROR', 'VALUE_TOO_LARGE')
  expect(over.message).toContain(String(limit + 1))
})

test('the 510 KB limit counts UTF-8 bytes, not characters', async () => {
  const templateId = await newTemplate()
  const limit = 510 * 1024
  expect((await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'é'.repeat(limit / 2) } })).status).toBe(201)
  await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'é'.repeat(limit / 2 + 1) } }), 400, 'VALIDATION_ERROR', 'VALUE_TOO_LARGE')
})

test('a serialized event of exactly 1 MB is accepted and one byte more is refused', async () => {
  const templateId = await newTemplate()
  const event = (pad: string) => ({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' }, extraData: { pad } })
  const mb = 1024 * 1024
  const overhead = JSON.stringify(event('')).length
  expect(JSON.stringify(event('x'.repeat(mb - overhead))).length).toBe(mb)
  expect((await postEvent(event('x'.repeat(mb - overhead)))).status).toBe(201)
  const over = await expectError(await postEvent(event('x'.repeat(mb - overhead + 1))), 400, 'VALIDATION_ERROR', 'EVENT_TOO_LARGE')
  expect(over.message).toContain(String(mb + 1))
})

test('an event id of 500 bytes is accepted and 501 bytes (even in fewer characters) is refused', async () => {
  const templateId = await newTemplate()
  const base = { eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }
  expect((await postEvent({ ...base, id: 'a'.repeat(500) })).status).toBe(201)
  await expectError(await postEvent({ ...base, id: 'b'.repeat(501) }), 400, 'VALIDATION_ERROR', 'EVENT_ID_TOO_LARGE')
  // 167 characters of 3 bytes each.
  await expectError(await postEvent({ ...base, id: '€'.repeat(167) }), 400, 'VALIDATION_ERROR', 'EVENT_ID_TOO_LARGE')
  expect((await postEvent({ ...base, id: '€'.repeat(166) })).status).toBe(201)
})

// ----------------------------------------------------- objectPropertyName

test('objectPropertyName writes the token value onto the record with sourceType INTEGRATION', async () => {
  const templateId = await newTemplate({ tokens: [token('title', { objectPropertyName: 'jobtitle' })] })
  await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { title: 'VP Calls' } })
  const { record } = await contact(MARIA.id)
  expect(record.properties.jobtitle).toBe('VP Calls')
  expect(record.propertiesWithHistory.jobtitle[0]).toMatchObject({ value: 'VP Calls', sourceType: 'INTEGRATION' })
})

test('objectPropertyName naming a property the record type does not have is ignored; the event keeps the value', async () => {
  const templateId = await newTemplate({ tokens: [token('x', { objectPropertyName: 'no_such_property' })] })
  const event = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { x: 'kept' } })
  expect(event.tokens).toEqual({ x: 'kept' })
  expect((await contact(MARIA.id, 'no_such_property')).record.properties).not.toHaveProperty('no_such_property')
})

test('a token value the target property refuses fails the whole event and writes nothing', async () => {
  const templateId = await newTemplate({ tokens: [token('stage', { objectPropertyName: 'lifecyclestage' })] })
  const before = (await contact(MARIA.id, 'lifecyclestage')).record.properties.lifecyclestage
  await expectError(await postEvent({ eventTemplateId: templateId, id: 'e1', objectId: MARIA.id, tokens: { stage: 'not-a-stage' } }), 400, 'VALIDATION_ERROR')
  expect((await contact(MARIA.id, 'lifecyclestage')).record.properties.lifecyclestage).toBe(before)
  await expectError(await call(api, 'GET', `${EVENTS}/${templateId}/e1`, { auth: oauth }), 404, 'OBJECT_NOT_FOUND')
})

// --------------------------------------------------------- read / render

test('GET event, /detail and /render return the event, the detail HTML and text/html', async () => {
  const templateId = await newTemplate()
  const event = await createEvent({ eventTemplateId: templateId, id: 'e/1 ü', objectId: MARIA.id, tokens: { webinar: 'Calls 101' }, extraData: { seats: 12 } })
  const path = `${EVENTS}/${templateId}/${encodeURIComponent(event.id)}`
  expect(await body(await call(api, 'GET', path, { auth: oauth }))).toEqual(event)
  expect(await body(await call(api, 'GET', `${path}/detail`, { auth: oauth }))).toEqual({ details: '<p>Seats: 12</p>\n' })
  const header = await call(api, 'GET', `${path}/render`, { auth: oauth })
  expect(header.headers.get('content-type')).toMatch(/^text\/html/)
  expect(await header.text()).toBe('Registered for <strong>Calls 101</strong>')
  const detail = await call(api, 'GET', `${path}/render?detail=true`, { auth: oauth })
  expect(await detail.text()).toBe('<p>Seats: 12</p>\n')
  expect(await (await call(api, 'GET', `${path}/render?detail=false`, { auth: oauth })).text()).toBe('Registered for <strong>Calls 101</strong>')
  await expectError(await call(api, 'GET', `${path}/render?detail=maybe`, { auth: oauth }), 400, 'VALIDATION_ERROR')
})

test('a missing event is 404 on GET, /detail and /render', async () => {
  const templateId = await newTemplate()
  for (const suffix of ['', '/detail', '/render']) {
    await expectError(await call(api, 'GET', `${EVENTS}/${templateId}/nope${suffix}`, { auth: oauth }), 404, 'OBJECT_NOT_FOUND')
  }
})

test('a deleted token stays on existing events; new events may no longer send it', async () => {
  const templateId = await newTemplate({ tokens: [token('webinar'), token('room')], headerTemplate: '{{webinar}} in {{room}}' })
  const event = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W', room: 'R1' } })
  expect((await call(api, 'DELETE', `${TEMPLATES}/${templateId}/tokens/room`, { auth: developer })).status).toBe(204)
  const kept = await body(await call(api, 'GET', `${EVENTS}/${templateId}/${event.id}`, { auth: oauth }))
  expect(kept.tokens).toEqual({ webinar: 'W', room: 'R1' })
  expect(await (await call(api, 'GET', `${EVENTS}/${templateId}/${event.id}/render`, { auth: oauth })).text()).toBe('W in R1')
  await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W', room: 'R2' } }), 400, 'VALIDATION_ERROR')
  expect((await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } })).status).toBe(201)
})

test('deleting a template removes its events (404) and refuses new events for it', async () => {
  const templateId = await newTemplate()
  const other = await newTemplate({ name: 'Other' })
  const event = await createEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } })
  const survivor = await createEvent({ eventTemplateId: other, objectId: MARIA.id, tokens: { webinar: 'W' } })
  expect((await call(api, 'DELETE', `${TEMPLATES}/${templateId}`, { auth: developer })).status).toBe(204)
  await expectError(await call(api, 'GET', `${EVENTS}/${templateId}/${event.id}`, { auth: oauth }), 404, 'OBJECT_NOT_FOUND')
  const refused = await expectError(await postEvent({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }), 404, 'OBJECT_NOT_FOUND')
  expect(refused.message).toMatch(/deleted/)
  expect((await call(api, 'GET', `${EVENTS}/${other}/${survivor.id}`, { auth: oauth })).status).toBe(200)
  const listed = await body(await call(api, 'GET', `/_ringside/v1/timeline/events?objectType=contacts&objectId=${MARIA.id}`, { auth: privateApp }))
  expect(listed.results.map((e: { id: string }) => e.id)).toEqual([survivor.id])
})

// ----------------------------------------------------------------- batch

test('a batch of valid events is 201 with every result', async () => {
  const templateId = await newTemplate()
  const response = await call(api, 'POST', `${EVENTS}/batch/create`, {
    auth: oauth,
    json: { inputs: [1, 2, 3].map((n) => ({ eventTemplateId: templateId, id: `b${n}`, objectId: MARIA.id, tokens: { webinar: `W${n}` } })) },
  })
  expect(response.status).toBe(201)
  const batch = await body(response)
  expect(batch).toMatchObject({ status: 'COMPLETE', startedAt: expect.any(String), completedAt: expect.any(String) })
  expect(batch.results.map((r: { id: string }) => r.id)).toEqual(['b1', 'b2', 'b3'])
  expect(batch).not.toHaveProperty('errors')
})

test('a batch with failing items is 207: good items are created, each bad item is reported and leaves nothing behind', async () => {
  const templateId = await newTemplate({ tokens: [token('stage', { objectPropertyName: 'lifecyclestage' })] })
  const response = await call(api, 'POST', `${EVENTS}/batch/create`, {
    auth: oauth,
    json: {
      inputs: [
        { eventTemplateId: templateId, id: 'ok', objectId: MARIA.id, tokens: { stage: 'customer' } },
        // A new e-mail would create a contact, but the property value is invalid: nothing may be created.
        { eventTemplateId: templateId, id: 'bad', email: 'fresh@new.example', tokens: { stage: 'bogus' } },
        { eventTemplateId: templateId, id: 'ok', objectId: MARIA.id, tokens: { stage: 'lead' } },
        { eventTemplateId: templateId, id: 'no-tokens', objectId: MARIA.id },
      ],
    },
  })
  expect(response.status).toBe(207)
  const batch = await body(response)
  expect(batch.results.map((r: { id: string }) => r.id)).toEqual(['ok'])
  expect(batch.numErrors).toBe(3)
  expect(batch.errors.map((e: { status: string; category: string; context: { inputIndex: string[] } }) => [e.status, e.category, e.context.inputIndex])).toEqual([
    ['error', 'VALIDATION_ERROR', ['1']],
    ['error', 'CONFLICT', ['2']],
    ['error', 'VALIDATION_ERROR', ['3']],
  ])
  await expectError(await call(api, 'GET', '/crm/v3/objects/contacts/fresh@new.example?idProperty=email', { auth: privateApp }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await call(api, 'GET', `${EVENTS}/${templateId}/bad`, { auth: oauth }), 404, 'OBJECT_NOT_FOUND')
  expect((await contact(MARIA.id, 'lifecyclestage')).record.properties.lifecyclestage).toBe('customer')
})

test('a batch must hold 1 to 500 inputs', async () => {
  const templateId = await newTemplate()
  await expectError(await call(api, 'POST', `${EVENTS}/batch/create`, { auth: oauth, json: { inputs: [] } }), 400, 'VALIDATION_ERROR')
  const inputs = Array.from({ length: 501 }, () => ({ eventTemplateId: templateId, objectId: MARIA.id, tokens: { webinar: 'W' } }))
  await expectError(await call(api, 'POST', `${EVENTS}/batch/create`, { auth: oauth, json: { inputs } }), 400, 'VALIDATION_ERROR')
  await expectError(await call(api, 'POST', `${EVENTS}/batch/create`, { auth: oauth, json: [] }), 400, 'VALIDATION_ERROR')
})

test('a body that is not an event object is 400, never a crash', async () => {
  for (const json of [null, [], 'x', 42, { eventTemplateId: {} }]) {
    await expectError(await postEvent(json), 400, 'VALIDATION_ERROR')
  }
  const noBody = await call(api, 'POST', EVENTS, { auth: oauth })
  await expectError(noBody, 400, 'VALIDATION_ERROR')
})

// ------------------------------------------------------- hostile bodies

/** extraData nested `depth` levels deep, as JSON text (JSON.stringify itself would recurse). */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

async function postText(path: string, text: string, auth: Credential) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (auth !== 'none' && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`
  return api.handle(new Request(`http://api.test${path}`, { method: 'POST', headers, body: text }))
}

test.each([
  ['POST /crm/v3/timeline/events', EVENTS, (t: string, extra: string) => `{"eventTemplateId":"${t}","objectId":"1","tokens":{"webinar":"W"},"extraData":${extra}}`],
  ['events/batch/create', `${EVENTS}/batch/create`, (t: string, extra: string) => `{"inputs":[{"eventTemplateId":"${t}","objectId":"1","tokens":{"webinar":"W"},"extraData":${extra}}]}`],
  ['the preview route', '/_ringside/v1/timeline/preview', (t: string, extra: string) => `{"eventTemplateId":"${t}","tokens":{"webinar":"W"},"extraData":${extra}}`],
  ['import', '/_ringside/v1/import', (_t: string, extra: string) => `{"format":"ringside-crm-db","version":1,"exportedAt":"","tables":{"x":${extra}}}`],
])('extraData nested 2,000 levels deep on %s is 400 (not a crash), and nothing changes', async (_name, path, make) => {
  const templateId = await newTemplate()
  const before = JSON.stringify(api.db.snapshot().tables)
  const error = await expectError(await postText(path, make(templateId, deepText(2000)), oauth), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/nested more than \d+ levels deep/)
  expect(JSON.stringify(api.db.snapshot().tables)).toBe(before)
})

test('extraData nested 90 levels deep is stored, rendered, exported and imported back', async () => {
  const templateId = await newTemplate({ detailTemplate: 'deep: {{extraData.a.a}}' })
  const response = await postText(EVENTS, `{"eventTemplateId":"${templateId}","objectId":"1","tokens":{"webinar":"W"},"extraData":${deepText(90)}}`, oauth)
  expect(response.status, await response.clone().text()).toBe(201)
  const exported = await (await call(api, 'GET', '/_ringside/v1/export')).text()
  const reimport = await api.handle(new Request('http://api.test/_ringside/v1/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: exported }))
  expect(reimport.status, await reimport.clone().text()).toBe(200)
})

test('a token named __proto__ sent with an event is refused as unknown, not silently dropped', async () => {
  const templateId = await newTemplate()
  const before = JSON.stringify(api.db.snapshot().tables)
  const text = `{"eventTemplateId":"${templateId}","objectId":"1","tokens":{"webinar":"W","__proto__":"x"}}`
  const error = await expectError(await postText(EVENTS, text, oauth), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain("'__proto__'")
  expect(JSON.stringify(api.db.snapshot().tables)).toBe(before)
})

test.each(['__proto__', 'constructor', 'prototype'])('a template token named %j is refused: templates never resolve it', async (name) => {
  const response = await call(api, 'POST', TEMPLATES, {
    auth: developer,
    json: { name: 'Proto', headerTemplate: 'x', tokens: [token(name)] },
  })
  const error = await expectError(response, 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('cannot be used')
})
