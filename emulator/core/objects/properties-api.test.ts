/**
 * The properties API's writes: custom properties and groups, and what they
 * make possible elsewhere (values, search, idProperty, timeline tokens
 * with objectPropertyName).
 */
import { call, createTestService, developer, expectError, oauthCredential, type TestService } from '../timeline/testing.ts'
import { client, details, tablesOf, ticket, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const PROPS = '/crm/v3/properties/tickets'
const externalId = { name: 'external_ticket_id', label: 'External ticket id', type: 'string', fieldType: 'text', groupName: 'ticketinformation', hasUniqueValue: true }
const severity = {
  name: 'severity',
  label: 'Severity',
  type: 'enumeration',
  fieldType: 'select',
  groupName: 'ticketinformation',
  options: [
    { label: 'Minor', value: 'minor' },
    { label: 'Major', value: 'major' },
  ],
}

test('creating a custom property is 201 with the Property model; it is listed and readable by name', async () => {
  const created = await c.ok('POST', PROPS, severity, 201)
  expect(created).toMatchObject({
    name: 'severity',
    type: 'enumeration',
    fieldType: 'select',
    hubspotDefined: false,
    archived: false,
    hasUniqueValue: false,
    options: [
      { label: 'Minor', value: 'minor', hidden: false, displayOrder: 0 },
      { label: 'Major', value: 'major', hidden: false, displayOrder: 1 },
    ],
    modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
  })
  expect((await c.ok('GET', PROPS)).results.map((p: { name: string }) => p.name)).toContain('severity')
  expect(await c.ok('GET', `${PROPS}/severity`)).toEqual(created)
  expect(await c.ok('GET', '/crm/v3/properties/0-5/severity')).toEqual(created)
})

test('a custom property takes values, checks them, and is searchable', async () => {
  await c.ok('POST', PROPS, severity, 201)
  const made = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ severity: 'major' }), 201)
  expect(made.properties.severity).toBe('major')
  const error = await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ severity: 'huge' })), 400, 'VALIDATION_ERROR')
  expect(details(error)[0]?.code).toBe('INVALID_OPTION')
  const found = await c.ok('POST', '/crm/v3/objects/tickets/search', {
    filterGroups: [{ filters: [{ propertyName: 'severity', operator: 'EQ', value: 'major' }] }],
    properties: ['severity'],
  })
  expect(found.results.map((r: { id: string }) => r.id)).toEqual([made.id])
})

test('a unique custom property works as idProperty (GET, batch/read) and refuses a second record with the same value (409)', async () => {
  await c.ok('POST', PROPS, externalId, 201)
  const made = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ external_ticket_id: 'EXT-1' }), 201)
  expect((await c.ok('GET', '/crm/v3/objects/tickets/EXT-1?idProperty=external_ticket_id')).id).toBe(made.id)
  const batch = await c.ok('POST', '/crm/v3/objects/tickets/batch/read', { idProperty: 'external_ticket_id', inputs: [{ id: 'EXT-1' }], properties: ['external_ticket_id'] })
  expect(batch.results[0].id).toBe(made.id)
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ external_ticket_id: 'EXT-1' })), 409, 'CONFLICT')
})

test('a timeline token with objectPropertyName naming a custom property writes it', async () => {
  await c.ok('POST', '/crm/v3/properties/contacts', { name: 'last_webinar', label: 'Last webinar', type: 'string', fieldType: 'text', groupName: 'contactinformation' }, 201)
  const template = await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', {
    auth: developer,
    json: { name: 'Webinar', objectType: 'contacts', headerTemplate: '{{webinar}}', tokens: [{ name: 'webinar', label: 'Webinar', type: 'string', objectPropertyName: 'last_webinar' }] },
  })
  const templateId = (await template.json()).id
  const oauth = await oauthCredential(api, 'timeline')
  const event = await call(api, 'POST', '/crm/v3/timeline/events', { auth: oauth, json: { eventTemplateId: templateId, objectId: '1', tokens: { webinar: 'Pipelines 101' } } })
  expect(event.status).toBe(201)
  expect((await c.ok('GET', '/crm/v3/objects/contacts/1?properties=last_webinar')).properties.last_webinar).toBe('Pipelines 101')
})

test.each([
  ['a name with capitals', { ...severity, name: 'Severity' }, 400],
  ['an hs_ name', { ...severity, name: 'hs_severity' }, 400],
  ['a fieldType that does not suit the type', { ...severity, fieldType: 'number' }, 400],
  ['an enumeration without options', { ...severity, options: [] }, 400],
  ['options on a number', { ...severity, type: 'number', fieldType: 'number' }, 400],
  ['duplicate option values', { ...severity, options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'a' }] }, 400],
  ['an unknown group', { ...severity, groupName: 'nope' }, 400],
  ['a built-in name', { ...severity, name: 'subject' }, 409],
])('creating a property with %s is %i and changes nothing', async (_name, body, status) => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', PROPS, body), status, status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('a built-in property cannot be changed or archived', async () => {
  await expectError(await c.req('PATCH', `${PROPS}/subject`, { label: 'Title' }), 400, 'VALIDATION_ERROR', 'READ_ONLY_DEFINITION')
  await expectError(await c.req('DELETE', `${PROPS}/subject`), 400, 'VALIDATION_ERROR', 'READ_ONLY_DEFINITION')
})

test('PATCH changes label and options; the type cannot change once records hold values', async () => {
  await c.ok('POST', PROPS, severity, 201)
  const updated = await c.ok('PATCH', `${PROPS}/severity`, { label: 'Impact', options: [...severity.options, { label: 'Critical', value: 'critical' }] })
  expect(updated.label).toBe('Impact')
  expect(updated.options.map((o: { value: string }) => o.value)).toEqual(['minor', 'major', 'critical'])
  await c.ok('POST', '/crm/v3/objects/tickets', ticket({ severity: 'critical' }), 201)
  await expectError(await c.req('PATCH', `${PROPS}/severity`, { type: 'string', fieldType: 'text' }), 400, 'VALIDATION_ERROR')
})

test('archiving a custom property (204) removes it and its values; archived=true lists it; the name can be created again', async () => {
  await c.ok('POST', PROPS, severity, 201)
  const made = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ severity: 'minor' }), 201)
  await c.ok('DELETE', `${PROPS}/severity`, undefined, 204)
  await expectError(await c.req('GET', `${PROPS}/severity`), 404, 'OBJECT_NOT_FOUND')
  expect((await c.ok('GET', `${PROPS}?archived=true`)).results.map((p: { name: string }) => p.name)).toEqual(['severity'])
  expect((await c.ok('GET', `/crm/v3/objects/tickets/${made.id}?properties=severity`)).properties.severity).toBeUndefined()
  const error = await expectError(await c.req('PATCH', `/crm/v3/objects/tickets/${made.id}`, { properties: { severity: 'minor' } }), 400, 'VALIDATION_ERROR')
  expect(details(error)[0]?.code).toBe('PROPERTY_DOESNT_EXIST')
  await c.ok('POST', PROPS, severity, 201)
})

test('groups: built-in ones are listed; a created group can hold properties, be renamed, and archived once empty', async () => {
  const groups = await c.ok('GET', `${PROPS}/groups`)
  expect(groups.results[0]).toEqual({ name: 'ticketinformation', label: 'Ticket information', displayOrder: 0, archived: false })
  const group = await c.ok('POST', `${PROPS}/groups`, { name: 'integration', label: 'Integration' }, 201)
  expect(group).toEqual({ name: 'integration', label: 'Integration', displayOrder: -1, archived: false })
  await expectError(await c.req('POST', `${PROPS}/groups`, { name: 'integration', label: 'Again' }), 409, 'CONFLICT')
  await c.ok('POST', PROPS, { ...severity, groupName: 'integration' }, 201)
  expect((await c.ok('PATCH', `${PROPS}/groups/integration`, { label: 'From the phone system' })).label).toBe('From the phone system')
  await expectError(await c.req('DELETE', `${PROPS}/groups/integration`), 400, 'VALIDATION_ERROR')
  await c.ok('DELETE', `${PROPS}/severity`, undefined, 204)
  await c.ok('DELETE', `${PROPS}/groups/integration`, undefined, 204)
  await expectError(await c.req('GET', `${PROPS}/groups/integration`), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('DELETE', `${PROPS}/groups/ticketinformation`), 400, 'VALIDATION_ERROR')
})

test('custom properties travel in an export and come back with an import', async () => {
  await c.ok('POST', PROPS, severity, 201)
  await c.ok('POST', '/crm/v3/objects/tickets', ticket({ severity: 'major' }), 201)
  const snapshot = await c.ok('GET', '/_ringside/v1/export', undefined, 200, 'none')
  await c.ok('POST', '/_ringside/v1/reset', undefined, 200, 'none')
  await c.ok('POST', '/_ringside/v1/import', snapshot, 200, 'none')
  expect((await c.ok('GET', `${PROPS}/severity`)).name).toBe('severity')
})

test('a multiple-checkbox property takes several options separated by ";"', async () => {
  await c.ok('POST', PROPS, { ...severity, name: 'channels', fieldType: 'checkbox' }, 201)
  const made = await c.ok('POST', '/crm/v3/objects/tickets', ticket({ channels: 'minor;major' }), 201)
  expect(made.properties.channels).toBe('minor;major')
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ channels: 'minor;nope' })), 400, 'VALIDATION_ERROR')
})

describe('batches', () => {
  const BATCH = '/crm/v3/properties/contacts/batch'
  const prop = (name: string, extra: Record<string, unknown> = {}) => ({ name, label: 'Batch', type: 'string', fieldType: 'text', groupName: 'contactinformation', ...extra })

  test('batch/create makes each property (201); a bad input is reported with its index and leaves no trace (207)', async () => {
    const made = await c.ok('POST', `${BATCH}/create`, { inputs: [prop('batch_one'), prop('batch_two')] }, 201)
    expect(made.results.map((p: { name: string }) => p.name)).toEqual(['batch_one', 'batch_two'])
    const partial = await c.ok('POST', `${BATCH}/create`, { inputs: [prop('batch_three'), prop('batch_one'), prop('batch_four', { type: 'number' })] }, 207)
    expect(partial.results.map((p: { name: string }) => p.name)).toEqual(['batch_three'])
    expect(partial.errors.map((e: { category: string; context: { inputIndex: string[] } }) => [e.category, e.context.inputIndex[0]])).toEqual([
      ['CONFLICT', '1'],
      ['VALIDATION_ERROR', '2'],
    ])
    await c.ok('GET', '/crm/v3/properties/contacts/batch_four', undefined, 404)
    const before = tablesOf(api)
    await expectError(await c.req('POST', `${BATCH}/create`, { inputs: [{ name: 'no_type' }] }), 400, 'VALIDATION_ERROR')
    expect(tablesOf(api)).toBe(before)
  })

  test('batch/read returns the named properties (archived ones with archived: true); unknown names are errors (207)', async () => {
    await c.ok('POST', `${BATCH}/create`, { inputs: [prop('batch_read')] }, 201)
    const read = await c.ok('POST', `${BATCH}/read`, { inputs: [{ name: 'email' }, { name: 'batch_read' }], archived: false })
    expect(read.results.map((p: { name: string }) => p.name)).toEqual(['email', 'batch_read'])
    const partial = await c.ok('POST', `${BATCH}/read`, { inputs: [{ name: 'email' }, { name: 'no_such_property' }], archived: false }, 207)
    expect(partial.errors[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { name: ['no_such_property'] } })
    await c.ok('DELETE', '/crm/v3/properties/contacts/batch_read', undefined, 204)
    const archived = await c.ok('POST', `${BATCH}/read`, { inputs: [{ name: 'batch_read' }], archived: true })
    expect(archived.results[0]).toMatchObject({ name: 'batch_read', archived: true })
  })

  test('batch/archive is 204 whatever the state of each property, removes values, and refuses HubSpot’s own', async () => {
    await c.ok('POST', `${BATCH}/create`, { inputs: [prop('batch_gone')] }, 201)
    await c.ok('PATCH', '/crm/v3/objects/contacts/1', { properties: { batch_gone: 'x' } })
    const before = tablesOf(api)
    await expectError(await c.req('POST', `${BATCH}/archive`, { inputs: [{ name: 'batch_gone' }, { name: 'email' }] }), 400, 'VALIDATION_ERROR', 'READ_ONLY_DEFINITION')
    expect(tablesOf(api)).toBe(before)
    await c.ok('POST', `${BATCH}/archive`, { inputs: [{ name: 'batch_gone' }, { name: 'never_existed' }] }, 204)
    await c.ok('POST', `${BATCH}/archive`, { inputs: [{ name: 'batch_gone' }] }, 204)
    const record = await c.ok('GET', '/crm/v3/objects/contacts/1?properties=batch_gone')
    expect(record.properties.batch_gone).toBeUndefined()
  })
})
