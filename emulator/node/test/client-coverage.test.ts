/**
 * Coverage of the official client, @hubspot/api-client, over HTTP: every
 * operation its generated code defines in the areas a calling integration
 * touches is called against the real server, and none may get "no route"
 * (404 "No API route matches …") or 405. A 2xx answer must deserialize into
 * the client's own model for that operation, with every attribute the model
 * declares as required present.
 *
 * The operations are not listed here: they are read from the client. For each
 * area's generated folder, every `apis/*Api.js` module's request factory is
 * walked (its prototype methods are the operations; each method's source gives
 * the path template, the HTTP method and the parameter names), so an operation
 * a new client release adds shows up in this test by itself, and fails until
 * it has arguments below and a route in the emulator. Files the client ships
 * but does not export from the folder's index (older groupings of the same
 * operations, and the `/crm/associations/v4/…` paths) are walked too: the
 * client's code can reach them, so the emulator answers them.
 */
import { createRequire } from 'node:module'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT, ALL_SCOPES } from '../../core/http/auth.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

const require = createRequire(import.meta.url)
const CODEGEN = join(dirname(require.resolve('@hubspot/api-client/package.json')), 'lib', 'codegen')

/** The generated folders of the areas a calling integration touches. */
const AREAS = [
  'crm/extensions/calling',
  'crm/timeline',
  'crm/contacts',
  'crm/companies',
  'crm/deals',
  'crm/tickets',
  'crm/objects/calls',
  'crm/objects/tasks',
  'crm/objects/notes',
  'crm/associations',
  'crm/associations/schema',
  'crm/associations/v4',
  'crm/associations/v4/schema',
  'crm/properties',
  'crm/pipelines',
  'crm/owners',
  'crm/schemas',
  'oauth',
]

/**
 * Operations of the client that the emulator does not serve yet, keyed
 * `METHOD /path/template`, each with the reason. Empty now: every operation
 * in the areas is served. An operation listed here that is served fails the
 * test, so the list cannot go stale.
 */
const PENDING: Record<string, string> = {}

/** Operations sent before all others (their resource cannot be removed again, so no later setup could create it afresh). */
const RUN_FIRST = new Set(['POST /crm/v3/extensions/calling/{appId}/settings/recording'])

interface Operation {
  /** `METHOD /path/template`, e.g. `GET /crm/v3/objects/contacts/{contactId}`. */
  key: string
  /** e.g. `crm/contacts BasicApi.getById`. */
  name: string
  params: string[]
  /** The model a 2xx answer deserializes into (undefined: no body). */
  model: string | undefined
  modelsDir: string
  /** Send the operation with these arguments: the client's raw answer. */
  send(args: unknown[]): Promise<ResponseLike>
  /** The client's own reading of a 2xx answer (it throws for other statuses). */
  process(response: ResponseLike): Promise<{ data: unknown }>
}

interface ResponseLike {
  httpStatusCode: number
  body: { text(): Promise<string> }
}

interface CodegenModule {
  createConfiguration(options: unknown): { httpApi: { send(request: unknown): { toPromise(): Promise<unknown> } } }
  ServerConfiguration: new (url: string, variables: object) => unknown
  Observable: unknown
}

const { ApiClientConfigurator } = require('@hubspot/api-client/lib/src/configuration/ApiClientConfigurator.js') as {
  ApiClientConfigurator: { getParams(config: object, server: unknown, a: unknown, b: unknown): object }
}

/** The operations of one generated folder, with the configuration its factories need. */
function operationsOf(area: string, clientConfig: object): Operation[] {
  const dir = join(CODEGEN, area)
  const index = require(join(dir, 'index.js')) as CodegenModule
  const rxjs = require(join(dir, 'rxjsStub.js')) as { Observable: unknown }
  const config = index.createConfiguration(ApiClientConfigurator.getParams(clientConfig, index.ServerConfiguration, rxjs.Observable, rxjs.Observable))
  const operations: Operation[] = []
  // The classes the folder's index exports first: where an older file has the same operation, the exported one is called.
  const exported = (file: string) => (file.replace(/\.js$/, '') in index ? 0 : 1)
  const files = readdirSync(join(dir, 'apis'))
    .filter((f) => /Api\.js$/.test(f) && f !== 'baseapi.js')
    .sort((a, b) => exported(a) - exported(b) || a.localeCompare(b))
  for (const file of files) {
    const mod = require(join(dir, 'apis', file)) as Record<string, new (config: unknown) => Record<string, (...args: unknown[]) => unknown>>
    const api = file.replace(/\.js$/, '')
    const Factory = mod[`${api}RequestFactory`]
    const Processor = mod[`${api}ResponseProcessor`]
    if (!Factory || !Processor) throw new Error(`${area}/apis/${file}: no request factory or response processor`)
    const factory = new Factory(config)
    const processor = new Processor(config)
    for (const method of Object.getOwnPropertyNames(Factory.prototype).filter((m) => m !== 'constructor')) {
      const source = String(Factory.prototype[method])
      const path = /localVarPath = '([^']*)'/.exec(source)?.[1]
      const verb = /HttpMethod\.(\w+)/.exec(source)?.[1]
      const signature = /^[^(]*\(([^)]*)\)/.exec(source)?.[1] ?? ''
      if (!path || !verb) throw new Error(`${area} ${api}.${method}: cannot read its path and method`)
      const processSource = String(Processor.prototype[`${method}WithHttpInfo`])
      const model = /isCodeInRange\)\("2\d\d", response\.httpStatusCode\)\) \{\s*const body = ObjectSerializer_1\.ObjectSerializer\.deserialize\([^;]*?, "(\w+)", ""\)/.exec(processSource)?.[1]
      operations.push({
        key: `${verb} ${path}`,
        name: `${area} ${api}.${method}`,
        params: signature
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p && p !== '_options'),
        model,
        modelsDir: join(dir, 'models'),
        async send(args) {
          const request = await factory[method]!(...args)
          return (await config.httpApi.send(request).toPromise()) as ResponseLike
        },
        async process(response) {
          return { data: ((await processor[`${method}WithHttpInfo`]!(response)) as { data: unknown }).data }
        },
      })
    }
  }
  return operations
}

// ------------------------------------------------------------ the models

/** Required attributes and types of a generated model, read from its declaration file. */
function modelShape(modelsDir: string, model: string): Map<string, { type: string; required: boolean }> | undefined {
  let text: string
  try {
    text = readFileSync(join(modelsDir, `${model}.d.ts`), 'utf8')
  } catch {
    return undefined
  }
  if (!/export declare class/.test(text)) return undefined
  const attributes = new Map<string, { type: string; required: boolean }>()
  for (const match of text.matchAll(/^ {4}'([^']+)'(\?)?: ([^;]+);$/gm)) attributes.set(match[1]!, { type: match[3]!, required: match[2] !== '?' })
  return attributes
}

/** Checks of the primitive types a model declares, on the value the client deserialized. */
const PRIMITIVES: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  Date: (v) => v instanceof Date && !Number.isNaN(v.getTime()),
}

/**
 * Attributes whose type in the client's models differs from what the real
 * API returns; the emulator follows the real API. Keyed `Model.attribute`,
 * with the evidence.
 */
const CLIENT_TYPE_DISAGREEMENTS: Record<string, string> = {
  // The v4 associations API answers record ids as JSON numbers; the client's models say string (since its v11).
  // https://github.com/HubSpot/hubspot-api-nodejs/issues/552 ("the api calls still return numbers"),
  // https://github.com/HubSpot/hubspot-api-php/issues/261 (to_object_id = 5434402448 in the JSON).
  'LabelsBetweenObjectPair.fromObjectId': 'number in the real API',
  'LabelsBetweenObjectPair.toObjectId': 'number in the real API',
  'MultiAssociatedObjectWithLabel.toObjectId': 'number in the real API',
}

/** Every required attribute of the model present, and of the declared primitive type, recursively (a list of problems). */
function missingRequired(value: unknown, modelsDir: string, model: string, where: string, problems: string[], depth = 0): void {
  if (depth > 8) return
  const shape = modelShape(modelsDir, model)
  if (!shape || value === null || typeof value !== 'object') return
  for (const [name, { type, required }] of shape) {
    const field = (value as Record<string, unknown>)[name]
    if (field === undefined || field === null) {
      if (required) problems.push(`${where}.${name} (${type}) is missing`)
      continue
    }
    const primitive = PRIMITIVES[type]
    if (primitive && !primitive(field)) {
      const key = `${model}.${name}`
      if (!(key in CLIENT_TYPE_DISAGREEMENTS)) problems.push(`${where}.${name} is ${JSON.stringify(field)}, not the client's ${type}`)
      continue
    }
    const element = /^Array<(\w+)>$/.exec(type)?.[1]
    if (element) {
      if (!Array.isArray(field)) problems.push(`${where}.${name} is not an array`)
      else field.slice(0, 5).forEach((item, i) => missingRequired(item, modelsDir, element, `${where}.${name}[${i}]`, problems, depth + 1))
    } else if (/^\w+$/.test(type)) {
      missingRequired(field, modelsDir, type, `${where}.${name}`, problems, depth + 1)
    }
  }
}

// ------------------------------------------------------------- the server

let server: RingsideServer
let origin: string
let accessToken: string
let refreshToken: string

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text ? JSON.parse(text) : undefined
}

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: scratchDir('client-coverage'), pages: 'none' })
  origin = server.url.slice(0, -1)
  // Some 190 calls from one app: the burst limit would answer 429 part-way.
  await fetch(`${origin}/_ringside/v1/rate-limits`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enabled: false }) })
  const decision = await fetch(`${origin}/_ringside/v1/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: ACCOUNT.clientId, redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, scope: ALL_SCOPES.join(' '), decision: 'grant' }),
  })
  const code = new URL(((await decision.json()) as { redirectTo: string }).redirectTo).searchParams.get('code')
  const tokens = await fetch(`${origin}/oauth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }),
  })
  const parsed = (await tokens.json()) as { access_token: string; refresh_token: string }
  accessToken = parsed.access_token
  refreshToken = parsed.refresh_token
}, 30_000)

afterAll(async () => {
  await server?.close()
  removeScratchDirs()
})

// ---------------------------------------------------------- the arguments

const OBJECT_PATH = /^(\w+) \/crm\/v3\/objects\/(contacts|companies|deals|tickets|calls|tasks|notes)(\/.*)?$/
let unique = 0
const next = () => `${Date.now().toString(36)}${++unique}`

/** Valid properties for a new record of the type. */
function newProperties(type: string): Record<string, string> {
  switch (type) {
    case 'contacts':
      return { email: `coverage-${next()}@example.com`, firstname: 'Coverage' }
    case 'companies':
      return { name: `Coverage ${next()}` }
    case 'deals':
      return { dealname: `Coverage ${next()}` }
    case 'tickets':
      return { subject: `Coverage ${next()}`, hs_pipeline_stage: '1' }
    case 'calls':
      return { hs_call_title: 'Coverage', hs_timestamp: new Date().toISOString() }
    case 'tasks':
      return { hs_task_subject: 'Coverage', hs_timestamp: new Date().toISOString() }
    default:
      return { hs_note_body: 'Coverage', hs_timestamp: new Date().toISOString() }
  }
}

const uniqueProperties = new Map<string, string>()

/** A custom property with unique values on the type (batch/upsert needs one as its idProperty). */
async function uniqueProperty(type: string): Promise<string> {
  const known = uniqueProperties.get(type)
  if (known) return known
  const groups = await api('GET', `/crm/v3/properties/${type}/groups`)
  const name = `coverage_key_${next()}`
  await api('POST', `/crm/v3/properties/${type}`, { name, label: 'Key', type: 'string', fieldType: 'text', groupName: groups.results[0].name, hasUniqueValue: true })
  uniqueProperties.set(type, name)
  return name
}

async function newRecord(type: string): Promise<string> {
  return ((await api('POST', `/crm/v3/objects/${type}`, { properties: newProperties(type) })) as { id: string }).id
}

/** A property of the type that can be written (for updates) and searched. */
const EDITABLE: Record<string, string> = {
  contacts: 'firstname',
  companies: 'name',
  deals: 'dealname',
  tickets: 'subject',
  calls: 'hs_call_title',
  tasks: 'hs_task_subject',
  notes: 'hs_note_body',
}

/** Arguments for an operation on CRM records of one type, by the path after `/crm/v3/objects/{type}`. */
async function objectArgs(verb: string, type: string, rest: string): Promise<unknown[] | undefined> {
  const field = EDITABLE[type]!
  switch (`${verb} ${rest}`) {
    case 'GET ':
      return [10]
    case 'POST ':
      return [{ properties: newProperties(type), associations: [] }]
    case 'GET /{id}':
      return [await newRecord(type)]
    case 'PATCH /{id}':
      return [await newRecord(type), { properties: { [field]: `Changed ${next()}` } }]
    case 'DELETE /{id}':
      return [await newRecord(type)]
    case 'POST /batch/read':
      return [{ inputs: [{ id: await newRecord(type) }], properties: [field], propertiesWithHistory: [] }, false]
    case 'POST /batch/create':
      return [{ inputs: [{ properties: newProperties(type), associations: [] }] }]
    case 'POST /batch/update':
      return [{ inputs: [{ id: await newRecord(type), properties: { [field]: `Changed ${next()}` } }] }]
    case 'POST /batch/upsert':
      return [{ inputs: [{ idProperty: await uniqueProperty(type), id: `key-${next()}`, properties: { [field]: `Upserted ${next()}`, ...newProperties(type) } }] }]
    case 'POST /batch/archive':
      return [{ inputs: [{ id: await newRecord(type) }] }]
    case 'POST /search':
      return [{ filterGroups: [{ filters: [{ propertyName: field, operator: 'HAS_PROPERTY' }] }], properties: [field], limit: 5, after: '0', sorts: [] }]
    case 'POST /merge':
      return [{ primaryObjectId: await newRecord(type), objectIdToMerge: await newRecord(type) }]
    case 'POST /gdpr-delete':
      return [{ objectId: await newRecord(type) }]
    default:
      return undefined
  }
}

async function newPipeline(): Promise<{ id: string; stageId: string }> {
  const created = await api('POST', '/crm/v3/pipelines/tickets', {
    label: `Coverage ${next()}`,
    displayOrder: 5,
    stages: [{ label: 'Open', displayOrder: 0, metadata: { ticketState: 'OPEN' } }],
  })
  return { id: created.id, stageId: created.stages[0].id }
}

async function newTemplate(): Promise<string> {
  const response = await fetch(`${origin}/crm/v3/timeline/${ACCOUNT.appId}/event-templates?hapikey=${ACCOUNT.developerApiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Coverage ${next()}`,
      objectType: 'contacts',
      headerTemplate: 'Coverage {{level}}',
      tokens: [{ name: 'level', label: 'Level', type: 'string' }],
    }),
  })
  return ((await response.json()) as { id: string }).id
}

async function newEvent(): Promise<{ templateId: string; eventId: string }> {
  const templateId = await newTemplate()
  const response = await fetch(`${origin}/crm/v3/timeline/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventTemplateId: templateId, objectId: '1', tokens: { level: 'one' } }),
  })
  return { templateId, eventId: ((await response.json()) as { id: string }).id }
}

/** The app's recording or channel-connection settings, created or replaced with `body` (developer API key). */
async function appSettings(kind: 'recording' | 'channel-connection', body: object): Promise<void> {
  const url = `${origin}/crm/v3/extensions/calling/${ACCOUNT.appId}/settings/${kind}?hapikey=${ACCOUNT.developerApiKey}`
  const send = (method: string) => fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const created = await send('POST')
  if (created.ok) return
  const patched = await send('PATCH')
  if (!patched.ok) throw new Error(`${kind} settings: POST ${created.status}, PATCH ${patched.status} ${await patched.text()}`)
}

async function newLabel(): Promise<number> {
  const created = await api('POST', '/crm/v4/associations/contacts/companies/labels', { label: `Coverage ${next()}`, name: `coverage_${next()}` })
  return created.results[0].typeId
}

/**
 * Arguments for each operation outside the record APIs, in the operation's
 * parameter order. An operation missing from here (and from the record
 * APIs) fails the test: a new client operation needs its arguments.
 */
const ARGS: Record<string, () => Promise<unknown[]>> = {
  // Calling extensions
  'GET /crm/v3/extensions/calling/{appId}/settings': async () => [ACCOUNT.appId],
  'POST /crm/v3/extensions/calling/{appId}/settings': async () => {
    await fetch(`${origin}/crm/v3/extensions/calling/${ACCOUNT.appId}/settings?hapikey=${ACCOUNT.developerApiKey}`, { method: 'DELETE' })
    return [ACCOUNT.appId, { name: 'Coverage widget', url: 'https://widget.example/' }]
  },
  'PATCH /crm/v3/extensions/calling/{appId}/settings': async () => [ACCOUNT.appId, { isReady: true }],
  'DELETE /crm/v3/extensions/calling/{appId}/settings': async () => [ACCOUNT.appId],
  'GET /crm/v3/extensions/calling/{appId}/settings/recording': async () => [ACCOUNT.appId],
  'POST /crm/v3/extensions/calling/{appId}/settings/recording': async () => [ACCOUNT.appId, { urlToRetrieveAuthedRecording: 'https://vendor.example/recordings/%s' }],
  'PATCH /crm/v3/extensions/calling/{appId}/settings/recording': async () => [ACCOUNT.appId, { urlToRetrieveAuthedRecording: 'https://vendor.example/r/%s' }],
  'POST /crm/v3/extensions/calling/recordings/ready': async () => {
    // Port 9 (discard) on this machine refuses at once: the CRM's fetch fails and the recording is FAILED, but the request is served.
    await appSettings('recording', { urlToRetrieveAuthedRecording: 'http://127.0.0.1:9/recordings/%s' })
    const call = (await api('POST', '/crm/v3/objects/calls', {
      properties: { ...newProperties('calls'), hs_call_external_id: `coverage-${next()}`, hs_call_app_id: String(ACCOUNT.appId) },
    })) as { id: string }
    return [{ engagementId: Number(call.id) }]
  },
  'GET /crm/v3/extensions/calling/{appId}/settings/channel-connection': async () => [ACCOUNT.appId],
  'POST /crm/v3/extensions/calling/{appId}/settings/channel-connection': async () => [ACCOUNT.appId, { url: 'https://vendor.example/numbers', isReady: true }],
  'PATCH /crm/v3/extensions/calling/{appId}/settings/channel-connection': async () => [ACCOUNT.appId, { isReady: false }],
  'DELETE /crm/v3/extensions/calling/{appId}/settings/channel-connection': async () => {
    await appSettings('channel-connection', { url: 'https://vendor.example/numbers', isReady: true })
    return [ACCOUNT.appId]
  },
  'POST /crm/v3/extensions/calling/inbound-call': async () => [
    {
      createEngagement: true,
      engagementProperties: { hs_call_title: 'Coverage inbound' },
      externalCallId: `coverage-in-${next()}`,
      finalCallStatus: 'RINGING',
      fromNumber: { e164Number: '+16175550101', phoneNumberType: 'MOBILE' },
      toNumber: { e164Number: '+18001231234', phoneNumberType: 'FIXED_LINE' },
      potentialRecipientUserIds: [ACCOUNT.userId],
    },
  ],
  // Timeline
  'POST /integrators/timeline/v3/events': async () => [{ eventTemplateId: await newTemplate(), objectId: '1', tokens: { level: 'x' } }],
  'POST /integrators/timeline/v3/events/batch/create': async () => [{ inputs: [{ eventTemplateId: await newTemplate(), objectId: '1', tokens: { level: 'x' } }] }],
  'GET /integrators/timeline/v3/events/{eventTemplateId}/{eventId}': async () => Object.values(await newEvent()),
  'GET /integrators/timeline/v3/events/{eventTemplateId}/{eventId}/detail': async () => Object.values(await newEvent()),
  'GET /integrators/timeline/v3/events/{eventTemplateId}/{eventId}/render': async () => [...Object.values(await newEvent()), false],
  'GET /integrators/timeline/v3/{appId}/event-templates': async () => [ACCOUNT.appId],
  'POST /integrators/timeline/v3/{appId}/event-templates': async () => [
    ACCOUNT.appId,
    { name: `Coverage ${next()}`, objectType: 'contacts', headerTemplate: 'Hi', tokens: [] },
  ],
  'GET /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}': async () => [await newTemplate(), ACCOUNT.appId],
  'PUT /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}': async () => {
    const id = await newTemplate()
    return [id, ACCOUNT.appId, { id, name: `Renamed ${next()}`, headerTemplate: 'Renamed', tokens: [{ name: 'level', label: 'Level', type: 'string' }] }]
  },
  'DELETE /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}': async () => [await newTemplate(), ACCOUNT.appId],
  'POST /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}/tokens': async () => [await newTemplate(), ACCOUNT.appId, { name: 'extra', label: 'Extra', type: 'string' }],
  'PUT /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}/tokens/{tokenName}': async () => [await newTemplate(), 'level', ACCOUNT.appId, { label: 'Renamed' }],
  'DELETE /integrators/timeline/v3/{appId}/event-templates/{eventTemplateId}/tokens/{tokenName}': async () => [await newTemplate(), 'level', ACCOUNT.appId],
  // Associations v3
  'GET /crm/v3/associations/{fromObjectType}/{toObjectType}/types': async () => ['contacts', 'companies'],
  'POST /crm/v3/associations/{fromObjectType}/{toObjectType}/batch/create': async () => [
    'contacts',
    'companies',
    { inputs: [{ _from: { id: await newRecord('contacts') }, to: { id: await newRecord('companies') }, type: 'contact_to_company' }] },
  ],
  'POST /crm/v3/associations/{fromObjectType}/{toObjectType}/batch/read': async () => ['contacts', 'companies', { inputs: [{ id: '1' }] }],
  'POST /crm/v3/associations/{fromObjectType}/{toObjectType}/batch/archive': async () => [
    'contacts',
    'companies',
    { inputs: [{ _from: { id: '1' }, to: { id: await newRecord('companies') }, type: 'contact_to_company' }] },
  ],
  // Associations v4
  'PUT /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}': async () => [
    'contacts',
    await newRecord('contacts'),
    'companies',
    await newRecord('companies'),
    [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }],
  ],
  'DELETE /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}/{toObjectId}': async () => ['contacts', '1', 'companies', await newRecord('companies')],
  'PUT /crm/v4/objects/{fromObjectType}/{fromObjectId}/associations/default/{toObjectType}/{toObjectId}': async () => [
    'contacts',
    await newRecord('contacts'),
    'companies',
    await newRecord('companies'),
  ],
  'GET /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}': async () => ['contacts', '1', 'companies', undefined, 100],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/create': async () => [
    'contacts',
    'companies',
    { inputs: [{ _from: { id: await newRecord('contacts') }, to: { id: await newRecord('companies') }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] }] },
  ],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/associate/default': async () => [
    'contacts',
    'companies',
    { inputs: [{ _from: { id: await newRecord('contacts') }, to: { id: await newRecord('companies') } }] },
  ],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read': async () => ['contacts', 'companies', { inputs: [{ id: '1' }] }],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/archive': async () => ['contacts', 'companies', { inputs: [{ _from: { id: '1' }, to: [{ id: '999999' }] }] }],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/labels/archive': async () => [
    'contacts',
    'companies',
    { inputs: [{ _from: { id: '1' }, to: { id: '999999' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] }] },
  ],
  'POST /crm/v4/associations/usage/high-usage-report/{userId}': async () => [1],
  'GET /crm/v4/associations/{fromObjectType}/{toObjectType}/labels': async () => ['contacts', 'companies'],
  'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/labels': async () => ['contacts', 'companies', { label: `Coverage ${next()}`, name: `coverage_${next()}` }],
  'PUT /crm/v4/associations/{fromObjectType}/{toObjectType}/labels': async () => ['contacts', 'companies', { associationTypeId: await newLabel(), label: `Renamed ${next()}` }],
  'DELETE /crm/v4/associations/{fromObjectType}/{toObjectType}/labels/{associationTypeId}': async () => ['contacts', 'companies', await newLabel()],
  'GET /crm/v4/associations/definitions/configurations/all': async () => [],
  'GET /crm/v4/associations/definitions/configurations/{fromObjectType}/{toObjectType}': async () => ['contacts', 'companies'],
  'POST /crm/v4/associations/definitions/configurations/{fromObjectType}/{toObjectType}/batch/create': async () => [
    'contacts',
    'companies',
    { inputs: [{ category: 'USER_DEFINED', typeId: await newLabel(), maxToObjectIds: 5 }] },
  ],
  'POST /crm/v4/associations/definitions/configurations/{fromObjectType}/{toObjectType}/batch/update': async () => [
    'contacts',
    'companies',
    { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 1, maxToObjectIds: 1 }] },
  ],
  'POST /crm/v4/associations/definitions/configurations/{fromObjectType}/{toObjectType}/batch/purge': async () => [
    'contacts',
    'companies',
    { inputs: [{ category: 'HUBSPOT_DEFINED', typeId: 279 }] },
  ],
  // Properties
  'GET /crm/v3/properties/{objectType}': async () => ['contacts'],
  'POST /crm/v3/properties/{objectType}': async () => ['contacts', { name: `coverage_${next()}`, label: 'Coverage', type: 'string', fieldType: 'text', groupName: 'contactinformation' }],
  'GET /crm/v3/properties/{objectType}/{propertyName}': async () => ['contacts', 'email'],
  'PATCH /crm/v3/properties/{objectType}/{propertyName}': async () => ['contacts', await newProperty(), { label: 'Relabelled' }],
  'DELETE /crm/v3/properties/{objectType}/{propertyName}': async () => ['contacts', await newProperty()],
  'POST /crm/v3/properties/{objectType}/batch/create': async () => [
    'contacts',
    { inputs: [{ name: `coverage_${next()}`, label: 'Coverage', type: 'string', fieldType: 'text', groupName: 'contactinformation' }] },
  ],
  'POST /crm/v3/properties/{objectType}/batch/read': async () => ['contacts', { archived: false, inputs: [{ name: 'email' }], propertiesWithHistory: [] }],
  'POST /crm/v3/properties/{objectType}/batch/archive': async () => ['contacts', { inputs: [{ name: await newProperty() }] }],
  'GET /crm/v3/properties/{objectType}/groups': async () => ['contacts'],
  'POST /crm/v3/properties/{objectType}/groups': async () => ['contacts', { name: `coverage_${next()}`, label: 'Coverage', displayOrder: 5 }],
  'GET /crm/v3/properties/{objectType}/groups/{groupName}': async () => ['contacts', 'contactinformation'],
  'PATCH /crm/v3/properties/{objectType}/groups/{groupName}': async () => ['contacts', await newGroup(), { label: 'Relabelled' }],
  'DELETE /crm/v3/properties/{objectType}/groups/{groupName}': async () => ['contacts', await newGroup()],
  // Pipelines
  'GET /crm/v3/pipelines/{objectType}': async () => ['tickets'],
  'POST /crm/v3/pipelines/{objectType}': async () => ['tickets', { label: `Coverage ${next()}`, displayOrder: 3, stages: [{ label: 'Open', displayOrder: 0, metadata: { ticketState: 'OPEN' } }] }],
  'GET /crm/v3/pipelines/{objectType}/{pipelineId}': async () => ['tickets', '0'],
  'PUT /crm/v3/pipelines/{objectType}/{pipelineId}': async () => {
    const { id } = await newPipeline()
    return ['tickets', id, { label: `Replaced ${next()}`, displayOrder: 4, stages: [{ label: 'Only', displayOrder: 0, metadata: { ticketState: 'OPEN' } }] }]
  },
  'PATCH /crm/v3/pipelines/{objectType}/{pipelineId}': async () => ['tickets', (await newPipeline()).id, { label: `Renamed ${next()}` }],
  'DELETE /crm/v3/pipelines/{objectType}/{pipelineId}': async () => ['tickets', (await newPipeline()).id],
  'GET /crm/v3/pipelines/{objectType}/{pipelineId}/audit': async () => ['tickets', (await newPipeline()).id],
  'GET /crm/v3/pipelines/{objectType}/{pipelineId}/stages': async () => ['tickets', '0'],
  'POST /crm/v3/pipelines/{objectType}/{pipelineId}/stages': async () => ['tickets', (await newPipeline()).id, { label: 'Added', displayOrder: 1, metadata: { ticketState: 'OPEN' } }],
  'GET /crm/v3/pipelines/{objectType}/{pipelineId}/stages/{stageId}': async () => ['tickets', '0', '1'],
  'PUT /crm/v3/pipelines/{objectType}/{pipelineId}/stages/{stageId}': async () => {
    const { id, stageId } = await newPipeline()
    return ['tickets', id, stageId, { label: 'Replaced', displayOrder: 0, metadata: { ticketState: 'OPEN' } }]
  },
  'PATCH /crm/v3/pipelines/{objectType}/{pipelineId}/stages/{stageId}': async () => {
    const { id, stageId } = await newPipeline()
    return ['tickets', id, stageId, { label: 'Renamed' }]
  },
  'DELETE /crm/v3/pipelines/{objectType}/{pipelineId}/stages/{stageId}': async () => {
    const { id } = await newPipeline()
    const added = await api('POST', `/crm/v3/pipelines/tickets/${id}/stages`, { label: 'Second', displayOrder: 1, metadata: { ticketState: 'OPEN' } })
    return ['tickets', id, added.id]
  },
  // The client's stage audit leaves {pipelineId} unfilled in its path; its arguments are the object type and the stage.
  'GET /crm/v3/pipelines/{objectType}/{pipelineId}/stages/{stageId}/audit': async () => ['tickets', (await newPipeline()).stageId],
  // Owners
  'GET /crm/v3/owners': async () => [undefined, undefined, 10],
  'GET /crm/v3/owners/': async () => [undefined, undefined, 10],
  'GET /crm/v3/owners/{ownerId}': async () => {
    const owners = await api('GET', '/crm/v3/owners?limit=1')
    return [Number(owners.results[0].id)]
  },
  // Custom object schemas
  'GET /crm-object-schemas/v3/schemas': async () => [],
  'POST /crm-object-schemas/v3/schemas': async () => [newSchema()],
  'POST /crm-object-schemas/v3/schemas/batch/read': async () => [{ inputs: [(await api('POST', '/crm-object-schemas/v3/schemas', newSchema())).objectTypeId] }],
  'GET /crm-object-schemas/v3/schemas/{objectType}': async () => [(await api('POST', '/crm-object-schemas/v3/schemas', newSchema())).objectTypeId],
  'PATCH /crm-object-schemas/v3/schemas/{objectType}': async () => [(await api('POST', '/crm-object-schemas/v3/schemas', newSchema())).objectTypeId, { labels: { singular: 'Machine', plural: 'Machines' } }],
  'DELETE /crm-object-schemas/v3/schemas/{objectType}': async () => [(await api('POST', '/crm-object-schemas/v3/schemas', newSchema())).objectTypeId],
  'POST /crm-object-schemas/v3/schemas/{objectType}/associations': async () => {
    // A definition links the schema's own type (fromObjectTypeId) with another type.
    const { objectTypeId } = await api('POST', '/crm-object-schemas/v3/schemas', newSchema())
    return [objectTypeId, { fromObjectTypeId: objectTypeId, toObjectTypeId: '0-2', name: `coverage_${next()}` }]
  },
  'DELETE /crm-object-schemas/v3/schemas/{objectType}/associations/{associationIdentifier}': async () => {
    const schema = await api('POST', '/crm-object-schemas/v3/schemas', newSchema())
    return [schema.objectTypeId, schema.associations?.[0]?.id ?? '1']
  },
  // OAuth
  'POST /oauth/v1/token': async () => ['refresh_token', undefined, undefined, ACCOUNT.clientId, ACCOUNT.clientSecret, refreshToken],
  'GET /oauth/v1/access-tokens/{token}': async () => [accessToken],
  'GET /oauth/v1/refresh-tokens/{token}': async () => [refreshToken],
  'DELETE /oauth/v1/refresh-tokens/{token}': async () => {
    const code = new URL(
      (
        (await (
          await fetch(`${origin}/_ringside/v1/oauth/authorize`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ client_id: ACCOUNT.clientId, redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, scope: 'timeline', decision: 'grant' }),
          })
        ).json()) as { redirectTo: string }
      ).redirectTo,
    ).searchParams.get('code')
    const tokens = await fetch(`${origin}/oauth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: EXAMPLE_BACKEND_REDIRECT_URL, client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }),
    })
    return [((await tokens.json()) as { refresh_token: string }).refresh_token]
  },
}

async function newProperty(): Promise<string> {
  const name = `coverage_${next()}`
  await api('POST', '/crm/v3/properties/contacts', { name, label: 'Coverage', type: 'string', fieldType: 'text', groupName: 'contactinformation' })
  return name
}

async function newGroup(): Promise<string> {
  const name = `coverage_${next()}`
  await api('POST', '/crm/v3/properties/contacts/groups', { name, label: 'Coverage' })
  return name
}

function newSchema() {
  const name = `machine_${next()}`
  return {
    name,
    labels: { singular: 'Machine', plural: 'Machines' },
    primaryDisplayProperty: 'model',
    requiredProperties: ['model'],
    properties: [{ name: 'model', label: 'Model', type: 'string', fieldType: 'text' }],
    associatedObjects: ['CONTACT'],
  }
}

async function argumentsFor(op: Operation, all: ReadonlyMap<string, Operation>): Promise<unknown[] | undefined> {
  const objects = OBJECT_PATH.exec(op.key)
  if (objects) {
    const rest = (objects[3] ?? '').replace(/\{\w+\}/g, '{id}')
    return objectArgs(objects[1]!, objects[2]!, rest)
  }
  // The client's `/crm/associations/v4/…` paths are the same operations as `/crm/v4/associations/…`,
  // with the same parameter names (not always in the same order).
  const canonical = all.get(op.key.replace(' /crm/associations/v4/', ' /crm/v4/associations/'))
  if (canonical && canonical !== op) {
    const args = await ARGS[canonical.key]?.()
    return args && op.params.map((name) => args[canonical.params.indexOf(name)])
  }
  return ARGS[op.key]?.()
}

// ------------------------------------------------------------------ test

const NO_ROUTE = /^No API route matches /

test('every operation of @hubspot/api-client in the calling areas is served over HTTP, and its answer deserializes into the client’s model', async () => {
  const clientConfig = { accessToken, developerApiKey: ACCOUNT.developerApiKey, basePath: origin }
  const seen = new Map<string, Operation>()
  for (const area of AREAS) for (const op of operationsOf(area, clientConfig)) if (!seen.has(op.key)) seen.set(op.key, op)
  // Recording settings have no DELETE (nor has the real API), so their create runs before the operations that read them.
  const operations = [...seen.values()].sort((a, b) => Number(RUN_FIRST.has(b.key)) - Number(RUN_FIRST.has(a.key)))
  // The client's own list, not a number typed here: at least the areas' known size.
  expect(operations.length).toBeGreaterThan(150)

  const problems: string[] = []
  const stale: string[] = []
  let succeeded = 0
  let modelsChecked = 0
  for (const op of operations) {
    const args = await argumentsFor(op, seen).catch((error: unknown) => {
      // Its setup needs a route that is still pending: send placeholders, enough to find the route.
      if (PENDING[op.key]) return op.params.map(() => '1')
      problems.push(`${op.key}: preparing its arguments failed: ${String(error)}`)
      return null
    })
    if (args === null) continue
    if (!args) {
      problems.push(`${op.key} (${op.name}): no arguments known; add them to this test`)
      continue
    }
    let response: ResponseLike
    try {
      response = await op.send(args)
    } catch (error) {
      problems.push(`${op.key} (${op.name}): the client refused the arguments: ${String(error)}`)
      continue
    }
    const status = response.httpStatusCode
    const text = status >= 400 ? await response.body.text() : undefined
    // A 404 that is not the API's error body never reached the API (a path outside the prefixes it serves).
    const noRoute = status === 405 || (status === 404 && (NO_ROUTE.test(safeMessage(text)) || !isApiError(text)))
    if (PENDING[op.key]) {
      if (!noRoute) stale.push(`${op.key} is served now: remove it from PENDING (${PENDING[op.key]})`)
      continue
    }
    if (noRoute) {
      problems.push(`${op.key} (${op.name}): ${status} ${safeMessage(text)}`)
      continue
    }
    if (status >= 300) {
      problems.push(`${op.key} (${op.name}): ${status} ${text}`)
      continue
    }
    try {
      const { data } = await op.process(response)
      if (op.model) {
        modelsChecked++
        const missing: string[] = []
        missingRequired(data, op.modelsDir, op.model, op.model, missing)
        if (missing.length > 0) problems.push(`${op.key}: the answer lacks what ${op.model} requires: ${missing.slice(0, 5).join('; ')}`)
      }
      succeeded++
    } catch (error) {
      problems.push(`${op.key} (${op.name}): the client could not read the answer: ${String(error)}`)
    }
  }
  expect(stale).toEqual([])
  expect(problems).toEqual([])
  expect(succeeded).toBe(operations.filter((op) => !PENDING[op.key]).length)
  // The model of each answer was found in the client's response processor (all but the 204 operations).
  expect(modelsChecked).toBeGreaterThan(succeeded * 0.6)
}, 120_000)

function isApiError(text: string | undefined): boolean {
  try {
    return typeof (JSON.parse(text ?? '') as { category?: unknown }).category === 'string'
  } catch {
    return false
  }
}

function safeMessage(text: string | undefined): string {
  try {
    return String((JSON.parse(text ?? '') as { message?: unknown }).message ?? '')
  } catch {
    return text ?? ''
  }
}
