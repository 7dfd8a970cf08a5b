/**
 * How an event finds its record (the real API's rules 1–6, numbered as in the
 * doc comment of TimelineStore's #associate in store.ts), and the emulator's
 * record view of events.
 */
import { body, call, createTestService, developer, expectError, oauthCredential, privateApp, type Credential, type TestService } from './testing.ts'

const TEMPLATES = '/crm/v3/timeline/1001/event-templates'
const EVENTS = '/crm/v3/timeline/events'
// Seeded contacts 1 and 2, company 1, deal 1.
const MARIA = { id: '1', email: 'maria.garcia@northwind.example' }
const JAMES = { id: '2', email: 'james.chen@northwind.example' }

let api: TestService
let oauth: Credential
let contactTemplate: string
beforeEach(async () => {
  api = createTestService()
  oauth = await oauthCredential(api, 'timeline')
  contactTemplate = await newTemplate('contacts', 'jobtitle')
})

async function newTemplate(objectType: string, objectPropertyName?: string): Promise<string> {
  const response = await call(api, 'POST', TEMPLATES, {
    auth: developer,
    json: {
      name: `${objectType} events`,
      objectType,
      headerTemplate: 'Visited {{page}}',
      tokens: [{ name: 'page', label: 'Page', type: 'string', ...(objectPropertyName && { objectPropertyName }) }],
    },
  })
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(201)
  return parsed.id
}

const post = (json: Record<string, unknown>) => call(api, 'POST', EVENTS, { auth: oauth, json: { eventTemplateId: contactTemplate, tokens: { page: '/pricing' }, ...json } })

async function created(json: Record<string, unknown>) {
  const response = await post(json)
  const parsed = await body(response)
  expect(response.status, JSON.stringify(parsed)).toBe(201)
  return parsed
}

async function getContact(id: string) {
  const response = await call(api, 'GET', `/crm/v3/objects/contacts/${id}?properties=email,firstname,jobtitle`, { auth: privateApp })
  return response.status === 200 ? (await body(response)).properties : undefined
}

async function contactByEmail(email: string) {
  const response = await call(api, 'GET', `/crm/v3/objects/contacts/${encodeURIComponent(email)}?idProperty=email&properties=email,firstname,jobtitle`, { auth: privateApp })
  return response.status === 200 ? await body(response) : undefined
}

async function eventIdsOn(objectType: string, objectId: string): Promise<string[]> {
  const listed = await body(await call(api, 'GET', `/_ringside/v1/timeline/events?objectType=${objectType}&objectId=${objectId}`, { auth: privateApp }))
  return listed.results.map((e: { id: string }) => e.id)
}

const identify = (json: Record<string, unknown>) => call(api, 'POST', '/_ringside/v1/utk', { json })

// --------------------------------------------------------------- rule 4

test('objectId alone picks that contact and writes objectPropertyName onto it', async () => {
  const event = await created({ id: 'e1', objectId: MARIA.id })
  expect(event.objectId).toBe(MARIA.id)
  expect((await getContact(MARIA.id))?.jobtitle).toBe('/pricing')
  expect(await eventIdsOn('contacts', MARIA.id)).toEqual(['e1'])
})

test('objectId of a contact that does not exist is 404 and creates no contact, even with an email', async () => {
  await expectError(await post({ objectId: '999' }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await post({ objectId: '999', email: 'ghost@nowhere.example' }), 404, 'OBJECT_NOT_FOUND')
  expect(await getContact('999')).toBeUndefined()
  expect(await contactByEmail('ghost@nowhere.example')).toBeUndefined()
})

// ------------------------------------------------------------ rules 2–3

test('objectId wins over utk and email; a new email with the objectId changes that contact\'s email', async () => {
  expect((await identify({ utk: 'utk-james', contactId: JAMES.id })).status).toBe(200)
  const event = await created({ objectId: MARIA.id, utk: 'utk-james', email: 'maria.new@northwind.example' })
  expect(event.objectId).toBe(MARIA.id)
  expect((await getContact(MARIA.id))?.email).toBe('maria.new@northwind.example')
  expect((await getContact(JAMES.id))?.email).toBe(JAMES.email)
})

test('objectId with an email that belongs to another contact is 409 and changes nothing', async () => {
  await expectError(await post({ id: 'x', objectId: MARIA.id, email: JAMES.email }), 409, 'CONFLICT')
  expect((await getContact(MARIA.id))?.email).toBe(MARIA.email)
  await expectError(await call(api, 'GET', `${EVENTS}/${contactTemplate}/x`, { auth: oauth }), 404, 'OBJECT_NOT_FOUND')
})

test('objectId with the contact\'s own email (any case) keeps it', async () => {
  await created({ objectId: MARIA.id, email: MARIA.email.toUpperCase() })
  expect((await getContact(MARIA.id))?.email).toBe(MARIA.email)
})

test('a tied utk wins over email', async () => {
  await identify({ utk: 'utk-james', contactId: JAMES.id })
  const event = await created({ utk: 'utk-james', email: MARIA.email })
  expect(event.objectId).toBe(JAMES.id)
  expect((await getContact(JAMES.id))?.jobtitle).toBe('/pricing')
  expect((await getContact(MARIA.id))?.jobtitle).toBeUndefined()
})

test('email of an existing contact picks and updates that contact', async () => {
  const event = await created({ email: MARIA.email })
  expect(event.objectId).toBe(MARIA.id)
  expect((await getContact(MARIA.id))?.jobtitle).toBe('/pricing')
})

test('a new email creates a contact holding only the email (plus mapped tokens)', async () => {
  const event = await created({ email: 'New.Visitor@Example.org' })
  const record = await contactByEmail('new.visitor@example.org')
  expect(record?.id).toBe(event.objectId)
  expect(record?.properties).toMatchObject({ email: 'new.visitor@example.org', jobtitle: '/pricing' })
  expect(record?.properties.firstname ?? null).toBeNull()
  expect(event.email).toBe('New.Visitor@Example.org')
})

test('an invalid email is 400 and creates nothing', async () => {
  await expectError(await post({ email: 'not an email' }), 400, 'VALIDATION_ERROR')
})

// --------------------------------------------------------------- rule 5

test('a utk-only event stays invisible until the utk is tied to a contact, then appears on it', async () => {
  const event = await created({ id: 'anon', utk: 'utk-anon' })
  expect(event).not.toHaveProperty('objectId')
  expect(event.utk).toBe('utk-anon')
  expect(await eventIdsOn('contacts', MARIA.id)).toEqual([])
  const all = await body(await call(api, 'GET', '/_ringside/v1/timeline/events', { auth: privateApp }))
  expect(all.results).toEqual([])
  const pending = await body(await call(api, 'GET', '/_ringside/v1/timeline/events?utk=utk-anon', { auth: privateApp }))
  expect(pending.results.map((e: { id: string }) => e.id)).toEqual(['anon'])

  const tie = await identify({ utk: 'utk-anon', email: MARIA.email })
  expect(tie.status).toBe(200)
  expect(await body(tie)).toEqual({ utk: 'utk-anon', contactId: MARIA.id, resolvedEvents: 1, created: false })
  expect(await eventIdsOn('contacts', MARIA.id)).toEqual(['anon'])
  expect((await body(await call(api, 'GET', `${EVENTS}/${contactTemplate}/anon`, { auth: oauth }))).objectId).toBe(MARIA.id)
})

test('a utk-only event never creates a contact', async () => {
  const before = await body(await call(api, 'GET', '/crm/v3/objects/contacts?limit=100', { auth: privateApp }))
  await created({ utk: 'utk-nobody' })
  const after = await body(await call(api, 'GET', '/crm/v3/objects/contacts?limit=100', { auth: privateApp }))
  expect(after.results.length).toBe(before.results.length)
})

test('utk with email ties the utk to the email\'s contact, which reveals earlier utk-only events', async () => {
  await created({ id: 'early', utk: 'utk-v' })
  await created({ id: 'identified', utk: 'utk-v', email: JAMES.email })
  expect((await eventIdsOn('contacts', JAMES.id)).sort()).toEqual(['early', 'identified'])
  // Later utk-only events land on the contact directly.
  const later = await created({ id: 'later', utk: 'utk-v' })
  expect(later.objectId).toBe(JAMES.id)
})

test('identify by email creates the contact when needed; by contactId it must exist', async () => {
  const byEmail = await body(await identify({ utk: 'u1', email: 'someone@new.example' }))
  expect(byEmail).toMatchObject({ utk: 'u1', created: true, resolvedEvents: 0 })
  expect((await contactByEmail('someone@new.example'))?.id).toBe(byEmail.contactId)
  await expectError(await identify({ utk: 'u2', contactId: '999' }), 404, 'OBJECT_NOT_FOUND')
})

test('identify refuses a utk already tied to another contact, and needs exactly one of email and contactId', async () => {
  await identify({ utk: 'u1', contactId: MARIA.id })
  await expectError(await identify({ utk: 'u1', contactId: JAMES.id }), 409, 'CONFLICT')
  await expectError(await identify({ utk: 'u1', email: JAMES.email }), 409, 'CONFLICT')
  expect((await identify({ utk: 'u1', contactId: MARIA.id })).status).toBe(200)
  await expectError(await identify({ utk: 'u3' }), 400, 'VALIDATION_ERROR')
  await expectError(await identify({ utk: 'u3', email: MARIA.email, contactId: MARIA.id }), 400, 'VALIDATION_ERROR')
})

test('an event of a contacts template with none of objectId, utk, email is 400', async () => {
  const error = await expectError(await post({}), 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/objectId, utk or email/)
})

// --------------------------------------------------------------- rule 6

test.each([
  ['companies', '1', 'description'],
  ['deals', '1', 'description'],
  ['COMPANY', '2', 'description'],
])('a %s template needs objectId, which must exist, and maps tokens onto that record', async (objectType, id, property) => {
  const templateId = await newTemplate(objectType, property)
  const postTo = (json: Record<string, unknown>) => call(api, 'POST', EVENTS, { auth: oauth, json: { eventTemplateId: templateId, tokens: { page: 'p' }, ...json } })
  const missing = await expectError(await postTo({ email: MARIA.email }), 400, 'VALIDATION_ERROR')
  expect(missing.message).toMatch(/objectId/)
  await expectError(await postTo({ objectId: '999' }), 404, 'OBJECT_NOT_FOUND')
  const response = await postTo({ objectId: id })
  expect(response.status).toBe(201)
  const event = await body(response)
  const plural = objectType === 'COMPANY' ? 'companies' : objectType
  expect(event).toMatchObject({ objectType: plural, objectId: id })
  const record = await body(await call(api, 'GET', `/crm/v3/objects/${plural}/${id}?properties=${property}`, { auth: privateApp }))
  expect(record.properties[property]).toBe('p')
  expect(await eventIdsOn(plural, id)).toEqual([event.id])
})

// ------------------------------------------------------ the record view

test('the record view lists events newest first with rendered HTML, template and app names and the iframe', async () => {
  const iframe = { linkLabel: 'Watch', headerLabel: 'Recording', url: 'https://video.example/r/1', width: 640, height: 480 }
  await created({ id: 'old', objectId: MARIA.id, timestamp: '2026-01-01T00:00:00Z' })
  await created({ id: 'new', objectId: MARIA.id, timestamp: '2026-01-02T00:00:00Z', timelineIFrame: iframe })
  await created({ id: 'elsewhere', objectId: JAMES.id })
  const response = await call(api, 'GET', `/_ringside/v1/timeline/events?objectType=contacts&objectId=${MARIA.id}`, { auth: privateApp })
  expect(response.status).toBe(200)
  const listed = await body(response)
  expect(listed.total).toBe(2)
  expect(listed.results.map((e: { id: string }) => e.id)).toEqual(['new', 'old'])
  expect(listed.results[0]).toMatchObject({
    id: 'new',
    eventTemplateId: contactTemplate,
    templateName: 'contacts events',
    appId: 1001,
    appName: expect.any(String),
    headerHtml: 'Visited /pricing',
    detailHtml: '',
    timelineIFrame: iframe,
  })
})

test('the record view needs a Bearer token and a known objectType', async () => {
  await expectError(await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=contacts&objectId=1'), 401, 'INVALID_AUTHENTICATION')
  await expectError(await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=widgets&objectId=1', { auth: privateApp }), 400, 'VALIDATION_ERROR')
  await expectError(await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=contacts', { auth: privateApp }), 400, 'VALIDATION_ERROR')
  expect((await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=CONTACT&objectId=1', { auth: oauth })).status).toBe(200)
})
