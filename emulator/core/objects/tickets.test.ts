import { createTestService, expectError, type TestService } from '../timeline/testing.ts'
import { assoc, client, details, tablesOf, ticket, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const newTicket = (body: unknown) => c.ok('POST', '/crm/v3/objects/tickets', body, 201)
const newCall = async () => (await c.ok('POST', '/crm/v3/objects/calls', { properties: { hs_call_title: 'Follow-up' } }, 201)).id as string

// ---------------------------------------------------------- required, pipeline

test('a ticket with subject and stage is created in the default pipeline "0"', async () => {
  const created = await newTicket(ticket())
  expect(created.properties).toMatchObject({ subject: 'Printer on fire', hs_pipeline: '0', hs_pipeline_stage: '1' })
})

test.each([
  [{ hs_pipeline_stage: '1' }, 'subject'],
  [{ subject: 'No stage' }, 'hs_pipeline_stage'],
  [{}, 'subject, hs_pipeline_stage'],
  [{ subject: '', hs_pipeline_stage: '1' }, 'subject'],
])('a ticket without %j is 400 naming the missing properties', async (properties, missing) => {
  const before = tablesOf(api)
  const error = await expectError(await c.req('POST', '/crm/v3/objects/tickets', { properties }), 400, 'VALIDATION_ERROR')
  expect(error.message).toBe(`Cannot create object with type: TICKET. The following required properties were missing: [${missing}]`)
  expect(tablesOf(api)).toBe(before)
})

test('every stage of pipeline "0" is accepted; stage "5" is 400 INVALID_OPTION', async () => {
  for (const stage of ['1', '2', '3', '4']) await newTicket(ticket({ hs_pipeline_stage: stage }))
  const error = await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_pipeline_stage: '5' })), 400, 'VALIDATION_ERROR')
  expect(details(error)).toEqual([
    expect.objectContaining({ code: 'INVALID_OPTION', context: { propertyName: ['hs_pipeline_stage'] } }),
  ])
})

test('a stage of another pipeline, or an unknown pipeline, is 400', async () => {
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_pipeline_stage: 'closedwon' })), 400, 'VALIDATION_ERROR')
  const error = await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_pipeline: '7' })), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('7 is not a valid pipeline id')
})

test('PATCH moves a ticket between stages and refuses a stage outside its pipeline or clearing it', async () => {
  await c.ok('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pipeline_stage: '4' } })
  await expectError(await c.req('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pipeline_stage: '0' } }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pipeline_stage: '' } }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('PATCH', '/crm/v3/objects/tickets/2', { properties: { subject: null } }), 400, 'VALIDATION_ERROR')
  const read = await c.ok('GET', '/crm/v3/objects/tickets/2')
  expect(read.properties).toMatchObject({ hs_pipeline_stage: '4', subject: 'Invoice shows the wrong amount' })
})

// ---------------------------------------------------------- priority, category

test.each(['LOW', 'MEDIUM', 'HIGH', 'URGENT'])('priority %s is accepted', async (priority) => {
  expect((await newTicket(ticket({ hs_ticket_priority: priority }))).properties.hs_ticket_priority).toBe(priority)
})

test.each(['urgent', 'CRITICAL', 'Low', ' LOW'])('priority %j is 400 INVALID_OPTION', async (priority) => {
  const error = await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_ticket_priority: priority })), 400, 'VALIDATION_ERROR')
  expect(error.message).toContain('INVALID_OPTION')
  expect(error.message).toContain('[LOW, MEDIUM, HIGH, URGENT]')
})

test.each(['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY'])('category %s is accepted', async (category) => {
  await newTicket(ticket({ hs_ticket_category: category }))
})

test('an unknown category is 400 INVALID_OPTION', async () => {
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_ticket_category: 'COMPLAINT' })), 400, 'VALIDATION_ERROR')
})

// ------------------------------------------------------------------ pinning

test('a call associated in the same create can be pinned', async () => {
  const callId = await newCall()
  const created = await newTicket({ ...ticket({ hs_pinned_engagement_id: Number(callId) }), associations: [assoc(callId, 219)] })
  expect(created.properties.hs_pinned_engagement_id).toBe(callId)
  const read = await c.ok('GET', `/crm/v3/objects/tickets/${created.id}?associations=calls`)
  expect(read.associations.calls.results).toEqual([{ id: callId, type: 'ticket_to_call' }])
})

test('pinning a call that is not associated is 400 and creates nothing', async () => {
  const callId = await newCall()
  const before = tablesOf(api)
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', ticket({ hs_pinned_engagement_id: callId })),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toContain(`Call ${callId} cannot be pinned: it is not associated with this ticket`)
  expect(tablesOf(api)).toBe(before)
})

test('only an activity can be pinned: an associated contact id is refused', async () => {
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', { ...ticket({ hs_pinned_engagement_id: '5' }), associations: [assoc('5', 16)] }),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toContain('INVALID_PINNED_ENGAGEMENT')
})

test('a pin of a call that does not exist is 400', async () => {
  await expectError(await c.req('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pinned_engagement_id: '999' } }), 400, 'VALIDATION_ERROR')
})

test('PATCH pins an associated call, and a new pin replaces the old one', async () => {
  const first = await newCall()
  const second = await newCall()
  await c.ok('PUT', `/crm/v3/objects/tickets/2/associations/calls/${first}/219`)
  await c.ok('PUT', `/crm/v3/objects/tickets/2/associations/calls/${second}/ticket_to_call`)
  await c.ok('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pinned_engagement_id: first } })
  api.clock.now += 1000
  const repinned = await c.ok('PATCH', '/crm/v3/objects/tickets/2', { properties: { hs_pinned_engagement_id: second } })
  expect(repinned.properties.hs_pinned_engagement_id).toBe(second)
  const history = await c.ok('GET', '/crm/v3/objects/tickets/2?propertiesWithHistory=hs_pinned_engagement_id')
  expect(history.propertiesWithHistory.hs_pinned_engagement_id.map((v: { value: string }) => v.value)).toEqual([second, first])
})

test('PATCH pinning an unassociated call is 400 and keeps the old pin', async () => {
  const stranger = await newCall()
  await expectError(await c.req('PATCH', '/crm/v3/objects/tickets/1', { properties: { hs_pinned_engagement_id: stranger } }), 400, 'VALIDATION_ERROR')
  expect((await c.ok('GET', '/crm/v3/objects/tickets/1?properties=hs_pinned_engagement_id')).properties).toEqual({ hs_pinned_engagement_id: '1' })
})

test('removing the association of the pinned call clears the pin', async () => {
  expect((await c.req('DELETE', '/crm/v3/objects/tickets/1/associations/calls/1/219')).status).toBe(204)
  const read = await c.ok('GET', '/crm/v3/objects/tickets/1?properties=hs_pinned_engagement_id&associations=calls')
  expect(read.properties).toEqual({})
  expect(read.associations).toBeUndefined()
})

// ------------------------------------------------------------- associations

test('associations on create need a valid type id and an existing record', async () => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', { ...ticket(), associations: [assoc('1', 15)] }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/tickets', { ...ticket(), associations: [assoc('999', 16)] }), 400, 'VALIDATION_ERROR')
  await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', { ...ticket(), associations: [{ to: { id: '1' }, types: [] }] }),
    400,
    'VALIDATION_ERROR',
  )
  await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', {
      ...ticket(),
      associations: [{ to: { id: '1' }, types: [{ associationCategory: 'USER_DEFINED', associationTypeId: 16 }] }],
    }),
    400,
    'VALIDATION_ERROR',
  )
  expect(tablesOf(api)).toBe(before)
})

test('an association made on a ticket is visible from both sides', async () => {
  const created = await newTicket({ ...ticket(), associations: [assoc('4', 16), assoc('2', 26)] })
  const read = await c.ok('GET', `/crm/v3/objects/tickets/${created.id}?associations=contacts,companies`)
  expect(read.associations).toEqual({
    contacts: { results: [{ id: '4', type: 'ticket_to_contact' }] },
    companies: {
      results: [
        { id: '2', type: 'ticket_to_company' },
        { id: '2', type: 'ticket_to_company_unlabeled' },
      ],
    },
  })
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/4?associations=tickets')
  expect(contact.associations.tickets.results).toEqual([{ id: created.id, type: 'contact_to_ticket' }])
})

test('PUT association is 200 with the ticket and its associations of that type; DELETE is 204', async () => {
  const put = await c.ok('PUT', '/crm/v3/objects/tickets/2/associations/contacts/5/16')
  expect(put).toMatchObject({ id: '2', associations: { contacts: { results: [{ id: '3', type: 'ticket_to_contact' }, { id: '5', type: 'ticket_to_contact' }] } } })
  expect(put.properties.subject).toBe('Invoice shows the wrong amount')
  const again = await c.ok('PUT', '/crm/v3/objects/tickets/2/associations/contacts/5/16')
  expect(again.associations.contacts.results).toHaveLength(2)
  expect((await c.req('DELETE', '/crm/v3/objects/tickets/2/associations/contacts/5/16')).status).toBe(204)
  const read = await c.ok('GET', '/crm/v3/objects/tickets/2/associations/contacts')
  expect(read.results).toEqual([{ id: '3', type: 'ticket_to_contact' }])
})

test('PUT association with a missing record is 404; with a wrong type id or object type 400', async () => {
  await expectError(await c.req('PUT', '/crm/v3/objects/tickets/2/associations/contacts/999/16'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('PUT', '/crm/v3/objects/tickets/999/associations/contacts/1/16'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('PUT', '/crm/v3/objects/tickets/2/associations/contacts/1/15'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('PUT', '/crm/v3/objects/tickets/2/associations/contacts/1/ticket_to_deal'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('PUT', '/crm/v3/objects/tickets/2/associations/widgets/1/16'), 400, 'VALIDATION_ERROR')
})

test('associations work between every pair of object types, e.g. a call and a deal', async () => {
  const callId = await newCall()
  const put = await c.ok('PUT', `/crm/v3/objects/calls/${callId}/associations/deals/1/206`)
  expect(put.associations.deals.results).toEqual([{ id: '1', type: 'call_to_deal' }])
  const deal = await c.ok('GET', '/crm/v3/objects/deals/1?associations=calls')
  expect(deal.associations.calls.results).toEqual([{ id: callId, type: 'deal_to_call' }])
})

// ------------------------------------------------------------------ labels

test.each([
  ['tickets', 'contacts', [[16, null]]],
  ['contacts', 'tickets', [[15, null]]],
  ['tickets', 'companies', [[339, null], [26, 'Primary']]],
  ['contacts', 'companies', [[279, null], [1, 'Primary']]],
  ['companies', 'contacts', [[280, null], [2, 'Primary']]],
  ['contacts', 'deals', [[4, null]]],
  ['deals', 'contacts', [[3, null]]],
  ['calls', 'contacts', [[194, null]]],
  ['contacts', 'calls', [[193, null]]],
  ['calls', 'companies', [[182, null]]],
  ['calls', 'deals', [[206, null]]],
  ['calls', 'tickets', [[220, null]]],
  ['tickets', 'calls', [[219, null]]],
  ['tickets', 'deals', [[28, null]]],
  ['0-5', '0-1', [[16, null]]],
])('labels %s → %s list the type ids', async (from, to, expected) => {
  const labels = await c.ok('GET', `/crm/v4/associations/${from}/${to}/labels`)
  expect(labels.results).toEqual((expected as Array<[number, string | null]>).map(([typeId, label]) => ({ category: 'HUBSPOT_DEFINED', typeId, label })))
})

test('labels of an unknown object type are 400', async () => {
  await expectError(await c.req('GET', '/crm/v4/associations/tickets/widgets/labels'), 400, 'VALIDATION_ERROR')
})

// ----------------------------------------------------------------- pipelines

test('the ticket pipeline "0" has the four default stages, created at epoch 0', async () => {
  const list = await c.ok('GET', '/crm/v3/pipelines/tickets')
  expect(list.results).toHaveLength(1)
  const pipeline = await c.ok('GET', '/crm/v3/pipelines/tickets/0')
  expect(list.results[0]).toEqual(pipeline)
  expect(pipeline).toMatchObject({ id: '0', label: 'Support Pipeline', displayOrder: 0, archived: false, createdAt: '1970-01-01T00:00:00.000Z' })
  expect(pipeline.stages.map((s: { id: string; label: string; displayOrder: number; metadata: unknown }) => [s.id, s.label, s.displayOrder, s.metadata])).toEqual([
    ['1', 'New', 0, { ticketState: 'OPEN', isClosed: 'false' }],
    ['2', 'Waiting on contact', 1, { ticketState: 'OPEN', isClosed: 'false' }],
    ['3', 'Waiting on us', 2, { ticketState: 'OPEN', isClosed: 'false' }],
    ['4', 'Closed', 3, { ticketState: 'CLOSED', isClosed: 'true' }],
  ])
  for (const stage of pipeline.stages) expect(stage).toMatchObject({ createdAt: '1970-01-01T00:00:00.000Z', archived: false })
})

test('stages are listed and read one by one; unknown pipelines and stages are 404', async () => {
  const stages = await c.ok('GET', '/crm/v3/pipelines/tickets/0/stages')
  expect(stages.results.map((s: { id: string }) => s.id)).toEqual(['1', '2', '3', '4'])
  expect((await c.ok('GET', '/crm/v3/pipelines/tickets/0/stages/4')).label).toBe('Closed')
  await expectError(await c.req('GET', '/crm/v3/pipelines/tickets/9'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('GET', '/crm/v3/pipelines/tickets/0/stages/9'), 404, 'OBJECT_NOT_FOUND')
  expect((await c.ok('GET', '/crm/v3/pipelines/deals/default')).stages).toHaveLength(7)
})

// ---------------------------------------------------------------- properties

test('GET /crm/v3/properties/tickets lists Property objects with their options', async () => {
  const { results } = await c.ok('GET', '/crm/v3/properties/tickets')
  const names = results.map((p: { name: string }) => p.name)
  for (const name of ['subject', 'content', 'hs_pipeline', 'hs_pipeline_stage', 'hs_ticket_priority', 'hs_ticket_category', 'hs_pinned_engagement_id', 'createdate', 'hs_lastmodifieddate', 'hs_object_id']) {
    expect(names).toContain(name)
  }
  for (const property of results) {
    expect(property).toEqual(
      expect.objectContaining({
        name: expect.any(String),
        label: expect.any(String),
        type: expect.stringMatching(/^(string|number|date|datetime|enumeration|bool|phone_number)$/),
        fieldType: expect.any(String),
        groupName: 'ticketinformation',
        description: expect.any(String),
        options: expect.any(Array),
      }),
    )
  }
  const priority = results.find((p: { name: string }) => p.name === 'hs_ticket_priority')
  expect(priority.options.map((o: { value: string }) => o.value)).toEqual(['LOW', 'MEDIUM', 'HIGH', 'URGENT'])
  const stage = results.find((p: { name: string }) => p.name === 'hs_pipeline_stage')
  expect(stage).toMatchObject({ externalOptions: true, options: [] })
})

test('call and contact properties include what a calling app writes and reads', async () => {
  const calls = (await c.ok('GET', '/crm/v3/properties/calls')).results.map((p: { name: string }) => p.name)
  for (const name of [
    'hs_call_body',
    'hs_call_status',
    'hs_call_duration',
    'hs_call_direction',
    'hs_call_disposition',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_recording_url',
    'hs_call_title',
    'hs_timestamp',
    'hs_call_external_id',
    'hubspot_owner_id',
    'hs_call_source',
  ]) {
    expect(calls).toContain(name)
  }
  const contacts = (await c.ok('GET', '/crm/v3/properties/0-1')).results.map((p: { name: string }) => p.name)
  for (const name of ['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company']) expect(contacts).toContain(name)
  expect((await c.ok('GET', '/crm/v3/properties/contacts/email')).hasUniqueValue).toBe(true)
  await expectError(await c.req('GET', '/crm/v3/properties/contacts/nope'), 404, 'OBJECT_NOT_FOUND')
})
