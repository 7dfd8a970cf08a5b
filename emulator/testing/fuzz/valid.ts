/**
 * Valid requests for every route of the service, for the route fuzz: each
 * recipe builds a request that the real API would answer with a 2xx, with
 * the credential and scopes the route needs, ids of records that exist at
 * that moment, and bodies whose values pass the property checks. Recipes
 * that need something to exist first (an archived record to restore, a
 * template to post events to, a code to exchange) make it through the API.
 *
 * A recipe is `(fixture, dice) => RequestSpec`: the fixture is the live
 * service, the dice are numbers drawn by fast-check, so a failing run
 * reproduces from the seed.
 */
import fc from 'fast-check'
import { ACCOUNT } from '../../core/http/auth.ts'
import { ASSOCIATION_TYPES, defaultAssociationType } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPES, parseObjectType, type BuiltinObjectType, type CustomObjectType, type ObjectType } from '../../core/objects/object-types.ts'
import { DEFAULT_PIPELINES } from '../../core/objects/pipelines.ts'
import { propertyDefinitions, type PropertyDefinition } from '../../core/objects/properties.ts'
import type { Route } from '../../core/http/route.ts'
import type { CrmService } from '../../core/service.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'
import { BASE_URL, toRequest, type RequestSpec } from './hostile.ts'
import { callingRecipe } from './calling.ts'

export interface Fixture {
  service: CrmService
  /** An OAuth access token with every scope. */
  oauthToken: string
}

/** A redirect URL a fresh account has registered. */
export const REDIRECT_URI = EXAMPLE_BACKEND_REDIRECT_URL

/** Draws from fast-check numbers: `pick(list)` and `int(n)` consume them in turn. */
export class Dice {
  #values: number[]
  #i = 0
  constructor(values: number[]) {
    this.#values = values
  }
  int(n: number): number {
    const v = this.#values[this.#i++ % this.#values.length] ?? 0
    return n <= 0 ? 0 : v % n
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)] as T
  }
}

export type Recipe = (fx: Fixture, dice: Dice) => Promise<RequestSpec | undefined>

const json = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' })
const form = (value: Record<string, string>) => ({ text: new URLSearchParams(value).toString(), type: 'application/x-www-form-urlencoded' })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const PAT = bearer(ACCOUNT.privateAppToken)
const DEV: Array<[string, string]> = [['hapikey', ACCOUNT.developerApiKey]]

async function send(fx: Fixture, spec: RequestSpec): Promise<any> {
  const response = await fx.service.handle(toRequest(spec))
  const text = await response.text()
  return text ? JSON.parse(text) : undefined
}

/** Live (or archived) record ids of a type, at this moment. */
function liveIds(fx: Fixture, type: ObjectType, archived = false): string[] {
  return [...fx.service.objects.records(type, archived)].map((r) => r.id)
}

let counter = 0
/** A name no earlier recipe used (fuzz runs share one service per route). */
const fresh = (prefix: string) => `${prefix}${(counter++).toString(36)}`

/** A value the property accepts. */
function validValue(fx: Fixture, type: ObjectType, def: PropertyDefinition, dice: Dice): unknown {
  switch (def.name) {
    case 'email':
      return `${fresh('fuzz')}@fuzz.example`
    case 'hs_pipeline':
    case 'pipeline':
    case 'hs_pipeline_stage':
    case 'dealstage':
    case 'hs_pinned_engagement_id':
      return undefined // set together by pipelineValues; pins need an association first
    case 'hubspot_owner_id':
      return '1'
    case 'hs_call_recording_url':
      return dice.pick(['https://rec.example/1.mp3', 'https://127.0.0.1/r.wav'])
  }
  switch (def.type) {
    case 'enumeration':
      return def.options.length > 0 ? dice.pick(def.options).value : fresh('opt')
    case 'number':
      return dice.pick([dice.int(1e9), String(dice.int(1000)), '3.25'])
    case 'datetime':
    case 'date':
      return dice.pick(['2026-01-01T10:00:00Z', 1_767_225_600_000 + dice.int(1e9), '2024-02-29'])
    case 'bool':
      return dice.pick([true, false, 'true'])
    case 'phone_number':
      return `+1 617 555 01${String(dice.int(100)).padStart(2, '0')}`
    default:
      return dice.pick(['Fuzz value', 'Ünïcødé ✓', '<b>not html</b>', fresh('v')])
  }
}

/** A valid pipeline and stage of the type, or nothing. */
function pipelineValues(fx: Fixture, type: ObjectType, dice: Dice): Record<string, string> {
  if (type !== 'tickets' && type !== 'deals') return {}
  const pipelines = DEFAULT_PIPELINES.filter((p) => p.objectType === type)
  const live = pipelines.map((p) => fx.service.objects.pipeline(type, p.id)).filter((p) => p !== undefined)
  const pipeline = live[0]
  if (!pipeline) return {}
  const stage = dice.pick(pipeline.stages.filter((s) => !s.archived))
  return type === 'tickets' ? { hs_pipeline: pipeline.id, hs_pipeline_stage: stage.id } : { pipeline: pipeline.id, dealstage: stage.id }
}

/** Valid properties of a type; `create` adds what a create requires. */
function validProperties(fx: Fixture, type: ObjectType, dice: Dice, create: boolean): Record<string, unknown> {
  const writable = propertyDefinitions(type).filter((d) => !d.modificationMetadata.readOnlyValue)
  const out: Record<string, unknown> = {}
  for (let i = 0, n = 1 + dice.int(4); i < n; i++) {
    const def = dice.pick(writable)
    const value = validValue(fx, type, def, dice)
    if (value !== undefined) out[def.name] = value
  }
  if (create && type === 'tickets') Object.assign(out, { subject: 'Fuzz ticket' }, pipelineValues(fx, type, dice))
  else if (dice.int(3) === 0) Object.assign(out, pipelineValues(fx, type, dice))
  if (type === 'contacts' && create) out.email = `${fresh('c')}@fuzz.example`
  return out
}

/** A live record of the type (made through the API when there is none). */
async function someRecord(fx: Fixture, type: ObjectType, dice: Dice): Promise<string> {
  const ids = liveIds(fx, type)
  if (ids.length > 0) return dice.pick(ids)
  const made = await send(fx, { method: 'POST', path: `/crm/v3/objects/${type}`, headers: PAT, body: json({ properties: validProperties(fx, type, dice, true) }) })
  return made.id
}

/** An association type from `type` (and its target type), if the type has any. */
function someAssociation(type: BuiltinObjectType, dice: Dice) {
  const types = ASSOCIATION_TYPES.filter((t) => t.from === type)
  return types.length > 0 ? dice.pick(types) : undefined
}

/** An association type from `type`, the CRM's own or a custom object schema's. */
function someLink(fx: Fixture, type: ObjectType, dice: Dice) {
  const types = [...ASSOCIATION_TYPES.filter((t) => t.from === type), ...fx.service.objects.customTypes.associationTypesFrom(type)]
  return types.length > 0 ? dice.pick(types) : undefined
}

// ------------------------------------------------------------------ recipes

/** `segment` is the type's place in the route's path; requests name the type `pathName` there (default: the segment). */
function objectRecipe(route: Route, type: ObjectType, segment: string, pathName: (dice: Dice) => string = () => segment): Recipe | undefined {
  const rest = route.path.slice(`/crm/v3/objects/${segment}`.length)
  const m = route.method
  return async (fx, dice) => {
    const base = `/crm/v3/objects/${pathName(dice)}`
    const spec = (method: string, path: string, extra: Partial<RequestSpec> = {}): RequestSpec => ({ method, path: base + path, headers: PAT, ...extra })
    switch (`${m} ${rest}`) {
      case 'POST ': {
        const assoc = someLink(fx, type, dice)
        const associations =
          assoc && dice.int(2) === 0
            ? [{ to: { id: await someRecord(fx, assoc.to, dice) }, types: [{ associationCategory: assoc.category, associationTypeId: assoc.typeId }] }]
            : undefined
        return spec('POST', '', { body: json({ properties: validProperties(fx, type, dice, true), ...(associations && { associations }) }) })
      }
      case 'GET ':
        return spec('GET', '', {
          query: [
            ['limit', String(1 + dice.int(100))],
            ...(dice.int(2) === 0 ? [['properties', dice.pick(propertyDefinitions(type)).name] as [string, string]] : []),
            ...(dice.int(3) === 0 ? [['archived', 'true'] as [string, string]] : []),
          ],
        })
      case 'GET /:objectId':
        return spec('GET', `/${await someRecord(fx, type, dice)}`, {
          query: dice.int(2) === 0 ? [['associations', dice.pick(Object.keys(OBJECT_TYPES))], ['propertiesWithHistory', dice.pick(propertyDefinitions(type)).name]] : [],
        })
      case 'PATCH /:objectId':
        return spec('PATCH', `/${await someRecord(fx, type, dice)}`, { body: json({ properties: validProperties(fx, type, dice, false) }) })
      case 'DELETE /:objectId':
        return spec('DELETE', `/${await someRecord(fx, type, dice)}`)
      case 'POST /:objectId/restore': {
        let archived = liveIds(fx, type, true)
        if (archived.length === 0) {
          await send(fx, spec('DELETE', `/${await someRecord(fx, type, dice)}`))
          archived = liveIds(fx, type, true)
        }
        if (type === 'contacts') {
          // An archived contact whose e-mail a live one has taken cannot come back; make a fresh one.
          const made = await send(fx, spec('POST', '', { body: json({ properties: { email: `${fresh('r')}@fuzz.example` } }) }))
          await send(fx, spec('DELETE', `/${made.id}`))
          return spec('POST', `/${made.id}/restore`)
        }
        return spec('POST', `/${dice.pick(archived)}/restore`)
      }
      case 'POST /batch/read': {
        const ids = liveIds(fx, type)
        return spec('POST', '/batch/read', { body: json({ inputs: ids.slice(0, 1 + dice.int(5)).map((id) => ({ id })), properties: [dice.pick(propertyDefinitions(type)).name] }) })
      }
      case 'POST /batch/create':
        return spec('POST', '/batch/create', { body: json({ inputs: [0, 1].map(() => ({ properties: validProperties(fx, type, dice, true) })) }) })
      case 'POST /batch/update': {
        const ids = [...new Set([await someRecord(fx, type, dice), await someRecord(fx, type, dice)])]
        return spec('POST', '/batch/update', { body: json({ inputs: ids.map((id) => ({ id, properties: validProperties(fx, type, dice, false) })) }) })
      }
      case 'POST /batch/upsert': {
        if (type !== 'contacts') {
          // Upsert needs a unique property: make one for this type first.
          // A custom type's fuzz schema defines fuzz_key itself (the properties API serves the built-in types).
          const name = type.startsWith('2-') ? 'fuzz_key' : `fuzz_key_${type}`
          if (!fx.service.objects.definition(type, name)) {
            await send(fx, {
              method: 'POST',
              path: `/crm/v3/properties/${type}`,
              headers: PAT,
              body: json({ name, label: 'Fuzz key', type: 'string', fieldType: 'text', groupName: propertyDefinitions(type)[3]!.groupName, hasUniqueValue: true }),
            })
          }
          return spec('POST', '/batch/upsert', {
            body: json({ inputs: [{ idProperty: name, id: dice.pick(['k1', 'k2', fresh('k')]), properties: validProperties(fx, type, dice, true) }] }),
          })
        }
        return spec('POST', '/batch/upsert', {
          body: json({ inputs: [{ idProperty: 'email', id: dice.pick(['maria.garcia@northwind.example', `${fresh('u')}@fuzz.example`]), properties: { firstname: 'Upserted' } }] }),
        })
      }
      case 'POST /batch/archive':
        return spec('POST', '/batch/archive', { body: json({ inputs: [{ id: await someRecord(fx, type, dice) }] }) })
      case 'POST /search': {
        const def = dice.pick(propertyDefinitions(type))
        const value = validValue(fx, type, def, dice) ?? '1'
        const op = def.type === 'string' || def.type === 'phone_number' ? dice.pick(['EQ', 'CONTAINS_TOKEN', 'HAS_PROPERTY', 'NEQ']) : dice.pick(['EQ', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY'])
        const value2 = op === 'CONTAINS_TOKEN' ? dice.pick(['*', 'fuzz*', '*a*b*', 'value']) : value
        return spec('POST', '/search', {
          body: json({ filterGroups: [{ filters: [{ propertyName: def.name, operator: op, value: value2 }] }], sorts: [{ propertyName: 'hs_object_id', direction: 'DESCENDING' }], limit: 1 + dice.int(200) }),
        })
      }
      case 'POST /merge': {
        const create = () => send(fx, spec('POST', '', { body: json({ properties: validProperties(fx, type, dice, true) }) })) as Promise<{ id: string }>
        const [primary, other] = [await create(), await create()]
        return spec('POST', '/merge', { body: json({ primaryObjectId: primary.id, objectIdToMerge: dice.int(2) === 0 ? other.id : Number(other.id) }) })
      }
      case 'POST /gdpr-delete': {
        const email = `${fresh('gdpr')}@fuzz.example`
        const made = await send(fx, spec('POST', '', { body: json({ properties: { email } }) }))
        return spec('POST', '/gdpr-delete', { body: json(dice.int(2) === 0 ? { objectId: made.id } : { objectId: email.toUpperCase(), idProperty: 'email' }) })
      }
      case 'GET /:objectId/associations/:toObjectType':
        return spec('GET', `/${await someRecord(fx, type, dice)}/associations/${dice.pick(Object.keys(OBJECT_TYPES))}`)
      case 'PUT /:objectId/associations/:toObjectType/:toObjectId/:associationTypeId':
      case 'DELETE /:objectId/associations/:toObjectType/:toObjectId/:associationTypeId': {
        const assoc = someLink(fx, type, dice)
        if (!assoc) return undefined
        const from = await someRecord(fx, type, dice)
        const to = await someRecord(fx, assoc.to, dice)
        const typeId = dice.int(2) === 0 ? String(assoc.typeId) : assoc.name
        return spec(m, `/${from}/associations/${assoc.to}/${to}/${typeId}`)
      }
    }
    return undefined
  }
}

function v4Recipe(route: Route, type: BuiltinObjectType): Recipe | undefined {
  return async (fx, dice) => {
    const assoc = someAssociation(type, dice)
    if (!assoc) return undefined
    const from = await someRecord(fx, type, dice)
    const to = await someRecord(fx, assoc.to, dice)
    const spec = assoc.category === 'HUBSPOT_DEFINED' ? [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: assoc.typeId }] : []
    const fill = (path: string) => path.replace(':objectId', from).replace(':toObjectType', assoc.to).replace(':toObjectId', to).replace(':fromObjectType', type)
    const base: RequestSpec = { method: route.method, path: fill(route.path), headers: PAT }
    if (route.path.includes('/associations/default/')) {
      return defaultAssociationType(type, assoc.to) ? base : undefined
    }
    if (route.path.startsWith('/crm/v4/objects/')) {
      if (route.method === 'PUT') return { ...base, body: json(spec) }
      if (route.method === 'GET') {
        await send(fx, { ...base, method: 'PUT', path: fill('/crm/v4/objects/:fromObjectType/:objectId/associations/:toObjectType/:toObjectId'), body: json(spec) })
        return { ...base, query: [['limit', String(1 + dice.int(500))]] }
      }
      return base
    }
    const action = route.path.slice(route.path.indexOf('/batch/') + 1)
    switch (action) {
      case 'batch/create':
      case 'batch/labels/archive':
        return { ...base, body: json({ inputs: [{ from: { id: from }, to: { id: to }, types: spec }] }) }
      case 'batch/associate/default':
        return defaultAssociationType(type, assoc.to) ? { ...base, body: json({ inputs: [{ from: { id: from }, to: { id: to } }] }) } : undefined
      case 'batch/read':
        await send(fx, { method: 'PUT', path: `/crm/v4/objects/${type}/${from}/associations/${assoc.to}/${to}`, headers: PAT, body: json(spec) })
        return { ...base, body: json({ inputs: [{ id: from }] }) }
      case 'batch/archive':
        return { ...base, body: json({ inputs: [{ from: { id: from }, to: [{ id: to }] }] }) }
    }
    return undefined
  }
}

function propertyRecipe(route: Route, type: ObjectType, segment: string): Recipe {
  const base = `/crm/v3/properties/${segment}`
  const rest = route.path.slice(base.length)
  const group = propertyDefinitions(type)[3]!.groupName
  const newProperty = (dice: Dice) =>
    dice.pick([
      { name: fresh('fuzz_p'), label: 'Fuzz', type: 'string', fieldType: dice.pick(['text', 'textarea']), groupName: group },
      { name: fresh('fuzz_p'), label: 'Fuzz', type: 'number', fieldType: 'number', groupName: group },
      { name: fresh('fuzz_p'), label: 'Fuzz', type: 'enumeration', fieldType: dice.pick(['select', 'radio', 'checkbox']), groupName: group, options: [{ label: 'A', value: 'a' }] },
      { name: fresh('fuzz_p'), label: 'Fuzz', type: 'bool', fieldType: 'booleancheckbox', groupName: group },
    ])
  return async (fx, dice) => {
    const spec = (method: string, path: string, body?: unknown): RequestSpec => ({ method, path: base + path, headers: PAT, ...(body !== undefined && { body: json(body) }) })
    const custom = async () => {
      const made = await send(fx, spec('POST', '', newProperty(dice)))
      return made.name as string
    }
    const customGroup = async () => (await send(fx, spec('POST', '/groups', { name: fresh('fuzz_g'), label: 'Fuzz group' }))).name as string
    switch (`${route.method} ${rest}`) {
      case 'GET ':
        return { ...spec('GET', ''), query: dice.int(3) === 0 ? [['archived', 'true']] : [] }
      case 'GET /:propertyName':
        return spec('GET', `/${dice.pick(propertyDefinitions(type)).name}`)
      case 'POST ':
        return spec('POST', '', newProperty(dice))
      case 'PATCH /:propertyName':
        return spec('PATCH', `/${await custom()}`, { label: 'Renamed', description: 'Changed by the fuzz' })
      case 'DELETE /:propertyName':
        return spec('DELETE', `/${await custom()}`)
      case 'GET /groups':
        return spec('GET', '/groups')
      case 'POST /groups':
        return spec('POST', '/groups', { name: fresh('fuzz_g'), label: 'Fuzz group', displayOrder: dice.int(10) })
      case 'GET /groups/:groupName':
        return spec('GET', `/groups/${dice.int(2) === 0 ? group : await customGroup()}`)
      case 'PATCH /groups/:groupName':
        return spec('PATCH', `/groups/${await customGroup()}`, { label: 'Renamed group' })
      case 'DELETE /groups/:groupName':
        return spec('DELETE', `/groups/${await customGroup()}`)
      case 'POST /batch/create':
        return spec('POST', '/batch/create', { inputs: [newProperty(dice), newProperty(dice)] })
      case 'POST /batch/read':
        return spec('POST', '/batch/read', { inputs: [{ name: dice.pick(propertyDefinitions(type)).name }, { name: await custom() }], archived: false })
      case 'POST /batch/archive':
        return spec('POST', '/batch/archive', { inputs: [{ name: await custom() }, { name: fresh('never_made') }] })
    }
    throw new Error(`no property recipe for ${route.method} ${route.path}`)
  }
}

function pipelineRecipe(route: Route, type: 'tickets' | 'deals', segment: string): Recipe {
  const base = `/crm/v3/pipelines/${segment}`
  const rest = route.path.slice(base.length)
  const metadata = (dice: Dice) => (type === 'tickets' ? { ticketState: dice.pick(['OPEN', 'CLOSED']) } : { probability: dice.pick(['0.1', '0.5', '1.0']) })
  const newPipeline = (dice: Dice) => ({
    label: fresh('Fuzz pipeline '),
    displayOrder: dice.int(10),
    stages: [0, 1].map((i) => ({ label: `Stage ${i}`, displayOrder: i, metadata: metadata(dice) })),
  })
  return async (fx, dice) => {
    const spec = (method: string, path: string, body?: unknown): RequestSpec => ({ method, path: base + path, headers: PAT, ...(body !== undefined && { body: json(body) }) })
    const made = async () => (await send(fx, spec('POST', '', newPipeline(dice)))) as { id: string; stages: Array<{ id: string }> }
    const defaultId = type === 'tickets' ? '0' : 'default'
    switch (`${route.method} ${rest}`) {
      case 'GET ':
        return spec('GET', '')
      case 'POST ':
        return spec('POST', '', newPipeline(dice))
      case 'GET /:pipelineId':
      case 'GET /:pipelineId/stages':
        return spec('GET', rest.replace(':pipelineId', defaultId))
      case 'PUT /:pipelineId': {
        const p = await made()
        return spec('PUT', `/${p.id}`, { ...newPipeline(dice), stages: [{ id: p.stages[0]!.id, label: 'Kept', displayOrder: 0, metadata: metadata(dice) }] })
      }
      case 'PATCH /:pipelineId':
        return spec('PATCH', `/${(await made()).id}`, { label: fresh('Renamed '), displayOrder: dice.int(5) })
      case 'DELETE /:pipelineId':
        return spec('DELETE', `/${(await made()).id}`)
      case 'POST /:pipelineId/stages':
        return spec('POST', `/${defaultId}/stages`, { label: fresh('Stage '), displayOrder: 9, metadata: metadata(dice) })
      case 'GET /:pipelineId/stages/:stageId': {
        const p = await made()
        return spec('GET', `/${p.id}/stages/${p.stages[0]!.id}`)
      }
      case 'PUT /:pipelineId/stages/:stageId':
      case 'PATCH /:pipelineId/stages/:stageId': {
        const p = await made()
        return spec(route.method, `/${p.id}/stages/${p.stages[0]!.id}`, { label: fresh('Renamed '), displayOrder: 3, metadata: metadata(dice) })
      }
      case 'DELETE /:pipelineId/stages/:stageId': {
        const p = await made()
        return spec('DELETE', `/${p.id}/stages/${p.stages[1]!.id}`)
      }
      case 'GET /:pipelineId/audit':
        return spec('GET', `/${dice.int(2) === 0 ? defaultId : (await made()).id}/audit`)
      case 'GET /:pipelineId/stages/:stageId/audit': {
        const p = await made()
        // The official client sends `{pipelineId}` unfilled; the stage is found by its id.
        return spec('GET', `/${dice.int(2) === 0 ? p.id : '%7BpipelineId%7D'}/stages/${p.stages[0]!.id}/audit`)
      }
    }
    throw new Error(`no pipeline recipe for ${route.method} ${route.path}`)
  }
}

/** A template with one token (and the ids of an event posted to it, when asked). */
async function template(fx: Fixture, withEvent = false): Promise<{ id: string; eventId?: string }> {
  const made = await send(fx, {
    method: 'POST',
    path: `/crm/v3/timeline/${ACCOUNT.appId}/event-templates`,
    query: DEV,
    body: json({ name: fresh('Fuzz template '), objectType: 'contacts', headerTemplate: 'Called {{who}}', detailTemplate: '**{{who}}** {{extraData.n}}', tokens: [{ name: 'who', label: 'Who', type: 'string' }] }),
  })
  if (!withEvent) return { id: made.id }
  const event = await send(fx, { method: 'POST', path: '/crm/v3/timeline/events', headers: bearer(fx.oauthToken), body: json({ eventTemplateId: made.id, objectId: '1', tokens: { who: 'Maria' } }) })
  return { id: made.id, eventId: event.id }
}

function timelineRecipe(route: Route): Recipe {
  const T = `/crm/v3/timeline/:appId/event-templates`
  const app = String(ACCOUNT.appId)
  return async (fx, dice) => {
    const dev = (method: string, path: string, body?: unknown): RequestSpec => ({ method, path: path.replace(':appId', app), query: DEV, ...(body !== undefined && { body: json(body) }) })
    const oauth = bearer(fx.oauthToken)
    const event = (templateId: string) => ({ eventTemplateId: templateId, objectId: dice.pick(['1', '2', '3']), tokens: { who: dice.pick(['Maria', 'Ünïcødé', '<b>x</b>']) }, extraData: { n: dice.int(100), list: [1, 2] } })
    switch (`${route.method} ${route.path}`) {
      case `POST ${T}`:
        return dev('POST', T, { name: fresh('T '), objectType: dice.pick(['contacts', 'companies', 'deals', 'tickets']), headerTemplate: '{{a}}', tokens: [{ name: 'a', label: 'A', type: 'string' }] })
      case `GET ${T}`:
        return dev('GET', T)
      case `GET ${T}/:templateId`:
        return dev('GET', `${T}/${(await template(fx)).id}`)
      case `PUT ${T}/:templateId`:
        return dev('PUT', `${T}/${(await template(fx)).id}`, { name: fresh('Renamed '), headerTemplate: 'Now {{who}}', tokens: [{ name: 'who', label: 'Who', type: 'string' }] })
      case `DELETE ${T}/:templateId`:
        return dev('DELETE', `${T}/${(await template(fx)).id}`)
      case `POST ${T}/:templateId/tokens`:
        return dev('POST', `${T}/${(await template(fx)).id}/tokens`, { name: fresh('t'), label: 'Added', type: dice.pick(['string', 'number', 'date']) })
      case `PUT ${T}/:templateId/tokens/:tokenName`:
        return dev('PUT', `${T}/${(await template(fx)).id}/tokens/who`, { label: 'Caller' })
      case `DELETE ${T}/:templateId/tokens/:tokenName`:
        return dev('DELETE', `${T}/${(await template(fx)).id}/tokens/who`)
      case 'POST /crm/v3/timeline/events': {
        const t = await template(fx)
        return { method: 'POST', path: route.path, headers: oauth, body: json(event(t.id)) }
      }
      case 'POST /crm/v3/timeline/events/batch/create': {
        const t = await template(fx)
        return { method: 'POST', path: route.path, headers: oauth, body: json({ inputs: [event(t.id), event(t.id)] }) }
      }
      case 'GET /crm/v3/timeline/events/:templateId/:eventId':
      case 'GET /crm/v3/timeline/events/:templateId/:eventId/detail':
      case 'GET /crm/v3/timeline/events/:templateId/:eventId/render': {
        const t = await template(fx, true)
        return { method: 'GET', path: route.path.replace(':templateId', t.id).replace(':eventId', t.eventId!), headers: oauth, query: route.path.endsWith('render') ? [['detail', String(dice.int(2) === 0)]] : [] }
      }
      case 'GET /_ringside/v1/timeline/events':
        return { method: 'GET', path: route.path, headers: PAT, query: dice.int(2) === 0 ? [['objectType', 'contacts'], ['objectId', '1']] : [] }
      case 'POST /_ringside/v1/timeline/preview':
        return { method: 'POST', path: route.path, body: json({ headerTemplate: '**{{who}}**', detailTemplate: '{{#each extraData.list}}{{this}}{{/each}}', tokens: { who: 'x' }, extraData: { list: [1, 2] } }) }
      case 'POST /_ringside/v1/utk':
        return { method: 'POST', path: route.path, body: json({ utk: fresh('utk'), contactId: dice.pick(['1', '2']) }) }
    }
    return undefined
  }
}

async function authorizeCode(fx: Fixture): Promise<string> {
  const decision = await send(fx, { method: 'POST', path: '/_ringside/v1/oauth/authorize', body: json({ client_id: ACCOUNT.clientId, redirect_uri: REDIRECT_URI, scope: 'timeline tickets', decision: 'grant' }) })
  return decision.code
}

async function tokens(fx: Fixture): Promise<{ access_token: string; refresh_token: string }> {
  const code = await authorizeCode(fx)
  return send(fx, {
    method: 'POST',
    path: '/oauth/v1/token',
    body: form({ grant_type: 'authorization_code', client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret, redirect_uri: REDIRECT_URI, code }),
  })
}

function oauthRecipe(route: Route): Recipe {
  return async (fx, dice) => {
    switch (`${route.method} ${route.path}`) {
      case 'GET /_ringside/v1/oauth/authorize':
        return { method: 'GET', path: route.path, query: [['client_id', ACCOUNT.clientId], ['redirect_uri', REDIRECT_URI], ['scope', dice.pick(['timeline', 'timeline tickets'])], ['state', fresh('s')]] }
      case 'POST /_ringside/v1/oauth/authorize':
        return { method: 'POST', path: route.path, body: json({ client_id: ACCOUNT.clientId, redirect_uri: REDIRECT_URI, scope: 'timeline', decision: dice.pick(['grant', 'deny']) }) }
      case 'POST /oauth/v1/token': {
        const credentials = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }
        if (dice.int(2) === 0) {
          const code = await authorizeCode(fx)
          return { method: 'POST', path: route.path, body: form({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code, ...credentials }) }
        }
        const { refresh_token } = await tokens(fx)
        // Fields in the form, or (as older clients send them) in the query.
        return dice.int(2) === 0
          ? { method: 'POST', path: route.path, body: form({ grant_type: 'refresh_token', refresh_token, ...credentials }) }
          : { method: 'POST', path: route.path, query: Object.entries({ grant_type: 'refresh_token', refresh_token, ...credentials }) }
      }
      case 'GET /oauth/v1/refresh-tokens/:token':
      case 'DELETE /oauth/v1/refresh-tokens/:token':
        return { method: route.method, path: route.path.replace(':token', (await tokens(fx)).refresh_token) }
      case 'GET /oauth/v1/access-tokens/:token':
        return { method: 'GET', path: route.path.replace(':token', (await tokens(fx)).access_token) }
      case 'POST /oauth/v3/token': {
        const credentials = { client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }
        if (dice.int(2) === 0) {
          return { method: 'POST', path: route.path, body: form({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code: await authorizeCode(fx), ...credentials }) }
        }
        return { method: 'POST', path: route.path, body: form({ grant_type: 'refresh_token', refresh_token: (await tokens(fx)).refresh_token, ...credentials }) }
      }
      case 'POST /oauth/v3/token/introspect':
      case 'POST /oauth/v3/token/revoke': {
        const issued = await tokens(fx)
        const [token, hint] = route.path.endsWith('/revoke') || dice.int(2) === 0 ? [issued.refresh_token, 'refresh_token'] : [issued.access_token, 'access_token']
        return { method: 'POST', path: route.path, body: form({ token, token_type_hint: hint, client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret }) }
      }
      case 'GET /_ringside/v1/installations':
        return { method: 'GET', path: route.path }
      case 'GET /_ringside/v1/oauth/redirect-urls':
        return { method: 'GET', path: route.path }
      case 'POST /_ringside/v1/oauth/redirect-urls':
        return { method: 'POST', path: route.path, body: json({ url: dice.pick([REDIRECT_URI, `https://app.example/${fresh('cb')}`, `http://localhost:${1 + dice.int(65_535)}/cb`]) }) }
      case 'DELETE /_ringside/v1/oauth/redirect-urls': {
        const url = `https://app.example/${fresh('gone')}`
        await fx.service.handle(toRequest({ method: 'POST', path: route.path, body: json({ url }) }))
        return { method: 'DELETE', path: route.path, query: [['url', url]] }
      }
      case 'DELETE /_ringside/v1/installations/:appId':
        await tokens(fx)
        return { method: 'DELETE', path: route.path.replace(':appId', String(ACCOUNT.appId)) }
    }
    return undefined
  }
}

function otherRecipe(route: Route): Recipe | undefined {
  const settings = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings`
  return async (fx, dice) => {
    const dev = (method: string, body?: unknown): RequestSpec => ({ method, path: settings, query: DEV, ...(body !== undefined && { body: json(body) }) })
    switch (`${route.method} ${route.path}`) {
      case 'POST /crm/v3/extensions/calling/:appId/settings':
        await fx.service.handle(toRequest(dev('DELETE')))
        return dev('POST', { name: 'Fuzz widget', url: 'https://widget.example/', width: 1 + dice.int(10_000), height: 600, isReady: dice.int(2) === 0 })
      case 'GET /crm/v3/extensions/calling/:appId/settings':
      case 'PATCH /crm/v3/extensions/calling/:appId/settings':
      case 'DELETE /crm/v3/extensions/calling/:appId/settings':
        await fx.service.handle(toRequest(dev('POST', { name: 'Fuzz widget', url: 'https://widget.example/' })))
        return route.method === 'PATCH' ? dev('PATCH', { height: 100 + dice.int(900), supportsInboundCalling: dice.int(2) === 0 }) : dev(route.method)
      case 'POST /_ringside/v1/reset':
        return { method: 'POST', path: route.path }
      case 'GET /_ringside/v1/export':
      case 'GET /_ringside/v1/account':
      case 'GET /_ringside/v1/rate-limits':
        return { method: 'GET', path: route.path }
      case 'POST /_ringside/v1/import': {
        const exported = await (await fx.service.handle(new Request(`${BASE_URL}/_ringside/v1/export`))).text()
        return { method: 'POST', path: route.path, body: { text: exported, type: 'application/json' } }
      }
      case 'GET /crm/v3/owners':
        return { method: 'GET', path: route.path, headers: PAT, query: dice.pick([[], [['limit', String(1 + dice.int(3))]], [['email', 'alex.rivera@demo.local']], [['archived', 'true']], [['after', '1']]]) }
      case 'GET /crm/v3/owners/:ownerId':
        return dice.int(2) === 0
          ? { method: 'GET', path: `/crm/v3/owners/${dice.pick(['1', '2', '3'])}`, headers: PAT, query: dice.int(2) === 0 ? [['idProperty', 'userId']] : [] }
          : { method: 'GET', path: '/crm/v3/owners/4', headers: PAT, query: [['archived', 'true']] }
      case 'PUT /_ringside/v1/rate-limits':
        return { method: 'PUT', path: route.path, body: json({ enabled: true, burst: { max: 100 + dice.int(100), intervalMs: 10_000 } }) }
    }
    return (await callingRecipe(route)(fx, dice)) ?? (await timelineRecipe(route)(fx, dice)) ?? oauthRecipe(route)(fx, dice)
  }
}

/** The custom object type the object recipes use (made through the schemas API on first need). */
async function fuzzType(fx: Fixture): Promise<CustomObjectType> {
  const existing = fx.service.objects.customTypes.resolve('p_fuzzcar')
  if (existing) return existing
  const made = await send(fx, { method: 'POST', path: '/crm-object-schemas/v3/schemas', headers: PAT, body: json(schemaBody('fuzzcar')) })
  return made.objectTypeId as CustomObjectType
}

function schemaBody(name: string) {
  return {
    name,
    labels: { singular: 'Fuzz car', plural: 'Fuzz cars' },
    primaryDisplayProperty: 'model',
    requiredProperties: [],
    searchableProperties: ['model'],
    properties: [
      { name: 'model', label: 'Model', type: 'string', fieldType: 'text' },
      { name: 'fuzz_key', label: 'Key', type: 'string', fieldType: 'text', hasUniqueValue: true },
    ],
    associatedObjects: ['CONTACT', 'CALL'],
  }
}

/** A new schema (other than the objects' fuzz type), archiving older ones so the account stays under its limit. */
async function freshSchema(fx: Fixture): Promise<{ objectTypeId: string; name: string }> {
  const types = fx.service.objects.customTypes
  const keep = types.resolve('p_fuzzcar')
  for (const type of types.liveTypes()) {
    if (type !== keep && types.liveTypes().length >= 8) await send(fx, { method: 'DELETE', path: `/crm-object-schemas/v3/schemas/${type}`, headers: PAT })
  }
  return send(fx, { method: 'POST', path: '/crm-object-schemas/v3/schemas', headers: PAT, body: json(schemaBody(fresh('schema'))) })
}

function schemaRecipe(route: Route, base: string): Recipe {
  const rest = route.path.slice(base.length)
  return async (fx, dice) => {
    const spec = (method: string, path: string, body?: unknown): RequestSpec => ({ method, path: base + path, headers: PAT, ...(body !== undefined && { body: json(body) }) })
    const named = (schema: { objectTypeId: string; name: string }) => dice.pick([schema.objectTypeId, `p${ACCOUNT.hubId}_${schema.name}`, `p_${schema.name}`])
    switch (`${route.method} ${rest}`) {
      case 'GET ':
        return { ...spec('GET', ''), query: dice.pick([[], [['archived', 'true']], [['includePropertyDefinitions', 'false']]]) }
      case 'POST ': {
        const { objectTypeId } = await freshSchema(fx)
        await send(fx, { method: 'DELETE', path: `/crm-object-schemas/v3/schemas/${objectTypeId}`, headers: PAT })
        return spec('POST', '', schemaBody(fresh('made')))
      }
      case 'POST /batch/read':
        return spec('POST', '/batch/read', { inputs: [await fuzzType(fx), 'p_nothing'] })
      case 'GET /:objectType':
        return spec('GET', `/${named(await freshSchema(fx))}`, undefined)
      case 'PATCH /:objectType':
        return spec('PATCH', `/${named(await freshSchema(fx))}`, { labels: { plural: 'Renamed' }, searchableProperties: ['fuzz_key'], description: 'Fuzzed' })
      case 'DELETE /:objectType': {
        const schema = await freshSchema(fx)
        if (dice.int(2) === 0) return spec('DELETE', `/${named(schema)}`)
        await send(fx, spec('DELETE', `/${schema.objectTypeId}`))
        return { ...spec('DELETE', `/${schema.objectTypeId}`), query: [['archived', 'true']] }
      }
      case 'POST /:objectType/associations': {
        const schema = await freshSchema(fx)
        return spec('POST', `/${named(schema)}/associations`, { fromObjectTypeId: schema.objectTypeId, toObjectTypeId: dice.pick(['0-2', 'companies', 'DEAL', 'tickets']) })
      }
      case 'DELETE /:objectType/associations/:associationIdentifier': {
        const schema = (await freshSchema(fx)) as { objectTypeId: string; name: string; associations: Array<{ id: string; name: string }> }
        const definition = dice.pick(schema.associations)
        return spec('DELETE', `/${named(schema)}/associations/${dice.int(2) === 0 ? definition.id : definition.name}`)
      }
    }
    throw new Error(`no schema recipe for ${route.method} ${route.path}`)
  }
}

/** Labels, limits and the usage report of the v4 association schema API. */
function associationSchemaRecipe(route: Route): Recipe | undefined {
  const labels = '/crm/v4/associations/:fromObjectType/:toObjectType/labels'
  const configurations = '/crm/v4/associations/definitions/configurations'
  const pairs = route.path.startsWith(labels) || route.path.startsWith(`${configurations}/:fromObjectType`)
  if (!pairs && route.path !== `${configurations}/all` && !route.path.startsWith('/crm/v4/associations/usage/')) return undefined
  return async (fx, dice) => {
    const { from, to } = dice.pick(ASSOCIATION_TYPES)
    const fill = (path: string) => path.replace(':fromObjectType', dice.int(2) === 0 ? from : OBJECT_TYPES[from].typeId).replace(':toObjectType', to)
    const spec = (method: string, path: string, body?: unknown): RequestSpec => ({ method, path: fill(path), headers: PAT, ...(body !== undefined && { body: json(body) }) })
    /** A new label between the pair: its typeId this way. */
    const newLabel = async (): Promise<number> => {
      const made = await send(fx, { method: 'POST', path: `/crm/v4/associations/${from}/${to}/labels`, headers: PAT, body: json({ label: fresh('Fuzz '), name: fresh('fuzz_l') }) })
      return made.results[0].typeId
    }
    switch (`${route.method} ${route.path}`) {
      case `GET ${labels}`:
        return spec('GET', labels)
      case `POST ${labels}`:
        return spec('POST', labels, { label: dice.pick(['Manager', 'Ünïcødé ✓', fresh('L ')]), name: fresh('fuzz_l'), ...(dice.int(2) === 0 && { inverseLabel: 'Inverse' }) })
      case `PUT ${labels}`:
        return spec('PUT', labels, { associationTypeId: await newLabel(), label: fresh('Renamed '), ...(dice.int(2) === 0 && { inverseLabel: 'Inverse' }) })
      case `DELETE ${labels}/:associationTypeId`:
        return spec('DELETE', `${labels}/${await newLabel()}`)
      case `GET ${configurations}/all`:
        return spec('GET', route.path)
      case `GET ${configurations}/:fromObjectType/:toObjectType`:
        return spec('GET', route.path)
      case `POST ${configurations}/:fromObjectType/:toObjectType/batch/create`:
        // A limit of 1 fits within any limit already set on the pair.
        return spec('POST', route.path, { inputs: [{ category: 'USER_DEFINED', typeId: await newLabel(), maxToObjectIds: 1 }] })
      case `POST ${configurations}/:fromObjectType/:toObjectType/batch/update`: {
        const typeId = await newLabel()
        await send(fx, { method: 'POST', path: `${configurations}/${from}/${to}/batch/create`, headers: PAT, body: json({ inputs: [{ category: 'USER_DEFINED', typeId, maxToObjectIds: 1 }] }) })
        return spec('POST', route.path, { inputs: [{ category: 'USER_DEFINED', typeId, maxToObjectIds: 1 }] })
      }
      case `POST ${configurations}/:fromObjectType/:toObjectType/batch/purge`:
        return spec('POST', route.path, { inputs: [{ category: dice.pick(['HUBSPOT_DEFINED', 'USER_DEFINED']), typeId: dice.int(400) }] })
      case 'POST /crm/v4/associations/usage/high-usage-report/:userId':
        return spec('POST', route.path.replace(':userId', String(ACCOUNT.userId)))
    }
    return undefined
  }
}

/** The v3 association batches and types. */
function associationV3Recipe(route: Route): Recipe | undefined {
  if (!route.path.startsWith('/crm/v3/associations/')) return undefined
  return async (fx, dice) => {
    const assoc = dice.pick(ASSOCIATION_TYPES)
    const path = route.path.replace(':fromObjectType', dice.int(2) === 0 ? assoc.from : OBJECT_TYPES[assoc.from].typeId).replace(':toObjectType', assoc.to)
    const from = await someRecord(fx, assoc.from, dice)
    const to = await someRecord(fx, assoc.to, dice)
    const type = dice.int(2) === 0 ? assoc.name : String(assoc.typeId)
    const spec = (body?: unknown): RequestSpec => ({ method: route.method, path, headers: PAT, ...(body !== undefined && { body: json(body) }) })
    switch (route.path.slice(route.path.lastIndexOf(':toObjectType') + ':toObjectType'.length)) {
      case '/types':
        return spec()
      case '/batch/create':
      case '/batch/archive':
        return spec({ inputs: [{ from: { id: from }, to: { id: to }, type }] })
      case '/batch/read':
        await send(fx, { method: 'PUT', path: `/crm/v3/objects/${assoc.from}/${from}/associations/${assoc.to}/${to}/${assoc.typeId}`, headers: PAT })
        return spec({ inputs: [{ id: from }] })
    }
    return undefined
  }
}

/** The recipe of valid requests for a route. */
export function validRecipe(route: Route): Recipe {
  if (route.path.startsWith('/crm/v3/objects/:objectType')) {
    // The objects API of a custom type, named any way the real API takes.
    return async (fx, dice) => {
      const type = await fuzzType(fx)
      return objectRecipe(route, type, ':objectType', (d) => d.pick([type, `p${ACCOUNT.hubId}_fuzzcar`, 'p_fuzzcar']))!(fx, dice)
    }
  }
  const schemas = /^\/(crm-object-schemas\/v3|crm\/v3)\/schemas/.exec(route.path)
  if (schemas) return schemaRecipe(route, schemas[0])
  const objects = /^\/crm\/v3\/objects\/([^/]+)/.exec(route.path)
  if (objects) return objectRecipe(route, parseObjectType(objects[1]!)!, objects[1]!)!
  const schema = associationSchemaRecipe(route) ?? associationV3Recipe(route)
  if (schema) return schema
  const v4 = /^\/crm\/v4\/(?:objects|associations)\/([^/:]+)/.exec(route.path)
  if (v4) return v4Recipe(route, parseObjectType(v4[1]!)!)!
  const properties = /^\/crm\/v3\/properties\/([^/]+)/.exec(route.path)
  if (properties) return propertyRecipe(route, parseObjectType(properties[1]!)!, properties[1]!)
  const pipelines = /^\/crm\/v3\/pipelines\/([^/]+)/.exec(route.path)
  if (pipelines) return pipelineRecipe(route, parseObjectType(pipelines[1]!) as 'tickets' | 'deals', pipelines[1]!)
  return otherRecipe(route) as Recipe
}

/** Dice for one recipe run. */
export const dice = fc.array(fc.nat(), { minLength: 12, maxLength: 12 }).map((values) => new Dice(values))
