/**
 * The schemas API (custom object types), under `/crm-object-schemas/v3/schemas`
 * as the official client calls it, and under `/crm/v3/schemas`, the path the
 * custom objects guide uses (https://developers.hubspot.com/docs/api-reference/crm-custom-objects-v3/guide):
 *
 * - GET    /schemas                  → 200 `{results: ObjectSchema[]}`; `archived`, `includePropertyDefinitions`, `includeAssociationDefinitions`
 * - POST   /schemas                  → 201 ObjectSchema
 * - POST   /schemas/batch/read       → 200 `{results: ObjectSchema[]}` for `{inputs: [objectType]}`
 * - GET    /schemas/{objectType}     → 200 ObjectSchema
 * - PATCH  /schemas/{objectType}     → 200 ObjectTypeDefinition (labels, description, required, searchable and display properties)
 * - DELETE /schemas/{objectType}     → 204; archives it (only when it has no records); `archived=true` removes an archived one for good
 * - POST   /schemas/{objectType}/associations → 201 AssociationDefinition
 * - DELETE /schemas/{objectType}/associations/{associationIdentifier} → 204
 *
 * `{objectType}` is the objectTypeId (`2-<n>`), the fullyQualifiedName
 * (`p<portalId>_<name>`) or `p_<name>`. A schema's properties are custom
 * properties of the new type (the properties API's rules), in the group
 * `<name>_information`; required, searchable and display properties must be
 * among them. Records of the type are then served by the objects API under
 * any of the type's names (see routes.ts). Everything a request writes is
 * checked first: a refused create leaves no schema, property or table.
 */
import { z } from 'zod'
import { ACCOUNT } from '../../../shared/crm/account.ts'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { boolParam, boundedArray, json, noContent, parseInput } from '../http/http.ts'
import type { Route, ServiceDeps } from '../http/route.ts'
import { fullyQualifiedName, type AssociationDefinitionRow, type SchemaRow } from './custom-objects.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, type CustomObjectType, type ObjectType } from './object-types.ts'
import { newPropertyRow, propertyCreateSchema } from './property-routes.ts'
import type { CustomPropertyRow } from './property-catalog.ts'
import type { ObjectStore } from './object-store.ts'

/** Most custom object types one account may define (HubSpot's limit for an Enterprise account). */
export const SCHEMA_LIMIT = 10
/** Most properties one schema create may define. */
const PROPERTY_LIMIT = 100

/** Names the CRM's own objects (and those HubSpot reserves) use; a custom type may not take one, in either number. */
const RESERVED_NAMES = new Set(
  [
    ...OBJECT_TYPE_NAMES.flatMap((t) => [t, OBJECT_TYPES[t].singular]),
    ...['email', 'meeting', 'product', 'line_item', 'quote', 'communication', 'postal_mail', 'lead', 'invoice', 'order', 'cart', 'payment'],
    ...['subscription', 'user', 'owner', 'goal', 'marketing_event', 'feedback_submission', 'appointment', 'course', 'listing', 'service', 'discount', 'fee', 'tax'],
  ].flatMap((n) => [n, `${n}s`]),
)

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/
const names = boundedArray(z.string().max(100), PROPERTY_LIMIT)
const labelsSchema = z.object({ singular: z.string().trim().min(1, 'must not be empty').max(100), plural: z.string().trim().min(1, 'must not be empty').max(100) })
const schemaPropertySchema = propertyCreateSchema.extend({ groupName: propertyCreateSchema.shape.groupName.optional() })
const createSchema = z.object({
  name: z.string().max(100, 'must be at most 100 characters').regex(NAME, 'must start with a letter and hold only letters, digits and _'),
  labels: labelsSchema,
  description: z.string().max(3000).optional(),
  properties: boundedArray(schemaPropertySchema, PROPERTY_LIMIT),
  requiredProperties: names,
  searchableProperties: names.optional(),
  primaryDisplayProperty: z.string().max(100).optional(),
  secondaryDisplayProperties: names.optional(),
  associatedObjects: boundedArray(z.string().max(200), 50),
})
const patchSchema = z.object({
  labels: labelsSchema.partial().optional(),
  description: z.string().max(3000).optional(),
  clearDescription: z.boolean().optional(),
  requiredProperties: names.optional(),
  searchableProperties: names.optional(),
  primaryDisplayProperty: z.string().max(100).optional(),
  secondaryDisplayProperties: names.optional(),
  restorable: z.boolean().optional(),
})
const associationSchema = z.object({ fromObjectTypeId: z.string().max(200), toObjectTypeId: z.string().max(200), name: z.string().max(100).regex(/^[A-Za-z0-9_]+$/).optional() })
const batchReadSchema = z.object({ inputs: boundedArray(z.string().max(200), SCHEMA_LIMIT * 10) })

/** The AssociationDefinition model, from the side of `type`. */
function toAssociationDefinition(row: AssociationDefinitionRow) {
  return { id: row.id, fromObjectTypeId: row.fromObjectTypeId, toObjectTypeId: row.toObjectTypeId, name: row.name, createdAt: row.createdAt, updatedAt: row.updatedAt }
}

/** The ObjectTypeDefinition model (PATCH's answer): the schema without properties and associations. */
function toDefinition(type: CustomObjectType, row: SchemaRow) {
  return {
    id: row.id,
    objectTypeId: type,
    name: row.name,
    fullyQualifiedName: fullyQualifiedName(row.name),
    labels: row.labels,
    ...(row.description !== undefined && { description: row.description }),
    requiredProperties: row.requiredProperties,
    searchableProperties: row.searchableProperties,
    ...(row.primaryDisplayProperty !== undefined && { primaryDisplayProperty: row.primaryDisplayProperty }),
    secondaryDisplayProperties: row.secondaryDisplayProperties,
    portalId: ACCOUNT.hubId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archived: row.archived,
  }
}

/** Which parts of an ObjectSchema to include (the list and get routes' flags; both default to true). */
interface Include {
  properties: boolean
  associations: boolean
}

function toObjectSchema(objects: ObjectStore, type: CustomObjectType, row: SchemaRow, include: Include) {
  const { portalId: _portalId, ...definition } = toDefinition(type, row)
  return {
    ...definition,
    properties: include.properties ? objects.properties.list(type).filter((p) => !p.hubspotDefined) : [],
    associations: include.associations ? objects.customTypes.definitionsOf(type).map(toAssociationDefinition) : [],
  }
}

/** Every name in `list` must be one of the schema's properties. */
function checkNamesIn(list: readonly string[] | undefined, field: string, known: ReadonlySet<string>): void {
  const unknown = (list ?? []).filter((n) => !known.has(n))
  if (unknown.length > 0) {
    throw validationError(`${field} names properties that the schema does not define: [${unknown.join(', ')}].`, { context: { [field]: unknown } })
  }
}

export function customObjectSchemaRoutes(deps: ServiceDeps): Route[] {
  const { objects, db } = deps
  const types = objects.customTypes
  const read = { kind: 'bearer', scopes: ['crm.schemas.custom.read'] } as const
  const write = { kind: 'bearer', scopes: ['crm.schemas.custom.write'] } as const

  /** The schema a path names (archived ones only when asked), or 404. */
  const schemaOr404 = (raw: string, archived = false): [CustomObjectType, SchemaRow] => {
    if (archived) {
      const row = types.schemas.get(raw)
      if (row?.archived) return [raw as CustomObjectType, row]
    } else {
      const type = types.resolve(raw)
      const row = type && types.schema(type)
      if (type && row) return [type, row]
    }
    throw notFound(`Unable to find object type ${raw}.`, { subCategory: 'ObjectTypeError.OBJECT_TYPE_NOT_FOUND' })
  }
  const otherType = (raw: string): ObjectType => {
    const type = types.resolveAny(raw)
    if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
    return type
  }
  const include = (query: URLSearchParams): Include => ({
    properties: boolParam(query, 'includePropertyDefinitions', true),
    associations: boolParam(query, 'includeAssociationDefinitions', true),
  })

  const routesAt = (base: string): Route[] => [
    {
      method: 'GET',
      path: base,
      auth: read,
      handler(ctx) {
        const archived = boolParam(ctx.query, 'archived', false)
        const what = include(ctx.query)
        const results = [...types.schemas.entries()]
          .filter(([, row]) => row.archived === archived)
          .map(([type, row]) => toObjectSchema(objects, type as CustomObjectType, row, what))
        return json({ results })
      },
    },
    {
      method: 'POST',
      path: base,
      auth: write,
      handler(ctx) {
        const input = parseInput(createSchema, ctx.jsonBody())
        const name = input.name.toLowerCase()
        if (RESERVED_NAMES.has(name)) {
          throw validationError(`The object type name "${input.name}" is reserved by HubSpot; choose another name.`, { subCategory: 'ObjectTypeError.RESERVED_NAME', context: { name: [input.name] } })
        }
        const live = types.liveTypes()
        if (live.some((t) => types.schemas.get(t)?.name.toLowerCase() === name)) {
          throw conflict(`An object type named "${input.name}" already exists.`, { subCategory: 'ObjectTypeError.DUPLICATE_NAME', context: { name: [input.name] } })
        }
        if (live.length >= SCHEMA_LIMIT) throw validationError(`This account already has ${SCHEMA_LIMIT} custom object types, the most it may define.`)
        const iso = new Date(ctx.now).toISOString()
        const group = `${name}_information`
        const rows: CustomPropertyRow[] = input.properties.map((p) => newPropertyRow({ ...p, groupName: p.groupName ?? group }, iso))
        const known = new Set(rows.map((r) => r.name))
        if (known.size !== rows.length) throw validationError('Each property of a schema needs its own name; a name is listed twice.')
        checkNamesIn(input.requiredProperties, 'requiredProperties', known)
        checkNamesIn(input.searchableProperties, 'searchableProperties', known)
        checkNamesIn(input.secondaryDisplayProperties, 'secondaryDisplayProperties', known)
        if (input.primaryDisplayProperty !== undefined) checkNamesIn([input.primaryDisplayProperty], 'primaryDisplayProperty', known)
        const targets = input.associatedObjects.map(otherType)

        // Everything is checked: write the schema, its group and properties, its associations and its record tables.
        const id = String(db.nextId('crm_schemas'))
        const type = `2-${id}` as CustomObjectType
        const row: SchemaRow = {
          id,
          name: input.name,
          labels: input.labels,
          ...(input.description !== undefined && { description: input.description }),
          requiredProperties: input.requiredProperties,
          searchableProperties: input.searchableProperties ?? [],
          ...(input.primaryDisplayProperty !== undefined && { primaryDisplayProperty: input.primaryDisplayProperty }),
          secondaryDisplayProperties: input.secondaryDisplayProperties ?? [],
          createdAt: iso,
          updatedAt: iso,
          archived: false,
        }
        types.schemas.set(type, row)
        objects.properties.putGroup(type, { name: group, label: `${input.labels.singular} information`, displayOrder: -1, archived: false })
        for (const property of rows) {
          if (!objects.properties.group(type, property.groupName)) throw validationError(`Property group "${property.groupName}" does not exist for ${input.name}.`)
          objects.properties.putCustom(type, property)
        }
        for (const target of new Set(targets)) types.defineAssociation(type, target, undefined, iso)
        objects.declareType(type)
        return json(toObjectSchema(objects, type, row, { properties: true, associations: true }), 201)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/read`,
      auth: read,
      handler(ctx) {
        const input = parseInput(batchReadSchema, ctx.jsonBody())
        const found = new Set<CustomObjectType>()
        for (const raw of input.inputs) {
          const type = types.resolve(raw)
          if (type) found.add(type)
        }
        return json({ results: [...found].map((type) => toObjectSchema(objects, type, types.schema(type)!, { properties: true, associations: true })) })
      },
    },
    {
      method: 'GET',
      path: `${base}/:objectType`,
      auth: read,
      handler(ctx) {
        const [type, row] = schemaOr404(ctx.params.objectType!)
        return json(toObjectSchema(objects, type, row, include(ctx.query)))
      },
    },
    {
      method: 'PATCH',
      path: `${base}/:objectType`,
      auth: write,
      handler(ctx) {
        const [type, row] = schemaOr404(ctx.params.objectType!)
        const input = parseInput(patchSchema, ctx.jsonBody())
        const known = new Set(objects.properties.list(type).map((p) => p.name))
        checkNamesIn(input.requiredProperties, 'requiredProperties', known)
        checkNamesIn(input.searchableProperties, 'searchableProperties', known)
        checkNamesIn(input.secondaryDisplayProperties, 'secondaryDisplayProperties', known)
        if (input.primaryDisplayProperty !== undefined) checkNamesIn([input.primaryDisplayProperty], 'primaryDisplayProperty', known)
        const { description: _description, ...kept } = row
        const description = input.clearDescription ? undefined : (input.description ?? row.description)
        const next: SchemaRow = {
          ...kept,
          labels: { ...row.labels, ...input.labels },
          ...(description !== undefined && { description }),
          ...(input.requiredProperties && { requiredProperties: input.requiredProperties }),
          ...(input.searchableProperties && { searchableProperties: input.searchableProperties }),
          ...(input.primaryDisplayProperty !== undefined && { primaryDisplayProperty: input.primaryDisplayProperty }),
          ...(input.secondaryDisplayProperties && { secondaryDisplayProperties: input.secondaryDisplayProperties }),
          updatedAt: new Date(ctx.now).toISOString(),
        }
        types.schemas.set(type, next)
        return json(toDefinition(type, next))
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:objectType`,
      auth: write,
      handler(ctx) {
        if (boolParam(ctx.query, 'archived', false)) {
          // Removing an archived schema for good frees its name.
          const [type] = schemaOr404(ctx.params.objectType!, true)
          types.schemas.delete(type)
          for (const definition of types.definitionsOf(type)) types.associations.delete(definition.id)
          for (const table of [objects.properties.custom, objects.properties.groups]) {
            for (const key of [...table.entries()].map(([k]) => k)) if (key.startsWith(`${type}:`)) table.delete(key)
          }
          return noContent()
        }
        const [type, row] = schemaOr404(ctx.params.objectType!)
        const records = objects.count(type) + objects.count(type, true)
        if (records > 0) {
          throw validationError(`Object type ${type} still has ${records} record(s); delete every record of the type before deleting its schema.`, {
            subCategory: 'ObjectTypeError.OBJECTS_EXIST',
          })
        }
        const iso = new Date(ctx.now).toISOString()
        types.schemas.set(type, { ...row, archived: true, archivedAt: iso, updatedAt: iso })
        return noContent()
      },
    },
    {
      method: 'POST',
      path: `${base}/:objectType/associations`,
      auth: write,
      handler(ctx) {
        const [type] = schemaOr404(ctx.params.objectType!)
        const input = parseInput(associationSchema, ctx.jsonBody())
        const from = otherType(input.fromObjectTypeId)
        const to = otherType(input.toObjectTypeId)
        if (from !== type) throw validationError(`fromObjectTypeId must be the schema's own type ${type}, got ${input.fromObjectTypeId}.`)
        const existing = types.definitionsOf(type).find((d) => d.toObjectTypeId === types.typeIdOf(to) || d.fromObjectTypeId === types.typeIdOf(to))
        if (existing) throw conflict(`An association between ${type} and ${types.typeIdOf(to)} is already defined (id ${existing.id}).`)
        const row = types.defineAssociation(type, to, input.name, new Date(ctx.now).toISOString())
        return json(toAssociationDefinition(row), 201)
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:objectType/associations/:associationIdentifier`,
      auth: write,
      handler(ctx) {
        const [type] = schemaOr404(ctx.params.objectType!)
        const id = ctx.params.associationIdentifier!
        const definition = types.definitionsOf(type).find((d) => d.id === id || d.inverseId === id || d.name === id)
        if (!definition) throw notFound(`Association ${id} is not defined for object type ${type}.`)
        objects.dropAssociationTypes([Number(definition.id), Number(definition.inverseId)])
        types.associations.delete(definition.id)
        return noContent()
      },
    },
  ]
  return [...routesAt('/crm-object-schemas/v3/schemas'), ...routesAt('/crm/v3/schemas')]
}
