/**
 * The properties API (https://developers.hubspot.com/docs/api-reference/crm-properties-v3/guide):
 * read every property of a type, and create, update and archive custom
 * properties and property groups.
 *
 * - `GET    /crm/v3/properties/{type}` (`archived=true`: archived custom ones), `/{name}`
 * - `POST   /crm/v3/properties/{type}` → 201 Property; `PATCH /{name}` → 200; `DELETE /{name}` → 204
 * - `GET|POST /crm/v3/properties/{type}/groups`, `GET|PATCH|DELETE /groups/{groupName}`
 * - `POST /crm/v3/properties/{type}/batch/create` → 201 (207: each input on its
 *   own, a failing one in `errors[]`), `batch/read` → 200 (207 naming the
 *   unknown ones), `batch/archive` → 204 whatever the state of each property,
 *   as the real API documents (HubSpot's own properties are refused)
 *
 * Rules, as in the real API: a name starts with a lower-case letter and holds
 * lower-case letters, digits and `_` (at most 100 characters; `hs_` is
 * HubSpot's prefix); `fieldType` must suit `type`; enumerations need options
 * (booleans get Yes/No when none are sent); a name in use is 409; built-in
 * (HubSpot-defined) properties and groups cannot be changed or archived; the
 * type of a property that holds values cannot change; `hasUniqueValue` is set
 * at creation only. Archiving a custom property removes its values from every
 * record (the real API keeps them 90 days for a restore, which is not emulated).
 * A group that still holds live custom properties cannot be archived.
 */
import { z } from 'zod'
import { conflict, notFound, validationError } from '../http/errors.ts'
import { boolParam, boundedArray, json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { OBJECT_TYPE_NAMES, OBJECT_TYPES, type BuiltinObjectType as ObjectType } from './object-types.ts'
import { batchResponse, eachInput, toStandardError } from './serialize.ts'
import { FIELD_TYPES, PROPERTY_TYPES, type FieldType, type PropertyOption, type PropertyType } from './properties.ts'
import type { CustomPropertyRow } from './property-catalog.ts'

/** Which field types each property type may be shown with. */
const FIELD_TYPES_OF: Record<PropertyType, readonly FieldType[]> = {
  string: ['text', 'textarea', 'html', 'phonenumber'],
  number: ['number'],
  date: ['date'],
  datetime: ['date'],
  enumeration: ['select', 'radio', 'checkbox', 'booleancheckbox'],
  bool: ['booleancheckbox'],
  phone_number: ['phonenumber'],
}

const NAME = /^[a-z][a-z0-9_]*$/
const optionInput = z.object({
  label: z.string().min(1, 'must not be empty').max(3000),
  value: z.string().min(1, 'must not be empty').max(3000),
  displayOrder: z.number().int().optional(),
  hidden: z.boolean().optional(),
  description: z.string().max(3000).optional(),
})
const editable = {
  label: z.string().trim().min(1, 'must not be empty').max(100),
  type: z.enum(PROPERTY_TYPES),
  fieldType: z.enum(FIELD_TYPES),
  groupName: z.string().min(1, 'must not be empty').max(100),
  description: z.string().max(3000).optional(),
  options: boundedArray(optionInput, 5000).optional(),
  displayOrder: z.number().int().optional(),
  hidden: z.boolean().optional(),
  formField: z.boolean().optional(),
}
/** The body of a property create (ObjectTypePropertyCreate of the schemas API takes the same fields). */
export const propertyCreateSchema = z.object({
  name: z.string().max(100, 'must be at most 100 characters').regex(NAME, 'must start with a lower-case letter and hold only a-z, 0-9 and _'),
  ...editable,
  hasUniqueValue: z.boolean().optional(),
  externalOptions: z.boolean().optional(),
})
const createSchema = propertyCreateSchema
const updateSchema = z.object(editable).partial()
/** Most inputs in one batch of properties. */
export const PROPERTY_BATCH_LIMIT = 100
const batchCreateSchema = z.object({ inputs: boundedArray(createSchema, PROPERTY_BATCH_LIMIT) })
const nameInput = z.object({ name: z.string().min(1).max(100) })
const batchReadSchema = z.object({ inputs: boundedArray(nameInput, PROPERTY_BATCH_LIMIT), archived: z.boolean().optional() })
const batchArchiveSchema = z.object({ inputs: boundedArray(nameInput, PROPERTY_BATCH_LIMIT) })
const groupCreateSchema = z.object({
  name: z.string().max(100).regex(NAME, 'must start with a lower-case letter and hold only a-z, 0-9 and _'),
  label: z.string().trim().min(1, 'must not be empty').max(100),
  displayOrder: z.number().int().optional(),
})
const groupUpdateSchema = z.object({ label: groupCreateSchema.shape.label.optional(), displayOrder: z.number().int().optional() })

function toOptions(input: z.infer<typeof optionInput>[] | undefined, type: PropertyType): PropertyOption[] {
  if ((input === undefined || input.length === 0) && type === 'bool') {
    return [
      { label: 'Yes', value: 'true', hidden: false, displayOrder: 0 },
      { label: 'No', value: 'false', hidden: false, displayOrder: 1 },
    ]
  }
  const seen = new Set<string>()
  return (input ?? []).map((o, i) => {
    if (seen.has(o.value)) throw validationError(`Option values must be unique; "${o.value}" is listed twice.`)
    seen.add(o.value)
    return { label: o.label, value: o.value, hidden: o.hidden ?? false, displayOrder: o.displayOrder ?? i, ...(o.description !== undefined && { description: o.description }) }
  })
}

/**
 * A new custom property from a create body, with the real API's rules
 * checked (`hs_` prefix, fieldType for type, options); the caller checks
 * that the name is free and the group exists.
 */
export function newPropertyRow(input: z.infer<typeof propertyCreateSchema>, now: string): CustomPropertyRow {
  if (input.name.startsWith('hs_')) throw validationError(`Property names starting with "hs_" are reserved for HubSpot; got "${input.name}".`)
  const row: CustomPropertyRow = {
    name: input.name,
    label: input.label,
    type: input.type,
    fieldType: input.fieldType,
    groupName: input.groupName,
    description: input.description ?? '',
    options: toOptions(input.options, input.type),
    displayOrder: input.displayOrder ?? -1,
    hidden: input.hidden ?? false,
    hasUniqueValue: input.hasUniqueValue ?? false,
    formField: input.formField ?? false,
    calculated: false,
    externalOptions: input.externalOptions ?? false,
    hubspotDefined: false,
    createdAt: now,
    updatedAt: now,
    archived: false,
    modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
  }
  checkDefinition(row)
  return row
}

/** The cross-field rules of a definition (after create or update). */
function checkDefinition(row: CustomPropertyRow): void {
  if (!FIELD_TYPES_OF[row.type].includes(row.fieldType)) {
    throw validationError(`fieldType "${row.fieldType}" cannot be used with type "${row.type}"; use one of ${FIELD_TYPES_OF[row.type].join(', ')}.`)
  }
  if (row.type === 'enumeration' && !row.externalOptions && row.options.length === 0) {
    throw validationError(`A property of type enumeration needs "options".`)
  }
  if (row.type !== 'enumeration' && row.type !== 'bool' && row.options.length > 0) {
    throw validationError(`Only enumeration and bool properties take "options"; "${row.name}" is of type ${row.type}.`)
  }
}

function propertyRoutes(deps: ServiceDeps, objectType: ObjectType, base: string): Route[] {
  const catalog = deps.objects.properties
  const read = { kind: 'bearer', scopes: [OBJECT_TYPES[objectType].readScope] } as const
  const write = { kind: 'bearer', scopes: [OBJECT_TYPES[objectType].writeScope] } as const
  const iso = (ctx: RouteContext) => new Date(ctx.now).toISOString()
  const groupOr400 = (name: string) => {
    if (!catalog.group(objectType, name)) throw validationError(`Property group "${name}" does not exist for ${objectType}.`)
  }
  const customOr404 = (name: string): CustomPropertyRow => {
    if (catalog.isBuiltin(objectType, name)) {
      throw validationError(`Property "${name}" is defined by HubSpot: its definition is read-only and it cannot be archived.`, {
        subCategory: 'READ_ONLY_DEFINITION',
      })
    }
    const row = catalog.customRow(objectType, name)
    if (!row || row.archived) throw notFound(`Property ${name} does not exist on ${objectType}.`)
    return row
  }
  const groupRoutes: Route[] = [
    {
      method: 'GET',
      path: `${base}/groups`,
      auth: read,
      handler(ctx) {
        return json({ results: catalog.listGroups(objectType, boolParam(ctx.query, 'archived', false)) })
      },
    },
    {
      method: 'POST',
      path: `${base}/groups`,
      auth: write,
      handler(ctx) {
        const input = parseInput(groupCreateSchema, ctx.jsonBody())
        if (catalog.group(objectType, input.name)) throw conflict(`A property group named "${input.name}" already exists for ${objectType}.`)
        const group = { name: input.name, label: input.label, displayOrder: input.displayOrder ?? -1, archived: false }
        catalog.putGroup(objectType, group)
        return json(group, 201)
      },
    },
    {
      method: 'GET',
      path: `${base}/groups/:groupName`,
      auth: read,
      handler(ctx) {
        const group = catalog.group(objectType, ctx.params.groupName!)
        if (!group) throw notFound(`Property group ${ctx.params.groupName} does not exist on ${objectType}.`)
        return json(group)
      },
    },
    {
      method: 'PATCH',
      path: `${base}/groups/:groupName`,
      auth: write,
      handler(ctx) {
        const name = ctx.params.groupName!
        const input = parseInput(groupUpdateSchema, ctx.jsonBody())
        if (catalog.isBuiltinGroup(objectType, name)) throw validationError(`Property group "${name}" is defined by HubSpot and cannot be changed.`)
        const group = catalog.group(objectType, name)
        if (!group) throw notFound(`Property group ${name} does not exist on ${objectType}.`)
        const next = { ...group, ...(input.label !== undefined && { label: input.label }), ...(input.displayOrder !== undefined && { displayOrder: input.displayOrder }) }
        catalog.putGroup(objectType, next)
        return json(next)
      },
    },
    {
      method: 'DELETE',
      path: `${base}/groups/:groupName`,
      auth: write,
      handler(ctx) {
        const name = ctx.params.groupName!
        if (catalog.isBuiltinGroup(objectType, name)) throw validationError(`Property group "${name}" is defined by HubSpot and cannot be archived.`)
        const group = catalog.group(objectType, name)
        if (!group) throw notFound(`Property group ${name} does not exist on ${objectType}.`)
        const members = catalog.list(objectType).filter((p) => p.groupName === name).map((p) => p.name)
        if (members.length > 0) throw validationError(`Property group "${name}" still holds properties: ${members.join(', ')}. Move or archive them first.`)
        catalog.putGroup(objectType, { ...group, archived: true })
        return noContent()
      },
    },
  ]
  const batchRoutes: Route[] = [
    {
      method: 'POST',
      path: `${base}/batch/create`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchCreateSchema, ctx.jsonBody())
        // Each input on its own, with the rules of a single create; a failing one leaves no trace.
        const { results, errors } = eachInput(ctx.db, input.inputs, (item) => create(ctx, item))
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 201)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/read`,
      auth: read,
      handler(ctx) {
        const input = parseInput(batchReadSchema, ctx.jsonBody())
        const archived = input.archived ?? false
        const results: unknown[] = []
        const missing: string[] = []
        for (const { name } of input.inputs) {
          const def = find(name, archived)
          if (def) results.push(def)
          else if (!missing.includes(name)) missing.push(name)
        }
        const errors = missing.map((name) => toStandardError(notFound(`Property ${name} does not exist on ${objectType}.`), { name: [name] }))
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/archive`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchArchiveSchema, ctx.jsonBody())
        // As the real API: 204 whatever the state of each property (live, archived, unknown); HubSpot's own are refused first.
        const builtin = input.inputs.find(({ name }) => catalog.isBuiltin(objectType, name))
        if (builtin) customOr404(builtin.name)
        for (const { name } of input.inputs) {
          const row = catalog.customRow(objectType, name)
          if (row && !row.archived) archive(ctx, row)
        }
        return noContent()
      },
    },
  ]
  function create(ctx: RouteContext, input: z.infer<typeof createSchema>): CustomPropertyRow {
    const row = newPropertyRow(input, iso(ctx))
    if (catalog.definition(objectType, row.name)) throw conflict(`Property named '${row.name}' already exists.`, { context: { name: [row.name] } })
    groupOr400(row.groupName)
    // An archived property of the same name is replaced (its values were removed when it was archived).
    catalog.putCustom(objectType, row)
    return row
  }
  /** A live property (built-in or custom), or an archived custom one. */
  function find(name: string, archived: boolean) {
    const def = archived ? catalog.customRow(objectType, name) : catalog.definition(objectType, name)
    return def && def.archived === archived ? def : undefined
  }
  function archive(ctx: RouteContext, current: CustomPropertyRow): void {
    catalog.putCustom(objectType, { ...current, archived: true, archivedAt: iso(ctx), updatedAt: iso(ctx) })
    deps.objects.dropProperty(objectType, current.name)
  }
  return [
    ...groupRoutes,
    ...batchRoutes,
    {
      method: 'GET',
      path: base,
      auth: read,
      handler(ctx) {
        return json({ results: catalog.list(objectType, boolParam(ctx.query, 'archived', false)) })
      },
    },
    {
      method: 'GET',
      path: `${base}/:propertyName`,
      auth: read,
      handler(ctx) {
        const name = ctx.params.propertyName!
        const def = find(name, boolParam(ctx.query, 'archived', false))
        if (!def) throw notFound(`Property ${name} does not exist on ${objectType}.`)
        return json(def)
      },
    },
    {
      method: 'POST',
      path: base,
      auth: write,
      handler(ctx) {
        return json(create(ctx, parseInput(createSchema, ctx.jsonBody())), 201)
      },
    },
    {
      method: 'PATCH',
      path: `${base}/:propertyName`,
      auth: write,
      handler(ctx) {
        const current = customOr404(ctx.params.propertyName!)
        const input = parseInput(updateSchema, ctx.jsonBody())
        if (input.groupName !== undefined) groupOr400(input.groupName)
        const type = input.type ?? current.type
        if (type !== current.type && deps.objects.isPropertyUsed(objectType, current.name)) {
          throw validationError(`The type of "${current.name}" cannot change from ${current.type} to ${type}: records hold values of it.`)
        }
        const next: CustomPropertyRow = {
          ...current,
          ...(input.label !== undefined && { label: input.label }),
          type,
          fieldType: input.fieldType ?? current.fieldType,
          ...(input.groupName !== undefined && { groupName: input.groupName }),
          ...(input.description !== undefined && { description: input.description }),
          options: input.options !== undefined ? toOptions(input.options, type) : type === current.type ? current.options : toOptions(undefined, type),
          ...(input.displayOrder !== undefined && { displayOrder: input.displayOrder }),
          ...(input.hidden !== undefined && { hidden: input.hidden }),
          ...(input.formField !== undefined && { formField: input.formField }),
          updatedAt: iso(ctx),
        }
        checkDefinition(next)
        catalog.putCustom(objectType, next)
        return json(next)
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:propertyName`,
      auth: write,
      handler(ctx) {
        archive(ctx, customOr404(ctx.params.propertyName!))
        return noContent()
      },
    },
  ]
}

export function propertiesRoutes(deps: ServiceDeps): Route[] {
  return OBJECT_TYPE_NAMES.flatMap((type) =>
    [type, OBJECT_TYPES[type].typeId].flatMap((segment) => propertyRoutes(deps, type, `/crm/v3/properties/${segment}`)),
  )
}
