/**
 * The pipelines API's writes, and the rule they make testable: once tickets
 * have several pipelines, a new ticket must name its hs_pipeline.
 */
import { createTestService, expectError, type TestService } from '../timeline/testing.ts'
import { client, details, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const PIPES = '/crm/v3/pipelines/tickets'
const escalations = {
  label: 'Escalations',
  displayOrder: 1,
  stages: [
    { label: 'Raised', displayOrder: 0, metadata: { ticketState: 'OPEN' } },
    { label: 'Resolved', displayOrder: 1, metadata: { ticketState: 'CLOSED' } },
  ],
}

test('creating a ticket pipeline is 201 with numeric ids, and it is listed', async () => {
  const created = await c.ok('POST', PIPES, escalations, 201)
  expect(created).toMatchObject({ id: expect.stringMatching(/^\d+$/), label: 'Escalations', displayOrder: 1, archived: false })
  expect(created.stages.map((s: { label: string; id: string }) => [s.label, /^\d+$/.test(s.id)])).toEqual([
    ['Raised', true],
    ['Resolved', true],
  ])
  const list = await c.ok('GET', PIPES)
  expect(list.results.map((p: { label: string }) => p.label)).toEqual(['Support Pipeline', 'Escalations'])
})

test('with several pipelines hs_pipeline is required; naming one with its stage works', async () => {
  const created = await c.ok('POST', PIPES, escalations, 201)
  const error = await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', { properties: { subject: 'No pipeline', hs_pipeline_stage: '1' } }),
    400,
    'VALIDATION_ERROR',
  )
  expect(error.message).toContain('[hs_pipeline]')
  const stage = created.stages[0].id
  const made = await c.ok('POST', '/crm/v3/objects/tickets', { properties: { subject: 'Escalated', hs_pipeline: created.id, hs_pipeline_stage: stage } }, 201)
  expect(made.properties.hs_pipeline).toBe(created.id)
  // A stage of another pipeline is refused.
  const wrong = await expectError(
    await c.req('POST', '/crm/v3/objects/tickets', { properties: { subject: 'Mixed', hs_pipeline: created.id, hs_pipeline_stage: '1' } }),
    400,
    'VALIDATION_ERROR',
  )
  expect(details(wrong)[0]?.code).toBe('INVALID_OPTION')
})

test.each([
  ['no stages', { ...escalations, stages: [] }, 400],
  ['a stage without ticketState', { ...escalations, stages: [{ label: 'X', displayOrder: 0, metadata: {} }] }, 400],
  ['two stages with one label', { ...escalations, stages: [escalations.stages[0], escalations.stages[0]] }, 409],
  ['the label of an existing pipeline', { ...escalations, label: 'support pipeline' }, 409],
])('a pipeline with %s is refused (%i) and nothing changes', async (_name, body, status) => {
  const before = tablesOf(api)
  await expectError(await c.req('POST', PIPES, body), status, status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('deal stages need a probability from 0 to 1', async () => {
  const body = { label: 'Renewals', displayOrder: 1, stages: [{ label: 'Open', displayOrder: 0, metadata: { probability: '1.5' } }] }
  await expectError(await c.req('POST', '/crm/v3/pipelines/deals', body), 400, 'VALIDATION_ERROR')
  body.stages[0]!.metadata.probability = '0.5'
  await c.ok('POST', '/crm/v3/pipelines/deals', body, 201)
})

test('PATCH renames; PUT replaces the stages, keeping ids it names and refusing to drop a stage in use', async () => {
  const created = await c.ok('POST', PIPES, escalations, 201)
  expect((await c.ok('PATCH', `${PIPES}/${created.id}`, { label: 'Escalated' })).label).toBe('Escalated')
  const [raised, resolved] = created.stages
  await c.ok('POST', '/crm/v3/objects/tickets', { properties: { subject: 'In use', hs_pipeline: created.id, hs_pipeline_stage: resolved.id } }, 201)
  const replaced = await c.ok('PUT', `${PIPES}/${created.id}`, {
    label: 'Escalated',
    displayOrder: 1,
    stages: [
      { id: resolved.id, label: 'Done', displayOrder: 5, metadata: { ticketState: 'CLOSED' } },
      { label: 'Waiting', displayOrder: 2, metadata: { ticketState: 'OPEN' } },
    ],
  })
  expect(replaced.stages.map((s: { label: string }) => s.label)).toEqual(['Waiting', 'Done'])
  expect(replaced.stages[1].id).toBe(resolved.id)
  expect(replaced.stages.some((s: { id: string }) => s.id === raised.id)).toBe(false)
  await expectError(
    await c.req('PUT', `${PIPES}/${created.id}`, { label: 'Escalated', displayOrder: 1, stages: [{ label: 'Only', displayOrder: 0, metadata: { ticketState: 'OPEN' } }] }),
    400,
    'VALIDATION_ERROR',
  )
})

test('stages: create (201), update, and delete (204) unless tickets sit in them', async () => {
  const stage = await c.ok('POST', `${PIPES}/0/stages`, { label: 'Escalated', displayOrder: 4, metadata: { ticketState: 'OPEN' } }, 201)
  expect((await c.ok('GET', `${PIPES}/0/stages`)).results.map((s: { label: string }) => s.label)).toContain('Escalated')
  expect((await c.ok('PATCH', `${PIPES}/0/stages/${stage.id}`, { label: 'Escalated to L2' })).label).toBe('Escalated to L2')
  await c.ok('DELETE', `${PIPES}/0/stages/${stage.id}`, undefined, 204)
  await expectError(await c.req('GET', `${PIPES}/0/stages/${stage.id}`), 404, 'OBJECT_NOT_FOUND')
  // Seeded ticket 1 sits in stage 1.
  await expectError(await c.req('DELETE', `${PIPES}/0/stages/1`), 400, 'VALIDATION_ERROR')
})

test('a pipeline in use, or the only one, cannot be deleted; an empty extra one can', async () => {
  await expectError(await c.req('DELETE', `${PIPES}/0`), 400, 'VALIDATION_ERROR')
  const created = await c.ok('POST', PIPES, escalations, 201)
  await expectError(await c.req('DELETE', `${PIPES}/0`), 400, 'VALIDATION_ERROR')
  await c.ok('DELETE', `${PIPES}/${created.id}`, undefined, 204)
  await expectError(await c.req('GET', `${PIPES}/${created.id}`), 404, 'OBJECT_NOT_FOUND')
  // Back to one pipeline: hs_pipeline defaults again.
  const made = await c.ok('POST', '/crm/v3/objects/tickets', { properties: { subject: 'Default again', hs_pipeline_stage: '1' } }, 201)
  expect(made.properties.hs_pipeline).toBe('0')
})

describe('audit', () => {
  const PIPES = '/crm/v3/pipelines/tickets'
  const stage = (label: string, displayOrder = 0) => ({ label, displayOrder, metadata: { ticketState: 'OPEN' } })

  test('every change through the API is in the pipeline’s audit, newest first, in the PublicAuditInfo shape', async () => {
    const made = await c.ok('POST', PIPES, { label: 'Audited', displayOrder: 3, stages: [stage('One'), stage('Two', 1)] }, 201)
    await c.ok('PATCH', `${PIPES}/${made.id}`, { label: 'Audited twice' })
    const added = await c.ok('POST', `${PIPES}/${made.id}/stages`, stage('Three', 2), 201)
    const audit = await c.ok('GET', `${PIPES}/${made.id}/audit`)
    expect(audit.results.map((e: { action: string }) => e.action)).toEqual(['UPDATE', 'UPDATE', 'CREATE'])
    expect(audit.results[0]).toEqual({
      identifier: made.id,
      action: 'UPDATE',
      timestamp: expect.any(String),
      portalId: 123456,
      message: expect.stringContaining(made.id),
      rawObject: expect.objectContaining({ id: made.id, label: 'Audited twice' }),
    })
    expect(audit.results[0].rawObject.stages.map((s: { id: string }) => s.id)).toContain(added.id)
    expect(audit.results[2].rawObject).toMatchObject({ label: 'Audited' })
    // A fresh account's pipelines were made by HubSpot: no entries.
    expect((await c.ok('GET', `${PIPES}/0/audit`)).results).toEqual([])
    await expectError(await c.req('GET', `${PIPES}/987654/audit`), 404, 'OBJECT_NOT_FOUND')
  })

  test('a stage’s audit lists its own changes, also those a PUT of the pipeline made; the client’s unfilled {pipelineId} finds the stage', async () => {
    const made = await c.ok('POST', PIPES, { label: 'Staged', displayOrder: 3, stages: [stage('One'), stage('Two', 1)] }, 201)
    const [one, two] = made.stages
    await c.ok('PATCH', `${PIPES}/${made.id}/stages/${one.id}`, { label: 'First' })
    await c.ok('PUT', `${PIPES}/${made.id}`, { label: 'Staged', displayOrder: 3, stages: [{ id: one.id, ...stage('Only') }] })
    const audit = await c.ok('GET', `${PIPES}/${made.id}/stages/${one.id}/audit`)
    expect(audit.results.map((e: { action: string; rawObject: { label: string } }) => [e.action, e.rawObject.label])).toEqual([
      ['UPDATE', 'Only'],
      ['UPDATE', 'First'],
      ['CREATE', 'One'],
    ])
    expect(audit.results.every((e: { identifier: string }) => e.identifier === one.id)).toBe(true)
    expect((await c.ok('GET', `${PIPES}/%7BpipelineId%7D/stages/${one.id}/audit`)).results).toEqual(audit.results)
    await expectError(await c.req('GET', `${PIPES}/${made.id}/stages/${two.id}/audit`), 404, 'OBJECT_NOT_FOUND')
  })

  test('a failed change leaves no audit entry, and the trail survives an export and import', async () => {
    const made = await c.ok('POST', PIPES, { label: 'Kept', displayOrder: 3, stages: [stage('One')] }, 201)
    await expectError(await c.req('PATCH', `${PIPES}/${made.id}`, { label: 'Support Pipeline' }), 409, 'CONFLICT')
    expect((await c.ok('GET', `${PIPES}/${made.id}/audit`)).results).toHaveLength(1)
    const exported = await c.ok('GET', '/_ringside/v1/export')
    // A service that never wrote an audit entry (what a restart loads the saved data into) takes the trail.
    const fresh = client(createTestService())
    await fresh.ok('POST', '/_ringside/v1/import', exported)
    expect((await fresh.ok('GET', `${PIPES}/${made.id}/audit`)).results).toHaveLength(1)
  })
})
