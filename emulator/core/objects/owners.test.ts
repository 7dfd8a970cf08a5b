import { OWNERS } from '../../../shared/crm/account.ts'
import { client, type Client } from './testing.ts'
import { createTestService, expectError, oauthCredential, type TestService } from '../timeline/testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

test('the owners list: the active users of the account, in PublicOwner shape, the signed-in user first', async () => {
  const page = await c.ok('GET', '/crm/v3/owners/')
  expect(page.paging).toBeUndefined()
  expect(page.results.map((o: { id: string }) => o.id)).toEqual(OWNERS.filter((o) => !o.archived).map((o) => o.id))
  expect(page.results[0]).toEqual({
    id: '1',
    email: 'demo.user@demo.local',
    type: 'PERSON',
    firstName: 'Demo',
    lastName: 'User',
    userId: 1,
    userIdIncludingInactive: 1,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    archived: false,
    teams: [{ id: '101', name: 'Support', primary: true }],
  })
})

test('owners page with limit and after, filter by email (any case), and list deactivated users with archived=true', async () => {
  const first = await c.ok('GET', '/crm/v3/owners?limit=2')
  expect(first.results.map((o: { id: string }) => o.id)).toEqual(['1', '2'])
  expect(first.paging.next.after).toBe('2')
  const second = await c.ok('GET', `/crm/v3/owners?limit=2&after=${first.paging.next.after}`)
  expect(second.results.map((o: { id: string }) => o.id)).toEqual(['3'])
  expect(second.paging).toBeUndefined()
  expect((await c.ok('GET', '/crm/v3/owners?email=Alex.Rivera@DEMO.local')).results.map((o: { id: string }) => o.id)).toEqual(['2'])
  expect((await c.ok('GET', '/crm/v3/owners?email=nobody@demo.local')).results).toEqual([])
  const archived = await c.ok('GET', '/crm/v3/owners?archived=true')
  expect(archived.results).toHaveLength(1)
  // A deactivated user has no userId any more, only userIdIncludingInactive.
  expect(archived.results[0]).toMatchObject({ id: '4', archived: true, userIdIncludingInactive: 4 })
  expect(archived.results[0].userId).toBeUndefined()
})

test('one owner by id or by userId; archived ones only with archived=true', async () => {
  expect((await c.ok('GET', '/crm/v3/owners/3')).email).toBe('sam.okoro@demo.local')
  expect((await c.ok('GET', '/crm/v3/owners/3?idProperty=userId')).id).toBe('3')
  await expectError(await c.req('GET', '/crm/v3/owners/4'), 404, 'OBJECT_NOT_FOUND')
  expect((await c.ok('GET', '/crm/v3/owners/4?archived=true')).archived).toBe(true)
  await expectError(await c.req('GET', '/crm/v3/owners/99'), 404, 'OBJECT_NOT_FOUND')
})

test('bad owner requests get the error body', async () => {
  await expectError(await c.req('GET', '/crm/v3/owners?limit=501'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/owners?after=abc'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/owners/1?idProperty=email'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/owners/x1'), 400, 'VALIDATION_ERROR')
})

test('the owners API needs crm.objects.owners.read', async () => {
  const withoutScope = await oauthCredential(api, 'tickets')
  await expectError(await c.req('GET', '/crm/v3/owners', undefined, withoutScope), 403, 'MISSING_SCOPES')
  const withScope = await oauthCredential(api, 'crm.objects.owners.read')
  expect((await c.req('GET', '/crm/v3/owners', undefined, withScope)).status).toBe(200)
})
