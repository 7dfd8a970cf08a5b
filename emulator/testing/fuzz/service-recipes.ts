/**
 * Recipes of valid requests for the timeline, OAuth and the remaining routes
 * (calling settings and the emulator's own), each making first what it needs
 * (a template, an authorization code).
 */
import { ACCOUNT } from '../../core/http/auth.ts'
import type { Route } from '../../core/http/route.ts'
import { BASE_URL, toRequest, type RequestSpec } from './hostile.ts'
import { callingRecipe } from './calling.ts'
import { type Fixture, REDIRECT_URI, type Recipe, json, form, bearer, PAT, DEV, send, fresh } from './recipe-kit.ts'

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

export function timelineRecipe(route: Route): Recipe {
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

export function oauthRecipe(route: Route): Recipe {
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

export function otherRecipe(route: Route): Recipe | undefined {
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
