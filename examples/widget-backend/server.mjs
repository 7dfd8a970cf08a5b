#!/usr/bin/env node
// The backend half of a calling integration, against Ringside instead of the
// real CRM. It uses the official client, @hubspot/api-client, exactly as it
// would in production; only `basePath` points at Ringside.
//
//   1. OAuth code flow: "Connect" sends the browser to the CRM's consent page;
//      the CRM redirects back to /oauth/callback with a code, which this
//      server exchanges for tokens (server to server) and keeps.
//   2. Refresh: before each use, an access token that expires within a
//      minute is refreshed with the refresh token ("Refresh now" forces it).
//   3. A timeline event on a contact, from a template this app owns (created
//      with the developer API key if it is missing).
//   4. A call engagement for a call that did not start from the CRM page (a
//      desk-phone call), created with POST /crm/v3/objects/calls and
//      associated with the contact in the same request.
//
// Run beside `npm start`:  node examples/widget-backend/server.mjs
// Settings (environment): RINGSIDE_URL (http://127.0.0.1:5173), PORT (3000),
// AUTHORIZE_URL (its /oauth/authorize), CLIENT_ID, CLIENT_SECRET,
// DEVELOPER_API_KEY, APP_ID (Ringside's defaults).
import { createServer } from 'node:http'
import { randomBytes } from 'node:crypto'
import { Client } from '@hubspot/api-client'

const CRM = process.env.RINGSIDE_URL ?? 'http://127.0.0.1:5173'
const PORT = Number(process.env.PORT ?? 3000)
const CLIENT_ID = process.env.CLIENT_ID ?? 'local-client'
const CLIENT_SECRET = process.env.CLIENT_SECRET ?? 'local-secret'
const DEVELOPER_API_KEY = process.env.DEVELOPER_API_KEY ?? 'dev-key-local'
const APP_ID = Number(process.env.APP_ID ?? 1001)
const SELF = `http://127.0.0.1:${PORT}`
// Registered in the app's auth settings: the CRM redirects only to a registered URL, and takes http only on
// localhost (https://developers.hubspot.com/changelog/2018-03-05-oauth2-redirect-uri-served-over-http-localhost).
// A fresh Ringside has http://localhost:3000/oauth/callback registered; with another PORT, register yours
// (`npm start -- --redirect-url http://localhost:<PORT>/oauth/callback`, or Developer → OAuth).
const REDIRECT_URI = `http://localhost:${PORT}/oauth/callback`
const AUTHORIZE_URL = process.env.AUTHORIZE_URL ?? `${CRM}/oauth/authorize` // the CRM's consent page
const SCOPES = ['timeline', 'crm.objects.contacts.read', 'crm.objects.contacts.write']
const CALL_TO_CONTACT = 194 // HUBSPOT_DEFINED association type: call → contact

/** The tokens of the one portal that installed us. A real backend keeps them per portal, in its database. */
let tokens = null
/** OAuth `state` values we issued and have not seen come back yet. */
const pendingStates = new Set()
let lastResult = ''

const oauthClient = new Client({ basePath: CRM })
const developerClient = new Client({ developerApiKey: DEVELOPER_API_KEY, basePath: CRM })

function keep(response) {
  tokens = { accessToken: response.accessToken, refreshToken: response.refreshToken, expiresAt: Date.now() + response.expiresIn * 1000 }
}

/** A client with a fresh access token (refreshed when it expires within a minute, or when forced). */
async function crmClient({ forceRefresh = false } = {}) {
  if (!tokens) throw new Error('Not connected: press Connect first.')
  if (forceRefresh || tokens.expiresAt - Date.now() < 60_000) {
    keep(await oauthClient.oauth.tokensApi.create('refresh_token', undefined, undefined, CLIENT_ID, CLIENT_SECRET, tokens.refreshToken))
  }
  return new Client({ accessToken: tokens.accessToken, basePath: CRM })
}

/** Our timeline event template, created once with the developer API key. */
async function templateId() {
  const name = 'Desk phone call (example backend)'
  const existing = await developerClient.crm.timeline.templatesApi.getAll(APP_ID)
  const found = existing.results.find((t) => t.name === name)
  if (found) return found.id
  const created = await developerClient.crm.timeline.templatesApi.create(APP_ID, {
    name,
    objectType: 'contacts',
    headerTemplate: '{{direction}} desk-phone call with {{number}}',
    detailTemplate: 'Lasted {{seconds}} seconds. Logged by the example widget backend, not from the CRM page.',
    tokens: [
      { name: 'direction', label: 'Direction', type: 'string' },
      { name: 'number', label: 'Number', type: 'string' },
      { name: 'seconds', label: 'Duration (s)', type: 'number' },
    ],
  })
  return created.id
}

/** Steps 3 and 4: the timeline event and the call engagement, both on the contact. */
async function logDeskPhoneCall(contactId) {
  const client = await crmClient()
  const contact = await client.crm.contacts.basicApi.getById(contactId, ['firstname', 'lastname', 'phone'])
  const number = contact.properties.phone ?? 'unknown number'
  const seconds = 95
  const event = await client.crm.timeline.eventsApi.create({
    eventTemplateId: await templateId(),
    objectId: contactId,
    tokens: { direction: 'Inbound', number, seconds: String(seconds) },
  })
  const call = await client.crm.objects.calls.basicApi.create({
    properties: {
      hs_timestamp: new Date().toISOString(),
      hs_call_title: 'Answered on the desk phone',
      hs_call_body: 'Answered on the desk phone; logged by the example backend.',
      hs_call_direction: 'INBOUND',
      hs_call_status: 'COMPLETED',
      hs_call_duration: String(seconds * 1000),
      hs_call_from_number: number,
      hs_call_disposition: 'f240bbac-87c9-4f6e-bf70-924b57d47db7', // "Connected"
    },
    associations: [{ to: { id: contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: CALL_TO_CONTACT }] }],
  })
  return `Logged for ${contact.properties.firstname} ${contact.properties.lastname}: timeline event ${event.id} and call ${call.id}.`
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page() {
  const connect = new URL(AUTHORIZE_URL)
  const state = randomBytes(12).toString('hex')
  pendingStates.add(state)
  connect.search = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: SCOPES.join(' '), state }).toString()
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example widget backend</title></head>
<body style="font: 15px system-ui; max-width: 42rem; margin: 2rem auto">
<h1>Example widget backend</h1>
<p>CRM: <code>${escapeHtml(CRM)}</code></p>
<p role="status" id="connection">${tokens ? `Connected: access token …${escapeHtml(tokens.accessToken.slice(-6))}, expires ${escapeHtml(new Date(tokens.expiresAt).toISOString())}.` : 'Not connected.'}</p>
<p><a href="${escapeHtml(connect.href)}">Connect to the CRM (OAuth)</a></p>
<form method="post" action="/refresh"><button>Refresh the access token now</button></form>
<form method="post" action="/calls">
  <label>Contact id <input name="contactId" value="1" size="6"></label>
  <button>Log a desk-phone call</button>
</form>
<p role="log" id="result">${escapeHtml(lastResult)}</p>
</body></html>`
}

async function readForm(req) {
  let body = ''
  for await (const chunk of req) body += chunk
  return new URLSearchParams(body)
}

function describe(error) {
  const body = error?.body ? ` ${typeof error.body === 'string' ? error.body : JSON.stringify(error.body)}` : ''
  return `${error?.message ?? error}${body}`.slice(0, 500)
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', SELF)
  const back = (result) => {
    lastResult = result
    res.writeHead(303, { location: '/' }).end()
  }
  try {
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page())
    } else if (req.method === 'GET' && url.pathname === '/oauth/callback') {
      const state = url.searchParams.get('state') ?? ''
      if (!pendingStates.delete(state)) return back('Refused a callback whose state we did not issue.')
      if (url.searchParams.has('error')) return back(`The user did not grant access: ${url.searchParams.get('error')}.`)
      // Step 1: exchange the code, server to server.
      keep(await oauthClient.oauth.tokensApi.create('authorization_code', url.searchParams.get('code') ?? '', REDIRECT_URI, CLIENT_ID, CLIENT_SECRET))
      back('Connected: exchanged the code for tokens.')
    } else if (req.method === 'POST' && url.pathname === '/refresh') {
      await crmClient({ forceRefresh: true })
      back('Refreshed the access token.')
    } else if (req.method === 'POST' && url.pathname === '/calls') {
      const contactId = (await readForm(req)).get('contactId') ?? ''
      if (!/^\d+$/.test(contactId)) return back('The contact id must be a number.')
      back(await logDeskPhoneCall(contactId))
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
    }
  } catch (error) {
    back(`Failed: ${describe(error)}`)
  }
})

server.on('error', (error) => {
  console.error(`example backend: ${error.code === 'EADDRINUSE' ? `port ${PORT} is in use (set PORT)` : error.message}`)
  process.exit(1)
})
server.listen(PORT, '127.0.0.1', () => console.log(`Example widget backend on ${SELF}/ (CRM: ${CRM})`))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)))
