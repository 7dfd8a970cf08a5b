import { createTestService, expectError, oauthCredential, T0, type TestService } from '../timeline/testing.ts'
import { client, details, ISO, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const newContact = (properties: Record<string, unknown>) => c.ok('POST', '/crm/v3/objects/contacts', { properties }, 201)

// ------------------------------------------------------------------ create

test('creating a contact returns 201 and a SimplePublicObject with system properties', async () => {
  const created = await newContact({ email: 'New.Person@Example.com', firstname: 'New', phone: '+1 617 555 0177' })
  expect(created).toEqual({
    id: expect.stringMatching(/^\d+$/),
    properties: {
      email: 'new.person@example.com',
      firstname: 'New',
      phone: '+1 617 555 0177',
      hs_object_id: created.id,
      createdate: new Date(T0).toISOString(),
      hs_lastmodifieddate: new Date(T0).toISOString(),
    },
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    archived: false,
  })
})

test('ids come from one sequence per object type', async () => {
  const contact = await newContact({ email: 'a@example.com' })
  const company = await c.ok('POST', '/crm/v3/objects/companies', { properties: { name: 'Acme' } }, 201)
  const nextContact = await newContact({ email: 'b@example.com' })
  expect(Number(nextContact.id)).toBe(Number(contact.id) + 1)
  expect(Number(company.id)).toBe(5) // four seeded companies
})

test('an unknown property is 400 PROPERTY_DOESNT_EXIST and nothing is written', async () => {
  const before = tablesOf(api)
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/contacts', { properties: { email: 'x@example.com', favourite_colour: 'teal' } }),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toMatch(/^Property values were not valid: /)
  expect(JSON.parse(error.message.replace('Property values were not valid: ', ''))).toEqual([
    { isValid: false, message: 'Property "favourite_colour" does not exist', error: 'PROPERTY_DOESNT_EXIST', name: 'favourite_colour' },
  ])
  expect(details(error)).toEqual([
    { message: 'Property "favourite_colour" does not exist', code: 'PROPERTY_DOESNT_EXIST', context: { propertyName: ['favourite_colour'] } },
  ])
  expect(tablesOf(api)).toBe(before)
})

test('every bad value of a write is reported at once', async () => {
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/contacts', {
      properties: { lifecyclestage: 'alien', notes_last_contacted: 'yesterday', nope: 1, email: 'not an email' },
    }),
    400,
    'VALIDATION_ERROR',
  )
  const codes = details(error).map((e) => e.code).sort()
  expect(codes).toEqual(['INVALID_DATE', 'INVALID_EMAIL', 'INVALID_OPTION', 'PROPERTY_DOESNT_EXIST'])
})

test.each([
  ['deals', 'amount', 'INVALID_NUMBER', 'twelve'],
  ['deals', 'amount', 'INVALID_PROPERTY_VALUE', { value: 1 }],
  ['calls', 'hs_call_recording_url', 'INVALID_URL', 'javascript:alert(1)'],
  ['calls', 'hs_call_recording_url', 'INVALID_URL', 'ftp://files.example/rec.mp3'],
  ['calls', 'hs_call_direction', 'INVALID_OPTION', 'SIDEWAYS'],
  ['calls', 'hs_timestamp', 'INVALID_DATE', '2026-13-45T99:00:00Z'],
  ['contacts', 'hs_object_id', 'READ_ONLY_VALUE', '42'],
  ['contacts', 'firstname', 'VALUE_TOO_LONG', 'x'.repeat(65_537)],
])('a bad %s.%s is refused with %s', async (type, name, code, value) => {
  const error = await expectError(await c.req('POST', `/crm/v3/objects/${type}`, { properties: { [name]: value } }), 400, 'VALIDATION_ERROR')
  expect(details(error).map((e) => e.code)).toEqual([code])
})

test('values are stored in the API’s string forms', async () => {
  const call = await c.ok(
    'POST',
    '/crm/v3/objects/calls',
    { properties: { hs_timestamp: 1767225600000, hs_call_duration: 65000, hs_call_recording_url: 'https://rec.example/1.mp3' } },
    201,
  )
  expect(call.properties).toMatchObject({
    hs_timestamp: '2026-01-01T00:00:00.000Z',
    hs_call_duration: '65000',
    hs_call_recording_url: 'https://rec.example/1.mp3',
  })
  const contact = await newContact({ firstname: 'x'.repeat(65_536) })
  expect(contact.properties.firstname).toHaveLength(65_536)
})

test('a call without hs_timestamp gets its create time', async () => {
  const call = await c.ok('POST', '/crm/v3/objects/calls', { properties: { hs_call_title: 'Quick call' } }, 201)
  expect(call.properties.hs_timestamp).toBe(new Date(T0).toISOString())
})

test('a second contact with the same e-mail (any case) is 409 CONFLICT naming the existing id', async () => {
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/contacts', { properties: { email: 'MARIA.GARCIA@northwind.example' } }),
    409,
    'CONFLICT',
  )
  expect(error.message).toBe('Contact already exists. Existing ID: 1')
})

test('a body without properties, or not an object, is 400', async () => {
  await expectError(await c.req('POST', '/crm/v3/objects/contacts', {}), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts', { properties: ['email'] }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts', [1, 2]), 400, 'VALIDATION_ERROR')
})

// -------------------------------------------------------------------- read

test('GET returns the default properties, leaving out those without a value', async () => {
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/9')
  expect(Object.keys(contact.properties).sort()).toEqual(['createdate', 'email', 'firstname', 'hs_lastmodifieddate', 'hs_object_id', 'lastname'])
  expect(contact).toMatchObject({ id: '9', archived: false, createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) })
})

test('properties= picks properties; unknown or empty ones are left out, never inherited names', async () => {
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/1?properties=phone,mobilephone,jobtitle,constructor,toString&properties=company')
  expect(contact.properties).toEqual({ phone: '+1 617 555 0101', mobilephone: '+1 617 555 0191', company: 'Northwind Traders' })
})

test('propertiesWithHistory lists every value newest first with its source', async () => {
  await c.ok('PATCH', '/crm/v3/objects/contacts/2', { properties: { firstname: 'Jim' } })
  api.clock.now += 1000
  await c.ok('PATCH', '/crm/v3/objects/contacts/2', { properties: { firstname: 'Jimmy' } })
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/2?propertiesWithHistory=firstname,jobtitle')
  expect(contact.propertiesWithHistory).toEqual({
    firstname: [
      { value: 'Jimmy', timestamp: new Date(T0 + 1000).toISOString(), sourceType: 'API' },
      { value: 'Jim', timestamp: new Date(T0).toISOString(), sourceType: 'API' },
      { value: 'James', timestamp: expect.stringMatching(ISO), sourceType: 'CRM_UI' },
    ],
  })
})

test('an unknown or non-numeric id is 404 OBJECT_NOT_FOUND', async () => {
  await expectError(await c.req('GET', '/crm/v3/objects/contacts/999'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts/abc'), 404, 'OBJECT_NOT_FOUND')
})

test('idProperty=email reads a contact by e-mail; a non-unique idProperty is 400', async () => {
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/Kenji.Tanaka@tailspin.example?idProperty=email')
  expect(contact.id).toBe('7')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts/Kenji?idProperty=firstname'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts/Kenji?idProperty=nope'), 400, 'VALIDATION_ERROR')
})

test('object type ids (0-1, 0-2, 0-3, 0-5, 0-48) reach the same records', async () => {
  for (const [name, typeId] of [
    ['contacts', '0-1'],
    ['companies', '0-2'],
    ['deals', '0-3'],
    ['tickets', '0-5'],
    ['calls', '0-48'],
  ]) {
    expect(await c.ok('GET', `/crm/v3/objects/${typeId}/1`)).toEqual(await c.ok('GET', `/crm/v3/objects/${name}/1`))
  }
})

test('an unknown object type is 400 "Unable to infer object type from", as the real API answers it', async () => {
  const error = await expectError(await c.req('GET', '/crm/v3/objects/widgets'), 400, 'VALIDATION_ERROR')
  expect(error.message).toBe('Unable to infer object type from: widgets')
})

// -------------------------------------------------------------------- list

test('a list defaults to 10 records with a cursor to the next page', async () => {
  for (let i = 0; i < 5; i++) await newContact({ email: `extra${i}@example.com` })
  const first = await c.ok('GET', '/crm/v3/objects/contacts')
  expect(first.results.map((r: { id: string }) => r.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])
  expect(first.paging.next.after).toBe('10')
  expect(first.paging.next.link).toBe('http://api.test/crm/v3/objects/contacts?after=10')
  const second = await c.ok('GET', '/crm/v3/objects/contacts?after=10')
  expect(second.results.map((r: { id: string }) => r.id)).toEqual(['11', '12', '13', '14'])
  expect(second.paging).toBeUndefined()
})

test('limit takes 1 to 100; 0 and 101 are 400', async () => {
  for (let i = 0; i < 95; i++) await newContact({ email: `bulk${i}@example.com` })
  expect((await c.ok('GET', '/crm/v3/objects/contacts?limit=100')).results).toHaveLength(100)
  expect((await c.ok('GET', '/crm/v3/objects/contacts?limit=1')).results).toHaveLength(1)
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?limit=101'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?limit=0'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?limit=ten'), 400, 'VALIDATION_ERROR')
})

test('a malformed cursor or boolean is 400', async () => {
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?after=abc'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?archived=maybe'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts?associations=widgets'), 400, 'VALIDATION_ERROR')
})

test('a list can carry associations of each record', async () => {
  const list = await c.ok('GET', '/crm/v3/objects/contacts?limit=2&associations=companies&properties=email')
  expect(list.results[0].associations.companies.results).toEqual([
    { id: '1', type: 'contact_to_company' },
    { id: '1', type: 'contact_to_company_unlabeled' },
  ])
  expect(list.results[0].properties).toEqual({ email: 'maria.garcia@northwind.example' })
})

// ------------------------------------------------------------------ update

test('PATCH returns 200 with the updated record; "" or null clears a property', async () => {
  const updated = await c.ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: 'CTO', mobilephone: '' } })
  expect(updated.properties.jobtitle).toBe('CTO')
  expect(updated.properties.mobilephone).toBeUndefined()
  const cleared = await c.ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { jobtitle: null } })
  expect(cleared.properties.jobtitle).toBeUndefined()
})

test('PATCH of a missing record is 404 and of a bad value is 400 with nothing changed', async () => {
  await expectError(await c.req('PATCH', '/crm/v3/objects/contacts/999', { properties: { firstname: 'x' } }), 404, 'OBJECT_NOT_FOUND')
  const before = tablesOf(api)
  await expectError(
    await c.req('PATCH', '/crm/v3/objects/contacts/1', { properties: { firstname: 'Ok', lifecyclestage: 'alien' } }),
    400,
    'VALIDATION_ERROR',
  )
  expect(tablesOf(api)).toBe(before)
})

test('echoing a read-only value unchanged is accepted; changing it is not', async () => {
  await c.ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { hs_object_id: '1', firstname: 'Mary' } })
  await expectError(await c.req('PATCH', '/crm/v3/objects/contacts/1', { properties: { hs_object_id: '2' } }), 400, 'VALIDATION_ERROR')
})

test('PATCH by idProperty=email updates that contact', async () => {
  const updated = await c.ok('PATCH', '/crm/v3/objects/contacts/olivia.brown@tailspin.example?idProperty=email', {
    properties: { jobtitle: 'Buyer' },
  })
  expect(updated.id).toBe('8')
})

test('changing an e-mail to one another contact has is 409', async () => {
  await expectError(
    await c.req('PATCH', '/crm/v3/objects/contacts/2', { properties: { email: 'maria.garcia@northwind.example' } }),
    409,
    'CONFLICT',
  )
})

// ---------------------------------------------------------- recycle bin

test('DELETE moves a record to the recycle bin: 204, then 404, listed only with archived=true', async () => {
  expect((await c.req('DELETE', '/crm/v3/objects/contacts/2')).status).toBe(204)
  await expectError(await c.req('GET', '/crm/v3/objects/contacts/2'), 404, 'OBJECT_NOT_FOUND')
  const archived = await c.ok('GET', '/crm/v3/objects/contacts/2?archived=true')
  expect(archived).toMatchObject({ id: '2', archived: true, archivedAt: new Date(T0).toISOString() })
  const live = await c.ok('GET', '/crm/v3/objects/contacts?limit=100')
  expect(live.results.map((r: { id: string }) => r.id)).not.toContain('2')
  const bin = await c.ok('GET', '/crm/v3/objects/contacts?archived=true')
  expect(bin.results.map((r: { id: string; archived: boolean }) => [r.id, r.archived])).toEqual([['2', true]])
  await expectError(await c.req('DELETE', '/crm/v3/objects/contacts/2'), 404, 'OBJECT_NOT_FOUND')
})

test('restore (emulator extension) brings a record back with its associations', async () => {
  await c.ok('DELETE', '/crm/v3/objects/contacts/1', undefined, 204)
  const restored = await c.ok('POST', '/crm/v3/objects/contacts/1/restore')
  expect(restored).toMatchObject({ id: '1', archived: false })
  expect(restored.archivedAt).toBeUndefined()
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/1?associations=tickets')
  expect(contact.associations.tickets.results).toEqual([{ id: '1', type: 'contact_to_ticket' }])
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/1/restore'), 404, 'OBJECT_NOT_FOUND')
  const list = await c.ok('GET', '/crm/v3/objects/contacts?limit=3')
  expect(list.results.map((r: { id: string }) => r.id)).toEqual(['1', '2', '3'])
})

test('an archived contact frees its e-mail; restoring it while taken is 409', async () => {
  await c.ok('DELETE', '/crm/v3/objects/contacts/1', undefined, 204)
  await newContact({ email: 'maria.garcia@northwind.example' })
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/1/restore'), 409, 'CONFLICT')
})

test('associations to an archived record are hidden until it is restored', async () => {
  await c.ok('DELETE', '/crm/v3/objects/tickets/1', undefined, 204)
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/1?associations=tickets')
  expect(contact.associations).toBeUndefined()
})

// ------------------------------------------------------------------ batch

test('batch/read returns 200 with a BatchResponse', async () => {
  const result = await c.ok('POST', '/crm/v3/objects/contacts/batch/read', { inputs: [{ id: '1' }, { id: 3 }], properties: ['email'] })
  expect(result).toEqual({
    status: 'COMPLETE',
    results: [
      expect.objectContaining({ id: '1', properties: { email: 'maria.garcia@northwind.example' } }),
      expect.objectContaining({ id: '3', properties: { email: 'aisha.okafor@contoso.example' } }),
    ],
    startedAt: new Date(T0).toISOString(),
    completedAt: new Date(T0).toISOString(),
  })
})

test('batch/read with missing ids is 207 with one OBJECT_NOT_FOUND error listing them', async () => {
  const result = await c.ok('POST', '/crm/v3/objects/contacts/batch/read', { inputs: [{ id: '1' }, { id: '404' }, { id: '405' }] }, 207)
  expect(result.results.map((r: { id: string }) => r.id)).toEqual(['1'])
  expect(result.numErrors).toBe(2)
  expect(result.errors).toEqual([
    {
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: expect.stringContaining('Could not get some CONTACT objects'),
      context: { ids: ['404', '405'] },
      errors: [],
      links: {},
    },
  ])
})

test('batch/read takes idProperty and propertiesWithHistory, and archived=true reads the bin', async () => {
  const result = await c.ok('POST', '/crm/v3/objects/contacts/batch/read', {
    inputs: [{ id: 'sofia.rossi@fabrikam.example' }],
    idProperty: 'email',
    propertiesWithHistory: ['lastname'],
  })
  expect(result.results[0]).toMatchObject({ id: '6', propertiesWithHistory: { lastname: [{ value: 'Rossi', sourceType: 'CRM_UI' }] } })
  await c.ok('DELETE', '/crm/v3/objects/contacts/6', undefined, 204)
  const bin = await c.ok('POST', '/crm/v3/objects/contacts/batch/read?archived=true', { inputs: [{ id: '6' }] })
  expect(bin.results[0]).toMatchObject({ id: '6', archived: true })
})

test('a batch takes 100 inputs; 101 is 400', async () => {
  const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }))
  expect((await c.req('POST', '/crm/v3/objects/contacts/batch/read', { inputs: inputs(100) })).status).toBe(207)
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/batch/read', { inputs: inputs(101) }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/contacts/batch/archive', { inputs: inputs(101) }), 400, 'VALIDATION_ERROR')
})

test('batch/create is 201 when every input is created', async () => {
  const result = await c.ok(
    'POST',
    '/crm/v3/objects/companies/batch/create',
    { inputs: [{ properties: { name: 'One' } }, { properties: { name: 'Two' } }] },
    201,
  )
  expect(result.status).toBe('COMPLETE')
  expect(result.results.map((r: { properties: { name: string } }) => r.properties.name)).toEqual(['One', 'Two'])
})

test('batch/create is 207 when an input fails, and the failed input leaves no trace', async () => {
  const result = await c.ok(
    'POST',
    '/crm/v3/objects/contacts/batch/create',
    {
      inputs: [
        { properties: { email: 'fresh@example.com' } },
        { properties: { email: 'bad@example.com', lifecyclestage: 'alien' } },
        { properties: { email: 'maria.garcia@northwind.example' } },
      ],
    },
    207,
  )
  expect(result.results).toHaveLength(1)
  expect(result.numErrors).toBe(2)
  expect(result.errors.map((e: { category: string; context: { inputIndex: string[] } }) => [e.category, e.context.inputIndex])).toEqual([
    ['VALIDATION_ERROR', ['1']],
    ['CONFLICT', ['2']],
  ])
  const search = await c.ok('POST', '/crm/v3/objects/contacts/search', {
    filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'bad@example.com' }] }],
  })
  expect(search.total).toBe(0)
  // The failed input did not take an id: the next contact gets the one after fresh@.
  const next = await newContact({ email: 'next@example.com' })
  expect(Number(next.id)).toBe(Number(result.results[0].id) + 1)
})

test('batch/update is 200, or 207 naming missing ids and bad inputs', async () => {
  const ok = await c.ok('POST', '/crm/v3/objects/contacts/batch/update', { inputs: [{ id: '1', properties: { jobtitle: 'CEO' } }] })
  expect(ok.results[0].properties.jobtitle).toBe('CEO')
  const partial = await c.ok(
    'POST',
    '/crm/v3/objects/contacts/batch/update',
    {
      inputs: [
        { id: '2', properties: { jobtitle: 'CFO' } },
        { id: '999', properties: { jobtitle: 'ghost' } },
        { id: '3', properties: { lifecyclestage: 'alien' } },
        { id: 'james.chen@northwind.example', idProperty: 'email', properties: { city: 'Boston' } },
      ],
    },
    207,
  )
  expect(partial.results.map((r: { id: string }) => r.id)).toEqual(['2', '2'])
  expect(partial.errors.map((e: { category: string; context: Record<string, string[]> }) => [e.category, e.context])).toEqual([
    ['OBJECT_NOT_FOUND', { ids: ['999'] }],
    ['VALIDATION_ERROR', { inputIndex: ['2'] }],
  ])
  expect(partial.numErrors).toBe(2)
  expect((await c.ok('GET', '/crm/v3/objects/contacts/3?properties=lifecyclestage')).properties.lifecyclestage).toBe('lead')
})

test('batch/archive is 204 and skips ids that are not live', async () => {
  await c.ok('POST', '/crm/v3/objects/deals/batch/archive', { inputs: [{ id: '1' }, { id: '2' }, { id: '77' }] }, 204)
  const bin = await c.ok('GET', '/crm/v3/objects/deals?archived=true')
  expect(bin.results.map((r: { id: string }) => r.id)).toEqual(['1', '2'])
})

// ------------------------------------------------------------------ auth

test('object endpoints need a Bearer token: none is 401, a developer key is 401', async () => {
  await expectError(await c.req('GET', '/crm/v3/objects/contacts', undefined, 'none'), 401, 'INVALID_AUTHENTICATION')
  await expectError(await c.req('GET', '/crm/v3/objects/contacts', undefined, { hapikey: 'dev-key-local' }), 401, 'INVALID_AUTHENTICATION')
})

test('scopes: tickets need "tickets"; contacts and calls need the contact scopes', async () => {
  const ticketsOnly = await oauthCredential(api, 'tickets')
  expect((await c.req('GET', '/crm/v3/objects/tickets', undefined, ticketsOnly)).status).toBe(200)
  const missing = await expectError(await c.req('GET', '/crm/v3/objects/contacts', undefined, ticketsOnly), 403, 'MISSING_SCOPES')
  expect(missing.message).toMatch(/scopes/)
  await expectError(await c.req('POST', '/crm/v3/objects/calls', { properties: {} }, ticketsOnly), 403, 'MISSING_SCOPES')
  await expectError(await c.req('GET', '/crm/v3/objects/deals', undefined, ticketsOnly), 403, 'MISSING_SCOPES')
  const contactsRead = await oauthCredential(api, 'crm.objects.contacts.read')
  expect((await c.req('GET', '/crm/v3/objects/calls', undefined, contactsRead)).status).toBe(200)
  await expectError(await c.req('POST', '/crm/v3/objects/calls', { properties: {} }, contactsRead), 403, 'MISSING_SCOPES')
})

// ------------------------------------------------------------------ tasks

test('tasks: the seeded call tasks are found by hs_task_type CALL, with their contact, and can be marked done', async () => {
  const found = await c.ok('POST', '/crm/v3/objects/tasks/search', {
    filterGroups: [{ filters: [{ propertyName: 'hs_task_type', operator: 'EQ', value: 'CALL' }, { propertyName: 'hs_task_status', operator: 'NEQ', value: 'COMPLETED' }] }],
    properties: ['hs_task_subject', 'hs_task_status', 'hs_timestamp'],
    sorts: [{ propertyName: 'hs_timestamp', direction: 'ASCENDING' }],
  }, 200)
  expect(found.total).toBe(3)
  const first = found.results[0]
  expect(first.properties.hs_task_subject).toBe('Call James about the renewal quote')
  const withContact = await c.ok('GET', `/crm/v3/objects/tasks/${first.id}?associations=contacts`)
  expect(withContact.associations.contacts.results).toEqual([{ id: '2', type: 'task_to_contact' }])
  const done = await c.ok('PATCH', `/crm/v3/objects/tasks/${first.id}`, { properties: { hs_task_status: 'COMPLETED' } })
  expect(done.properties.hs_task_status).toBe('COMPLETED')
  await expectError(await c.req('PATCH', `/crm/v3/objects/tasks/${first.id}`, { properties: { hs_task_type: 'FAX' } }), 400, 'VALIDATION_ERROR')
})

// --------------------------------------------------- what the real API refuses

test.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])(
  'a property named %j is 400 PROPERTY_DOESNT_EXIST like any unknown name, and nothing is written',
  async (name) => {
    const before = tablesOf(api)
    // Built from text so that the key is a real own "__proto__" key, as JSON.parse makes it.
    const text = `{"properties":{"email":"proto@example.com","${name}":"x"}}`
    const response = await api.handle(
      new Request('http://api.test/crm/v3/objects/contacts', {
        method: 'POST',
        headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
        body: text,
      }),
    )
    const error = await expectError(response, 400, 'VALIDATION_ERROR')
    expect(details(error).map((d) => [d.code, d.context?.propertyName?.[0]])).toEqual([['PROPERTY_DOESNT_EXIST', name]])
    expect(tablesOf(api)).toBe(before)
  },
)

test.each(['2020-02-30', '2021-02-29', '2020-04-31', '2020-13-01', '2020-00-10', '2020-01-01T24:00:00Z', '2020-01-01T10:60:00Z', '2020-06-31T10:00:00Z'])(
  'an impossible date %j is 400 INVALID_DATE, not rolled over to another day',
  async (value) => {
    const before = tablesOf(api)
    const error = await expectError(
      await c.req('POST', '/crm/v3/objects/contacts', { properties: { email: 'd@example.com', notes_last_contacted: value } }),
      400,
      'VALIDATION_ERROR',
    )
    expect(details(error)[0]?.code).toBe('INVALID_DATE')
    expect(tablesOf(api)).toBe(before)
  },
)

test('a real leap day is taken', async () => {
  const created = await newContact({ email: 'leap@example.com', notes_last_contacted: '2020-02-29T10:00:00Z' })
  expect(created.properties.notes_last_contacted).toBe('2020-02-29T10:00:00.000Z')
})

test('batch/update naming one id twice is 400 "Duplicate IDs found in batch input" with context.ids, and nothing is written', async () => {
  const before = tablesOf(api)
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/contacts/batch/update', {
      inputs: [
        { id: '1', properties: { firstname: 'A' } },
        { id: '2', properties: { firstname: 'B' } },
        { id: '1', properties: { firstname: 'C' } },
      ],
    }),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toBe('Duplicate IDs found in batch input: [1]. IDs must be unique')
  expect(error.context).toEqual({ ids: ['1'] })
  expect(tablesOf(api)).toBe(before)
})

test('a property keeps its last 50 values in its history', async () => {
  const { id } = await newContact({ email: 'history@example.com', firstname: 'v0' })
  for (let i = 1; i <= 60; i++) {
    api.clock.now = T0 + i * 1000
    await c.ok('PATCH', `/crm/v3/objects/contacts/${id}`, { properties: { firstname: `v${i}` } })
  }
  const read = await c.ok('GET', `/crm/v3/objects/contacts/${id}?propertiesWithHistory=firstname`)
  const history = read.propertiesWithHistory.firstname as Array<{ value: string }>
  expect(history).toHaveLength(50)
  expect(history[0]?.value).toBe('v60')
  expect(history[49]?.value).toBe('v11')
})

// ------------------------------------------------------------------ upsert

test('batch/upsert by email updates the contact that has it and creates one that does not, flagging which is new', async () => {
  const result = await c.ok('POST', '/crm/v3/objects/contacts/batch/upsert', {
    inputs: [
      { idProperty: 'email', id: 'MARIA.GARCIA@northwind.example', properties: { jobtitle: 'CTO' } },
      { idProperty: 'email', id: 'brand.new@example.com', properties: { firstname: 'Brand' } },
    ],
  })
  expect(result.status).toBe('COMPLETE')
  expect(result.results.map((r: { id: string; new: boolean }) => [r.id, r.new])).toEqual([
    ['1', false],
    ['10', true],
  ])
  expect(result.results[0].properties.jobtitle).toBe('CTO')
  expect(result.results[1].properties).toMatchObject({ email: 'brand.new@example.com', firstname: 'Brand' })
})

test('batch/upsert refuses a non-unique idProperty, and one id twice (in any case), changing nothing', async () => {
  const before = tablesOf(api)
  await expectError(
    await c.req('POST', '/crm/v3/objects/contacts/batch/upsert', { inputs: [{ idProperty: 'firstname', id: 'Maria', properties: {} }] }),
    400,
    'VALIDATION_ERROR',
  )
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/contacts/batch/upsert', {
      inputs: [
        { idProperty: 'email', id: 'a@example.com', properties: {} },
        { idProperty: 'email', id: 'A@example.com', properties: {} },
      ],
    }),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.context).toEqual({ ids: ['a@example.com'] })
  expect(tablesOf(api)).toBe(before)
})

test('batch/upsert reports a bad input (207) and writes the others', async () => {
  const result = await c.ok(
    'POST',
    '/crm/v3/objects/contacts/batch/upsert',
    {
      inputs: [
        { idProperty: 'email', id: 'fine@example.com', properties: {} },
        { idProperty: 'email', id: 'bad@example.com', properties: { nope: 1 } },
      ],
    },
    207,
  )
  expect(result.results).toHaveLength(1)
  expect(result.errors[0].context.inputIndex).toEqual(['1'])
  expect((await c.req('GET', '/crm/v3/objects/contacts/bad@example.com?idProperty=email')).status).toBe(404)
})
