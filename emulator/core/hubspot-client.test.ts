/**
 * The official Node client, @hubspot/api-client, against the emulator, in
 * process: the client (14.x) sends every JSON request through the global
 * `fetch`, which is pointed here at `service.handle`, so the requests and
 * answers are exactly what the client would exchange with the real API, with
 * no server in between. Each call below goes through the client's own
 * serialization and deserialization (models, dates, errors).
 */
import { Client } from '@hubspot/api-client'
import { ACCOUNT } from './http/auth.ts'
import { grantTokens, REDIRECT_URI } from './timeline/testing.ts'
import { officialClient as app, useServiceBehindFetch } from './objects/official-client.ts'

const service = useServiceBehindFetch()
const BASE = { basePath: 'http://api.test' }

test('tickets: basic API create, read, update, archive', async () => {
  const hubspot = app()
  const created = await hubspot.crm.tickets.basicApi.create({ properties: { subject: 'From the client', hs_pipeline_stage: '1', hs_ticket_priority: 'HIGH' }, associations: [] })
  expect(created.id).toMatch(/^\d+$/)
  expect(created.createdAt).toBeInstanceOf(Date)
  const read = await hubspot.crm.tickets.basicApi.getById(created.id, ['subject', 'hs_ticket_priority'])
  expect(read.properties).toMatchObject({ subject: 'From the client', hs_ticket_priority: 'HIGH' })
  const updated = await hubspot.crm.tickets.basicApi.update(created.id, { properties: { hs_ticket_priority: 'LOW' } })
  expect(updated.properties.hs_ticket_priority).toBe('LOW')
  await hubspot.crm.tickets.basicApi.archive(created.id)
  await expect(hubspot.crm.tickets.basicApi.getById(created.id)).rejects.toMatchObject({ code: 404 })
})

test('tickets: batch create, read, update, and search', async () => {
  const hubspot = app()
  const batch = await hubspot.crm.tickets.batchApi.create({
    inputs: [
      { properties: { subject: 'Batch one', hs_pipeline_stage: '1' }, associations: [] },
      { properties: { subject: 'Batch two', hs_pipeline_stage: '2' }, associations: [] },
    ],
  })
  expect(batch.status).toBe('COMPLETE')
  const ids = batch.results.map((r) => r.id)
  const read = await hubspot.crm.tickets.batchApi.read({ inputs: ids.map((id) => ({ id })), properties: ['subject'], propertiesWithHistory: [] })
  expect(read.results.map((r) => r.properties.subject).sort()).toEqual(['Batch one', 'Batch two'])
  const updated = await hubspot.crm.tickets.batchApi.update({ inputs: ids.map((id) => ({ id, properties: { hs_ticket_priority: 'URGENT' } })) })
  expect(updated.results.every((r) => r.properties.hs_ticket_priority === 'URGENT')).toBe(true)
  const found = await hubspot.crm.tickets.searchApi.doSearch({
    filterGroups: [{ filters: [{ propertyName: 'subject', operator: 'CONTAINS_TOKEN' as never, value: 'batch*' }] }],
    properties: ['subject'],
    limit: 10,
    after: '0',
    sorts: [],
  })
  expect(found.total).toBe(2)
})

test('a batch update naming one id twice raises the client’s ApiException with the real message', async () => {
  const error = await app()
    .crm.tickets.batchApi.update({ inputs: [{ id: '1', properties: {} }, { id: '1', properties: {} }] })
    .catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 400, body: { category: 'VALIDATION_ERROR', message: 'Duplicate IDs found in batch input: [1]. IDs must be unique', context: { ids: ['1'] } } })
})

test('associations v4: create with a label, list, batch read, archive', async () => {
  const hubspot = app()
  const pair = await hubspot.crm.associations.v4.basicApi.create('tickets', '2', 'contacts', '1', [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: 16 }])
  expect(pair).toMatchObject({ fromObjectTypeId: '0-5', toObjectTypeId: '0-1', labels: [] })
  const page = await hubspot.crm.associations.v4.basicApi.getPage('tickets', '2', 'contacts')
  expect(page.results.map((r) => String(r.toObjectId))).toContain('1')
  const def = await hubspot.crm.associations.v4.basicApi.createDefault('tickets', '2', 'companies', '3')
  expect(def.results[0]?.associationSpec.associationTypeId).toBe(339)
  const batch = await hubspot.crm.associations.v4.batchApi.getPage('tickets', 'contacts', { inputs: [{ id: '2' }] })
  expect(batch.results[0]?.to.map((t) => String(t.toObjectId))).toContain('1')
  await hubspot.crm.associations.v4.basicApi.archive('tickets', '2', 'contacts', '1')
  const after = await hubspot.crm.associations.v4.basicApi.getPage('tickets', '2', 'contacts')
  expect(after.results.map((r) => String(r.toObjectId))).not.toContain('1')
})

test('properties: create a custom property and a group, read, update, archive', async () => {
  const hubspot = app()
  const group = await hubspot.crm.properties.groupsApi.create('tickets', { name: 'phone_system', label: 'Phone system' })
  expect(group.name).toBe('phone_system')
  const created = await hubspot.crm.properties.coreApi.create('tickets', {
    name: 'call_queue',
    label: 'Call queue',
    type: 'enumeration' as never,
    fieldType: 'select' as never,
    groupName: 'phone_system',
    options: [
      { label: 'Sales', value: 'sales', displayOrder: 0, hidden: false },
      { label: 'Support', value: 'support', displayOrder: 1, hidden: false },
    ],
  })
  expect(created.name).toBe('call_queue')
  expect(created.createdAt).toBeInstanceOf(Date)
  const updated = await hubspot.crm.properties.coreApi.update('tickets', 'call_queue', { label: 'Queue' })
  expect(updated.label).toBe('Queue')
  const ticket = await hubspot.crm.tickets.basicApi.create({ properties: { subject: 'Queued', hs_pipeline_stage: '1', call_queue: 'support' }, associations: [] })
  expect(ticket.properties.call_queue).toBe('support')
  await hubspot.crm.properties.coreApi.archive('tickets', 'call_queue')
  await expect(hubspot.crm.properties.coreApi.getByName('tickets', 'call_queue')).rejects.toMatchObject({ code: 404 })
})

test('pipelines: create a ticket pipeline, add a stage, rename, delete', async () => {
  const hubspot = app()
  const pipeline = await hubspot.crm.pipelines.pipelinesApi.create('tickets', {
    label: 'Escalations',
    displayOrder: 1,
    stages: [{ label: 'Raised', displayOrder: 0, metadata: { ticketState: 'OPEN' } }],
  })
  expect(pipeline.stages).toHaveLength(1)
  const stage = await hubspot.crm.pipelines.pipelineStagesApi.create('tickets', pipeline.id, { label: 'Done', displayOrder: 1, metadata: { ticketState: 'CLOSED' } })
  expect(stage.label).toBe('Done')
  const renamed = await hubspot.crm.pipelines.pipelinesApi.update('tickets', pipeline.id, { label: 'Escalated' })
  expect(renamed.label).toBe('Escalated')
  await hubspot.crm.pipelines.pipelinesApi.archive('tickets', pipeline.id)
  await expect(hubspot.crm.pipelines.pipelinesApi.getById('tickets', pipeline.id)).rejects.toMatchObject({ code: 404 })
})

test('timeline: a template with the developer key, an event with an OAuth token', async () => {
  const developer = new Client({ ...BASE, developerApiKey: ACCOUNT.developerApiKey })
  const template = await developer.crm.timeline.templatesApi.create(ACCOUNT.appId, {
    name: 'Call logged',
    objectType: 'contacts',
    headerTemplate: 'Call with {{caller}}',
    detailTemplate: 'Duration: {{duration}}',
    tokens: [
      { name: 'caller', label: 'Caller', type: 'string' as never },
      { name: 'duration', label: 'Duration', type: 'number' as never },
    ],
  })
  expect(template.id).toMatch(/^\d+$/)
  const { access_token } = await grantTokens(service(), { scope: 'timeline' })
  const oauthApp = new Client({ ...BASE, accessToken: access_token })
  const event = await oauthApp.crm.timeline.eventsApi.create({ eventTemplateId: template.id, objectId: '1', tokens: { caller: 'Maria', duration: '42' } })
  expect(event.id).toBeTruthy()
  const read = await oauthApp.crm.timeline.eventsApi.getById(template.id, event.id)
  expect(read.tokens).toMatchObject({ caller: 'Maria', duration: '42' })
})

test('OAuth tokens API: exchange a code and refresh; a bad refresh token raises the real BAD_REFRESH_TOKEN body', async () => {
  const oauth = new Client(BASE).oauth.tokensApi
  const decision = await service().handle(
    new Request('http://api.test/_ringside/v1/oauth/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: ACCOUNT.clientId, redirect_uri: REDIRECT_URI, scope: 'tickets', decision: 'grant' }),
    }),
  )
  const { code } = (await decision.json()) as { code: string }
  const tokens = await oauth.create('authorization_code', code, REDIRECT_URI, ACCOUNT.clientId, ACCOUNT.clientSecret)
  expect(tokens.accessToken).toMatch(/^CN/)
  expect(tokens.expiresIn).toBe(1800)
  const refreshed = await oauth.create('refresh_token', undefined, undefined, ACCOUNT.clientId, ACCOUNT.clientSecret, tokens.refreshToken)
  expect(refreshed.accessToken).not.toBe(tokens.accessToken)
  const error = await oauth.create('refresh_token', undefined, undefined, ACCOUNT.clientId, ACCOUNT.clientSecret, 'not-a-token').catch((e: unknown) => e)
  expect(error).toMatchObject({ code: 400, body: { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' } })
})
