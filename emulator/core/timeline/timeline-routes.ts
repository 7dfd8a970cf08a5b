/**
 * Timeline API routes, as the real timeline v3 API serves them
 * (https://developers.hubspot.com/docs/api/crm/timeline). The router also serves
 * every path under the current prefix `/integrators/timeline/v3/`.
 *
 * Credentials: templates and tokens take the developer API key (`?hapikey=`);
 * creating events takes only an OAuth access token with the `timeline` scope
 * (developer keys and the private-app token are refused, as by the real
 * API). Reading events (one event, its detail, its render, and the
 * emulator's list) also accepts the private-app token, which the harness
 * uses.
 *
 * Emulator extensions (not in the real API), under `/_ringside/v1/`:
 * - `GET  /_ringside/v1/timeline/events?objectType=&objectId=` (or `?utk=` for
 *   events still waiting for their visitor, or neither for every visible
 *   event; `limit` default 100, max 1000): events with rendered header and
 *   detail HTML, template name, app name and timelineIFrame, newest first.
 * - `POST /_ringside/v1/timeline/preview`: render templates with sample
 *   tokens without creating an event.
 * - `POST /_ringside/v1/utk` `{utk, email | contactId}`: tie a visitor token
 *   to a contact (stands in for the tracking code's identify call).
 */
import { z } from 'zod'
import { ApiError, notFound, validationError, type ErrorBody } from '../http/errors.ts'
import { boundedArray, html, intParam, json, noContent, ownRecord } from '../http/http.ts'
import { DEV_APP } from '../oauth/oauth-app.ts'
import { parseObjectType } from '../objects/object-types.ts'
import type { Route, RouteContext, ServiceDeps } from '../http/route.ts'
import { renderTemplate } from './render.ts'
import {
  eventInputSchema,
  LIMITS,
  parseOr400,
  templateCreateSchema,
  templateUpdateSchema,
  tokenInputSchema,
  tokenUpdateSchema,
} from './schemas.ts'
import { checkTemplateSyntax } from './timeline-checks.ts'
import { eventResponse, templateResponse, TIMELINE_OBJECT_TYPES, tokenResponse, type EventRow, type TimelineObjectType } from './timeline-rows.ts'
import { TimelineStore } from './timeline-store.ts'

const BASE = '/crm/v3/timeline'
const TEMPLATES = `${BASE}/:appId/event-templates`

const developer = { kind: 'developer' } as const
const createEvents = { kind: 'bearer', scopes: ['timeline'], oauthOnly: true } as const
const readEvents = { kind: 'bearer', scopes: ['timeline'] } as const
const none = { kind: 'none' } as const

/** The app of the path; only the emulator's app exists (404 otherwise). */
function appOf(ctx: RouteContext): number {
  const appId = ctx.params.appId as string
  const principalApp = ctx.principal.kind === 'developer' ? ctx.principal.appId : DEV_APP.appId
  if (appId !== String(DEV_APP.appId) || Number(appId) !== principalApp) {
    throw notFound(`App ${appId} does not exist in this developer account; its app id is ${DEV_APP.appId}.`)
  }
  return DEV_APP.appId
}

/** The app whose OAuth token made the request (the private-app token reads as the emulator's app). */
function callerApp(ctx: RouteContext): number {
  return ctx.principal.kind === 'oauth' ? ctx.principal.appId : DEV_APP.appId
}

/** StandardError, the real API's shape of one item of a batch's errors[]. */
function batchError(error: ApiError, index: number, correlationId: string) {
  const body: ErrorBody = error.toBody(correlationId)
  return {
    status: 'error',
    category: body.category,
    ...(body.subCategory !== undefined && { subCategory: body.subCategory }),
    message: body.message,
    context: { ...body.context, inputIndex: [String(index)] },
    errors: body.errors ?? [],
    links: body.links ?? {},
  }
}

const batchSchema = z.strictObject({ inputs: boundedArray(z.unknown(), LIMITS.batchInputs) })

const previewSchema = z.strictObject({
  eventTemplateId: z.union([z.string(), z.number()]).transform(String).optional(),
  headerTemplate: z.string().optional(),
  detailTemplate: z.string().optional(),
  tokens: ownRecord(z.union([z.string(), z.number()]).transform(String)).optional(),
  extraData: z.json().optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
})

const identifySchema = z
  .strictObject({
    utk: z.string().min(1, 'must not be empty'),
    email: z.string().min(1, 'must not be empty').optional(),
    contactId: z.union([z.string().min(1), z.number().int().positive()]).transform(String).optional(),
  })
  .refine((v) => (v.email === undefined) !== (v.contactId === undefined), { message: 'send exactly one of email and contactId' })

export function timelineRoutes(deps: ServiceDeps): Route[] {
  const store = new TimelineStore(deps.db, deps.objects)

  function listed(event: EventRow) {
    const template = store.templateOf(event)
    const rendered = store.render(event)
    return {
      ...eventResponse(event),
      templateName: template?.name ?? '',
      appId: template?.appId ?? DEV_APP.appId,
      appName: DEV_APP.name,
      headerHtml: rendered.header,
      detailHtml: rendered.detail,
    }
  }

  return [
    // ------------------------------------------------------------ templates
    {
      method: 'POST',
      path: TEMPLATES,
      auth: developer,
      handler(ctx) {
        const input = parseOr400(templateCreateSchema, ctx.jsonBody(), 'event template')
        return json(templateResponse(store.createTemplate(appOf(ctx), input, ctx.now)), 201)
      },
    },
    {
      method: 'GET',
      path: TEMPLATES,
      auth: developer,
      handler(ctx) {
        return json({ results: store.templates(appOf(ctx)).map(templateResponse) })
      },
    },
    {
      method: 'GET',
      path: `${TEMPLATES}/:templateId`,
      auth: developer,
      handler(ctx) {
        return json(templateResponse(store.template(appOf(ctx), ctx.params.templateId as string)))
      },
    },
    {
      method: 'PUT',
      path: `${TEMPLATES}/:templateId`,
      auth: developer,
      handler(ctx) {
        const appId = appOf(ctx)
        store.template(appId, ctx.params.templateId as string)
        const input = parseOr400(templateUpdateSchema, ctx.jsonBody(), 'event template update')
        return json(templateResponse(store.updateTemplate(appId, ctx.params.templateId as string, input, ctx.now)))
      },
    },
    {
      method: 'DELETE',
      path: `${TEMPLATES}/:templateId`,
      auth: developer,
      handler(ctx) {
        store.deleteTemplate(appOf(ctx), ctx.params.templateId as string, ctx.now)
        return noContent()
      },
    },
    // --------------------------------------------------------------- tokens
    {
      method: 'POST',
      path: `${TEMPLATES}/:templateId/tokens`,
      auth: developer,
      handler(ctx) {
        const appId = appOf(ctx)
        store.template(appId, ctx.params.templateId as string)
        const input = parseOr400(tokenInputSchema, ctx.jsonBody(), 'token')
        // The real API answers this create with 200, not 201.
        return json(tokenResponse(store.addToken(appId, ctx.params.templateId as string, input, ctx.now)))
      },
    },
    {
      method: 'PUT',
      path: `${TEMPLATES}/:templateId/tokens/:tokenName`,
      auth: developer,
      handler(ctx) {
        const appId = appOf(ctx)
        store.template(appId, ctx.params.templateId as string)
        const input = parseOr400(tokenUpdateSchema, ctx.jsonBody(), 'token update')
        return json(tokenResponse(store.updateToken(appId, ctx.params.templateId as string, ctx.params.tokenName as string, input, ctx.now)))
      },
    },
    {
      method: 'DELETE',
      path: `${TEMPLATES}/:templateId/tokens/:tokenName`,
      auth: developer,
      handler(ctx) {
        store.deleteToken(appOf(ctx), ctx.params.templateId as string, ctx.params.tokenName as string, ctx.now)
        return noContent()
      },
    },
    // --------------------------------------------------------------- events
    {
      method: 'POST',
      path: `${BASE}/events/batch/create`,
      auth: createEvents,
      handler(ctx) {
        const { inputs } = parseOr400(batchSchema, ctx.jsonBody(), 'batch')
        if (inputs.length === 0) throw validationError('inputs must hold at least one event.')
        const startedAt = new Date(ctx.now).toISOString()
        const results: ReturnType<typeof eventResponse>[] = []
        const errors: ReturnType<typeof batchError>[] = []
        const correlationId = crypto.randomUUID()
        inputs.forEach((raw, index) => {
          try {
            const input = parseOr400(eventInputSchema, raw, `inputs[${index}]`)
            results.push(eventResponse(store.createEvent(callerApp(ctx), input, raw, ctx.now)))
          } catch (error) {
            if (!(error instanceof ApiError)) throw error
            errors.push(batchError(error, index, correlationId))
          }
        })
        const body = {
          status: 'COMPLETE',
          results,
          startedAt,
          completedAt: new Date(ctx.now).toISOString(),
          ...(errors.length > 0 && { numErrors: errors.length, errors }),
        }
        return json(body, errors.length > 0 ? 207 : 201)
      },
    },
    {
      method: 'POST',
      path: `${BASE}/events`,
      auth: createEvents,
      handler(ctx) {
        const raw = ctx.jsonBody()
        const input = parseOr400(eventInputSchema, raw, 'event')
        return json(eventResponse(store.createEvent(callerApp(ctx), input, raw, ctx.now)), 201)
      },
    },
    {
      method: 'GET',
      path: `${BASE}/events/:templateId/:eventId`,
      auth: readEvents,
      handler(ctx) {
        return json(eventResponse(store.event(ctx.params.templateId as string, ctx.params.eventId as string)))
      },
    },
    {
      method: 'GET',
      path: `${BASE}/events/:templateId/:eventId/detail`,
      auth: readEvents,
      handler(ctx) {
        const event = store.event(ctx.params.templateId as string, ctx.params.eventId as string)
        return json({ details: store.render(event).detail })
      },
    },
    {
      method: 'GET',
      path: `${BASE}/events/:templateId/:eventId/render`,
      auth: readEvents,
      handler(ctx) {
        const event = store.event(ctx.params.templateId as string, ctx.params.eventId as string)
        const raw = ctx.query.get('detail')
        if (raw !== null && raw !== '' && raw !== 'true' && raw !== 'false') throw validationError(`Query parameter 'detail' must be true or false, got '${raw}'.`)
        const rendered = store.render(event)
        return html(raw === 'true' ? rendered.detail : rendered.header)
      },
    },
    // --------------------------------------------------- emulator extensions
    {
      method: 'GET',
      path: '/_ringside/v1/timeline/events',
      auth: readEvents,
      handler(ctx) {
        const limit = intParam(ctx.query, 'limit', 100, 1, 1000)
        const utk = ctx.query.get('utk')
        const rawType = ctx.query.get('objectType')
        const objectId = ctx.query.get('objectId')
        let events: EventRow[]
        if (utk !== null && utk !== '') {
          events = store.pendingEvents(utk)
        } else if (rawType !== null || objectId !== null) {
          const type = parseObjectType(rawType ?? '')
          if (!type || !(TIMELINE_OBJECT_TYPES as readonly string[]).includes(type)) {
            throw validationError(`objectType must be one of ${TIMELINE_OBJECT_TYPES.join(', ')}; got '${rawType ?? ''}'.`)
          }
          if (!objectId) throw validationError('objectId is required with objectType.')
          events = store.eventsFor(type as TimelineObjectType, objectId)
        } else {
          events = store.allEvents()
        }
        return json({ total: events.length, results: events.slice(0, limit).map(listed) })
      },
    },
    {
      method: 'POST',
      path: '/_ringside/v1/timeline/preview',
      auth: none,
      handler(ctx) {
        const input = parseOr400(previewSchema, ctx.jsonBody(), 'preview')
        const template = input.eventTemplateId !== undefined ? store.template(DEV_APP.appId, input.eventTemplateId) : undefined
        const headerTemplate = input.headerTemplate ?? template?.headerTemplate
        const detailTemplate = input.detailTemplate ?? template?.detailTemplate
        checkTemplateSyntax(headerTemplate, 'headerTemplate')
        checkTemplateSyntax(detailTemplate, 'detailTemplate')
        const tokens = { ...(template ? TimelineStore.sampleTokens(template, ctx.now) : {}), ...input.tokens }
        const data = { tokens, extraData: input.extraData, timestamp: TimelineStore.previewTimestamp(input.timestamp, ctx.now) }
        return json({
          header: renderTemplate(headerTemplate, 'header', data),
          detail: renderTemplate(detailTemplate, 'detail', data),
          tokens,
        })
      },
    },
    {
      method: 'POST',
      path: '/_ringside/v1/utk',
      auth: none,
      handler(ctx) {
        const input = parseOr400(identifySchema, ctx.jsonBody(), 'utk identify request')
        const result = store.identify(input.utk, { contactId: input.contactId, email: input.email }, ctx.now)
        return json({ utk: input.utk, ...result })
      },
    },
  ]
}
