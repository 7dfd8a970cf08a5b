/**
 * The API over real HTTP, as a backend sees it: the server runs on free
 * ports, and the official client (@hubspot/api-client, pointed at it with
 * basePath) drives tickets, contacts, calls, associations, timeline templates
 * and events, OAuth tokens and refresh, and calling settings. Raw fetch
 * checks error bodies, status codes, CORS and the change stream.
 */
import { Client } from '@hubspot/api-client'
import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/calls/index.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { EXAMPLE_BACKEND_REDIRECT_URL } from '../../../shared/crm/redirect-urls.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair, removeScratchDirs, scratchDir } from './support.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const REDIRECT_URI = EXAMPLE_BACKEND_REDIRECT_URL

let server: RingsideServer
let origin: string
let pat: Client
let developer: Client

beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: scratchDir('contract'), pages: 'none', maxChangeStreams: 2 })
  origin = server.url.slice(0, -1)
  pat = new Client({ accessToken: ACCOUNT.privateAppToken, basePath: origin })
  developer = new Client({ developerApiKey: ACCOUNT.developerApiKey, basePath: origin })
})

afterAll(async () => {
  await server?.close()
  removeScratchDirs()
})

/** The error an @hubspot/api-client call rejected with: its HTTP code and parsed body. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await promise
  } catch (error) {
    const e = error as { code?: number; body?: unknown }
    const body = typeof e.body === 'string' ? (JSON.parse(e.body) as Record<string, unknown>) : (e.body as Record<string, unknown>)
    return { code: e.code ?? 0, body }
  }
  throw new Error('expected the call to fail')
}

describe('@hubspot/api-client against the server', { timeout: 20_000 }, () => {
  test('tickets: create, read, page, update, archive', async () => {
    const created = await pat.crm.tickets.basicApi.create({ properties: { subject: 'Over HTTP', hs_pipeline_stage: '1', hs_ticket_priority: 'HIGH' } })
    expect(created.id).toMatch(/^\d+$/)
    expect(created.properties.subject).toBe('Over HTTP')

    const read = await pat.crm.tickets.basicApi.getById(created.id, ['subject', 'hs_ticket_priority'])
    expect(read.properties).toMatchObject({ subject: 'Over HTTP', hs_ticket_priority: 'HIGH' })

    const first = await pat.crm.tickets.basicApi.getPage(1)
    expect(first.results).toHaveLength(1)
    const after = first.paging?.next?.after
    expect(after).toBeTruthy()
    const second = await pat.crm.tickets.basicApi.getPage(1, after)
    expect(second.results[0]?.id).not.toBe(first.results[0]?.id)

    const updated = await pat.crm.tickets.basicApi.update(created.id, { properties: { hs_pipeline_stage: '2' } })
    expect(updated.properties.hs_pipeline_stage).toBe('2')

    await pat.crm.tickets.basicApi.archive(created.id)
    const gone = await failure(pat.crm.tickets.basicApi.getById(created.id))
    expect(gone.code).toBe(404)
    expect(gone.body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' })
    expect(gone.body.correlationId).toMatch(UUID)
  })

  test('contacts: page and search', async () => {
    const page = await pat.crm.contacts.basicApi.getPage(2, undefined, ['email'])
    expect(page.results.length).toBe(2)
    const found = await pat.crm.contacts.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ' as never, value: 'maria.garcia@northwind.example' }] }],
      properties: ['firstname', 'lastname'],
      limit: 10,
      after: '0',
      sorts: [],
    })
    expect(found.total).toBe(1)
    expect(found.results[0]?.properties).toMatchObject({ firstname: 'Maria', lastname: 'Garcia' })
  })

  test('calls: create with an association to a contact, read the association both ways', async () => {
    const call = await pat.crm.objects.calls.basicApi.create({
      properties: { hs_timestamp: new Date().toISOString(), hs_call_title: 'Call from the backend', hs_call_direction: 'OUTBOUND', hs_call_status: 'COMPLETED', hs_call_duration: '42000' },
      associations: [{ to: { id: '1' }, types: [{ associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: 194 }] }],
    })
    expect(call.id).toMatch(/^\d+$/)
    const labels = await pat.crm.associations.v4.schema.definitionsApi.getAll('calls', 'contacts')
    expect(labels.results.map((l) => l.typeId)).toContain(194)
    // The emulator serves association reads on the v3 paths (the v4 object paths are not emulated yet).
    const read = async (from: string, id: string, to: string) => {
      const response = await fetch(`${origin}/crm/v3/objects/${from}/${id}/associations/${to}`, { headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}` } })
      expect(response.status).toBe(200)
      return ((await response.json()) as { results: Array<{ id: string }> }).results.map((r) => r.id)
    }
    expect(await read('calls', call.id, 'contacts')).toContain('1')
    expect(await read('contacts', '1', 'calls')).toContain(call.id)
  })

  test('OAuth: consent decision, code exchange, refresh; the token posts a timeline event on a template made with the developer key', async () => {
    // The consent page's decision, as the browser would send it.
    const consent = async () => {
      const decision = await fetch(`${origin}/_ringside/v1/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: ACCOUNT.clientId, redirect_uri: REDIRECT_URI, scope: 'timeline crm.objects.contacts.read', state: 's1', decision: 'grant' }),
      })
      expect(decision.status).toBe(200)
      const code = new URL(((await decision.json()) as { redirectTo: string }).redirectTo).searchParams.get('code') as string
      expect(code).toBeTruthy()
      return code
    }

    const oauth = new Client({ basePath: origin })
    const reusedCode = await consent()
    const first = await oauth.oauth.tokensApi.create('authorization_code', reusedCode, REDIRECT_URI, ACCOUNT.clientId, ACCOUNT.clientSecret)
    const again = await failure(oauth.oauth.tokensApi.create('authorization_code', reusedCode, REDIRECT_URI, ACCOUNT.clientId, ACCOUNT.clientSecret))
    expect(again.code).toBe(400)
    // The reuse revoked what the code issued (RFC 6749 §4.1.2).
    expect((await failure(oauth.oauth.tokensApi.create('refresh_token', undefined, undefined, ACCOUNT.clientId, ACCOUNT.clientSecret, first.refreshToken))).code).toBe(400)

    const code = await consent()
    const tokens = await oauth.oauth.tokensApi.create('authorization_code', code, REDIRECT_URI, ACCOUNT.clientId, ACCOUNT.clientSecret)
    expect(tokens.tokenType).toBe('bearer')
    expect(tokens.accessToken).toBeTruthy()
    expect(tokens.expiresIn).toBeGreaterThan(0)

    const refreshed = await oauth.oauth.tokensApi.create('refresh_token', undefined, undefined, ACCOUNT.clientId, ACCOUNT.clientSecret, tokens.refreshToken)
    expect(refreshed.accessToken).not.toBe(tokens.accessToken)

    const template = await developer.crm.timeline.templatesApi.create(ACCOUNT.appId, {
      name: 'Call summary',
      objectType: 'contacts',
      headerTemplate: 'Call with {{caller}}',
      detailTemplate: 'Lasted {{seconds}} s',
      tokens: [
        { name: 'caller', label: 'Caller', type: 'string' as never },
        { name: 'seconds', label: 'Seconds', type: 'number' as never },
      ],
    })
    expect(template.id).toBeTruthy()
    const listed = await developer.crm.timeline.templatesApi.getAll(ACCOUNT.appId)
    expect(listed.results.map((t) => t.id)).toContain(template.id)

    const customer = new Client({ accessToken: refreshed.accessToken, basePath: origin })
    const event = await customer.crm.timeline.eventsApi.create({ eventTemplateId: template.id, objectId: '1', tokens: { caller: 'Maria', seconds: '42' } })
    expect(event.id).toBeTruthy()
    const rendered = await customer.crm.timeline.eventsApi.getRenderById(template.id, event.id as string)
    expect(String(rendered)).toContain('Call with Maria')
  })

  test('calling settings: read and update with the developer key', async () => {
    const settings = await developer.crm.extensions.calling.settingsApi.getById(ACCOUNT.appId)
    expect(settings.url).toBe(server.widgetUrl)
    const updated = await developer.crm.extensions.calling.settingsApi.update(ACCOUNT.appId, { name: 'Dialer over HTTP' })
    expect(updated.name).toBe('Dialer over HTTP')
    expect((await developer.crm.extensions.calling.settingsApi.getById(ACCOUNT.appId)).name).toBe('Dialer over HTTP')
  })
})

describe('raw HTTP', { timeout: 20_000 }, () => {
  test('error bodies and status codes are the same as in process', async () => {
    const noToken = await fetch(`${origin}/crm/v3/objects/contacts`)
    expect(noToken.status).toBe(401)
    const body401 = (await noToken.json()) as Record<string, unknown>
    expect(body401).toMatchObject({ status: 'error', category: 'INVALID_AUTHENTICATION' })
    expect(body401.correlationId).toMatch(UUID)
    expect(noToken.headers.get('x-hubspot-correlation-id')).toBe(body401.correlationId)

    const auth = { authorization: `Bearer ${ACCOUNT.privateAppToken}` }
    const unknown = await fetch(`${origin}/crm/v3/no-such-thing`, { headers: auth })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' })

    const badJson = await fetch(`${origin}/crm/v3/objects/tickets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"properties":' })
    expect(badJson.status).toBe(400)
    expect(await badJson.json()).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' })

    const wrongMethod = await fetch(`${origin}/crm/v3/objects/tickets/1`, { method: 'PUT', headers: auth })
    expect(wrongMethod.status).toBe(405)
  })

  test('CORS by default: none, like the real API', async () => {
    const preflight = await fetch(`${origin}/crm/v3/objects/contacts`, {
      method: 'OPTIONS',
      headers: { origin: server.widgetOrigin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const simple = await fetch(`${origin}/crm/v3/objects/contacts`, { headers: { origin: server.widgetOrigin, authorization: `Bearer ${ACCOUNT.privateAppToken}` } })
    expect(simple.status).toBe(200)
    expect(simple.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('with CORS origins given, those origins (and only they) may call from a browser', async () => {
    const other = await startRingside({ port: await freePortPair(), data: null, pages: 'none', corsOrigins: ['http://127.0.0.1:9999'] })
    try {
      const url = `${other.url}crm/v3/objects/contacts`
      const allowed = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:9999', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } })
      expect(allowed.status).toBe(204)
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9999')
      expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization')
      const refused = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' } })
      expect(refused.headers.get('access-control-allow-origin')).toBeNull()
      // The change stream answers CORS as the API does.
      const api = await fetch(url, { headers: { origin: 'http://127.0.0.1:9999', authorization: `Bearer ${ACCOUNT.privateAppToken}` } })
      const stream = new AbortController()
      const changes = await fetch(`${other.url}_ringside/v1/changes`, { headers: { origin: 'http://127.0.0.1:9999' }, signal: stream.signal })
      expect(changes.status).toBe(200)
      for (const header of ['access-control-allow-origin', 'access-control-expose-headers']) expect(changes.headers.get(header)).toBe(api.headers.get(header))
      expect(changes.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9999')
      stream.abort()
      const foreign = await fetch(`${other.url}_ringside/v1/changes`, { headers: { origin: 'http://evil.example' } })
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
      await foreign.body?.cancel()
    } finally {
      await other.close()
    }
  })

  test('the widget origin serves no API', async () => {
    const response = await fetch(`${server.widgetOrigin}/crm/v3/objects/contacts`, { headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}` } })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { message: string }).message).toContain(origin)
  })

  /** Open the change stream; `until` reads it until its text matches. */
  async function openStream(abort: AbortController) {
    const stream = await fetch(`${origin}/_ringside/v1/changes`, { signal: abort.signal })
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    const read = { text: '' }
    const until = async (pattern: RegExp) => {
      while (!pattern.test(read.text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`stream ended: ${read.text}`)
        read.text += decoder.decode(value, { stream: true })
      }
    }
    return { read, until }
  }

  test('the change stream opens at the position GET /_ringside/v1/server tells, and numbers every committed write, from any client', async () => {
    const abort = new AbortController()
    const { changePosition } = (await (await fetch(`${origin}/_ringside/v1/server`)).json()) as { changePosition: { epoch: string; seq: number } }
    const { read, until } = await openStream(abort)
    await until(/event: ready\n[^]*?\n\n/)
    expect(read.text).toContain(`id: ${changePosition.epoch}:${changePosition.seq}\n`)
    expect(read.text).toContain(`"epoch":"${changePosition.epoch}","seq":${changePosition.seq},`)
    await pat.crm.tickets.basicApi.create({ properties: { subject: 'Streamed', hs_pipeline_stage: '1' } })
    const next = changePosition.seq + 1
    await until(new RegExp(`\nid: ${changePosition.epoch}:${next}\ndata: \\{"tables":\\[[^\n]*"crm_tickets"[^\n]*\\],"seq":${next}\\}\n`))
    // A write whose request named its client comes with that name.
    const named = await fetch(`${origin}/crm/v3/objects/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}`, 'content-type': 'application/json', 'x-ringside-client': 'page-7' },
      body: JSON.stringify({ properties: { subject: 'Named', hs_pipeline_stage: '1' } }),
    })
    expect(named.status).toBe(201)
    await until(new RegExp(`"seq":${next + 1},"client":"page-7"`))
    abort.abort()
  })

  test('streams over the cap are refused with a 429 error body naming the cap; a closed one frees its place', async () => {
    const first = new AbortController()
    const second = new AbortController()
    await (await openStream(first)).until(/event: ready/)
    await (await openStream(second)).until(/event: ready/)
    const refused = await fetch(`${origin}/_ringside/v1/changes`)
    expect(refused.status).toBe(429)
    const body = (await refused.json()) as { status: string; message: string; correlationId: string; category: string }
    expect(body).toMatchObject({ status: 'error', category: 'RATE_LIMITS' })
    expect(body.correlationId).toMatch(UUID)
    expect(body.message).toMatch(/already serves 2 change streams, its cap/)
    first.abort()
    // The server hears the abort when the socket closes.
    await expect
      .poll(async () => {
        const again = await fetch(`${origin}/_ringside/v1/changes`)
        const ok = again.ok
        await again.body?.cancel()
        return ok
      })
      .toBe(true)
    second.abort()
  })

  test('a taken port is a one-line error naming the port', async () => {
    await expect(startRingside({ port: server.port, data: null, pages: 'none' })).rejects.toThrow(new RegExp(`^Port ${server.port} on 127\\.0\\.0\\.1 \\(harness and CRM API\\) is already in use`))
  })
})
