/**
 * Timeline API throughput, in Node, through the service's `handle` (routing,
 * auth, body parsing, transaction, validation, association, rendering):
 *
 *   npx vitest bench --run --project node tools/bench/timeline.bench.ts
 *
 * Cases: create one event (201), create + render its header and detail, the
 * renderer alone (Handlebars subset + Markdown) on a typical template, and a
 * batch of 100 events. The database grows while a case runs, as it would in
 * a long harness session.
 */
import { bench, describe } from 'vitest'
import { ACCOUNT } from '../../emulator/core/http/auth.ts'
import { createCrmService } from '../../emulator/core/service.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../shared/crm/redirect-urls.ts'
import { renderTemplate } from '../../emulator/core/timeline/render.ts'

const BASE = 'http://bench.test'
/** A redirect URL a fresh account has registered. */
const REDIRECT_URI = EXAMPLE_BACKEND_REDIRECT_URL

const HEADER = 'Registered for **{{webinar}}** ({{seats}} seats)'
const DETAIL = [
  '### {{webinar}}',
  '',
  'Signed up {{formatDate timestamp format="long"}} from [{{source}}]({{url}}).',
  '',
  '{{#each extraData.sessions}}',
  '- {{@index}}: {{this.title}} {{#if this.live}}(live){{else}}(recorded){{/if}}',
  '{{/each}}',
].join('\n')

async function send(service: ReturnType<typeof createCrmService>, method: string, path: string, init: { json?: unknown; form?: Record<string, string>; bearer?: string } = {}) {
  const headers: Record<string, string> = {}
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`
  let body: string | undefined
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(init.json)
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(init.form).toString()
  }
  const response = await service.handle(new Request(new URL(path, BASE), { method, headers, body }))
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response
}

/**
 * A service with one template and an OAuth token holding the timeline scope.
 * Rate limits are off: this measures the handler, not the 100-per-10-s allowance.
 */
async function setup() {
  const service = createCrmService({ rateLimits: false })
  const template = (await (
    await send(service, 'POST', `/crm/v3/timeline/1001/event-templates?hapikey=${ACCOUNT.developerApiKey}`, {
      json: {
        name: 'Webinar',
        headerTemplate: HEADER,
        detailTemplate: DETAIL,
        tokens: [
          { name: 'webinar', label: 'Webinar', type: 'string' },
          { name: 'seats', label: 'Seats', type: 'number' },
          { name: 'source', label: 'Source', type: 'string' },
          { name: 'url', label: 'URL', type: 'string' },
          { name: 'title', label: 'Title', type: 'string', objectPropertyName: 'jobtitle' },
        ],
      },
    })
  ).json()) as { id: string }
  const decision = (await (
    await send(service, 'POST', '/_ringside/v1/oauth/authorize', {
      json: { client_id: ACCOUNT.clientId, redirect_uri: REDIRECT_URI, scope: 'timeline', decision: 'grant' },
    })
  ).json()) as { code: string }
  const tokens = (await (
    await send(service, 'POST', '/oauth/v1/token', {
      form: { grant_type: 'authorization_code', client_id: ACCOUNT.clientId, client_secret: ACCOUNT.clientSecret, code: decision.code, redirect_uri: REDIRECT_URI },
    })
  ).json()) as { access_token: string }
  return { service, templateId: template.id, bearer: tokens.access_token }
}

const eventBody = (templateId: string, n: number) => ({
  eventTemplateId: templateId,
  objectId: String((n % 9) + 1),
  tokens: { webinar: `Scaling calls #${n}`, seats: n % 50, source: 'newsletter', url: 'https://example.com/webinars?id=42&ref=nl', title: 'VP Sales' },
  extraData: { sessions: [{ title: 'Intro', live: true }, { title: 'Q&A', live: false }] },
})

const ctx = await setup()
let n = 0
/** Long enough to average out the noise of a shared machine. */
const OPTIONS = { time: 2000, warmupTime: 500 }

describe('timeline (Node, through service.handle)', () => {
  bench('create event (POST /crm/v3/timeline/events)', async () => {
    await send(ctx.service, 'POST', '/crm/v3/timeline/events', { bearer: ctx.bearer, json: eventBody(ctx.templateId, n++) })
  }, OPTIONS)

  bench('create event + render header and detail', async () => {
    const created = (await (await send(ctx.service, 'POST', '/crm/v3/timeline/events', { bearer: ctx.bearer, json: eventBody(ctx.templateId, n++) })).json()) as { id: string }
    const path = `/crm/v3/timeline/events/${ctx.templateId}/${created.id}`
    await (await send(ctx.service, 'GET', `${path}/render`, { bearer: ctx.bearer })).text()
    await (await send(ctx.service, 'GET', `${path}/render?detail=true`, { bearer: ctx.bearer })).text()
  }, OPTIONS)

  bench('batch create, 100 events per request', async () => {
    const inputs = Array.from({ length: 100 }, () => eventBody(ctx.templateId, n++))
    await send(ctx.service, 'POST', '/crm/v3/timeline/events/batch/create', { bearer: ctx.bearer, json: { inputs } })
  }, OPTIONS)
})

describe('timeline renderer alone', () => {
  const input = {
    tokens: { webinar: 'Scaling calls', seats: '12', source: 'newsletter', url: 'https://example.com/webinars?id=42&ref=nl' },
    extraData: { sessions: [{ title: 'Intro', live: true }, { title: 'Q&A', live: false }] },
    timestamp: Date.UTC(2026, 0, 15, 12),
  }
  bench('render header + detail (Handlebars subset + Markdown)', () => {
    renderTemplate(HEADER, 'header', input)
    renderTemplate(DETAIL, 'detail', input)
  }, OPTIONS)
})
