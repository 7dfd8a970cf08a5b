/**
 * Property-based fuzz of every route the service registers (enumerated from
 * `service.routes`, so routes added later are covered without edits): random
 * and near-valid path parameters, query parameters, credentials and bodies.
 * For every request:
 * - the status is never 5xx;
 * - every 4xx carries the uniform error body (status "error", UUID v4
 *   correlationId, category, message);
 * - a 4xx leaves the database exactly as it was.
 * Fixed seed, so a failure reproduces; the counterexample is printed.
 */
import fc from 'fast-check'
import { ACCOUNT, ALL_SCOPES } from './auth.ts'
import { ASSOCIATION_TYPES } from './objects/association-types.ts'
import { OBJECT_TYPE_NAMES, parseObjectType, type ObjectType } from './objects/object-types.ts'
import { propertyDefinitions, type PropertyDefinition } from './objects/properties.ts'
import { DEFAULT_PIPELINES } from './objects/pipelines.ts'
import type { Route } from './router.ts'
import { createCrmService, type CrmService } from './service.ts'
import { oauthCredential, UUID_V4, type Credential } from './timeline/testing.ts'

const SEED = 20_261_122
/** Runs per route; routes reached by an object type id (/objects/0-5/...) repeat another route's handler and get fewer. */
const RUNS = 50
const ALIAS_RUNS = 10

const PROPERTY_NAMES = [...new Set(OBJECT_TYPE_NAMES.flatMap((t) => propertyDefinitions(t).map((p) => p.name)))]

const text = fc.string({ unit: 'grapheme', maxLength: 24 })

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1', '2', '3', '9', '1001', '0', '999999', '16', '219', 'contacts', 'tickets', 'calls', '0-1', '0-5', 'ticket_to_contact', 'default', 'subject', 'email', 'maria.garcia@northwind.example') },
  { weight: 2, arbitrary: fc.stringMatching(/^-?\d{1,22}$/) },
  { weight: 2, arbitrary: text.filter((s) => s.length > 0) },
  { weight: 1, arbitrary: fc.constantFrom('..', '%', '%00', '__proto__', 'constructor', 'toString', ' ', 'a/b', 'x'.repeat(300)) },
)

const QUERY_NAMES = [
  'limit',
  'after',
  'archived',
  'properties',
  'propertiesWithHistory',
  'associations',
  'idProperty',
  'detail',
  'hapikey',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'objectType',
  'objectId',
]
const queryValue = fc.oneof(
  fc.constantFrom('true', 'false', '1', '10', '100', '101', '0', '-1', '1e3', 'email', 'subject,hs_pipeline', 'contacts,companies', 'tickets', '', 'dev-key-local'),
  text,
)
const query = fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: text }), queryValue), { maxLength: 4 })

const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('1', '2', 'HIGH', 'URGENT', '0', '4', 'INBOUND', 'https://x.example/a', 'javascript:alert(1)', '2026-01-01T00:00:00Z'))
const propertyName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PROPERTY_NAMES) }, { weight: 1, arbitrary: text })
const properties = fc.dictionary(propertyName, scalar, { maxKeys: 6 })
const id = fc.oneof(segment, fc.integer())
const associationSpec = fc.record({
  associationCategory: fc.constantFrom('HUBSPOT_DEFINED', 'USER_DEFINED', 'nope'),
  associationTypeId: fc.oneof(fc.constantFrom(1, 15, 16, 26, 193, 194, 219, 220, 279, 339), fc.integer()),
})
const association = fc.record({ to: fc.record({ id }), types: fc.array(associationSpec, { maxLength: 3 }) })
const filter = fc.record(
  {
    propertyName,
    operator: fc.constantFrom('EQ', 'NEQ', 'LT', 'GT', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'CONTAINS_TOKEN', 'LIKE'),
    value: scalar,
    highValue: scalar,
    values: fc.array(scalar, { maxLength: 4 }),
  },
  { requiredKeys: ['propertyName', 'operator'] },
)
const tokenDefinition = fc.record(
  {
    name: fc.oneof(fc.constantFrom('caller', 'duration', 'log', 'lookup', 'when'), text),
    label: text,
    type: fc.constantFrom('string', 'number', 'enumeration', 'date', 'boolean'),
    options: fc.array(fc.record({ value: text, label: text }), { maxLength: 3 }),
    objectPropertyName: propertyName,
  },
  { requiredKeys: [] },
)

/** Bodies shaped like the real ones, with every key optional and values sometimes wrong. */
const nearValidBody = fc.record(
  {
    properties,
    associations: fc.array(association, { maxLength: 3 }),
    inputs: fc.array(fc.record({ id, properties, idProperty: fc.constantFrom('email', 'hs_object_id', 'firstname') }, { requiredKeys: [] }), { maxLength: 4 }),
    idProperty: fc.constantFrom('email', 'hs_object_id', 'firstname', 'nope'),
    propertiesWithHistory: fc.array(propertyName, { maxLength: 3 }),
    filterGroups: fc.array(fc.record({ filters: fc.array(filter, { maxLength: 4 }) }), { maxLength: 3 }),
    sorts: fc.array(fc.oneof(propertyName, fc.record({ propertyName, direction: fc.constantFrom('ASCENDING', 'DESCENDING', 'UP') })), { maxLength: 2 }),
    query: text,
    limit: fc.oneof(fc.integer({ min: -2, max: 300 }), text),
    after: fc.oneof(fc.integer(), text),
    name: text,
    url: fc.oneof(fc.constantFrom('https://widget.example/', 'http://127.0.0.1:5174/', 'ftp://x', 'javascript:alert(1)'), text),
    width: fc.oneof(fc.integer({ min: -2, max: 20_000 }), fc.double()),
    height: fc.oneof(fc.integer({ min: -2, max: 20_000 }), fc.double()),
    isReady: fc.oneof(fc.boolean(), text),
    supportsInboundCalling: fc.boolean(),
    objectType: fc.constantFrom('contacts', 'companies', 'deals', 'tickets', 'COMPANY', 'x'),
    headerTemplate: fc.oneof(text, fc.constantFrom('{{caller}} called', '{{#each extraData}}{{/each}}', '{{', '<script>alert(1)</script>')),
    detailTemplate: fc.oneof(text, fc.constantFrom('**{{duration}}** {{#formatDate timestamp}}{{/formatDate}}', '{{> partial}}', '{{constructor.constructor}}')),
    tokens: fc.oneof(fc.array(tokenDefinition, { maxLength: 3 }), fc.dictionary(text, scalar, { maxKeys: 3 })),
    eventTemplateId: fc.oneof(fc.constantFrom('1', '2', '1001'), text),
    email: fc.oneof(fc.constantFrom('maria.garcia@northwind.example', 'new@example.com', 'not-an-email'), text),
    objectId: id,
    utk: text,
    timestamp: fc.oneof(fc.integer(), text, fc.constant('2026-01-01T00:00:00Z')),
    extraData: fc.jsonValue({ maxDepth: 2 }),
    timelineIFrame: fc.record({ linkLabel: text, headerLabel: text, url: text, width: fc.integer(), height: fc.integer() }, { requiredKeys: [] }),
    decision: fc.constantFrom('grant', 'deny', 'maybe'),
    client_id: fc.constantFrom(ACCOUNT.clientId, 'other'),
    redirect_uri: fc.constantFrom('https://app.example/callback', 'javascript:x', ''),
    scope: fc.constantFrom('timeline tickets', 'tickets', 'nope', ''),
    format: fc.constantFrom('ringside-crm-db', 'other'),
    version: fc.constantFrom(1, 2),
    tables: fc.dictionary(fc.constantFrom('crm_contacts', 'crm_tickets', 'nope'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 2 }),
  },
  { requiredKeys: [] },
)


/** A value the property accepts (most of the time), so writes get past validation and reach the rules. */
function validValue(type: ObjectType, def: PropertyDefinition): fc.Arbitrary<unknown> {
  const stages = DEFAULT_PIPELINES.flatMap((p) => p.stages.map((s) => s.id))
  switch (def.name) {
    case 'email':
      return fc.stringMatching(/^[a-z]{1,8}$/).map((local) => `${local}@fuzz.example`)
    case 'hs_pipeline':
      return fc.constantFrom('0', '0', '1')
    case 'pipeline':
      return fc.constant('default')
    case 'hs_pipeline_stage':
    case 'dealstage':
      return fc.constantFrom(...stages)
    case 'hs_pinned_engagement_id':
      return fc.constantFrom('1', '2', 1)
    case 'hubspot_owner_id':
      return fc.constant('1')
    case 'hs_call_recording_url':
      return fc.constantFrom('https://rec.example/1.mp3', 'http://127.0.0.1/r.wav')
  }
  switch (def.type) {
    case 'enumeration':
      return def.options.length > 0 ? fc.constantFrom(...def.options.map((o) => o.value)) : text
    case 'number':
      return fc.oneof(fc.integer({ min: 0, max: 1e9 }), fc.integer().map(String))
    case 'datetime':
    case 'date':
      return fc.oneof(fc.constant('2026-01-01T10:00:00Z'), fc.integer({ min: 0, max: 4e12 }))
    case 'bool':
      return fc.boolean()
    case 'phone_number':
      return fc.integer({ min: 0, max: 99 }).map((n) => `+1 617 555 01${String(n).padStart(2, '0')}`)
    default:
      return text
  }
}

/** Properties of the route's object type, mostly valid. */
function propertiesFor(type: ObjectType | undefined): fc.Arbitrary<Record<string, unknown>> {
  if (!type) return properties
  const writable = propertyDefinitions(type).filter((d) => !d.modificationMetadata.readOnlyValue)
  const entry = fc.constantFrom(...writable).chain((def) => validValue(type, def).map((value) => [def.name, value] as const))
  const valid = fc.array(entry, { maxLength: 5 }).map((entries) => Object.fromEntries(entries))
  const required = type === 'tickets' ? valid.map((p) => ({ subject: 'Fuzz', hs_pipeline_stage: '2', ...p })) : valid
  return fc.oneof({ weight: 3, arbitrary: required }, { weight: 2, arbitrary: valid }, { weight: 1, arbitrary: properties })
}

function associationsFor(type: ObjectType | undefined): fc.Arbitrary<unknown[]> {
  const ids = ASSOCIATION_TYPES.filter((t) => t.from === type).map((t) => t.typeId)
  if (ids.length === 0) return fc.array(association, { maxLength: 2 })
  const valid = fc.record({
    to: fc.record({ id: fc.constantFrom('1', '2', '3') }),
    types: fc.array(fc.record({ associationCategory: fc.constant('HUBSPOT_DEFINED'), associationTypeId: fc.constantFrom(...ids) }), { minLength: 1, maxLength: 2 }),
  })
  return fc.array(fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: association }), { maxLength: 3 })
}

/** The object type a route is about (/objects/{type}, /properties/{type}, /pipelines/{type}), if any. */
function objectTypeOf(route: Route): ObjectType | undefined {
  const match = /\/(?:objects|properties|pipelines)\/([^/]+)/.exec(route.path)
  return match ? parseObjectType(match[1]!) : undefined
}

/** Bodies for a route: near-valid for its object type, or anything. */
function bodyFor(route: Route): fc.Arbitrary<Body> {
  const type = objectTypeOf(route)
  const props = propertiesFor(type)
  const ids = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('1', '2', '3', '4') }, { weight: 1, arbitrary: id })
  const objectBody = fc.record(
    {
      properties: props,
      associations: associationsFor(type),
      inputs: fc.array(fc.record({ id: ids, properties: props, associations: associationsFor(type) }, { requiredKeys: ['id', 'properties'] }), { maxLength: 4 }),
      propertiesWithHistory: fc.array(propertyName, { maxLength: 3 }),
      filterGroups: fc.array(fc.record({ filters: fc.array(filter, { maxLength: 4 }) }), { maxLength: 3 }),
      limit: fc.integer({ min: 0, max: 210 }),
    },
    // properties is in nearly every object write; inputs in every batch.
    { requiredKeys: ['properties', 'inputs'] },
  )
  const typed: fc.Arbitrary<Body> = objectBody.map((value) => ({ kind: 'json', value }))
  return type ? fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: body }) : body
}

/** Path parameters: mostly ids that exist for id-like parameters. */
function paramsFor(route: Route): fc.Arbitrary<string[]> {
  const names = route.path.split('/').filter((p) => p.startsWith(':'))
  const likely: Record<string, fc.Arbitrary<string>> = {
    ':objectId': fc.constantFrom('1', '2', '3', '4'),
    ':toObjectId': fc.constantFrom('1', '2', '3'),
    ':toObjectType': fc.constantFrom(...OBJECT_TYPE_NAMES),
    ':associationTypeId': fc.constantFrom(...new Set(ASSOCIATION_TYPES.map((t) => String(t.typeId)))),
    ':appId': fc.constant(String(ACCOUNT.appId)),
  }
  return fc.tuple(...names.map((name) => (likely[name] ? fc.oneof({ weight: 3, arbitrary: likely[name]! }, { weight: 1, arbitrary: segment }) : segment)))
}

const FORM_FIELDS = ['grant_type', 'client_id', 'client_secret', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope']
const formBody = fc.dictionary(
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FORM_FIELDS) }, { weight: 1, arbitrary: text }),
  fc.oneof(fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', ACCOUNT.clientId, ACCOUNT.clientSecret, 'https://app.example/callback', 'timeline'), text),
  { maxKeys: 6 },
)

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, string> }
  | { kind: 'raw'; text: string; type: string }

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  { weight: 6, arbitrary: nearValidBody.map((value): Body => ({ kind: 'json', value })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): Body => ({ kind: 'json', value })) },
  { weight: 2, arbitrary: formBody.map((value): Body => ({ kind: 'form', value })) },
  {
    weight: 1,
    arbitrary: fc.record({ text: fc.oneof(text, fc.constantFrom('{"properties":', '[1,2', 'null', '{}')), type: fc.constantFrom('application/json', 'text/plain', '') }).map(
      ({ text, type }): Body => ({ kind: 'raw', text, type }),
    ),
  },
)

const CREDENTIAL_KINDS = ['route', 'private-app', 'developer', 'oauth', 'none', 'garbage'] as const
const credentialKind = fc.oneof({ weight: 6, arbitrary: fc.constant('route' as const) }, { weight: 1, arbitrary: fc.constantFrom(...CREDENTIAL_KINDS) })

interface Fixture {
  service: CrmService
  oauth: Credential
}

async function fixture(): Promise<Fixture> {
  const service = createCrmService({ now: () => Date.UTC(2026, 0, 15, 12) })
  // An OAuth token with every scope, so oauth-only routes are reached too.
  const oauth = await oauthCredential(service, ALL_SCOPES.filter((s) => s !== 'oauth').join(' '))
  return { service, oauth }
}

function credentialFor(route: Route, kind: (typeof CREDENTIAL_KINDS)[number], oauth: Credential): Credential {
  const chosen =
    kind === 'route'
      ? route.auth.kind === 'developer'
        ? 'developer'
        : route.auth.kind === 'bearer'
          ? route.auth.oauthOnly
            ? 'oauth'
            : 'private-app'
          : 'none'
      : kind
  switch (chosen) {
    case 'private-app':
      return { bearer: ACCOUNT.privateAppToken }
    case 'developer':
      return { hapikey: ACCOUNT.developerApiKey }
    case 'oauth':
      return oauth
    case 'garbage':
      return { bearer: 'not-a-token' }
    default:
      return 'none'
  }
}

function buildRequest(route: Route, params: string[], queryPairs: Array<[string, string]>, credential: Credential, payload: Body): Request {
  let index = 0
  const path = route.path
    .split('/')
    .map((part) => (part.startsWith(':') ? encodeURIComponent(params[index++] ?? '1') : part))
    .join('/')
  const url = new URL(path, 'http://api.test')
  for (const [name, value] of queryPairs) url.searchParams.append(name, value)
  const headers = new Headers()
  if (credential !== 'none' && 'hapikey' in credential) url.searchParams.set('hapikey', credential.hapikey)
  if (credential !== 'none' && 'bearer' in credential) headers.set('authorization', `Bearer ${credential.bearer}`)
  let text: string | undefined
  if (payload.kind === 'json') {
    headers.set('content-type', 'application/json')
    text = JSON.stringify(payload.value)
  } else if (payload.kind === 'form') {
    headers.set('content-type', 'application/x-www-form-urlencoded')
    text = new URLSearchParams(payload.value).toString()
  } else if (payload.kind === 'raw') {
    if (payload.type) headers.set('content-type', payload.type)
    text = payload.text
  }
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE' && text !== undefined
  return new Request(url, { method: route.method, headers, ...(hasBody && { body: text }) })
}

async function checkResponse(service: CrmService, request: Request, before: string): Promise<void> {
  const label = `${request.method} ${request.url}`
  const response = await service.handle(request)
  const raw = await response.text()
  expect(response.status, `${label} → ${raw.slice(0, 500)}`).toBeLessThan(500)
  if (response.status < 400) return
  const error = JSON.parse(raw) as Record<string, unknown>
  expect(error.status, label).toBe('error')
  expect(error.correlationId, label).toMatch(UUID_V4)
  expect(typeof error.category, label).toBe('string')
  expect(typeof error.message, label).toBe('string')
  expect(JSON.stringify(service.db.snapshot().tables), `${label}: a failed request changed the database`).toBe(before)
}

const routeList = createCrmService({ seed: false }).routes
const cases = routeList.map((route) => [`${route.method} ${route.path}`, route] as const)

test('the fuzz covers every registered route', () => {
  expect(cases.length).toBe(routeList.length)
  expect(cases.length).toBeGreaterThan(100)
})

test.each(cases)('%s: no 5xx, an error body on every 4xx, and a failed request changes nothing', async (_name, route) => {
  const { service, oauth } = await fixture()
  const served = service.routes.find((r) => r.method === route.method && r.path === route.path) as Route
  const alias = /\/objects\/0-\d+|\/properties\/0-\d+|\/pipelines\/0-\d+/.test(route.path)
  await fc.assert(
    fc.asyncProperty(paramsFor(route), query, credentialKind, bodyFor(route), async (params, queryPairs, kind, payload) => {
      const before = JSON.stringify(service.db.snapshot().tables)
      await checkResponse(service, buildRequest(served, params, queryPairs, credentialFor(served, kind, oauth), payload), before)
    }),
    { seed: SEED, numRuns: alias ? ALIAS_RUNS : RUNS },
  )
})
