/**
 * Recipes of valid requests for the records APIs: objects (v3 and batch), v4
 * associations, properties and pipelines.
 */
import { defaultAssociationType } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPES, type BuiltinObjectType, type ObjectType } from '../../core/objects/object-types.ts'
import { propertyDefinitions } from '../../core/objects/properties.ts'
import type { Route } from '../../core/http/route.ts'
import type { RequestSpec } from './hostile.ts'
import { Dice, type Recipe, json, PAT, send, liveIds, fresh, validValue, validProperties, someRecord, someAssociation, someLink } from './recipe-kit.ts'

// ------------------------------------------------------------------ recipes

/** `segment` is the type's place in the route's path; requests name the type `pathName` there (default: the segment). */
export function objectRecipe(route: Route, type: ObjectType, segment: string, pathName: (dice: Dice) => string = () => segment): Recipe | undefined {
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

export function v4Recipe(route: Route, type: BuiltinObjectType): Recipe | undefined {
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

export function propertyRecipe(route: Route, type: ObjectType, segment: string): Recipe {
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

export function pipelineRecipe(route: Route, type: 'tickets' | 'deals', segment: string): Recipe {
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
