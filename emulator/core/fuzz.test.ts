/**
 * Property-based fuzz of every route the service registers (enumerated from
 * `service.routes`, so routes added later are covered without edits). Each
 * route gets three kinds of request:
 * - valid ones (fuzz/valid.ts): the credential and scopes the route needs,
 *   ids that exist, values that pass; they should mostly succeed, and every
 *   2xx body must have the real API's shape;
 * - random and near-valid ones: path parameters, queries, credentials and
 *   bodies that are sometimes right and often wrong;
 * - hostile ones (fuzz/hostile.ts): deep nesting, wildcard and regex runs,
 *   prototype keys, bad percent-encoding, huge numbers, duplicate ids.
 * For every request: never a 5xx; an error body on every 4xx (UUID v4
 * correlationId, category, message); a failed request leaves the database
 * exactly as it was; and the time it took is recorded. The output lists,
 * per route, how many requests succeeded and the slowest one, and the
 * slowest request of the whole run (a figure to read, not an assertion:
 * timing belongs to `npm run bench`). Fixed seed, so a failure reproduces;
 * the counterexample is printed.
 */
import fc from 'fast-check'
import { z } from 'zod'
import { ACCOUNT, ALL_SCOPES } from './http/auth.ts'
import { hostileSpec, toRequest, type RequestSpec } from '../testing/fuzz/hostile.ts'
import { dice, validRecipe } from '../testing/fuzz/valid.ts'
import type { Fixture } from '../testing/fuzz/recipe-kit.ts'
import { ASSOCIATION_TYPES } from '../../shared/crm/association-types.ts'
import { OBJECT_TYPE_NAMES, parseObjectType, type ObjectType } from './objects/object-types.ts'
import { propertyDefinitions, type PropertyDefinition } from './objects/properties.ts'
import { DEFAULT_PIPELINES } from './objects/pipelines.ts'
import { Database } from './data/db.ts'
import type { TableColumns } from './data/snapshot-format.ts'
import type { Route } from './http/route.ts'
import { createCrmService, type CrmService } from './service.ts'
import { fakeVendor } from '../testing/calling-vendor.ts'
import { oauthCredential, UUID_V4, type Credential } from '../testing/timeline.ts'

const SEED = 20_261_123
/** Runs per route; routes reached by an object type id (/objects/0-5/...) repeat another route's handler and get fewer. */
const RUNS = 28
const ALIAS_RUNS = 6

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

/**
 * The database's rows: what a failed request must leave unchanged. Serializing every table before and
 * after each request was most of the fuzz's cost, so the rows are compared by identity instead, which is
 * no weaker: the database stores rows as immutable values (a write stores a new row, and its undo puts
 * the old one back), and every row is deep-frozen here the first time it is seen, so a request that
 * changed a stored row in place would throw (and answer 5xx, which fails the run) instead of slipping
 * past the comparison. A row that was replaced counts as unchanged only if its JSON is the same.
 */
class DatabaseRows {
  #db: CrmService['db']
  #frozen = new WeakSet<object>()
  constructor(db: CrmService['db']) {
    this.#db = db
  }
  now(): TableColumns[] {
    const tables = this.#db.rowsNow().tables
    for (const table of tables) for (const row of table.rows) this.#freeze(row)
    return tables
  }
  /** The tables' text, for the message when `same` says no. */
  static text(tables: TableColumns[]): string {
    return JSON.stringify(tables, null, 1)
  }
  static same(before: TableColumns[], after: TableColumns[]): boolean {
    if (before.length !== after.length) return false
    return before.every((table, t) => {
      const other = after[t] as TableColumns
      if (table.name !== other.name || table.ids.length !== other.ids.length) return false
      return table.ids.every(
        (id, i) => id === other.ids[i] && (table.rows[i] === other.rows[i] || JSON.stringify(table.rows[i]) === JSON.stringify(other.rows[i])),
      )
    })
  }
  #freeze(value: unknown): void {
    if (typeof value !== 'object' || value === null || this.#frozen.has(value)) return
    this.#frozen.add(value)
    for (const inner of Object.values(value)) this.#freeze(inner)
    Object.freeze(value)
  }
}

interface FuzzFixture extends Fixture {
  rows: DatabaseRows
}

async function fixture(): Promise<FuzzFixture> {
  // Rate limits are off here (they have their own tests): the fuzz sends hundreds of requests in one instant.
  const service = createCrmService({ now: () => Date.UTC(2026, 0, 15, 12), rateLimits: false, outboundFetch: fakeVendor().fetch })
  // An OAuth token with every scope, so oauth-only routes are reached too.
  const oauth = (await oauthCredential(service, ALL_SCOPES.filter((s) => s !== 'oauth').join(' '))) as { bearer: string }
  return { service, oauthToken: oauth.bearer, rows: new DatabaseRows(service.db) }
}

function credentialFor(route: Route, kind: (typeof CREDENTIAL_KINDS)[number], oauthToken: string): Credential {
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
      return { bearer: oauthToken }
    case 'garbage':
      return { bearer: 'not-a-token' }
    default:
      return 'none'
  }
}

/** The credential a route needs, as headers and query pairs. */
function routeCredential(route: Route, oauthToken: string): { headers?: Record<string, string>; query?: Array<[string, string]> } {
  const credential = credentialFor(route, 'route', oauthToken)
  if (credential === 'none') return {}
  if ('hapikey' in credential) return { query: [['hapikey', credential.hapikey]] }
  return { headers: { authorization: `Bearer ${credential.bearer}` } }
}

function randomSpec(route: Route, params: string[], queryPairs: Array<[string, string]>, credential: Credential, payload: Body): RequestSpec {
  let index = 0
  const path = route.path
    .split('/')
    .map((part) => (part.startsWith(':') ? encodeURIComponent(params[index++] ?? '1') : part))
    .join('/')
  const query = [...queryPairs]
  const headers: Record<string, string> = {}
  if (credential !== 'none' && 'hapikey' in credential) query.push(['hapikey', credential.hapikey])
  if (credential !== 'none' && 'bearer' in credential) headers.authorization = `Bearer ${credential.bearer}`
  let body: RequestSpec['body']
  if (payload.kind === 'json') body = { text: JSON.stringify(payload.value), type: 'application/json' }
  else if (payload.kind === 'form') body = { text: new URLSearchParams(payload.value).toString(), type: 'application/x-www-form-urlencoded' }
  else if (payload.kind === 'raw') body = { text: payload.text, type: payload.type }
  return { method: route.method, path, query, headers, ...(body && { body }) }
}

// ------------------------------------------------------------ 2xx shapes

const iso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/)
const recordId = z.string().regex(/^[1-9]\d*$/)
const history = z.array(z.object({ value: z.string(), timestamp: iso, sourceType: z.string() }))
const simpleObject = z.strictObject({
  id: recordId,
  properties: z.record(z.string(), z.string()),
  propertiesWithHistory: z.record(z.string(), history).optional(),
  associations: z.record(z.string(), z.object({ results: z.array(z.object({ id: recordId, type: z.string() })) })).optional(),
  createdAt: iso,
  updatedAt: iso,
  archived: z.boolean(),
  archivedAt: iso.optional(),
})
const paging = z.object({ next: z.object({ after: z.string().min(1), link: z.string().optional() }) }).optional()
const standardError = z.object({ status: z.literal('error'), category: z.string(), message: z.string(), context: z.record(z.string(), z.array(z.string())) })
const batch = (result: z.ZodType) =>
  z.strictObject({
    status: z.literal('COMPLETE'),
    results: z.array(result),
    startedAt: iso,
    completedAt: iso,
    numErrors: z.number().int().positive().optional(),
    errors: z.array(standardError).optional(),
    requestedAt: iso.optional(),
  })
const v4Pair = z.strictObject({ fromObjectTypeId: z.string(), fromObjectId: z.number().int(), toObjectTypeId: z.string(), toObjectId: z.number().int(), labels: z.array(z.string()) })
const labelled = z.strictObject({ category: z.literal('HUBSPOT_DEFINED'), typeId: z.number().int(), label: z.string().nullable() })
const v4Associated = z.strictObject({ toObjectId: z.number().int(), associationTypes: z.array(labelled) })
const v4Default = z.strictObject({ from: z.object({ id: recordId }), to: z.object({ id: recordId }), associationSpec: z.object({ associationCategory: z.string(), associationTypeId: z.number().int() }) })
const property = z.object({
  name: z.string().min(1),
  label: z.string(),
  type: z.string(),
  fieldType: z.string(),
  groupName: z.string(),
  description: z.string(),
  options: z.array(z.object({ label: z.string(), value: z.string(), hidden: z.boolean(), displayOrder: z.number() })),
  displayOrder: z.number(),
  hasUniqueValue: z.boolean(),
  hidden: z.boolean(),
  formField: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
  archived: z.boolean(),
  modificationMetadata: z.object({ archivable: z.boolean(), readOnlyDefinition: z.boolean(), readOnlyValue: z.boolean() }),
})
const group = z.strictObject({ name: z.string(), label: z.string(), displayOrder: z.number().int(), archived: z.boolean() })
const stage = z.strictObject({ id: z.string().min(1), label: z.string(), displayOrder: z.number().int(), metadata: z.record(z.string(), z.string()), createdAt: iso, updatedAt: iso, archived: z.boolean(), writePermissions: z.string() })
const pipeline = z.strictObject({ id: z.string().min(1), label: z.string(), displayOrder: z.number().int(), stages: z.array(stage), createdAt: iso, updatedAt: iso, archived: z.boolean() })
const tokenResponse = z.object({ access_token: z.string().min(1), refresh_token: z.string().min(1), expires_in: z.number().int().positive(), token_type: z.literal('bearer') })
const anyObject = z.record(z.string(), z.unknown())
const associationDefinition = z.strictObject({ id: recordId, fromObjectTypeId: z.string(), toObjectTypeId: z.string(), name: z.string(), createdAt: iso, updatedAt: iso })
const objectSchema = z.strictObject({
  id: recordId,
  objectTypeId: z.string().regex(/^2-\d+$/),
  name: z.string(),
  fullyQualifiedName: z.string().regex(/^p\d+_\w+$/),
  labels: z.strictObject({ singular: z.string(), plural: z.string() }),
  description: z.string().optional(),
  requiredProperties: z.array(z.string()),
  searchableProperties: z.array(z.string()),
  primaryDisplayProperty: z.string().optional(),
  secondaryDisplayProperties: z.array(z.string()),
  properties: z.array(property),
  associations: z.array(associationDefinition),
  createdAt: iso,
  updatedAt: iso,
  archived: z.boolean(),
})
const owner = z.strictObject({
  id: recordId,
  email: z.string(),
  type: z.enum(['PERSON', 'QUEUE']),
  firstName: z.string(),
  lastName: z.string(),
  userId: z.number().int().optional(),
  userIdIncludingInactive: z.number().int(),
  createdAt: iso,
  updatedAt: iso,
  archived: z.boolean(),
  teams: z.array(z.strictObject({ id: z.string(), name: z.string(), primary: z.boolean() })),
})

/** The real API's shapes of 2xx bodies, by method and path with the object type as `{type}`. */
const SHAPES: Record<string, z.ZodType> = {
  'POST /crm/v3/objects/{type}': simpleObject,
  'GET /crm/v3/objects/{type}': z.strictObject({ results: z.array(simpleObject), paging }),
  'GET /crm/v3/objects/{type}/:objectId': simpleObject,
  'PATCH /crm/v3/objects/{type}/:objectId': simpleObject,
  'POST /crm/v3/objects/{type}/:objectId/restore': simpleObject,
  'POST /crm/v3/objects/{type}/batch/read': batch(simpleObject),
  'POST /crm/v3/objects/{type}/batch/create': batch(simpleObject),
  'POST /crm/v3/objects/{type}/batch/update': batch(simpleObject),
  'POST /crm/v3/objects/{type}/batch/upsert': batch(simpleObject.extend({ new: z.boolean() })),
  'POST /crm/v3/objects/{type}/search': z.strictObject({ total: z.number().int().nonnegative(), results: z.array(simpleObject), paging }),
  'GET /crm/v3/objects/{type}/:objectId/associations/:toObjectType': z.strictObject({ results: z.array(z.object({ id: recordId, type: z.string() })) }),
  'PUT /crm/v3/objects/{type}/:objectId/associations/:toObjectType/:toObjectId/:associationTypeId': simpleObject,
  'PUT /crm/v4/objects/{type}/:objectId/associations/:toObjectType/:toObjectId': v4Pair,
  'PUT /crm/v4/objects/{type}/:objectId/associations/default/:toObjectType/:toObjectId': batch(v4Default),
  'GET /crm/v4/objects/{type}/:objectId/associations/:toObjectType': z.strictObject({ results: z.array(v4Associated), paging }),
  'POST /crm/v4/associations/{type}/:toObjectType/batch/create': batch(v4Pair),
  'POST /crm/v4/associations/{type}/:toObjectType/batch/associate/default': batch(v4Default),
  'POST /crm/v4/associations/{type}/:toObjectType/batch/read': batch(z.strictObject({ from: z.object({ id: recordId }), to: z.array(v4Associated), paging })),
  'GET /crm/v4/associations/:fromObjectType/:toObjectType/labels': z.strictObject({ results: z.array(labelled) }),
  'GET /crm/v3/properties/{type}': z.strictObject({ results: z.array(property) }),
  'GET /crm/v3/properties/{type}/:propertyName': property,
  'POST /crm/v3/properties/{type}': property,
  'PATCH /crm/v3/properties/{type}/:propertyName': property,
  'GET /crm/v3/properties/{type}/groups': z.strictObject({ results: z.array(group) }),
  'POST /crm/v3/properties/{type}/groups': group,
  'GET /crm/v3/properties/{type}/groups/:groupName': group,
  'PATCH /crm/v3/properties/{type}/groups/:groupName': group,
  'GET /crm/v3/pipelines/{type}': z.strictObject({ results: z.array(pipeline) }),
  'POST /crm/v3/pipelines/{type}': pipeline,
  'GET /crm/v3/pipelines/{type}/:pipelineId': pipeline,
  'PUT /crm/v3/pipelines/{type}/:pipelineId': pipeline,
  'PATCH /crm/v3/pipelines/{type}/:pipelineId': pipeline,
  'GET /crm/v3/pipelines/{type}/:pipelineId/stages': z.strictObject({ results: z.array(stage) }),
  'POST /crm/v3/pipelines/{type}/:pipelineId/stages': stage,
  'GET /crm/v3/pipelines/{type}/:pipelineId/stages/:stageId': stage,
  'PUT /crm/v3/pipelines/{type}/:pipelineId/stages/:stageId': stage,
  'PATCH /crm/v3/pipelines/{type}/:pipelineId/stages/:stageId': stage,
  'POST /crm/v3/objects/{type}/merge': simpleObject,
  'GET /crm/v3/schemas': z.strictObject({ results: z.array(objectSchema) }),
  'POST /crm/v3/schemas': objectSchema,
  'POST /crm/v3/schemas/batch/read': z.strictObject({ results: z.array(objectSchema) }),
  'GET /crm/v3/schemas/:objectType': objectSchema,
  'PATCH /crm/v3/schemas/:objectType': objectSchema.omit({ properties: true, associations: true }).extend({ portalId: z.number().int() }),
  'POST /crm/v3/schemas/:objectType/associations': associationDefinition,
  'GET /crm/v3/owners': z.strictObject({ results: z.array(owner), paging }),
  'GET /crm/v3/owners/:ownerId': owner,
  'POST /oauth/v1/token': tokenResponse,
  'POST /oauth/v3/token': tokenResponse,
  'POST /oauth/v3/token/introspect': z.union([
    z.object({ token_use: z.literal('access_token'), active: z.literal(true), token: z.string(), expires_in: z.number().int(), hub_id: z.number().int(), app_id: z.number().int(), client_id: z.string(), scopes: z.array(z.string()), signed_access_token: anyObject }),
    z.object({ token_use: z.literal('refresh_token'), active: z.literal(true), token: z.string(), hub_id: z.number().int(), app_id: z.number().int(), client_id: z.string(), scopes: z.array(z.string()) }),
    z.strictObject({ active: z.literal(false) }),
  ]),
  'POST /oauth/v3/token/revoke': z.undefined(),
}

/** The real API's shape of a route's 2xx body (JSON object when not listed). */
function shapeOf(route: Route): z.ZodType {
  const p = route.path.replace(/\/(contacts|companies|deals|tickets|calls|tasks|notes|0-\d+|:objectType)(?=\/|$)/, '/{type}').replace(/^\/crm-object-schemas\/v3\//, '/crm/v3/')
  return SHAPES[`${route.method} ${p}`] ?? anyObject
}

// ------------------------------------------------------------ the run

interface RouteStats {
  runs: number
  ok: number
  worstMs: number
}
const stats = new Map<string, RouteStats>()
let worst = { ms: 0, label: '' }

async function checkResponse(fx: FuzzFixture, route: Route, spec: RequestSpec): Promise<void> {
  const name = `${route.method} ${route.path}`
  const request = toRequest(spec)
  const label = `${request.method} ${request.url.slice(0, 300)}`
  const before = fx.rows.now()
  const started = performance.now()
  const response = await fx.service.handle(request)
  const raw = await response.text()
  const elapsed = performance.now() - started
  const s = stats.get(name) ?? { runs: 0, ok: 0, worstMs: 0 }
  s.runs++
  s.worstMs = Math.max(s.worstMs, elapsed)
  if (elapsed > worst.ms) worst = { ms: elapsed, label: `${label} (body ${spec.body?.text.length ?? 0} chars)` }
  stats.set(name, s)

  // Each `expect` runs only when its condition fails (its message is built then too): the same checks, without
  // Vitest's cost per assertion over 12,000 requests.
  if (!(response.status < 500)) expect(response.status, `${label} → ${raw.slice(0, 500)}`).toBeLessThan(500)
  if (response.status < 400) {
    s.ok++
    const type = response.headers.get('content-type') ?? ''
    // Pages (text/html), redirects, and a call recording's bytes (audio) have no JSON shape.
    if (response.status === 204 || type.startsWith('text/html') || type.startsWith('audio/') || response.status === 302) return
    const parsed = shapeOf(route).safeParse(raw === '' ? undefined : JSON.parse(raw))
    if (!parsed.success) expect(parsed.success, `${label}: the 2xx body does not have the real shape: ${parsed.error?.message ?? ''}\n${raw.slice(0, 500)}`).toBe(true)
    return
  }
  const error = JSON.parse(raw) as Record<string, unknown>
  // "error", or (OAuth) the real API's code, repeated in subCategory.
  const statusNamed = error.status === 'error' || error.status === error.subCategory
  if (!statusNamed) expect(statusNamed, `${label}: status ${String(error.status)}`).toBe(true)
  if (typeof error.correlationId !== 'string' || !UUID_V4.test(error.correlationId)) expect(error.correlationId, label).toMatch(UUID_V4)
  if (typeof error.category !== 'string') expect(typeof error.category, label).toBe('string')
  if (typeof error.message !== 'string') expect(typeof error.message, label).toBe('string')
  const after = fx.rows.now()
  if (!DatabaseRows.same(before, after)) expect(DatabaseRows.text(after), `${label}: a failed request changed the database`).toBe(DatabaseRows.text(before))
}

/** Requests for a route: valid, random or near-valid, and hostile. */
function requestsFor(route: Route): fc.Arbitrary<(fx: Fixture) => Promise<RequestSpec | undefined>> {
  const recipe = validRecipe(route)
  const valid = dice.map((d) => (fx: Fixture) => recipe(fx, d))
  const random = fc
    .tuple(paramsFor(route), query, credentialKind, bodyFor(route))
    .map(([params, queryPairs, kind, payload]) => async (fx: Fixture) => randomSpec(route, params, queryPairs, credentialFor(route, kind, fx.oauthToken), payload))
  // The hostile spec needs the fixture's OAuth token for oauth-only routes: built per fixture.
  const hostile = fc.nat().map((seed) => async (fx: Fixture) => fc.sample(hostileSpec(route.method, route.path, paramsFor(route), routeCredential(route, fx.oauthToken)), { seed, numRuns: 1 })[0])
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 3, arbitrary: random }, { weight: 3, arbitrary: hostile })
}

test("the fuzz's comparison of the database sees an added, deleted or different row, and stops a row changed in place", () => {
  const db = new Database()
  const items = db.table('items', z.object({ name: z.string(), tags: z.array(z.string()) }))
  items.set('1', { name: 'one', tags: ['a'] })
  const rows = new DatabaseRows(db)
  const before = rows.now()
  expect(DatabaseRows.same(before, rows.now())).toBe(true)
  items.set('1', { name: 'one', tags: ['a'] })
  expect(DatabaseRows.same(before, rows.now()), 'an equal copy').toBe(true)
  items.set('1', { name: 'one', tags: ['b'] })
  expect(DatabaseRows.same(before, rows.now()), 'a different row').toBe(false)
  items.set('1', before[0]!.rows[0] as { name: string; tags: string[] })
  items.set('2', { name: 'two', tags: [] })
  expect(DatabaseRows.same(before, rows.now()), 'an added row').toBe(false)
  items.delete('2')
  items.delete('1')
  expect(DatabaseRows.same(before, rows.now()), 'a deleted row').toBe(false)
  expect(() => (before[0]!.rows[0] as { tags: string[] }).tags.push('c'), 'a row changed in place').toThrow(TypeError)
})

const routeList = createCrmService({ seed: false }).routes
const cases = routeList.map((route) => [`${route.method} ${route.path}`, route] as const)

test.each(cases)('%s: no 5xx, an error body on every 4xx, a failed request changes nothing, 2xx bodies in the real shape', async (_name, route) => {
  const fx = await fixture()
  const served = fx.service.routes.find((r) => r.method === route.method && r.path === route.path) as Route
  const alias = /\/(objects|properties|pipelines|associations)\/0-\d+/.test(route.path)
  await fc.assert(
    fc.asyncProperty(requestsFor(served), async (make) => {
      const spec = await make(fx)
      if (spec) await checkResponse(fx, served, spec)
    }),
    { seed: SEED, numRuns: alias ? ALIAS_RUNS : RUNS },
  )
})

test('every route answered at least one valid request with a 2xx (per-route counts printed)', () => {
  const rows = [...stats.entries()].sort((a, b) => b[1].worstMs - a[1].worstMs)
  const never = rows.filter(([, s]) => s.ok === 0).map(([name]) => name)
  const total = rows.reduce((n, [, s]) => n + s.runs, 0)
  const succeeded = rows.reduce((n, [, s]) => n + s.ok, 0)
  const lines = [
    `route fuzz: ${total} requests to ${rows.length} routes, ${succeeded} succeeded (2xx/3xx)`,
    `worst-case request time: ${worst.ms.toFixed(1)} ms — ${worst.label}`,
    'slowest routes (worst ms, 2xx/runs):',
    ...rows.slice(0, 8).map(([name, s]) => `  ${s.worstMs.toFixed(1).padStart(7)} ms  ${String(s.ok).padStart(3)}/${s.runs}  ${name}`),
    'successes per route:',
    ...[...stats.entries()].map(([name, s]) => `  ${String(s.ok).padStart(3)}/${s.runs}  ${name}`),
  ]
  console.log(lines.join('\n'))
  expect(rows.length).toBe(routeList.length)
  expect(never, 'routes that never succeeded').toEqual([])
})
