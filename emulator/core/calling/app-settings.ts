/**
 * Settings a calling app keeps per app id (the widget settings, recording
 * settings, channel-connection settings), with the developer API key
 * (`?hapikey=`), in the shape every calling-extension settings resource has:
 * POST creates (200, as the real API answers; 409 if they exist), GET reads,
 * PATCH changes the fields sent, DELETE removes (204) where the resource has
 * one; GET, PATCH and DELETE are 404 while there are none. Only the account's
 * developer app has settings: any other appId is 404.
 */
import type { ZodType } from 'zod'
import { ACCOUNT } from '../http/auth.ts'
import type { Table } from '../data/table.ts'
import { conflict, notFound } from '../http/errors.ts'
import { json, noContent, parseInput } from '../http/http.ts'
import type { Route, RouteContext } from '../http/route.ts'

export interface AppSettingsResource<Row extends { createdAt: string; updatedAt: string }, Input> {
  /** e.g. `/crm/v3/extensions/calling/:appId/settings/recording` */
  path: string
  /** What the settings are called in messages: "Recording settings". */
  what: string
  table: Table<Row>
  postSchema: ZodType<Input>
  patchSchema: ZodType<Partial<Input>>
  /** Values of fields a POST leaves out. */
  defaults?: Partial<Row>
  /** The row as the API returns it. */
  toResponse: (row: Row) => unknown
  /** Whether the resource has DELETE (recording settings have none). */
  deletable: boolean
}

/** The app id of the path, if it is the account's app; else 404. */
export function ownAppId(ctx: RouteContext): string {
  const raw = ctx.params.appId!
  if (raw !== String(ACCOUNT.appId)) throw notFound(`No calling app ${raw} in this developer account (its app is ${ACCOUNT.appId}).`)
  return raw
}

export function appSettingsRoutes<Row extends { createdAt: string; updatedAt: string }, Input>(resource: AppSettingsResource<Row, Input>): Route[] {
  const { path, what, table } = resource
  const auth = { kind: 'developer' } as const
  const existing = (ctx: RouteContext): Row => {
    const row = table.get(ownAppId(ctx))
    if (!row) throw notFound(`${what} for app ${ctx.params.appId} do not exist yet; create them with POST.`)
    return row
  }
  const store = (ctx: RouteContext, row: Row): Row => {
    // Parsed so the row has the schema's key order, as a restored snapshot has.
    const parsed = table.schema.parse(row)
    table.set(ownAppId(ctx), parsed)
    return parsed
  }
  const routes: Route[] = [
    {
      method: 'POST',
      path,
      auth,
      handler(ctx) {
        const id = ownAppId(ctx)
        const input = parseInput(resource.postSchema, ctx.jsonBody())
        if (table.has(id)) throw conflict(`${what} for app ${id} already exist; change them with PATCH.`)
        const iso = new Date(ctx.now).toISOString()
        return json(resource.toResponse(store(ctx, { ...resource.defaults, ...input, createdAt: iso, updatedAt: iso } as unknown as Row)))
      },
    },
    {
      method: 'GET',
      path,
      auth,
      handler(ctx) {
        return json(resource.toResponse(existing(ctx)))
      },
    },
    {
      method: 'PATCH',
      path,
      auth,
      handler(ctx) {
        const current = existing(ctx)
        const input = parseInput(resource.patchSchema, ctx.jsonBody())
        return json(resource.toResponse(store(ctx, { ...current, ...input, updatedAt: new Date(ctx.now).toISOString() })))
      },
    },
  ]
  if (resource.deletable) {
    routes.push({
      method: 'DELETE',
      path,
      auth,
      handler(ctx) {
        existing(ctx)
        table.delete(ownAppId(ctx))
        return noContent()
      },
    })
  }
  return routes
}
