/**
 * One test per finding of the hostile audit of server mode that the API
 * itself answers (the server's own findings, Host, cross-site, upgrade and
 * shutdown, are in emulator/node/test/audit.test.ts). Each request must be answered
 * at once with a 2xx or the real error body, never a 5xx, and a refusal
 * changes nothing.
 */
import { beforeEach, expect, test } from 'vitest'
import { ACCOUNT } from './http/auth.ts'
import { compileCacheStats, compileTemplate } from './timeline/template-compile.ts'
import { COMPILE_CACHE_BYTES, MAX_MARKDOWN_NESTING } from './timeline/template-rules.ts'
import { body, call, createTestService, developer, expectError, oauthCredential, privateApp, type TestService } from '../testing/timeline.ts'

let api: TestService
beforeEach(() => {
  api = createTestService()
})

const TEMPLATES = `/crm/v3/timeline/${ACCOUNT.appId}/event-templates`
const preview = (json: unknown) => call(api, 'POST', '/_ringside/v1/timeline/preview', { json })

// ------------------------------------------------------------------ High

test('preview: #each nested over a 16,000-item array stops at the step budget with a notice', async () => {
  const items = Array.from({ length: 16_000 }, (_, i) => i)
  const response = await preview({ detailTemplate: '{{#each extraData.a}}{{#each ../extraData.a}}{{/each}}{{/each}}', extraData: { a: items } })
  expect(response.status).toBe(200)
  expect((await body(response)).detail).toMatch(/could not be rendered: Rendering took more than \d+ steps/)
})

test('Markdown: "_a" repeated 100,000 times is refused as a template, and rendered as a token value', async () => {
  const pathological = '_a'.repeat(100_000)
  const error = await expectError(await preview({ detailTemplate: pathological }), 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  expect(error.message).toMatch(/the limit is 65536/)
  const saved = await call(api, 'POST', TEMPLATES, { auth: developer, json: { name: 'md', objectType: 'contacts', detailTemplate: pathological } })
  await expectError(saved, 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  // As data it is only text: shown escaped (plain text past the Markdown bound), in linear time.
  const asToken = await preview({ detailTemplate: '{{x}}', tokens: { x: pathological } })
  expect(asToken.status).toBe(200)
  expect((await body(asToken)).detail).toMatch(/^<p>_a_a_a/)
})

test('the compile cache is bounded in bytes: 40 distinct large templates stay under its budget', async () => {
  for (let i = 0; i < 40; i++) compileTemplate(`${i} ${'x'.repeat(60_000)}`)
  const { bytes, entries } = compileCacheStats()
  expect(bytes).toBeLessThanOrEqual(COMPILE_CACHE_BYTES)
  expect(entries).toBeLessThan(40)
})

// ---------------------------------------------------------------- Medium

test('2,000 nested ">" are refused when the template is saved; a stored one (imported) breaks only its own event', async () => {
  const quotes = `${'>'.repeat(2000)} deep`
  const saved = await call(api, 'POST', TEMPLATES, { auth: developer, json: { name: 'deep', objectType: 'contacts', detailTemplate: quotes } })
  const error = await expectError(saved, 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  expect(error.message).toContain(`nested more than ${MAX_MARKDOWN_NESTING} deep`)

  // A template saved before the check (an import) still lists: its event shows a notice or its text, the others render.
  const good = await body(await call(api, 'POST', TEMPLATES, { auth: developer, json: { name: 'good', objectType: 'contacts', headerTemplate: 'Good {{n}}', tokens: [{ name: 'n', label: 'N', type: 'string' }] } }))
  const bad = await body(await call(api, 'POST', TEMPLATES, { auth: developer, json: { name: 'bad', objectType: 'contacts', headerTemplate: 'Bad' } }))
  const oauth = await oauthCredential(api, 'timeline crm.objects.contacts.read')
  for (const [template, tokens] of [[good.id, { n: '1' }], [bad.id, {}]] as const) {
    const created = await call(api, 'POST', '/crm/v3/timeline/events', { auth: oauth, json: { eventTemplateId: template, objectId: '1', tokens } })
    expect(created.status).toBe(201)
  }
  const snapshot = await body(await call(api, 'GET', '/_ringside/v1/export'))
  for (const [id, row] of snapshot.tables.timeline_templates) if (id === bad.id) row.detailTemplate = quotes
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: snapshot })).status).toBe(200)
  const listing = await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=contacts&objectId=1', { auth: privateApp })
  expect(listing.status).toBe(200)
  const results = (await body(listing)).results as Array<{ templateName: string; headerHtml: string; detailHtml: string }>
  expect(results.find((r) => r.templateName === 'good')?.headerHtml).toBe('Good 1')
  expect(results.find((r) => r.templateName === 'bad')?.detailHtml).toMatch(/^<(blockquote|p)>/)
})

test('a custom property named constructor can be written and read, and search matches only records that hold it', async () => {
  const created = await call(api, 'POST', '/crm/v3/properties/contacts', {
    auth: privateApp,
    json: { name: 'constructor', label: 'Constructor', type: 'string', fieldType: 'text', groupName: 'contactinformation' },
  })
  expect(created.status).toBe(201)
  const write = await call(api, 'POST', '/crm/v3/objects/contacts', { auth: privateApp, json: { properties: { email: 'ctor@example.com', constructor: 'yes' } } })
  expect(write.status).toBe(201)
  const id = (await body(write)).id as string
  const update = await call(api, 'PATCH', `/crm/v3/objects/contacts/${id}`, { auth: privateApp, json: { properties: { constructor: 'again' } } })
  expect(update.status).toBe(200)
  const read = await body(await call(api, 'GET', `/crm/v3/objects/contacts/${id}?properties=constructor&propertiesWithHistory=constructor`, { auth: privateApp }))
  expect(read.properties.constructor).toBe('again')
  expect(read.propertiesWithHistory.constructor.map((v: { value: string }) => v.value)).toEqual(['again', 'yes'])

  for (const operator of ['HAS_PROPERTY', 'NOT_HAS_PROPERTY'] as const) {
    const search = await call(api, 'POST', '/crm/v3/objects/contacts/search', {
      auth: privateApp,
      json: { filterGroups: [{ filters: [{ propertyName: 'constructor', operator }] }], properties: ['constructor'], limit: 100 },
    })
    expect(search.status).toBe(200)
    const ids = ((await body(search)).results as Array<{ id: string }>).map((r) => r.id)
    if (operator === 'HAS_PROPERTY') expect(ids).toEqual([id])
    else expect(ids).not.toContain(id)
  }
})

test.each(['__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('%s is refused as a property name and as a value to write, as the real API refuses it', async (name) => {
  const defined = await call(api, 'POST', '/crm/v3/properties/contacts', {
    auth: privateApp,
    json: { name, label: name, type: 'string', fieldType: 'text', groupName: 'contactinformation' },
  })
  await expectError(defined, 400, 'VALIDATION_ERROR')
  const written = await call(api, 'POST', '/crm/v3/objects/contacts', { auth: privateApp, json: { properties: { email: `${name.toLowerCase()}@example.com`, [name]: 'x' } } })
  await expectError(written, 400, 'VALIDATION_ERROR')
  const search = await call(api, 'POST', '/crm/v3/objects/contacts/search', { auth: privateApp, json: { filterGroups: [{ filters: [{ propertyName: name, operator: 'HAS_PROPERTY' }] }] } })
  await expectError(search, 400, 'VALIDATION_ERROR')
  expect(({} as Record<string, unknown>).x).toBeUndefined()
})

// ------------------------------------------------------------------- Low

// Parsing 9 MB of JSON still takes its second or two; the test allows for a loaded machine.
test('a batch of 3 million items is refused by its count before any item is validated', { timeout: 30_000 }, async () => {
  const text = `{"inputs":[${'{},'.repeat(3_000_000 - 1)}{}]}`
  const response = await api.handle(
    new Request('http://api.test/crm/v3/objects/contacts/batch/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}`, 'content-type': 'application/json' },
      body: text,
    }),
  )
  const error = await expectError(response, 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/at most 100 items; got 3000000/)
})

test('a token imported from another app or hub reads nothing', async () => {
  const oauth = await oauthCredential(api, 'crm.objects.contacts.read')
  const token = (oauth as { bearer: string }).bearer
  const snapshot = await body(await call(api, 'GET', '/_ringside/v1/export'))
  const rows = snapshot.tables.oauth_access_tokens as Array<[string, { token: string; appId: number; hubId: number }]>
  const mine = rows.find(([id]) => id === token)![1]
  rows.push(['foreign-app-token', { ...mine, token: 'foreign-app-token', appId: 999_999 }], ['foreign-hub-token', { ...mine, token: 'foreign-hub-token', hubId: 123 }])
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: snapshot })).status).toBe(200)
  for (const bearer of ['foreign-app-token', 'foreign-hub-token']) {
    await expectError(await call(api, 'GET', '/crm/v3/objects/contacts', { auth: { bearer } }), 401, 'INVALID_AUTHENTICATION')
  }
  expect((await call(api, 'GET', '/crm/v3/objects/contacts', { auth: oauth })).status).toBe(200)
})

test('the v4 labels route needs a token with the read scopes of both object types', async () => {
  const path = '/crm/v4/associations/contacts/companies/labels'
  await expectError(await call(api, 'GET', path), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'GET', path, { auth: await oauthCredential(api, 'timeline') }), 403, 'MISSING_SCOPES')
  const both = await oauthCredential(api, 'crm.objects.contacts.read crm.objects.companies.read')
  expect((await call(api, 'GET', path, { auth: both })).status).toBe(200)
})

test('every route that takes a bearer token names the scopes it needs', () => {
  const unscoped = api.routes.filter((route) => route.auth.kind === 'bearer' && route.auth.scopes.length === 0 && route.auth.scopesOf === undefined)
  expect(unscoped.map((r) => `${r.method} ${r.path}`)).toEqual([])
})

test.each(['a\u0000b@example.com', 'a@exam\u0007ple.com', 'a\u007f@example.com', 'a@example.com\u0085'])('an email with a control character (%j) is INVALID_EMAIL', async (email) => {
  const before = (await body(await call(api, 'GET', '/crm/v3/objects/contacts?limit=100', { auth: privateApp }))).results.length
  const response = await call(api, 'POST', '/crm/v3/objects/contacts', { auth: privateApp, json: { properties: { email } } })
  const error = await expectError(response, 400, 'VALIDATION_ERROR')
  expect(JSON.stringify(error)).toContain('INVALID_EMAIL')
  expect((await body(await call(api, 'GET', '/crm/v3/objects/contacts?limit=100', { auth: privateApp }))).results.length).toBe(before)
})
