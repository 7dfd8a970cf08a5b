import { body, call, createTestService, developer, expectError, oauthCredential, privateApp, type TestService } from './testing.ts'

const TEMPLATES = '/crm/v3/timeline/1001/event-templates'

let api: TestService
beforeEach(() => {
  api = createTestService()
})

const token = (name: string, extra: Record<string, unknown> = {}) => ({ name, label: `Label ${name}`, type: 'string', ...extra })

function createTemplate(json: Record<string, unknown>) {
  return call(api, 'POST', TEMPLATES, { auth: developer, json })
}

async function newTemplate(json: Record<string, unknown> = {}): Promise<string> {
  const response = await createTemplate({ name: 'Webinar', headerTemplate: 'Registered for {{webinar}}', tokens: [token('webinar')], ...json })
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(201)
  return parsed.id
}

// --------------------------------------------------------------- CRUD

test('creating a template returns 201 and the full saved template with its id and tokens', async () => {
  const response = await createTemplate({
    name: 'Webinar',
    objectType: 'contacts',
    headerTemplate: 'Registered for [{{webinar}}](https://example.com)',
    detailTemplate: 'Level: {{level}}',
    tokens: [token('webinar'), { name: 'level', label: 'Level', type: 'enumeration', options: [{ value: 'a', label: 'A' }], objectPropertyName: 'jobtitle' }],
  })
  expect(response.status).toBe(201)
  const template = await body(response)
  expect(template).toMatchObject({
    id: expect.stringMatching(/^\d+$/),
    name: 'Webinar',
    objectType: 'contacts',
    headerTemplate: 'Registered for [{{webinar}}](https://example.com)',
    detailTemplate: 'Level: {{level}}',
    tokens: [
      { name: 'webinar', label: 'Label webinar', type: 'string' },
      { name: 'level', label: 'Level', type: 'enumeration', options: [{ value: 'a', label: 'A' }], objectPropertyName: 'jobtitle' },
    ],
  })
  expect(Date.parse(template.createdAt)).toBe(api.clock.now)
  expect(Date.parse(template.tokens[0].createdAt)).toBe(api.clock.now)
})

test('objectType defaults to contacts and accepts the upper-case singular form', async () => {
  expect((await body(await createTemplate({ name: 'A' }))).objectType).toBe('contacts')
  expect((await body(await createTemplate({ name: 'B', objectType: 'COMPANY' }))).objectType).toBe('companies')
  expect((await body(await createTemplate({ name: 'C', objectType: 'deals' }))).objectType).toBe('deals')
  await expectError(await createTemplate({ name: 'D', objectType: 'calls' }), 400, 'VALIDATION_ERROR')
  await expectError(await createTemplate({ name: 'E', objectType: 'widgets' }), 400, 'VALIDATION_ERROR')
})

test('the list returns {results} with every live template; GET one returns it with its tokens', async () => {
  const a = await newTemplate({ name: 'A' })
  const b = await newTemplate({ name: 'B' })
  const list = await body(await call(api, 'GET', TEMPLATES, { auth: developer }))
  expect(Object.keys(list)).toEqual(['results'])
  expect(list.results.map((t: { id: string }) => t.id)).toEqual([a, b])
  const one = await body(await call(api, 'GET', `${TEMPLATES}/${a}`, { auth: developer }))
  expect(one).toMatchObject({ id: a, name: 'A', tokens: [{ name: 'webinar' }] })
})

test('the /integrators/timeline/v3 prefix serves the same templates', async () => {
  const id = await newTemplate()
  const response = await call(api, 'GET', `/integrators/timeline/v3/1001/event-templates/${id}`, { auth: developer })
  expect(response.status).toBe(200)
  expect((await body(response)).id).toBe(id)
})

test('PUT updates name and templates, keeps omitted templates, and returns 200', async () => {
  const id = await newTemplate({ detailTemplate: 'detail' })
  api.clock.now += 1000
  const response = await call(api, 'PUT', `${TEMPLATES}/${id}`, { auth: developer, json: { id, name: 'Renamed', headerTemplate: 'New {{webinar}}' } })
  expect(response.status).toBe(200)
  const updated = await body(response)
  expect(updated).toMatchObject({ id, name: 'Renamed', headerTemplate: 'New {{webinar}}', detailTemplate: 'detail', tokens: [{ name: 'webinar' }] })
  expect(Date.parse(updated.updatedAt)).toBe(api.clock.now)
  expect(Date.parse(updated.createdAt)).toBe(api.clock.now - 1000)
})

test('PUT accepts a template echoed back from GET and can replace the token list', async () => {
  const id = await newTemplate()
  const current = await body(await call(api, 'GET', `${TEMPLATES}/${id}`, { auth: developer }))
  const response = await call(api, 'PUT', `${TEMPLATES}/${id}`, {
    auth: developer,
    json: { ...current, tokens: [...current.tokens, token('extra')] },
  })
  expect(response.status).toBe(200)
  expect((await body(response)).tokens.map((t: { name: string }) => t.name)).toEqual(['webinar', 'extra'])
})

test('PUT cannot change objectType or the id', async () => {
  const id = await newTemplate()
  const objectType = await expectError(
    await call(api, 'PUT', `${TEMPLATES}/${id}`, { auth: developer, json: { name: 'X', objectType: 'companies' } }),
    400,
    'VALIDATION_ERROR',
  )
  expect(objectType.message).toMatch(/objectType cannot be changed/)
  await expectError(await call(api, 'PUT', `${TEMPLATES}/${id}`, { auth: developer, json: { id: '999', name: 'X' } }), 400, 'VALIDATION_ERROR')
  // The same objectType in another spelling is not a change.
  expect((await call(api, 'PUT', `${TEMPLATES}/${id}`, { auth: developer, json: { name: 'X', objectType: 'CONTACT' } })).status).toBe(200)
})

test('unknown fields are refused with a message naming them', async () => {
  const error = await expectError(await createTemplate({ name: 'A', headerTemplte: 'typo' }), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('headerTemplte')
})

test('a missing or unknown template is 404 on every template route', async () => {
  await expectError(await call(api, 'GET', `${TEMPLATES}/424242`, { auth: developer }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await call(api, 'PUT', `${TEMPLATES}/424242`, { auth: developer, json: { name: 'x' } }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await call(api, 'DELETE', `${TEMPLATES}/424242`, { auth: developer }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await call(api, 'POST', `${TEMPLATES}/424242/tokens`, { auth: developer, json: token('a') }), 404, 'OBJECT_NOT_FOUND')
})

// ------------------------------------------------------------ credentials

test('template routes take only the developer API key', async () => {
  await expectError(await call(api, 'GET', TEMPLATES), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'GET', TEMPLATES, { auth: { hapikey: 'wrong' } }), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'GET', TEMPLATES, { auth: privateApp }), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'POST', TEMPLATES, { auth: await oauthCredential(api, 'timeline'), json: { name: 'x' } }), 401, 'INVALID_AUTHENTICATION')
})

test('an appId other than 1001 is 404', async () => {
  await expectError(await call(api, 'GET', '/crm/v3/timeline/1002/event-templates', { auth: developer }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await call(api, 'POST', '/crm/v3/timeline/1002/event-templates', { auth: developer, json: { name: 'x' } }), 404, 'OBJECT_NOT_FOUND')
})

// -------------------------------------------------------- template syntax

test.each([
  ['{{#if x}}never closed', /Parse error/],
  ['{{> partial}}', /Partials are not supported/],
  ['{{lookup tokens "a"}}', /Unknown helper 'lookup'/],
  ['{{log "x"}}', /Unknown helper 'log'/],
  ['{{#custom x}}y{{/custom}}', /Unknown block helper '#custom'/],
  ['{{#if (eq a b)}}x{{/if}}', /Sub-expressions/],
  ['{{#formatDate timestamp format="weird"}}{{/formatDate}}', /format must be one of/],
  ['{{@foo}}', /Unknown data variable/],
])('an invalid template %j is 400 with the reason', async (source, reason) => {
  const header = await expectError(await createTemplate({ name: 'A', headerTemplate: source }), 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  expect(header.message).toMatch(reason)
  const id = await newTemplate()
  const update = await expectError(await call(api, 'PUT', `${TEMPLATES}/${id}`, { auth: developer, json: { name: 'A', detailTemplate: source } }), 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  expect(update.message).toMatch(reason)
})

// ---------------------------------------------------------------- limits

test('an app can have 750 templates; the 751st is refused, and deleting one makes room', async () => {
  for (let i = 0; i < 750; i++) {
    const response = await createTemplate({ name: `T${i}` })
    if (response.status !== 201) throw new Error(`template ${i}: ${response.status} ${await response.text()}`)
  }
  const over = await expectError(await createTemplate({ name: 'T750' }), 400, 'VALIDATION_ERROR', 'TOO_MANY_TEMPLATES')
  expect(over.message).toContain('750')
  const list = await body(await call(api, 'GET', TEMPLATES, { auth: developer }))
  expect(list.results).toHaveLength(750)
  expect((await call(api, 'DELETE', `${TEMPLATES}/${list.results[0].id}`, { auth: developer })).status).toBe(204)
  expect((await createTemplate({ name: 'T750' })).status).toBe(201)
})

test('a template can be created with 500 tokens but not 501', async () => {
  const tokens = Array.from({ length: 501 }, (_, i) => token(`t${i}`))
  const over = await expectError(await createTemplate({ name: 'Big', tokens }), 400, 'VALIDATION_ERROR', 'TOO_MANY_TOKENS')
  expect(over.message).toContain('500')
  const ok = await createTemplate({ name: 'Big', tokens: tokens.slice(0, 500) })
  expect(ok.status).toBe(201)
  expect((await body(ok)).tokens).toHaveLength(500)
})

test('POST token adds up to the 500th token and refuses the 501st', async () => {
  const id = await newTemplate({ tokens: Array.from({ length: 499 }, (_, i) => token(`t${i}`)) })
  expect((await call(api, 'POST', `${TEMPLATES}/${id}/tokens`, { auth: developer, json: token('t499') })).status).toBe(200)
  await expectError(await call(api, 'POST', `${TEMPLATES}/${id}/tokens`, { auth: developer, json: token('t500') }), 400, 'VALIDATION_ERROR', 'TOO_MANY_TOKENS')
})

// ---------------------------------------------------------------- tokens

test('POST token returns 200 (not 201) and the token definition', async () => {
  const id = await newTemplate()
  const response = await call(api, 'POST', `${TEMPLATES}/${id}/tokens`, {
    auth: developer,
    json: { name: 'plan', label: 'Plan', type: 'enumeration', options: [{ value: 'pro', label: 'Pro' }] },
  })
  expect(response.status).toBe(200)
  expect(await body(response)).toMatchObject({ name: 'plan', label: 'Plan', type: 'enumeration', options: [{ value: 'pro', label: 'Pro' }] })
  const template = await body(await call(api, 'GET', `${TEMPLATES}/${id}`, { auth: developer }))
  expect(template.tokens.map((t: { name: string }) => t.name)).toEqual(['webinar', 'plan'])
})

test.each(['log', 'lookup', 'LOG'])('the reserved token name %s is refused', async (name) => {
  const error = await expectError(await createTemplate({ name: 'A', tokens: [token(name)] }), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/reserved/)
  const id = await newTemplate()
  await expectError(await call(api, 'POST', `${TEMPLATES}/${id}/tokens`, { auth: developer, json: token(name) }), 400, 'VALIDATION_ERROR')
})

test.each(['has space', 'semi;colon', 'ünïcode', '', 'a/b'])('the token name %j is refused (only alphanumerics, ".", "-", "_")', async (name) => {
  await expectError(await createTemplate({ name: 'A', tokens: [token(name)] }), 400, 'VALIDATION_ERROR')
})

test('token names with ".", "-" and "_" are accepted', async () => {
  expect((await createTemplate({ name: 'A', tokens: [token('order.id'), token('a-b_c.9')] })).status).toBe(201)
})

test('a duplicate token name is 409, on create and on POST token', async () => {
  await expectError(await createTemplate({ name: 'A', tokens: [token('x'), token('x')] }), 409, 'CONFLICT')
  const id = await newTemplate()
  await expectError(await call(api, 'POST', `${TEMPLATES}/${id}/tokens`, { auth: developer, json: token('webinar') }), 409, 'CONFLICT')
})

test.each([
  [{ type: 'enumeration' }, /needs at least one option/],
  [{ type: 'enumeration', options: [] }, /needs at least one option/],
  [{ type: 'enumeration', options: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] }, /appears twice/],
  [{ type: 'string', options: [{ value: 'a', label: 'A' }] }, /only used with type enumeration/],
  [{ type: 'boolean' }, /type/],
  [{ label: '' }, /label/],
])('the token %o is refused', async (extra, reason) => {
  const error = await expectError(await createTemplate({ name: 'A', tokens: [token('t', extra)] }), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(reason)
})

test('PUT token changes label, options and objectPropertyName', async () => {
  const id = await newTemplate({ tokens: [token('plan', { type: 'enumeration', options: [{ value: 'a', label: 'A' }] })] })
  const response = await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/plan`, {
    auth: developer,
    json: { label: 'Plan', options: [{ value: 'b', label: 'B' }], objectPropertyName: 'jobtitle' },
  })
  expect(response.status).toBe(200)
  expect(await body(response)).toMatchObject({ name: 'plan', type: 'enumeration', label: 'Plan', options: [{ value: 'b', label: 'B' }], objectPropertyName: 'jobtitle' })
  const cleared = await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/plan`, { auth: developer, json: { label: 'Plan', objectPropertyName: null } })
  expect(await body(cleared)).not.toHaveProperty('objectPropertyName')
})

test('PUT token cannot change the name or the type, and a missing token is 404', async () => {
  const id = await newTemplate()
  await expectError(await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/webinar`, { auth: developer, json: { label: 'L', name: 'other' } }), 400, 'VALIDATION_ERROR')
  await expectError(await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/webinar`, { auth: developer, json: { label: 'L', type: 'number' } }), 400, 'VALIDATION_ERROR')
  // Echoing the same name and type back is fine.
  expect((await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/webinar`, { auth: developer, json: { label: 'L', name: 'webinar', type: 'string' } })).status).toBe(200)
  await expectError(await call(api, 'PUT', `${TEMPLATES}/${id}/tokens/nope`, { auth: developer, json: { label: 'L' } }), 404, 'OBJECT_NOT_FOUND')
})

test('DELETE token returns 204 and removes it from the template; a missing token is 404', async () => {
  const id = await newTemplate()
  expect((await call(api, 'DELETE', `${TEMPLATES}/${id}/tokens/webinar`, { auth: developer })).status).toBe(204)
  expect((await body(await call(api, 'GET', `${TEMPLATES}/${id}`, { auth: developer }))).tokens).toEqual([])
  await expectError(await call(api, 'DELETE', `${TEMPLATES}/${id}/tokens/webinar`, { auth: developer }), 404, 'OBJECT_NOT_FOUND')
})

test('DELETE template returns 204; the template is then 404 and gone from the list', async () => {
  const id = await newTemplate()
  expect((await call(api, 'DELETE', `${TEMPLATES}/${id}`, { auth: developer })).status).toBe(204)
  await expectError(await call(api, 'GET', `${TEMPLATES}/${id}`, { auth: developer }), 404, 'OBJECT_NOT_FOUND')
  expect((await body(await call(api, 'GET', TEMPLATES, { auth: developer }))).results).toEqual([])
})

test('a failed template write changes nothing', async () => {
  await expectError(await createTemplate({ name: 'A', tokens: [token('ok'), token('log')] }), 400, 'VALIDATION_ERROR')
  expect((await body(await call(api, 'GET', TEMPLATES, { auth: developer }))).results).toEqual([])
  // And the id sequence did not move: the next template gets the first id.
  const first = await body(await createTemplate({ name: 'B' }))
  const fresh = createTestService()
  const reference = await body(await call(fresh, 'POST', TEMPLATES, { auth: developer, json: { name: 'B' } }))
  expect(first.id).toBe(reference.id)
})
