/**
 * The objects API's batch endpoints (/crm/v3/objects/{type}/batch/*): up to
 * BATCH_LIMIT inputs, each item all-or-nothing (a failed item leaves no
 * trace), 207 with the errors beside the results when some items fail.
 */
import { ApiError, notFound, validationError } from '../http/errors.ts'
import { boolParam, json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { upperName, type ObjectType } from './object-types.ts'
import { batchResponse, eachInput, toPublicObject, toStandardError, type PropertySelection, type SimplePublicObject, type StandardError } from './serialize.ts'
import { batchReadSchema, batchCreateSchema, batchUpdateSchema, batchArchiveSchema, batchUpsertSchema, toAssociationInputs, checkIdProperty, findRecord, rejectDuplicateIds, routeAuth } from './object-inputs.ts'

/** A type's batch routes: read, create, update, upsert, archive. */
export function batchRoutes(deps: ServiceDeps, objectType: ObjectType, base: string): Route[] {
  const { objects } = deps
  const { read, write } = routeAuth(objectType)

  const batchCreateOrUpdate = (ctx: RouteContext, run: () => { results: SimplePublicObject[]; errors: StandardError[] }, ok: number) => {
    const { results, errors } = run()
    return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : ok)
  }

  return [
    {
      method: 'POST',
      path: `${base}/batch/read`,
      auth: read,
      handler(ctx) {
        const archived = boolParam(ctx.query, 'archived', false)
        const input = parseInput(batchReadSchema, ctx.jsonBody())
        const idProperty = checkIdProperty(objects, objectType, input.idProperty)
        const selection: PropertySelection = {
          ...(input.properties && input.properties.length > 0 && { properties: input.properties }),
          ...(input.propertiesWithHistory && { propertiesWithHistory: input.propertiesWithHistory }),
        }
        const results: SimplePublicObject[] = []
        const seen = new Set<string>()
        const notFoundIds: string[] = []
        for (const { id } of input.inputs) {
          const record = findRecord(objects, objectType, id, idProperty, archived)
          if (!record) {
            if (!notFoundIds.includes(id)) notFoundIds.push(id)
          } else if (!seen.has(record.id)) {
            seen.add(record.id)
            results.push(toPublicObject(objectType, record, selection))
          }
        }
        const errors =
          notFoundIds.length > 0
            ? [
                toStandardError(
                  notFound(`Could not get some ${upperName(objectType)} objects, they may be deleted or not exist. Check that ids are valid.`),
                  { ids: notFoundIds },
                ),
              ]
            : []
        return json(batchResponse(results, errors, ctx.now, deps.now()), errors.length > 0 ? 207 : 200)
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/create`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchCreateSchema, ctx.jsonBody())
        return batchCreateOrUpdate(
          ctx,
          () =>
            eachInput(ctx.db, input.inputs, (item) =>
              toPublicObject(objectType, objects.create(objectType, item.properties, ctx.now, 'API', toAssociationInputs(item)), { all: true }),
            ),
          201,
        )
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/update`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchUpdateSchema, ctx.jsonBody())
        rejectDuplicateIds(input.inputs.map((i) => i.id))
        return batchCreateOrUpdate(
          ctx,
          () => {
            const results: SimplePublicObject[] = []
            const errors: StandardError[] = []
            const notFoundIds: string[] = []
            for (const [index, item] of input.inputs.entries()) {
              try {
                const idProperty = checkIdProperty(objects, objectType, item.idProperty)
                const record = findRecord(objects, objectType, item.id, idProperty, false)
                if (!record) {
                  notFoundIds.push(item.id)
                  continue
                }
                const updated = ctx.db.attempt(() => objects.setProperties(objectType, record.id, item.properties, ctx.now, 'API'))
                results.push(toPublicObject(objectType, updated, { all: true }))
              } catch (error) {
                if (!(error instanceof ApiError)) throw error
                errors.push(toStandardError(error, { inputIndex: [String(index)] }))
              }
            }
            if (notFoundIds.length > 0) {
              errors.unshift(
                toStandardError(notFound(`Could not update some ${upperName(objectType)} objects, they may be deleted or not exist.`), { ids: notFoundIds }),
              )
            }
            return { results, errors }
          },
          200,
        )
      },
    },
    {
      // Update the record whose unique idProperty equals id, or create it (with that value) if there is none.
      method: 'POST',
      path: `${base}/batch/upsert`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchUpsertSchema, ctx.jsonBody())
        for (const item of input.inputs) {
          const idProperty = checkIdProperty(objects, objectType, item.idProperty)
          if (!idProperty) throw validationError('batch/upsert needs an idProperty with unique values; hs_object_id cannot be used to create records.')
        }
        // Duplicates compare in stored form (e-mail addresses in any case are one id).
        rejectDuplicateIds(input.inputs.map((i) => {
          const stored = objects.normalize(objectType, i.idProperty, i.id)
          return stored.ok && stored.value !== null ? stored.value : i.id
        }))
        return batchCreateOrUpdate(
          ctx,
          () => {
            const results: Array<SimplePublicObject & { new: boolean }> = []
            const errors: StandardError[] = []
            for (const [index, item] of input.inputs.entries()) {
              try {
                const existing = objects.findByProperty(objectType, item.idProperty, item.id)
                const record = ctx.db.attempt(() =>
                  existing
                    ? objects.setProperties(objectType, existing.id, item.properties, ctx.now, 'API')
                    : objects.create(objectType, { ...item.properties, [item.idProperty]: item.id }, ctx.now, 'API'),
                )
                results.push({ ...toPublicObject(objectType, record, { all: true }), new: existing === undefined })
              } catch (error) {
                if (!(error instanceof ApiError)) throw error
                errors.push(toStandardError(error, { inputIndex: [String(index)] }))
              }
            }
            return { results, errors }
          },
          200,
        )
      },
    },
    {
      method: 'POST',
      path: `${base}/batch/archive`,
      auth: write,
      handler(ctx) {
        const input = parseInput(batchArchiveSchema, ctx.jsonBody())
        // Like the real API: ids that are not live records are skipped.
        for (const { id } of input.inputs) if (objects.get(objectType, id)) objects.archive(objectType, id, ctx.now)
        return noContent()
      },
    },
  ]
}
