/**
 * The v4 association schema API, as `crm.associations.v4.schema` of the
 * official client calls it
 * (https://developers.hubspot.com/docs/api-reference/crm-associations-v4/guide):
 *
 * - labels: `GET | POST | PUT /crm/v4/associations/{from}/{to}/labels`,
 *   `DELETE …/labels/{associationTypeId}` (POST answers 200 with both
 *   directions' types; PUT and DELETE 204);
 * - limits: `GET /crm/v4/associations/definitions/configurations/all` and
 *   `…/{from}/{to}`, `POST …/{from}/{to}/batch/create` (201, or 207),
 *   `batch/update` (200, or 207), `batch/purge` (204);
 * - `POST /crm/v4/associations/usage/high-usage-report/{userId}` (200).
 *
 * The client also calls every one of them under `/crm/associations/v4/…`;
 * the path table (versions.ts) maps that prefix here. The rules are in
 * association-labels.ts.
 */
import { z } from 'zod'
import { notFound, validationError } from '../http/errors.ts'
import { boundedArray, json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import type { Scope } from '../http/auth.ts'
import { ACCOUNT } from '../../../shared/crm/account.ts'
import type { AssociationType } from '../../../shared/crm/association-types.ts'
import { labelledTypesBetween } from './associations-v4.ts'
import { MAX_LABEL_LENGTH } from './association-labels.ts'
import { OBJECT_TYPES, parseObjectType, type BuiltinObjectType as ObjectType } from './object-types.ts'
import { batchResponse, eachInput } from './serialize.ts'

/** Most inputs in one batch of limits. */
export const LIMITS_BATCH_LIMIT = 100

const text = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(MAX_LABEL_LENGTH, `${what} is longer than ${MAX_LABEL_LENGTH} characters`)
const createLabelSchema = z.object({
  label: text('label'),
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,99}$/, 'name must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 100 characters)'),
  inverseLabel: text('inverseLabel').optional(),
})
const updateLabelSchema = z.object({
  associationTypeId: z.number().int(),
  label: text('label'),
  inverseLabel: text('inverseLabel').optional(),
})
const category = z.enum(['HUBSPOT_DEFINED', 'USER_DEFINED'], { message: 'category must be HUBSPOT_DEFINED or USER_DEFINED' })
const limitSchema = z.object({ category, typeId: z.number().int(), maxToObjectIds: z.number().int().min(1, 'maxToObjectIds must be at least 1') })
const limitsSchema = z.object({ inputs: boundedArray(limitSchema, LIMITS_BATCH_LIMIT) })
const purgeSchema = z.object({ inputs: boundedArray(z.object({ category, typeId: z.number().int() }), LIMITS_BATCH_LIMIT) })

function typeParam(raw: string): ObjectType {
  const type = parseObjectType(raw)
  if (!type) throw validationError(`Unable to infer object type from: ${raw}`)
  return type
}

/** The read scopes of both object types named in the path (the real API takes any CRM object scope). */
function pairScopes(params: Readonly<Record<string, string>>): Scope[] {
  return [params.fromObjectType, params.toObjectType]
    .map((raw) => (raw === undefined ? undefined : parseObjectType(raw)))
    .filter((t): t is ObjectType => t !== undefined)
    .map((t) => OBJECT_TYPES[t].readScope)
}

const pairAuth = { kind: 'bearer', scopes: [], scopesOf: pairScopes } as const
/**
 * Routes that name no object type: the real API takes any CRM object scope;
 * the emulator asks for the contacts read scope, which every calling app holds.
 */
const anyObjectAuth = { kind: 'bearer', scopes: [OBJECT_TYPES.contacts.readScope] } as const

/** PublicAssociationDefinitionUserConfiguration. */
function limitView(limit: { category: string; typeId: number; maxToObjectIds: number; label: string | null }) {
  return { category: limit.category, typeId: limit.typeId, userEnforcedMaxToObjectIds: limit.maxToObjectIds, ...(limit.label !== null && { label: limit.label }) }
}

export function associationSchemaRoutes(deps: ServiceDeps): Route[] {
  const { objects } = deps
  const pair = (ctx: RouteContext) => ({ from: typeParam(ctx.params.fromObjectType!), to: typeParam(ctx.params.toObjectType!) })
  /** How many associations use a type (either direction). */
  const uses = (type: AssociationType) => {
    let count = 0
    for (const record of objects.records(type.from)) {
      for (const link of objects.associations(type.from, record.id, type.to)) if (link.typeIds.includes(type.typeId)) count++
    }
    return count
  }
  const base = '/crm/v4/associations'
  const configurations = `${base}/definitions/configurations`
  return [
    {
      method: 'GET',
      path: `${base}/:fromObjectType/:toObjectType/labels`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        return json({ results: labelledTypesBetween(objects, from, to) })
      },
    },
    {
      method: 'POST',
      path: `${base}/:fromObjectType/:toObjectType/labels`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        const input = parseInput(createLabelSchema, ctx.jsonBody())
        const created = objects.labels.create(from, to, input)
        return json({ results: created.map((t) => ({ category: t.category, typeId: t.typeId, label: t.label })) })
      },
    },
    {
      method: 'PUT',
      path: `${base}/:fromObjectType/:toObjectType/labels`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        objects.labels.update(from, to, parseInput(updateLabelSchema, ctx.jsonBody()))
        return noContent()
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:fromObjectType/:toObjectType/labels/:associationTypeId`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        const raw = ctx.params.associationTypeId!
        if (!/^\d{1,9}$/.test(raw)) throw validationError(`associationTypeId must be an integer; got '${raw}'.`)
        objects.labels.remove(from, to, Number(raw), uses)
        return noContent()
      },
    },
    {
      method: 'GET',
      path: `${configurations}/all`,
      auth: anyObjectAuth,
      handler() {
        return json({ results: objects.labels.limits().map(limitView) })
      },
    },
    {
      method: 'GET',
      path: `${configurations}/:fromObjectType/:toObjectType`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        return json({ results: objects.labels.limits(from, to).map(limitView) })
      },
    },
    ...(['create', 'update'] as const).map(
      (mode): Route => ({
        method: 'POST',
        path: `${configurations}/:fromObjectType/:toObjectType/batch/${mode}`,
        auth: pairAuth,
        handler(ctx) {
          const { from, to } = pair(ctx)
          const input = parseInput(limitsSchema, ctx.jsonBody())
          const { results, errors } = eachInput(ctx.db, input.inputs, (item) =>
            limitView(objects.labels.setLimit(mode, from, to, item.category, item.typeId, item.maxToObjectIds)),
          )
          // batch/update answers PublicAssociationDefinitionConfigurationUpdateResult, without the label.
          const shaped = mode === 'update' ? results.map(({ category, typeId, userEnforcedMaxToObjectIds }) => ({ category, typeId, userEnforcedMaxToObjectIds })) : results
          return json(batchResponse(shaped, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : mode === 'create' ? 201 : 200)
        },
      }),
    ),
    {
      method: 'POST',
      path: `${configurations}/:fromObjectType/:toObjectType/batch/purge`,
      auth: pairAuth,
      handler(ctx) {
        const { from, to } = pair(ctx)
        const input = parseInput(purgeSchema, ctx.jsonBody())
        for (const item of input.inputs) objects.labels.purgeLimit(from, to, item.category, item.typeId)
        return noContent()
      },
    },
    {
      method: 'POST',
      path: `${base}/usage/high-usage-report/:userId`,
      auth: anyObjectAuth,
      handler(ctx) {
        const raw = ctx.params.userId!
        if (!/^\d{1,10}$/.test(raw)) throw validationError(`userId must be an integer; got '${raw}'.`)
        if (Number(raw) !== ACCOUNT.userId) throw notFound(`User ${raw} does not exist in this account.`)
        // The real CRM builds the report in the background and e-mails it to the user; the emulator answers alike but builds and sends nothing.
        return json({ userId: ACCOUNT.userId, userEmail: ACCOUNT.userEmail, enqueueTime: new Date(ctx.now).toISOString() })
      },
    },
  ]
}
