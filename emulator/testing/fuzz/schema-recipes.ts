/**
 * Recipes of valid requests for custom object schemas and association
 * schemas (labels, limits, v3 association definitions), and the custom type
 * the object recipes use.
 */
import { ACCOUNT } from '../../core/http/auth.ts'
import { ASSOCIATION_TYPES } from '../../../shared/crm/association-types.ts'
import { OBJECT_TYPES, type CustomObjectType } from '../../core/objects/object-types.ts'
import type { Route } from '../../core/http/route.ts'
import type { RequestSpec } from './hostile.ts'
import { type Fixture, type Recipe, json, PAT, send, fresh, someRecord } from './recipe-kit.ts'

/** The custom object type the object recipes use (made through the schemas API on first need). */
export async function fuzzType(fx: Fixture): Promise<CustomObjectType> {
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

export function schemaRecipe(route: Route, base: string): Recipe {
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
export function associationSchemaRecipe(route: Route): Recipe | undefined {
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
export function associationV3Recipe(route: Route): Recipe | undefined {
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
