import { ALL_SCOPES } from './auth.ts'
import { Database } from '../data/db.ts'
import { toRequest } from '../../testing/fuzz/hostile.ts'
import { validRecipe } from '../../testing/fuzz/valid.ts'
import { Dice } from '../../testing/fuzz/recipe-kit.ts'
import { json } from './http.ts'
import type { Route } from './route.ts'
import { createRouter } from './router.ts'
import { createCrmService } from '../service.ts'
import { expectError, oauthCredential, T0 } from '../../testing/timeline.ts'
import { DATE_VERSIONS, PATH_MAPPINGS, dateVersionedPaths, toRoutePath, unservedDateVersion } from './versions.ts'

describe('the path table', () => {
  test.each([
    ['/crm/objects/2026-03/contacts', '/crm/v3/objects/contacts'],
    ['/crm/objects/2026-09/0-5/12', '/crm/v3/objects/0-5/12'],
    ['/crm/objects/2026-03/contacts/batch/read', '/crm/v3/objects/contacts/batch/read'],
    ['/crm/objects/2026-03/calls/9/associations/contacts', '/crm/v4/objects/calls/9/associations/contacts'],
    ['/crm/objects/2026-03/calls/9/associations/default/contacts/1', '/crm/v4/objects/calls/9/associations/default/contacts/1'],
    ['/crm/associations/2026-03/calls/contacts/batch/create', '/crm/v4/associations/calls/contacts/batch/create'],
    ['/crm/associations/2026-09/calls/contacts/labels', '/crm/v4/associations/calls/contacts/labels'],
    ['/crm/associations/v4/definitions/configurations/all', '/crm/v4/associations/definitions/configurations/all'],
    ['/crm/properties/2026-03/tickets/groups', '/crm/v3/properties/tickets/groups'],
    ['/crm/pipelines/2026-09/tickets/0/stages', '/crm/v3/pipelines/tickets/0/stages'],
    ['/crm/owners/2026-03', '/crm/v3/owners'],
    ['/crm/owners/2026-03/7', '/crm/v3/owners/7'],
    ['/crm/extensions/calling/2026-03/1001/settings/recording', '/crm/v3/extensions/calling/1001/settings/recording'],
    ['/crm/extensions/calling/2026-09/inbound-call', '/crm/v3/extensions/calling/inbound-call'],
    ['/crm-object-schemas/2026-03/schemas', '/crm-object-schemas/v3/schemas'],
    ['/oauth/2026-03/token/introspect', '/oauth/v3/token/introspect'],
    ['/integrators/timeline/v3/1001/event-templates', '/crm/v3/timeline/1001/event-templates'],
  ])('%s is served by %s', (path, legacy) => {
    expect(toRoutePath(path)).toBe(legacy)
  })

  test.each([
    '/crm/v3/objects/contacts',
    '/crm/objects/2025-09/contacts',
    '/crm/objects/2026-09-beta/contacts',
    '/crm/objects/2026-04/contacts',
    '/crm/objects/v3/contacts',
    '/oauth/v1/token',
    '/integrators/timeline/2026-03/events',
    '/account-info/2026-03/details',
    '/crm/objects',
    '/',
  ])('%s is not mapped', (path) => {
    expect(toRoutePath(path)).toBeUndefined()
  })

  test('every date-versioned form maps back to the legacy path, once per served version', () => {
    expect(dateVersionedPaths('/crm/v3/objects/:objectType/:objectId')).toEqual(DATE_VERSIONS.map((v) => `/crm/objects/${v}/:objectType/:objectId`))
    expect(dateVersionedPaths('/crm/v3/owners')).toEqual(DATE_VERSIONS.map((v) => `/crm/owners/${v}`))
    expect(dateVersionedPaths('/crm/v4/objects/:objectType/:objectId/associations/:toObjectType')).toEqual(
      DATE_VERSIONS.map((v) => `/crm/objects/${v}/:objectType/:objectId/associations/:toObjectType`),
    )
    expect(dateVersionedPaths('/crm/v4/associations/:fromObjectType/:toObjectType/labels')).toEqual(
      DATE_VERSIONS.map((v) => `/crm/associations/${v}/:fromObjectType/:toObjectType/labels`),
    )
    expect(dateVersionedPaths('/oauth/v3/token')).toEqual(DATE_VERSIONS.map((v) => `/oauth/${v}/token`))
    expect(dateVersionedPaths('/crm/v3/objects/tickets/7')).toEqual(DATE_VERSIONS.map((v) => `/crm/objects/${v}/tickets/7`))
  })

  test('a legacy endpoint whose date-versioned path means another endpoint has no date-versioned form', () => {
    // /crm/objects/2026-03/{type}/{id}/associations/{toType} is the v4 read, not the v3 one.
    expect(dateVersionedPaths('/crm/v3/objects/:objectType/:objectId/associations/:toObjectType')).toEqual([])
    expect(dateVersionedPaths('/crm/v3/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId/:associationType')).toEqual([])
    expect(dateVersionedPaths('/oauth/v1/token')).toEqual([])
    expect(dateVersionedPaths('/crm/v3/timeline/events')).toEqual([])
    expect(dateVersionedPaths('/_ringside/v1/reset')).toEqual([])
  })

  test('an unpublished version of a date-versioned API is named, other paths are not', () => {
    expect(unservedDateVersion('/crm/objects/2025-01/contacts')).toEqual({ api: '/crm/objects', version: '2025-01' })
    expect(unservedDateVersion('/crm/extensions/calling/2026-09-beta/1001/settings')).toEqual({ api: '/crm/extensions/calling', version: '2026-09-beta' })
    expect(unservedDateVersion('/crm/objects/2026-03/contacts')).toBeUndefined()
    expect(unservedDateVersion('/crm/objects/contacts')).toBeUndefined()
    expect(unservedDateVersion('/crm/v3/nothing')).toBeUndefined()
  })

  test('mappings are well formed: a narrower one before the wider one of the same API, as many * on each side', () => {
    for (const [i, m] of PATH_MAPPINGS.entries()) {
      expect(m.from.split('*').length).toBe(m.to.split('*').length)
      for (const later of PATH_MAPPINGS.slice(i + 1)) expect(later.from.startsWith(m.from + '/'), `${m.from} shadows ${later.from}`).toBe(false)
    }
  })
})

describe('the router serves every route under its date-versioned and alias forms', () => {
  const routes: Route[] = [
    { method: 'GET', path: '/crm/v3/objects/:objectType/:objectId', auth: { kind: 'none' }, handler: (ctx) => json({ route: 'v3 object', params: ctx.params }) },
    { method: 'GET', path: '/crm/v3/objects/:objectType/:objectId/associations/:toObjectType', auth: { kind: 'none' }, handler: () => json({ route: 'v3 associations' }) },
    { method: 'GET', path: '/crm/v4/objects/:objectType/:objectId/associations/:toObjectType', auth: { kind: 'none' }, handler: () => json({ route: 'v4 associations' }) },
    { method: 'POST', path: '/crm/v3/timeline/events', auth: { kind: 'none' }, handler: () => json({ route: 'timeline' }, 201) },
    // A route registered under an alias's own name is served as it is (another module may prefer that name).
    { method: 'GET', path: '/crm/associations/v4/definitions/configurations/all', auth: { kind: 'none' }, handler: () => json({ route: 'direct' }) },
  ]
  const handle = createRouter(routes, { db: new Database(), now: () => 0, newCorrelationId: () => crypto.randomUUID() })
  const get = async (path: string, method = 'GET') => handle(new Request(`http://api.test${path}`, { method, headers: { 'content-type': 'application/json' }, ...(method === 'POST' && { body: '{}' }) }))

  test('a date-versioned path reaches the legacy route with its params', async () => {
    for (const version of DATE_VERSIONS) {
      const response = await get(`/crm/objects/${version}/tickets/7`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ route: 'v3 object', params: { objectType: 'tickets', objectId: '7' } })
    }
  })

  test('the objects API’s association path in a date version is the v4 endpoint', async () => {
    expect(await (await get('/crm/objects/2026-03/calls/1/associations/contacts')).json()).toEqual({ route: 'v4 associations' })
    expect(await (await get('/crm/v3/objects/calls/1/associations/contacts')).json()).toEqual({ route: 'v3 associations' })
  })

  test('the timeline alias still works, and a direct route wins over the mapping', async () => {
    expect((await get('/integrators/timeline/v3/events', 'POST')).status).toBe(201)
    expect(await (await get('/crm/associations/v4/definitions/configurations/all')).json()).toEqual({ route: 'direct' })
  })

  test('a version that does not exist is the API’s 404, naming the versions that do', async () => {
    const response = await get('/crm/objects/2025-01/tickets/7')
    const error = await expectError(response, 404, 'OBJECT_NOT_FOUND')
    expect(error.message).toBe(`No API route matches GET /crm/objects/2025-01/tickets/7: /crm/objects has no version 2025-01; the date versions are ${DATE_VERSIONS.join(', ')}.`)
    expect(response.headers.get('x-hubspot-notfound')).toBe('true')
  })

  test('a wrong method on a date-versioned path is 405 naming the path as sent', async () => {
    const response = await get('/crm/objects/2026-03/tickets/7', 'POST')
    const error = await expectError(response, 405, 'METHOD_NOT_ALLOWED')
    expect(error.message).toContain('/crm/objects/2026-03/tickets/7')
    expect(response.headers.get('allow')).toBe('GET')
  })

  test('an unknown path stays 404 in every form', async () => {
    for (const path of ['/crm/objects/2026-03/tickets/7/nothing', '/crm/v3/nothing', '/account-info/v3/details', '/events/v3/send']) {
      await expectError(await get(path), 404, 'OBJECT_NOT_FOUND')
    }
  })
})


describe('every route of the service under its date-versioned forms', () => {
  /**
   * The same valid request (the route fuzz's recipes, fuzz/valid.ts) to the
   * legacy path and to each date-versioned one, each from the same database:
   * the same status and body. A recipe whose draw did not succeed is drawn
   * again (at most 5 times), so every route is seen succeeding.
   */
  test('answers as its legacy path does', { timeout: 60_000 }, async () => {
    const service = createCrmService({ now: () => T0, rateLimits: false })
    const { bearer } = (await oauthCredential(service, ALL_SCOPES.filter((s) => s !== 'oauth').join(' '))) as { bearer: string }
    const fx = { service, oauthToken: bearer }
    const unreached: string[] = []
    const without: string[] = []
    for (const route of service.routes) {
      const name = `${route.method} ${route.path}`
      if (dateVersionedPaths(route.path).length === 0) {
        without.push(name)
        continue
      }
      let succeeded = false
      for (let draw = 0; draw < 5 && !succeeded; draw++) {
        const spec = await validRecipe(route)(fx, new Dice([3 + draw, 1, 4 + draw, 1, 5, 9 + draw, 2, 6, 5, 3, 5, 8]))
        expect(spec, `no valid request for ${name}`).toBeDefined()
        if (!spec) break
        // Rows are immutable: the ones of this moment, put back before each form without a schema check.
        const before = service.db.rowsNow()
        const legacy = await service.handle(toRequest(spec))
        const legacyBody = comparable(await legacy.text())
        const forms = dateVersionedPaths(spec.path)
        expect(forms, spec.path).toHaveLength(DATE_VERSIONS.length)
        for (const path of forms) {
          service.db.restoreTrusted(before.tables)
          const versioned = await service.handle(toRequest({ ...spec, path }))
          const label = `${spec.method} ${path} (legacy ${spec.path})`
          expect(versioned.status, label).toBe(legacy.status)
          // Links (paging) name the path as the client sent it.
          expect(comparable((await versioned.text()).replaceAll(path, spec.path)), label).toEqual(legacyBody)
        }
        succeeded = legacy.status < 300
      }
      if (!succeeded) unreached.push(name)
    }
    expect(unreached, 'routes never seen succeeding under their date-versioned forms').toEqual([])
    // Those without one: OAuth v1, the timeline, the v3 association endpoints, the schemas API's /crm/v3/schemas
    // alias (its date-versioned form is /crm-object-schemas/<version>) and the emulator's own.
    for (const name of without) expect(name).toMatch(/ \/(oauth\/v1|crm\/v3\/timeline|crm\/v3\/associations|crm\/v3\/schemas|_ringside)(\/|$)|\/crm\/v3\/objects\/[^ ]*\/associations\//)
  })
})

/** A response body with what differs between two identical requests (correlation ids, issued tokens) left out. */
function comparable(text: string): unknown {
  if (text === '') return ''
  const drop = new Set(['correlationId', 'access_token', 'refresh_token', 'id_token'])
  return JSON.parse(text, (key, value: unknown) => (drop.has(key) ? undefined : value))
}
